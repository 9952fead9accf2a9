// Command client decodes a TOML document from standard input and prints
// it, or the decoder's error.
package main

import (
	"fmt"
	"os"

	"github.com/BurntSushi/toml"
)

func main() {
	var v map[string]any
	if _, err := toml.NewDecoder(os.Stdin).Decode(&v); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Printf("%q\n", v)
}
