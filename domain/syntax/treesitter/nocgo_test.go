//go:build !cgo

package treesitter

import (
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax"
)

// TestNoCgo: without cgo there is no grammar, --split tree:LANG is
// refused with the reason, and the languages of the built-in grammars
// are absent from syntax's table, for that reason.
func TestNoCgo(t *testing.T) {
	if ns := Names(); len(ns) != 0 {
		t.Errorf("grammars %v", ns)
	}
	for _, name := range []string{"c", "go", "cobol"} {
		if err := Known(name); err == nil || !strings.Contains(err.Error(), NoCgo) {
			t.Errorf("Known(%s): %v", name, err)
		}
	}
	for _, b := range builtins {
		if _, err := syntax.Lookup(b.Name); err == nil {
			t.Errorf("%s is in the table", b.Name)
		}
	}
	a, ok := syntax.AbsentOf("src/bug.c")
	if !ok || a.Name != "c" || a.Why != NoCgo {
		t.Errorf("bug.c: absent %+v, %v", a, ok)
	}
	if a, ok := syntax.AbsentOf("page.html"); ok {
		t.Errorf("page.html: absent %+v: HTML is text unless asked for", a)
	}
}
