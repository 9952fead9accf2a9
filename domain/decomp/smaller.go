package decomp

import (
	"slices"
	"strings"
)

// SmallerChars proposes, in a small text, each letter or digit made 0,
// or else the least of its own kind (1, A or a): the smallest characters
// a text of the same length can hold there in shortlex order (bytes
// compared), as shrinkray and C-Vise canonicalize a small test case, so
// that two reductions of one failure end alike (t={# and 0={# crash a
// parser the same way). Every change leaves the text as long and sorting
// first (schedule.Simpler), and the text no smaller: in a text of more
// than MaxSmallerChars bytes the pass proposes nothing (on a JSON
// document of 54 bytes it cost 186 tests for no byte less).
//
// Finish, when set, finishes each candidate as a syntax pass does.
type SmallerChars struct {
	Finish func([]byte) ([]byte, error)
}

// MaxSmallerChars is the largest text SmallerChars proposes changes in.
const MaxSmallerChars = 16

// Name is the pass's name in logs.
func (SmallerChars) Name() string { return "smaller characters" }

// Plan proposes the replacements of data's characters.
func (p SmallerChars) Plan(data []byte) (Plan, error) {
	var chs []Change
	if len(data) <= MaxSmallerChars {
		for i, b := range data {
			if isAlnum(b) && b > '0' {
				chs = append(chs, Change{Kind: "character → 0", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("0")}}}})
			}
			// Where 0 is refused (a number must not start with it, a
			// name with a digit), the next smallest of the same kind.
			switch {
			case '1' < b && b <= '9':
				chs = append(chs, Change{Kind: "character → 1", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("1")}}}})
			case 'A' < b && b <= 'Z':
				chs = append(chs, Change{Kind: "character → A", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("A")}}}})
			case 'a' < b && b <= 'z':
				chs = append(chs, Change{Kind: "character → a", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("a")}}}})
			}
		}
	}
	return &Rewrite{Src: data, Changes: chs, Finish: p.Finish}, nil
}

func isAlnum(b byte) bool { return isDigit(b) || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// MergeNames proposes, in a small text, each identifier-like word made
// another word of the text that sorts before it in shortlex order, or
// the smallest one-letter name the text does not use, at every
// occurrence at once (i and z both a, double int): two names merged, a
// declaration of one of them often goes too. shrinkray's
// passes do the same; Replacements only shortens a name to a fresh one.
// In a text of more than MaxMergeNames bytes, or of more than
// maxMergeWords distinct words, it proposes nothing.
//
// Finish, when set, finishes each candidate as a syntax pass does.
type MergeNames struct {
	Finish func([]byte) ([]byte, error)
}

// MaxMergeNames is the largest text MergeNames proposes changes in.
const MaxMergeNames = 256

// maxMergeWords bounds the distinct words of a text MergeNames works
// on: the changes grow as their square.
const maxMergeWords = 24

// Name is the pass's name in logs.
func (MergeNames) Name() string { return "merged names" }

// Plan proposes the merges of data's words, each word's into the
// smallest target first (the first kept wins).
func (p MergeNames) Plan(data []byte) (Plan, error) {
	var chs []Change
	if len(data) > MaxMergeNames {
		return &Rewrite{Src: data, Finish: p.Finish}, nil
	}
	at := map[string][]token{}
	var words []string
	for t := range scan(data) {
		w := string(data[t.start:t.end])
		if t.kind != tkWord || isDigit(w[0]) {
			continue
		}
		if _, ok := at[w]; !ok {
			words = append(words, w)
		}
		at[w] = append(at[w], t)
	}
	if len(words) > maxMergeWords {
		return &Rewrite{Src: data, Finish: p.Finish}, nil
	}
	// Besides the text's words, the smallest one-letter name it does not
	// use: a name renamed to it sorts first (i → a).
	targets := slices.Clone(words)
	for c := byte('a'); c <= 'z'; c++ {
		if _, ok := at[string(c)]; !ok {
			targets = append(targets, string(c))
			break
		}
	}
	slices.SortFunc(targets, shortlex)
	for _, w := range words {
		for _, x := range targets {
			if shortlex(x, w) >= 0 {
				break
			}
			ch := Change{Kind: "name → " + x}
			for _, t := range at[w] {
				ch.Edits = append(ch.Edits, Splice{From: t.start, To: t.end, Parts: []Part{Lit(x)}})
			}
			chs = append(chs, ch)
		}
	}
	return &Rewrite{Src: data, Changes: chs, Finish: p.Finish}, nil
}

// shortlex orders words shorter first, then bytewise.
func shortlex(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
