// Command toml-burntsushi reads a document on standard input and decodes it with
// github.com/BurntSushi/toml v1.0.0, which panics on the crasher (see ../README.md).
package main

import (
	"io"
	"os"

	"github.com/BurntSushi/toml"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	_, _ = toml.Decode(string(b), &v)
}
