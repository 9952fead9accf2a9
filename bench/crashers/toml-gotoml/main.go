// Command toml-gotoml reads a document on standard input and decodes it with
// github.com/pelletier/go-toml/v2 v2.0.0-beta.3, which panics on the crasher (see ../README.md).
package main

import (
	"io"
	"os"

	"github.com/pelletier/go-toml/v2"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v map[string]any
	_ = toml.Unmarshal(b, &v)
}
