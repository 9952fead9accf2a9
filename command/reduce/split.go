package reduce

import (
	"fmt"
	"strings"

	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/treesitter"
	"github.com/wynot/wynot/internal/enum"
)

// SplitKind is how inputs are cut: the values of --split.
type SplitKind int

// The kinds of split.
const (
	Auto     SplitKind = iota // by the input's language where it has one, else Text
	Text                      // lines, bracket groups, tokens, characters
	Go                        // as Go syntax trees
	Tree                      // as the syntax trees of a tree-sitter grammar
	Lines                     // lines only
	Brackets                  // bracket groups only
	Tokens                    // tokens only
	Runes                     // characters only
	Bytes                     // bytes only
)

var splitNames = []string{"auto", "text", "go", "tree:LANG", "lines", "brackets", "tokens", "runes", "bytes"}

func (k SplitKind) String() string { return enum.Name(splitNames, k, "SplitKind") }

// Split is a value of --split: a kind, and for Tree the grammar's name.
type Split struct {
	Kind SplitKind
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
		if _, err := treesitter.Lookup(lang); err != nil {
			return err
		}
		*sp = Split{Tree, lang}
		return nil
	}
	k, err := enum.Parse[SplitKind](splitNames, string(b))
	if err != nil || k == Tree {
		return fmt.Errorf("want one of %s, or tree:LANG with LANG one of %s", strings.Join(splitNames[:3], ", ")+", "+strings.Join(splitNames[4:], ", "),
			strings.Join(treesitter.Names(), ", "))
	}
	*sp = Split{Kind: k}
	return nil
}

// syntactic tells whether the split names a syntax: go or tree:LANG.
func (sp Split) syntactic() bool { return sp.Kind == Go || sp.Kind == Tree }

// lang is the language an input called name is reduced in ("" for none):
// the one the split names, or under auto the one its extension says.
func (sp Split) lang(name string) string {
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

// rungs are the rungs of the text ladder a split takes: one for a
// single kind of piece; for auto, besides the deletions, replacements
// (smaller alternatives for the words, numbers, strings and bracket
// groups of text in no known language).
func (sp Split) rungs() schedule.Rungs {
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
		return schedule.Deletions | schedule.Replacements
	}
	return schedule.Deletions
}
