//go:build !cgo

package sql

import (
	"testing"

	"github.com/wynot/wynot/domain/syntax"
)

// TestNoCgo: without cgo, SQL is absent from the table, and a script's
// file says so.
func TestNoCgo(t *testing.T) {
	if l, err := syntax.Lookup("sql"); err == nil {
		t.Errorf("sql is in the table: %T", l)
	}
	if a, ok := syntax.AbsentOf("schema.SQL"); !ok || a.Note() != "SQL is reduced as text: this wynot was built without cgo, which the tree-sitter grammars need" {
		t.Errorf("schema.SQL: absent %+v, %v", a, ok)
	}
}
