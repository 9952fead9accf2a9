package schedule

import (
	"github.com/wynot/wynot/domain/decomp"
)

// Rungs are the steps of the text ladder, a set of them.
type Rungs uint

// The rungs, coarse to fine; a ladder runs those it has in this order,
// but that in nested text (decomp.Nested) it runs the whole bracket
// groups before the lines, and after the lines the groups unwrapped
// (decomp.Unwrap) when it has both; in indented text (decomp.Indented)
// with both, the outermost indented blocks (decomp.Blocks) before the
// lines.
const (
	Lines        Rungs = 1 << iota // lines
	Brackets                       // bracket groups at each depth, whole, then their contents at each depth
	Tokens                         // tokens
	Chars                          // characters: runes, or bytes for text that is not UTF-8
	Runes                          // runes, always (a text that is not UTF-8 cannot be cut)
	Bytes                          // bytes, always
	Replacements                   // smaller alternatives for words, numbers, strings and bracket groups
	Smaller                        // in a small text, names merged (decomp.MergeNames), letters and digits by 0, 1, A or a (decomp.SmallerChars)
)

// Deletions are the rungs that delete: lines, bracket groups, tokens,
// characters.
const Deletions = Lines | Brackets | Tokens | Chars

// Ladder is the passes of a text in no known syntax, coarse to fine (the
// hierarchical passes of "HDD: Hierarchical Delta Debugging", ICSE 2006,
// over text): the rungs it has, each a decomp.Pass. Every reduction of
// text climbs down the same ladder; they differ in the rungs they take.
type Ladder struct {
	Rungs Rungs
	// Finish, when set, finishes each candidate (and rejects one that is
	// not well-formed) as a syntax pass does: a text pass over source in
	// a known language, or over a file that must stay well-formed.
	Finish func([]byte) ([]byte, error)
}

// Passes are the ladder's passes over data.
func (l Ladder) Passes(data []byte) []decomp.Pass {
	var sps []decomp.Splitter
	depth := 0
	if l.Rungs&Brackets != 0 {
		depth = decomp.MaxDepth(data)
	}
	// In nested text whole bracket groups come before lines: a group
	// goes in one test where ddmin over lines seldom keeps the brackets
	// balanced (hcl-v1 of bench/crashers: 188 tests by lines first,
	// 57 after the groups' 65).
	groupsFirst := l.Rungs&Lines != 0 && depth > 0 && decomp.Nested(data)
	groups := func() {
		for d := range depth {
			sps = append(sps, decomp.Brackets{Depth: d})
		}
	}
	if groupsFirst {
		groups()
	} else if l.Rungs&Lines != 0 && l.Rungs&Brackets != 0 && decomp.Indented(data) {
		// Indented text: its outermost blocks before lines (yaml-v3 of
		// bench/crashers: 75 tests by lines first; 25, then 17 by
		// lines). Deeper blocks cost more than the lines they save.
		sps = append(sps, decomp.Blocks{})
	}
	if l.Rungs&Lines != 0 {
		sps = append(sps, decomp.Lines{})
	}
	if !groupsFirst {
		groups()
	}
	for d := range depth {
		sps = append(sps, decomp.Brackets{Depth: d, Contents: true})
	}
	if l.Rungs&Tokens != 0 {
		sps = append(sps, decomp.Tokens{})
	}
	if l.Rungs&Chars != 0 {
		sps = append(sps, decomp.Chars(data))
	}
	if l.Rungs&Runes != 0 {
		sps = append(sps, decomp.Runes{})
	}
	if l.Rungs&Bytes != 0 {
		sps = append(sps, decomp.Bytes{})
	}
	var ps []decomp.Pass
	for _, sp := range sps {
		ps = append(ps, decomp.Split(sp, l.Finish))
		if _, ok := sp.(decomp.Lines); ok && groupsFirst {
			// Nested text: the blocks around what fails go after the
			// lines, before tokens would take them off piece by piece
			// (hcl-v1: 1 test, where tokens and characters took 125
			// more).
			ps = append(ps, decomp.Unwrap{Finish: l.Finish})
		}
	}
	if l.Rungs&Replacements != 0 {
		ps = append(ps, decomp.Replacements{Finish: l.Finish})
	}
	if l.Rungs&Smaller != 0 && len(data) <= decomp.MaxMergeNames {
		ps = append(ps, decomp.MergeNames{Finish: l.Finish})
	}
	if l.Rungs&Smaller != 0 && len(data) <= decomp.MaxSmallerChars {
		ps = append(ps, decomp.SmallerChars{Finish: l.Finish})
	}
	return ps
}

// List lists passes of any kind as the schedule's.
func List[P Pass](ps []P) []Pass {
	out := make([]Pass, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}
