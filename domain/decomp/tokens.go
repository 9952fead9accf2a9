package decomp

import (
	"bytes"
	"fmt"
	"iter"
)

// Tokens cuts text into lexical tokens, the way most programming and
// markup languages would: runs of letters, digits and underscores (and
// non-ASCII bytes, so UTF-8 stays whole); runs of white space; string
// literals in "...", '...' (each ending at its closing quote, honoring
// backslash escapes, or at the end of the line) and `...`; each of the
// brackets ( ) [ ] { }, comma and semicolon; and runs of other punctuation
// ("+=", "->", "::").
type Tokens struct{}

func (Tokens) Name() string { return "tokens" }

func (Tokens) Cut(data []byte) (Pieces, error) {
	c := newCutter(data)
	for t := range scan(data) {
		c.at(t.start)
	}
	return c.done(), nil
}

type tokenKind uint8

const (
	tkWord tokenKind = iota
	tkSpace
	tkString
	tkOpen
	tkClose
	tkSingle
	tkPunct
)

type token struct {
	start, end int
	kind       tokenKind
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

func isPunct(b byte) bool {
	switch b {
	case '(', ')', '[', ']', '{', '}', ',', ';', '"', '\'', '`':
		return false
	}
	return !isWordByte(b) && !isSpace(b)
}

// scan yields the tokens that cover data, one by one, so that a caller
// that needs only some (the brackets) holds none of the others.
func scan(data []byte) iter.Seq[token] {
	return func(yield func(token) bool) {
		scanEach(data, yield)
	}
}

func scanEach(data []byte, yield func(token) bool) {
	for i := 0; i < len(data); {
		start := i
		var kind tokenKind
		switch b := data[i]; {
		case isWordByte(b):
			for i < len(data) && isWordByte(data[i]) {
				i++
			}
			kind = tkWord
		case isSpace(b):
			for i < len(data) && isSpace(data[i]) {
				i++
			}
			kind = tkSpace
		case b == '"' || b == '\'':
			i++
			for i < len(data) && data[i] != b && data[i] != '\n' {
				if data[i] == '\\' && i+1 < len(data) && data[i+1] != '\n' {
					i++
				}
				i++
			}
			if i < len(data) && data[i] == b {
				i++
			}
			kind = tkString
		case b == '`':
			i++
			for i < len(data) && data[i] != '`' {
				i++
			}
			if i < len(data) {
				i++
			}
			kind = tkString
		case b == '(' || b == '[' || b == '{':
			i++
			kind = tkOpen
		case b == ')' || b == ']' || b == '}':
			i++
			kind = tkClose
		case b == ',' || b == ';':
			i++
			kind = tkSingle
		default:
			for i < len(data) && isPunct(data[i]) {
				i++
			}
			kind = tkPunct
		}
		if !yield(token{start, i, kind}) {
			return
		}
	}
}

// group is a balanced pair of brackets: tokens open and close.
type group struct {
	open, close token
	depth       int
}

// matched yields the balanced bracket groups of data, outside string
// literals, each when its closing bracket is read (inner groups before
// the ones around them). A closing bracket that does not match the
// innermost open one is ignored, and so is an opening bracket that is
// never closed. Nothing but the open brackets is kept, so that a large
// input (millions of tokens) costs its nesting depth.
func matched(data []byte) iter.Seq[group] {
	return func(yield func(group) bool) {
		var stack []token
		match := map[byte]byte{')': '(', ']': '[', '}': '{'}
		for t := range scan(data) {
			switch t.kind {
			case tkOpen:
				stack = append(stack, t)
			case tkClose:
				want := match[data[t.start]]
				// Find the innermost open bracket of the right kind;
				// brackets above it were never closed and are dropped.
				for k := len(stack) - 1; k >= 0; k-- {
					if data[stack[k].start] == want {
						if !yield(group{open: stack[k], close: t, depth: k}) {
							return
						}
						stack = stack[:k]
						break
					}
				}
			}
		}
	}
}

// groups lists the balanced bracket groups of data (matched).
func groups(data []byte) []group {
	var out []group
	for g := range matched(data) {
		out = append(out, g)
	}
	return out
}

// MaxDepth returns the number of nesting levels of balanced brackets in
// data: 0 without brackets, 1 for "f(x)", 2 for "f(g(x))".
func MaxDepth(data []byte) int {
	d := 0
	for g := range matched(data) {
		d = max(d, g.depth+1)
	}
	return d
}

// Nested reports whether data is nested text: its outermost balanced
// bracket groups that span lines hold at least half of its bytes (a
// configuration in blocks, JSON, C-like source as text). In such text
// most cuts by lines unbalance the brackets, while a bracket group is
// taken out whole.
func Nested(data []byte) bool {
	in := 0
	for g := range matched(data) {
		if g.depth == 0 && bytes.IndexByte(data[g.open.start:g.close.end], '\n') >= 0 {
			in += g.close.end - g.open.start
		}
	}
	return in > 0 && 2*in >= len(data)
}

// Brackets cuts an input at the balanced bracket groups ( ), [ ], { } of
// one nesting depth (0 is the outermost). With Contents false, each group,
// brackets included, is one piece, so leaving it out removes the group;
// with Contents true, each group's contents between its brackets is one
// piece, so leaving it out empties the group. The text between such
// pieces forms pieces of its own.
type Brackets struct {
	Depth    int
	Contents bool
}

func (b Brackets) Name() string {
	if b.Contents {
		return fmt.Sprintf("bracket contents at depth %d", b.Depth)
	}
	return fmt.Sprintf("brackets at depth %d", b.Depth)
}

func (b Brackets) Cut(data []byte) (Pieces, error) {
	var starts, ends []int
	for _, g := range groups(data) {
		if g.depth != b.Depth {
			continue
		}
		if b.Contents {
			if g.close.start > g.open.end {
				starts, ends = append(starts, g.open.end), append(ends, g.close.start)
			}
		} else {
			starts, ends = append(starts, g.open.start), append(ends, g.close.end)
		}
	}
	// Groups of one depth do not overlap; the scan reports them by closing
	// bracket, which at one depth is also by position.
	c := newCutter(data)
	for k := range starts {
		c.at(starts[k])
		c.at(ends[k])
	}
	return c.done(), nil
}
