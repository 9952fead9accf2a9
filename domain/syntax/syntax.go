// Package syntax reduces inputs as syntax trees: it picks an input's
// language from --split or the file name and gives its reduction passes,
// from package golang (Go, through go/ast and go/types) or package
// treesitter (other languages, through tree-sitter grammars).
package syntax

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/syntax/golang"
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// Syntax is how an input is reduced as a syntax tree: Go through go/ast
// (package golang), other languages through a tree-sitter grammar
// (package treesitter).
type Syntax struct {
	Lang string // "go", or a grammar's name
	// Finish makes a candidate of the token and character passes of
	// auto well-formed text or rejects it: Go candidates are printed as
	// gofmt would (white space makes no difference), and those that do
	// not parse are predicted Unresolved.
	Finish func([]byte) ([]byte, error)
	// Format prints a well-formed text as the language's formatter would
	// (Go: gofmt), or is nil.
	Format func([]byte) ([]byte, error)
	// Passes lists the tree passes of one round over data.
	Passes func(data []byte) ([]decomp.Pass, error)
}

// LangOf picks the language of an input by its file name's extension:
// "go", a tree-sitter grammar's name, or "" for text.
func LangOf(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".go" {
		return "go"
	}
	// A lenient language (HTML) is text to its readers, and reduces as
	// well by lines and characters; its tree is used when asked for.
	if g, err := treesitter.Lookup(treesitter.ByExtension(ext)); err == nil && !g.Lenient {
		return g.Name
	}
	return ""
}

// New prepares lang for data, which must parse without errors.
func New(lang string, data []byte, typeCheck bool) (*Syntax, error) {
	return NewIn(lang, data, typeCheck, nil)
}

// NewIn prepares lang for data, the file tree.Path of a directory whose
// files are tree.Files now (nil: a file on its own). A Go file in a tree
// is type-checked with its package and the tree's packages around it
// (golang.Tree).
func NewIn(lang string, data []byte, typeCheck bool, tree *golang.Tree) (*Syntax, error) {
	if lang == "go" {
		chk, err := golang.NewCheckerIn(data, typeCheck, tree)
		if err != nil {
			return nil, fmt.Errorf("does not parse as Go: %w", err)
		}
		if typeCheck {
			if _, err := chk.Finish(data); err != nil {
				return nil, err
			}
		}
		return &Syntax{Lang: "go", Finish: chk.Finish, Format: chk.Finish,
			Passes: func(d []byte) ([]decomp.Pass, error) { return golang.PassesIn(d, typeCheck, tree) }}, nil
	}
	g, err := treesitter.Lookup(lang)
	if err != nil {
		return nil, err
	}
	if err := g.Check(data); err != nil {
		return nil, err
	}
	return &Syntax{Lang: lang, Passes: g.Passes, Finish: func(b []byte) ([]byte, error) {
		if err := g.Check(b); err != nil {
			return nil, err
		}
		return b, nil
	}}, nil
}
