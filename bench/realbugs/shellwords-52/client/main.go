// Command client splits its argument into words as a shell would and
// prints each word quoted.
package main

import (
	"fmt"
	"os"

	"github.com/mattn/go-shellwords"
)

func main() {
	words, err := shellwords.Parse(os.Args[1])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	for _, w := range words {
		fmt.Printf("%q\n", w)
	}
}
