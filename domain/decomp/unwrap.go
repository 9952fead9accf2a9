package decomp

import (
	"bytes"
	"slices"
)

// Unwrap proposes each bracket group that holds something replaced by
// what it holds: its brackets go, and so does its header, the text
// before the opening bracket back to the line's start or to a bracket,
// comma or semicolon before it on the line (job "x" { … } becomes its
// body; "key": { … } its members). In nested text a failure seldom
// needs the blocks around it, and tokens take them off one piece at a
// time, the closing bracket far from the header.
type Unwrap struct {
	Finish func([]byte) ([]byte, error)
}

// Name is the pass's name in logs.
func (Unwrap) Name() string { return "bracket groups unwrapped" }

// Plan proposes the unwrappings of data's groups, outer groups first.
func (u Unwrap) Plan(data []byte) (Plan, error) {
	head := map[int]int{} // an opening bracket's start: its header's
	bound := 0
	for t := range scan(data) {
		switch {
		case t.kind == tkOpen:
			head[t.start] = bound
			bound = t.end
		case t.kind == tkClose || t.kind == tkSingle:
			bound = t.end
		case t.kind == tkSpace && bytes.IndexByte(data[t.start:t.end], '\n') >= 0:
			bound = t.end
		}
	}
	gs := groups(data)
	slices.SortFunc(gs, func(a, b group) int { return a.open.start - b.open.start })
	var chs []Change
	for _, g := range gs {
		if len(bytes.TrimSpace(data[g.open.end:g.close.start])) == 0 {
			continue // the brackets pass takes an empty group out
		}
		chs = append(chs, Change{Kind: "group → contents", Edits: []Splice{
			{From: head[g.open.start], To: g.open.end},
			{From: g.close.start, To: g.close.end},
		}})
	}
	return &Rewrite{Src: data, Changes: chs, Finish: u.Finish}, nil
}
