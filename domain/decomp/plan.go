package decomp

import (
	"errors"
	"fmt"
	"slices"
)

// A Plan is an input decomposed into changes that delta debugging applies
// or not. A configuration lists the changes that are kept as they were:
// for cut pieces those that stay, for transformations those not made. So
// ddmin, minimizing the configuration, removes as many pieces or makes as
// many transformations as it can (the Debugging Book's "keep list",
// "Reducing Code" / Exercise 1).
type Plan interface {
	// Len is the number of changes.
	Len() int
	// Apply builds the candidate that keeps the changes at the sorted
	// indices in keep. An error means the candidate is not well-formed
	// (it does not parse, say): its outcome is predicted Unresolved
	// without a test.
	Apply(keep []int) ([]byte, error)
}

// A Pass is one way of decomposing an input into a Plan: a Splitter's
// pieces, or a syntax tree's transformations.
type Pass interface {
	// Name is the pass's name in logs and statistics.
	Name() string
	// Plan decomposes data.
	Plan(data []byte) (Plan, error)
}

// Apply builds the candidate of the kept pieces; it never fails.
func (p Pieces) Apply(keep []int) ([]byte, error) { return p.Join(keep), nil }

// Split makes a Splitter a Pass. With finish set, each candidate is
// what finish makes of the joined pieces, and one it rejects is
// predicted Unresolved (Go text that does not parse; Go text printed as
// gofmt would, so that pieces of white space make no difference).
func Split(s Splitter, finish func([]byte) ([]byte, error)) Pass { return splitPass{s, finish} }

// SplitterOf returns the Splitter a Pass made by Split cuts with.
func SplitterOf(p Pass) (Splitter, bool) {
	sp, ok := p.(splitPass)
	return sp.Splitter, ok
}

// Recut reports whether cutting any candidate of p again gives back
// exactly the pieces the candidate kept: a split by lines, runes or bytes
// with no finish. (Tokens merge when the white space between them goes;
// bracket groups and the text around them merge when a group goes; a
// finish reprints.)
func Recut(p Pass) bool {
	sp, ok := p.(splitPass)
	if !ok || sp.finish != nil {
		return false
	}
	switch sp.Splitter.(type) {
	case Lines, Runes, Bytes:
		return true
	}
	return false
}

type splitPass struct {
	Splitter
	finish func([]byte) ([]byte, error)
}

func (s splitPass) Plan(data []byte) (Plan, error) {
	p, err := s.Cut(data)
	if err != nil || s.finish == nil {
		return p, err
	}
	return finished{p, s.finish}, nil
}

type finished struct {
	Pieces
	finish func([]byte) ([]byte, error)
}

func (f finished) Apply(keep []int) ([]byte, error) {
	return f.finish(f.Join(keep))
}

// Deletes reports whether p's changes are pieces of the input, each
// left out when it is not kept (a Splitter's pieces, finished or not),
// rather than transformations or replacements.
func Deletes(p Plan) bool {
	switch p.(type) {
	case Pieces, finished:
		return true
	}
	return false
}

// A Splice replaces the bytes From..To of a source by its Parts in order.
// Edits of one Rewrite nest like the syntax tree nodes they come from:
// two edits' ranges are disjoint, or one holds the other.
type Splice struct {
	From, To int
	Parts    []Part
}

// A Part of an edit's replacement: literal Text, or, with Ref set, the
// source range From..To as rendered with the edits made inside it (a
// subtree kept in the replacement keeps its own transformations).
type Part struct {
	Text     string
	From, To int
	Ref      bool
}

// Lit is a literal part.
func Lit(s string) Part { return Part{Text: s} }

// Ref is a part that keeps the source range from..to.
func Ref(from, to int) Part { return Part{From: from, To: to, Ref: true} }

// A Change is one transformation: dd makes all of its edits or none (a
// parameter removed from a function and from every call of it).
type Change struct {
	Kind  string // what it does: "delete", "if → then", ...
	Edits []Splice
}

// Rewrite is a Plan of transformations over an immutable source (the
// Debugging Book's NodeReducer, with several transformations per node).
// Where several applied edits replace the same range, the first change
// wins; an edit inside the range of another applied edit takes effect only
// when that edit keeps it by a Ref. Finish, when set, turns the rendered
// text into the candidate or rejects it (parses it, formats it).
type Rewrite struct {
	Src     []byte
	Changes []Change
	Finish  func([]byte) ([]byte, error)
}

// Len is the number of changes.
func (r *Rewrite) Len() int { return len(r.Changes) }

// ErrOverlap reports edits that neither nest nor are disjoint.
var ErrOverlap = errors.New("overlapping edits")

// Apply makes every change not in keep.
func (r *Rewrite) Apply(keep []int) ([]byte, error) {
	var eds []Splice
	seen := map[[2]int]bool{}
	k := 0
	for i, ch := range r.Changes {
		if k < len(keep) && keep[k] == i {
			k++
			continue
		}
		for _, e := range ch.Edits {
			key := [2]int{e.From, e.To}
			if seen[key] {
				continue
			}
			seen[key] = true
			eds = append(eds, e)
		}
	}
	// Outer edits first: by start, then by end descending.
	slices.SortFunc(eds, func(a, b Splice) int {
		if a.From != b.From {
			return a.From - b.From
		}
		return b.To - a.To
	})
	// Deletions that share bytes (two list elements, each with the
	// comma between them) delete their union.
	last := -1
	merged := eds[:0]
	for _, e := range eds {
		if len(e.Parts) == 0 && last >= 0 && e.From < merged[last].To && e.To > merged[last].To {
			merged[last].To = e.To
			continue
		}
		merged = append(merged, e)
		if len(e.Parts) == 0 && (last < 0 || e.From >= merged[last].To) {
			last = len(merged) - 1
		}
	}
	eds = merged
	out := make([]byte, 0, len(r.Src))
	out, err := render(out, r.Src, eds, 0, len(r.Src), -1, -1)
	if err != nil {
		return nil, err
	}
	if r.Finish != nil {
		return r.Finish(out)
	}
	return out, nil
}

// render appends src[from:to] with the edits inside it made; the edit
// that asked for this range (at skipFrom..skipTo) is not made again.
func render(out, src []byte, eds []Splice, from, to, skipFrom, skipTo int) ([]byte, error) {
	pos := from
	i, _ := slices.BinarySearchFunc(eds, from, func(e Splice, f int) int { return e.From - f })
	for ; i < len(eds) && eds[i].From < to; i++ {
		e := eds[i]
		if e.From < pos || (e.From == skipFrom && e.To == skipTo) {
			continue // inside an edit made already, or the caller itself
		}
		if e.To > to {
			if e.From == from {
				continue // an edit around this range (it starts where the range does)
			}
			return nil, fmt.Errorf("%w: %d..%d crosses %d..%d", ErrOverlap, e.From, e.To, from, to)
		}
		out = append(out, src[pos:e.From]...)
		for _, p := range e.Parts {
			if !p.Ref {
				out = append(out, p.Text...)
				continue
			}
			var err error
			if out, err = render(out, src, eds, p.From, p.To, e.From, e.To); err != nil {
				return nil, err
			}
		}
		pos = e.To
	}
	return append(out, src[pos:to]...), nil
}
