// Command hcl-v1 reads a document on standard input and decodes it with
// github.com/hashicorp/hcl v1.0.0, which panics on the crasher (see ../README.md).
package main

import (
	"io"
	"os"

	"github.com/hashicorp/hcl"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var v any
	_ = hcl.Unmarshal(b, &v)
}
