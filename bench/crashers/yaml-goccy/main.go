// Command yaml-goccy reads a document on standard input and decodes it with
// github.com/goccy/go-yaml v1.11.3, which panics on the crasher (see ../README.md).
package main

import (
	"io"
	"os"

	"github.com/goccy/go-yaml"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	_ = yaml.Unmarshal(b, &v)
}
