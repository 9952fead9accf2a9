package inputs

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/decomp"
	"github.com/wynot/wynot/goast"
	"github.com/wynot/wynot/grammar"
)

// syntax is how an input is reduced as a syntax tree: Go through go/ast,
// other languages through a tree-sitter grammar.
type syntax struct {
	lang string // "go", or a grammar's name
	// finish makes a candidate of the token and character passes of
	// auto well-formed text or rejects it: Go candidates are printed as
	// gofmt would (white space makes no difference), and those that do
	// not parse are predicted Unresolved.
	finish func([]byte) ([]byte, error)
	// format prints a well-formed text as the language's formatter would
	// (Go: gofmt), or is nil.
	format func([]byte) ([]byte, error)
	// passes lists the tree passes of one round over data.
	passes func(data []byte) ([]decomp.Pass, error)
}

// syntaxSplit tells whether split names a syntax: "go" or "tree:LANG".
func syntaxSplit(split string) bool {
	return split == "go" || strings.HasPrefix(split, "tree:")
}

// langOf picks the syntax of an input for split: the one split names, or
// under auto the one its file name's extension says ("" for none).
func langOf(split, name string) string {
	switch {
	case split == "go":
		return "go"
	case strings.HasPrefix(split, "tree:"):
		return strings.TrimPrefix(split, "tree:")
	case split != "auto":
		return ""
	}
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".go" {
		return "go"
	}
	// A lenient language (HTML) is text to its readers, and reduces as
	// well by lines and characters; its tree is used when asked for.
	if g, err := grammar.Lookup(grammar.ByExtension(ext)); err == nil && !g.Lenient {
		return g.Name
	}
	return ""
}

// newSyntax prepares lang for data, which must parse without errors.
func newSyntax(lang string, data []byte, typeCheck bool) (*syntax, error) {
	if lang == "go" {
		chk, err := goast.NewChecker(data, typeCheck)
		if err != nil {
			return nil, fmt.Errorf("does not parse as Go: %w", err)
		}
		if typeCheck {
			if _, err := chk.Finish(data); err != nil {
				return nil, err
			}
		}
		return &syntax{lang: "go", finish: chk.Finish, format: chk.Finish,
			passes: func(d []byte) ([]decomp.Pass, error) { return goast.Passes(d, typeCheck) }}, nil
	}
	g, err := grammar.Lookup(lang)
	if err != nil {
		return nil, err
	}
	if err := g.Check(data); err != nil {
		return nil, err
	}
	return &syntax{lang: lang, passes: g.Passes, finish: func(b []byte) ([]byte, error) {
		if err := g.Check(b); err != nil {
			return nil, err
		}
		return b, nil
	}}, nil
}
