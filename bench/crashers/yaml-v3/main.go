// Command yaml-v3 reads a document on standard input and decodes it with
// gopkg.in/yaml.v3 v3.0.1, which panics on the crasher (see ../README.md).
package main

import (
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	_ = yaml.Unmarshal(b, &v)
}
