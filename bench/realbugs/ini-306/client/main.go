// Command client parses an INI file from standard input with nested values
// allowed, and prints each section, its keys and their values, quoted, and
// each key's nested values, or the parser's error.
package main

import (
	"fmt"
	"io"
	"os"

	"gopkg.in/ini.v1"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	f, err := ini.LoadSources(ini.LoadOptions{AllowNestedValues: true}, data)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	for _, s := range f.Sections() {
		fmt.Printf("[%s]\n", s.Name())
		for _, k := range s.Keys() {
			fmt.Printf("%s=%q", k.Name(), k.String())
			if nv := k.NestedValues(); len(nv) > 0 {
				fmt.Printf(" nested=%q", nv)
			}
			fmt.Println()
		}
	}
}
