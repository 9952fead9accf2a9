// Slow fails like mystery ("(" before ")"), but first writes its process
// id into the directory $PIDDIR (if set) and sleeps $SLEEP (default
// 100ms), so that tests can interrupt a reduction while tests run and
// check that none of them survives. With $HANG set, it never ends on
// inputs holding a "(" but no ")".
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func main() {
	if dir := os.Getenv("PIDDIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, fmt.Sprint(os.Getpid())), nil, 0o644)
	}
	d, err := time.ParseDuration(os.Getenv("SLEEP"))
	if err != nil {
		d = 100 * time.Millisecond
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if os.Getenv("HANG") != "" && bytes.IndexByte(data, '(') >= 0 && bytes.IndexByte(data, ')') < 0 {
		time.Sleep(time.Hour)
	}
	time.Sleep(d)
	x, y := bytes.IndexByte(data, '('), bytes.IndexByte(data, ')')
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}
