package sql

import (
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// absent is SQL as a wynot built without cgo knows it (syntax.Absent):
// its grammar needs cgo. TestAbsent keeps it as Grammar is.
var absent = syntax.Absent{Name: "sql", Title: "SQL", Exts: []string{".sql"}, Why: treesitter.NoCgo}
