// Package split holds the ways wynot reduce cuts its inputs (the values
// of --split): by the syntax of a language, or by the rungs of the text
// ladder (package schedule), and what each calls the finest pieces of
// a result.
package split

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/treesitter"
	"github.com/wynot/wynot/internal/enum"
)

// Kind is how inputs are cut.
type Kind int

// The kinds of split.
const (
	Auto     Kind = iota // by the input's language where it has one, else Text
	Text                 // lines, bracket groups, tokens, characters
	Go                   // as Go syntax trees
	Tree                 // as the syntax trees of a tree-sitter grammar
	Lines                // lines only
	Brackets             // bracket groups only
	Tokens               // tokens only
	Runes                // characters only
	Bytes                // bytes only
)

var names = []string{"auto", "text", "go", "tree:LANG", "lines", "brackets", "tokens", "runes", "bytes"}

func (k Kind) String() string { return enum.Name(names, k, "split.Kind") }

// Split is a value of --split: a kind, and for Tree the grammar's name.
type Split struct {
	Kind Kind
	Lang string // with Tree: the grammar (treesitter.Names)
}

func (sp Split) String() string {
	if sp.Kind == Tree {
		return "tree:" + sp.Lang
	}
	return sp.Kind.String()
}

// MarshalText returns the split as --split names it.
func (sp Split) MarshalText() ([]byte, error) { return []byte(sp.String()), nil }

// UnmarshalText reads a split as --split names it.
func (sp *Split) UnmarshalText(b []byte) error {
	if lang, ok := strings.CutPrefix(string(b), "tree:"); ok {
		if err := treesitter.Known(lang); err != nil {
			return err
		}
		*sp = Split{Tree, lang}
		return nil
	}
	k, err := enum.Parse[Kind](names, string(b))
	if err != nil || k == Tree {
		want := strings.Join(names[:3], ", ") + ", " + strings.Join(names[4:], ", ")
		if len(treesitter.Names()) == 0 {
			return fmt.Errorf("want one of %s (no tree:LANG: %s)", want, treesitter.NoCgo)
		}
		return fmt.Errorf("want one of %s, or tree:LANG with LANG one of %s", want, strings.Join(treesitter.Names(), ", "))
	}
	*sp = Split{Kind: k}
	return nil
}

// Syntactic tells whether the split names a syntax: go or tree:LANG.
func (sp Split) Syntactic() bool { return sp.Kind == Go || sp.Kind == Tree }

// LangOf is the language an input called name is reduced in ("" for none):
// the one the split names, or under auto the one its extension says.
func (sp Split) LangOf(name string) string {
	switch sp.Kind {
	case Go:
		return "go"
	case Tree:
		return sp.Lang
	case Auto:
		return syntax.LangOf(name)
	}
	return ""
}

// Absent is the language this wynot lacks (syntax.Absent) that an
// input or a tree's file called name would be reduced in under auto:
// it is reduced as text instead.
func (sp Split) Absent(name string) (syntax.Absent, bool) {
	if sp.Kind != Auto {
		return syntax.Absent{}, false
	}
	return syntax.AbsentOf(name)
}

// TreeLangOf is the language a file of a directory is reduced in: under
// auto the one its extension says; under go or tree:LANG that one, for
// the files whose extension says it (the other files are text).
func (sp Split) TreeLangOf(rel string) string {
	ext := syntax.LangOf(rel)
	switch sp.Kind {
	case Auto:
		return ext
	case Go:
		if ext == "go" {
			return "go"
		}
	case Tree:
		if ext == sp.Lang || sp.Lang == "html" && strings.HasSuffix(rel, ".html") {
			return sp.Lang
		}
	}
	return ""
}

// Rungs are the rungs of the text ladder a split takes: one for a
// single kind of piece; for auto, besides the deletions, replacements
// (smaller alternatives for the words, numbers, strings and bracket
// groups of text in no known language).
func (sp Split) Rungs() schedule.Rungs {
	switch sp.Kind {
	case Lines:
		return schedule.Lines
	case Tokens:
		return schedule.Tokens
	case Runes:
		return schedule.Runes
	case Bytes:
		return schedule.Bytes
	case Brackets:
		return schedule.Brackets
	case Auto:
		return schedule.Deletions | schedule.Replacements | schedule.Smaller
	}
	return schedule.Deletions
}

// The finest pieces a split cuts text into, as results name them.
const (
	transformations = "syntax tree transformations"
	lines           = "lines"
	tokens          = "tokens"
	bytes           = "bytes"
	brackets        = "bracket groups"
	characters      = "characters"
)

// Granularity names the finest pieces the split cuts texts into: under
// text and auto, characters, or bytes when one of the texts is not
// UTF-8.
func (sp Split) Granularity(texts [][]byte) string {
	switch sp.Kind {
	case Go, Tree:
		return transformations
	case Lines:
		return lines
	case Tokens:
		return tokens
	case Bytes:
		return bytes
	case Brackets:
		return brackets
	case Runes:
		return characters
	}
	for _, t := range texts {
		if !utf8.Valid(t) {
			return bytes
		}
	}
	return characters
}

// Count counts the pieces of data at a granularity Granularity named
// (tokens for syntax tree transformations).
func Count(granularity string, data []byte) int {
	var sp decomp.Splitter
	switch granularity {
	case transformations, tokens:
		sp = decomp.Tokens{}
	case lines:
		sp = decomp.Lines{}
	case bytes:
		sp = decomp.Bytes{}
	case brackets:
		sp = decomp.Brackets{}
	default:
		sp = decomp.Chars(data)
	}
	return decomp.Count(sp, data)
}

// Passes lists the passes of one round over an input holding data: the
// tree passes of an input in a language (syn; none when withTree is
// false, and none for text), and the text passes: for auto, coarse to
// fine, lines, bracket groups (whole, then contents) at each depth (in
// nested text the whole groups before the lines, and the groups
// unwrapped after them; in indented text the outermost indented blocks
// before the lines: schedule.Ladder),
// tokens, and characters (bytes for input that is not UTF-8), then
// replacements (decomp.Replacements), each candidate checked by finish
// when it is given; for an input in a language only tokens and
// characters, and only where they leave it parsing (syn.Finish).
func (sp Split) Passes(syn *syntax.Syntax, data []byte, withTree bool, finish func([]byte) ([]byte, error)) (tree, text []decomp.Pass, err error) {
	if syn == nil {
		return nil, schedule.Ladder{Rungs: sp.Rungs(), Finish: finish}.Passes(data), nil
	}
	// The input parses: the original was checked, and every candidate
	// since was finished by the language.
	if withTree {
		if tree, err = syn.Passes(data); err != nil {
			return nil, nil, err
		}
	}
	if sp.Kind == Auto {
		l := schedule.Ladder{Rungs: schedule.Tokens | schedule.Chars | schedule.Smaller, Finish: syn.Finish}
		if !syn.Renames {
			// Go's tree passes shorten names already; in the
			// tree-sitter languages, the replacements do (an identifier
			// at every occurrence, a number by 0 or 1, a string emptied,
			// a group by its first element), each candidate checked to
			// parse.
			l.Rungs |= schedule.Replacements
		}
		text = l.Passes(data)
	}
	return tree, text, nil
}
