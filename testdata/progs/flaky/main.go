// Flaky is a test whose answer flips: it fails (as a Go panic) when the
// file named by its argument holds both "foo" and "bar", except that with
// probability $FLAKY_P (default 0.1) it answers the other way.
package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	p := 0.1
	if v, err := strconv.ParseFloat(os.Getenv("FLAKY_P"), 64); err == nil {
		p = v
	}
	fails := bytes.Contains(data, []byte("foo")) && bytes.Contains(data, []byte("bar"))
	if rand.Float64() < p {
		fails = !fails
	}
	if fails {
		fmt.Fprint(os.Stderr, "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/flaky/main.go:30 +0x1d\n")
		os.Exit(2)
	}
}
