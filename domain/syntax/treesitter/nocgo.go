//go:build !cgo

package treesitter

import (
	"fmt"

	"github.com/wynot/wynot/domain/syntax"
)

// Without cgo there are no grammars: their languages are absent from
// the table of package syntax, which says so of their files.
func init() {
	for _, a := range builtins {
		a.Why = NoCgo
		syntax.RegisterAbsent(a)
	}
}

// Names lists the grammars, for --split tree:LANG: none without cgo.
func Names() []string { return nil }

// Known says why there is no grammar called name: without cgo there
// is none.
func Known(name string) error {
	instead := "--split auto reduces its files as text"
	if name == "go" {
		instead = "--split go reduces Go through go/ast"
	}
	return fmt.Errorf("no grammar for %q: %s; %s", name, NoCgo, instead)
}
