// Mystery fails iff its input holds a "(" before a later ")", like the
// mystery() function of The Debugging Book. It reads the file named by its
// argument, or standard input.
package main

import (
	"bytes"
	"io"
	"os"
)

func main() {
	var data []byte
	var err error
	if len(os.Args) > 1 {
		data, err = os.ReadFile(os.Args[1])
	} else {
		data, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	mystery(data)
}

func mystery(inp []byte) {
	x := bytes.IndexByte(inp, '(')
	y := bytes.IndexByte(inp, ')')
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}
