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

// runtimeSource is the runtime package for a program's elements: their
// number, and where each is, for the message of a run that leaves the
// reference trace.
func runtimeSource(stmts []Stmt) []byte {
	var where bytes.Buffer
	where.WriteString("var where = [...]string{\"\"")
	for _, s := range stmts {
		fmt.Fprintf(&where, ", %q", fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	where.WriteString("}")
	src := bytes.Replace(runtimeTemplate, []byte("const elements = 0"), fmt.Appendf(nil, "const elements = %d", len(stmts)), 1)
	return bytes.Replace(src, []byte(`var where = [...]string{""}`), where.Bytes(), 1)
}
