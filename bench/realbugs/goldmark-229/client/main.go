// Command client converts Markdown from standard input to HTML with
// goldmark's default (CommonMark) settings and prints the HTML, or the
// converter's error.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/yuin/goldmark"
)

func main() {
	src, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	var buf bytes.Buffer
	if err := goldmark.Convert(src, &buf); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Print(buf.String())
}
