package decomp

import (
	"sort"
	"strings"
)

// Replacements proposes smaller alternatives for pieces of text in no
// known language, as C-Reduce and Perses do for code and as TSE 2002 §7
// names for future work ("replacing input by smaller alternatives"):
// each identifier-like word shortened consistently at every occurrence
// (to a name the text does not use), each number of two digits or more
// made 0 or 1, each quoted string emptied, and each bracket group
// replaced by its first element, and a call (a word right before the
// brackets) by its first argument. Every change makes the text smaller;
// ddmin makes as many as keep the failure, after the deletion passes.
//
// Finish, when set, finishes each candidate as a syntax pass does (a
// parser that rejects what does not parse): replacements in source code
// of a known language.
type Replacements struct {
	Finish func([]byte) ([]byte, error)
}

// Name is the pass's name in logs.
func (Replacements) Name() string { return "replacements" }

// Plan proposes the replacements of data.
func (r Replacements) Plan(data []byte) (Plan, error) {
	var toks []token
	for t := range scan(data) {
		toks = append(toks, t)
	}
	text := func(t token) string { return string(data[t.start:t.end]) }
	var chs []Change
	// Words, in the order they first occur, each to a fresh short name.
	used := map[string]bool{}
	var order []string
	at := map[string][]token{}
	for _, t := range toks {
		if t.kind != tkWord {
			continue
		}
		w := text(t)
		used[w] = true
		if isDigit(w[0]) {
			continue
		}
		if _, ok := at[w]; !ok {
			order = append(order, w)
		}
		at[w] = append(at[w], t)
	}
	names := shortNames(used)
	for _, w := range order {
		name := names.next(len(w))
		if name == "" {
			continue
		}
		ch := Change{Kind: "word → shorter"}
		for _, t := range at[w] {
			ch.Edits = append(ch.Edits, Splice{From: t.start, To: t.end, Parts: []Part{Lit(name)}})
		}
		chs = append(chs, ch)
	}
	for _, t := range toks {
		w := text(t)
		switch {
		case t.kind == tkWord && isDigit(w[0]) && len(w) >= 2:
			for _, n := range []string{"0", "1"} {
				chs = append(chs, Change{Kind: "number → " + n, Edits: []Splice{{From: t.start, To: t.end, Parts: []Part{Lit(n)}}}})
			}
		case t.kind == tkString && len(w) > 2 && w[len(w)-1] == w[0]:
			q := w[:1]
			chs = append(chs, Change{Kind: "string → empty", Edits: []Splice{{From: t.start, To: t.end, Parts: []Part{Lit(q + q)}}}})
		}
	}
	// Bracket groups, each by its first element (up to the first comma or
	// semicolon at its own level, blanks trimmed).
	for _, g := range groups(data) {
		from, to := g.open.end, g.close.start
		level := 0
		first := sort.Search(len(toks), func(i int) bool { return toks[i].start >= from })
		for _, t := range toks[first:] {
			if t.start >= to {
				break
			}
			switch {
			case t.kind == tkOpen:
				level++
			case t.kind == tkClose:
				level--
			case t.kind == tkSingle && level == 0:
				to = t.start
			}
			if to == t.start {
				break
			}
		}
		for from < to && isSpace(data[from]) {
			from++
		}
		for to > from && isSpace(data[to-1]) {
			to--
		}
		if from >= to {
			continue
		}
		chs = append(chs, Change{Kind: "group → first element", Edits: []Splice{{From: g.open.start, To: g.close.end, Parts: []Part{Ref(from, to)}}}})
		// A call, a word right before its brackets (f(x, y), a[i]):
		// the whole call by its first argument too.
		if k := sort.Search(len(toks), func(i int) bool { return toks[i].end >= g.open.start }); k < len(toks) &&
			toks[k].kind == tkWord && toks[k].end == g.open.start {
			chs = append(chs, Change{Kind: "call → first argument", Edits: []Splice{{From: toks[k].start, To: g.close.end, Parts: []Part{Ref(from, to)}}}})
		}
	}
	return &Rewrite{Src: data, Changes: chs, Finish: r.Finish}, nil
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// nameSource hands out short names the text does not use, shortest
// first: a..z, then the two-character names (aa, ba, ..., z9), and so on.
type nameSource struct {
	used map[string]bool
	len  int
	i    int
}

func shortNames(used map[string]bool) *nameSource { return &nameSource{used: used, len: 1} }

// next returns a fresh name shorter than max, or "" when there is none.
func (s *nameSource) next(max int) string {
	for s.len < max {
		for ; s.i < count(s.len); s.i++ {
			n := nameAt(s.len, s.i)
			if !s.used[n] {
				s.used[n] = true
				s.i++
				return n
			}
		}
		s.len, s.i = s.len+1, 0
	}
	return ""
}

const letters = "abcdefghijklmnopqrstuvwxyz"
const alnum = letters + "0123456789"

// count is how many names of length n there are (a letter, then letters
// and digits), up to a bound that keeps the search short.
func count(n int) int {
	c := len(letters)
	for range n - 1 {
		c *= len(alnum)
		if c > 1<<20 {
			return 1 << 20
		}
	}
	return c
}

// nameAt is the i-th name of length n.
func nameAt(n, i int) string {
	var b strings.Builder
	b.WriteByte(letters[i%len(letters)])
	i /= len(letters)
	for range n - 1 {
		b.WriteByte(alnum[i%len(alnum)])
		i /= len(alnum)
	}
	return b.String()
}
