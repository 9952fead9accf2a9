package instrument

import (
	"bytes"
	_ "embed"
	"fmt"
)

// runtimeTemplate is the runtime package the instrumented files import.
// It is kept as a Go file of its own (testdata/runtime.go.txt would not
// be compiled by go vet), with the number of elements filled in.
//
//go:embed rt.go.txt
var runtimeTemplate []byte

// runtimeSource is the runtime package for a program of n elements.
func runtimeSource(n int) []byte {
	return bytes.Replace(runtimeTemplate, []byte("const elements = 0"), fmt.Appendf(nil, "const elements = %d", n), 1)
}
