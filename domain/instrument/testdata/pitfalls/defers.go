package main

import (
	"bufio"
	"fmt"
	"os"
)

func safe(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint("recovered: ", r)
		}
	}()
	f()
	return "fine"
}

func main() {
	fmt.Println(safe(func() { panic("boom") }))
	fmt.Println(safe(func() {}))
	for i := 0; i < 3; i++ {
		defer fmt.Println("deferred", i)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush() // never runs: os.Exit skips deferred calls
	fmt.Fprintln(w, "lost in the buffer")
	fmt.Println("exiting")
	os.Exit(3)
}
