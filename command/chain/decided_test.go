package chain

import (
	"testing"

	"github.com/wynot/wynot/domain/instrument"
)

// TestDecided: where two runs went on from one statement to different
// ones, the condition that decided it is named: of an if with else ifs
// (one statement, lines 10 to 20: if c1 at 10 {A at 11} else if c2 at
// 12 {B at 13} else {C at 15}), the earlier of the two conditions that
// let the runs into their statements; a plain if's own line; and the
// statement itself where neither next statement is inside it.
func TestDecided(t *testing.T) {
	st := func(line, guard int) instrument.Stmt {
		return instrument.Stmt{File: "f.go", Func: "main.f", Line: line, EndLine: line, Guard: guard}
	}
	chain := instrument.Stmt{File: "f.go", Func: "main.f", Line: 10, EndLine: 20}
	a, b, c, after := st(11, 10), st(13, 12), st(15, 12), st(21, 5)
	for _, tc := range []struct {
		name string
		fail instrument.Stmt
		pass *instrument.Stmt
		want string
	}{
		{"B against C: c2 decided", b, &c, "f.go:12"},
		{"C against B", c, &b, "f.go:12"},
		{"A against B: c1 decided", a, &b, "f.go:10"},
		{"B, the passing run unknown", b, nil, "f.go:12"},
		{"B against what follows the if", b, &after, "f.go:12"},
		{"what follows, both", after, &after, "f.go:10"},
		{"another function", instrument.Stmt{File: "f.go", Func: "main.g", Line: 13, Guard: 12}, nil, "f.go:10"},
	} {
		if got := decided(chain, tc.fail, tc.pass); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestMoved: a statement transition between consecutive steps names the
// statement of the first, unless the run went back to the start of a
// loop's body: then the loop's header moved the cause (for sc.Scan() {).
func TestMoved(t *testing.T) {
	prog := &instrument.Program{Stmts: []instrument.Stmt{
		{ID: 1, File: "m.go", Func: "main.main", Line: 12, EndLine: 19},            // for sc.Scan() {
		{ID: 2, File: "m.go", Func: "main.main", Line: 13, EndLine: 13, Guard: 12}, // n++
		{ID: 3, File: "m.go", Func: "main.main", Line: 17, EndLine: 17, Guard: 16}, // fmt.Println(n, "ok")
	}}
	c := &Chain{prog: prog, timeline: []uint32{1, 2, 3, 2}}
	for _, tc := range []struct {
		tr   Transition
		want string
	}{
		{Transition{FromStep: 3, ToStep: 4, Direct: true, Where: "m.go:17 → m.go:13"}, "m.go:12"},
		{Transition{FromStep: 2, ToStep: 3, Direct: true, Where: "m.go:13 → m.go:17"}, "m.go:13"},
		{Transition{FromStep: 1, ToStep: 4, Where: "m.go:12 → m.go:13"}, "m.go:12"},
	} {
		if got := c.moved(&tc.tr); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.tr.Where, got, tc.want)
		}
	}
}

// TestUnseen: a transition through a state of the failing run that
// could not be captured again is unseen, not a divergence of the runs.
func TestUnseen(t *testing.T) {
	c := &Chain{}
	a := &link{Link: Link{Step: 5, File: "m.go", Line: 3, Matched: true}}
	b := &link{Link: Link{Step: 6, File: "m.go", Line: 4}, lost: true, bot: true}
	if k := c.transition(a, b, nil).Kind; k != "unseen" {
		t.Errorf("kind %s, want unseen", k)
	}
	b.lost = false
	if k := c.transition(a, b, nil).Kind; k != "diverges" {
		t.Errorf("kind %s, want diverges", k)
	}
}
