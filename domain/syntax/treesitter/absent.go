package treesitter

import "github.com/wynot/wynot/domain/syntax"

// NoCgo says why a wynot built without cgo (CGO_ENABLED=0) has no
// grammars: tree-sitter is C, linked through cgo.
const NoCgo = "this wynot was built without cgo, which the tree-sitter grammars need"

// builtins are the languages of the built-in grammars as a wynot built
// without cgo knows them (syntax.Absent): by name, title and the
// extensions --split auto picks them by (none for HTML, which is text
// unless asked for). Go's grammar is no language of the table (package
// golang reduces Go). TestAbsent keeps them as the grammars are.
var builtins = []syntax.Absent{
	{Name: "c", Title: "C", Exts: []string{".c", ".h"}},
	{Name: "javascript", Title: "JavaScript", Exts: []string{".js", ".mjs", ".cjs"}},
	{Name: "python", Title: "Python", Exts: []string{".py"}},
	{Name: "html", Title: "HTML"},
	{Name: "json", Title: "JSON", Exts: []string{".json"}},
	{Name: "cpp", Title: "C++", Exts: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++"}},
	{Name: "rust", Title: "Rust", Exts: []string{".rs"}},
	{Name: "java", Title: "Java", Exts: []string{".java"}},
	{Name: "typescript", Title: "TypeScript", Exts: []string{".ts", ".mts", ".cts"}},
	{Name: "tsx", Title: "TSX", Exts: []string{".tsx"}},
}
