// Command client decodes a URL-encoded string (the first argument) with
// the library's DecodeURLEncoded and prints the result, quoted, or its error.
package main

import (
	"fmt"
	"os"

	strutils "github.com/torden/go-strutil"
)

func main() {
	strproc := strutils.NewStringProc()
	out, err := strproc.DecodeURLEncoded(os.Args[1])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Printf("%q\n", out)
}
