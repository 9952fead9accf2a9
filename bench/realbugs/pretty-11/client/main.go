// Command client pretty-prints the JSON document on standard input with
// pretty.Pretty and prints the result quoted, so that spaces at the ends
// of lines show.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tidwall/pretty"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Printf("%q\n", pretty.Pretty(in))
}
