//go:build cgo

package treesitter

import (
	"path/filepath"

	"github.com/wynot/wynot/domain/syntax"
)

// Language is a grammar as a language of package syntax: its passes are
// the grammar's, its candidates must parse, it predicts nothing beyond
// parsing, and in a tree each of its files is reduced on its own.
type Language struct{ G *Grammar }

// Every built-in grammar is a language of the table but Go's, whose
// files package golang reduces (--split tree:go reduces them there
// too); a grammar added by another package (Add) is registered there.
func init() {
	for _, g := range grammars {
		if g.Name != "go" {
			syntax.Register(Language{g})
		}
	}
}

// Name is the grammar's name.
func (l Language) Name() string { return l.G.Name }

// Match says whether a file is in the language by its extension; a
// lenient language (HTML) is text to its readers, and reduces as well by
// lines and characters: its tree is used when asked for.
func (l Language) Match(name string) bool {
	return !l.G.Lenient && ByExtension(filepath.Ext(name)) == l.G.Name
}

// Open prepares data, which must parse.
func (l Language) Open(data []byte, _ bool) (*syntax.Syntax, error) {
	g := l.G
	if err := g.Check(data); err != nil {
		return nil, err
	}
	return &syntax.Syntax{Lang: g.Name, Passes: g.Passes, Finish: g.Finish}, nil
}

// Predicts nothing beyond parsing.
func (Language) Predicts(error) (syntax.Prediction, bool) { return syntax.Prediction{}, false }

// Untested is empty: nothing is predicted beyond parsing.
func (Language) Untested([]string, []syntax.Unit) string { return "" }

// Tree is nil: in a tree, each file is reduced on its own.
func (Language) Tree(syntax.Dir) (syntax.Tree, []string) { return nil, nil }
