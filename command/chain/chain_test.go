package chain

import (
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/instrument"
)

func TestParseAt(t *testing.T) {
	for _, c := range []struct {
		in   string
		want at
		err  bool
	}{
		{"main.go:12", at{file: "main.go", line: 12, n: 1}, false},
		{"./pkg/x.go:3#4", at{file: "pkg/x.go", line: 3, n: 4}, false},
		{"C:/x.c:7", at{file: "C:/x.c", line: 7, n: 1}, false},
		{"main.go", at{}, true},
		{"main.go:0", at{}, true},
		{"main.go:x", at{}, true},
		{"main.go:3#0", at{}, true},
		{":3", at{}, true},
	} {
		got, err := parseAt(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("parseAt(%q) = %+v, %v; want %+v (error %v)", c.in, got, err, c.want, c.err)
		}
	}
}

func passed(t Transition) Transition {
	t.passOnly = true
	return t
}

func tr(from uint64, kind, fn string, over ...string) Transition {
	return Transition{FromStep: from, ToStep: from + 1, Kind: kind, Func: fn, Overwritten: over,
		Where: "f.go:1 → f.go:2", Before: []string{"a"}, After: []string{"b"}}
}

// TestSuggest: an overwrite first, then a divergence the cause decides,
// then a statement; the first of the kind found.
func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		trans []Transition
		want  uint64
	}{
		{[]Transition{tr(1, "statement", "f"), tr(5, "diverges", "g"), tr(9, "statement", "h", "x"), tr(12, "statement", "h", "y")}, 9},
		{[]Transition{tr(1, "statement", "f"), tr(5, "call", "g"), tr(9, "diverges", "h"), tr(12, "diverges", "h")}, 9},
		{[]Transition{tr(1, "call", "f"), tr(5, "statement", "g"), tr(9, "statement", "h")}, 5},
		{[]Transition{tr(3, "return", "f"), tr(5, "call", "g")}, 3},
		// A crash comes after a divergence the cause decides, before a
		// statement.
		{[]Transition{tr(1, "statement", "f"), tr(5, "crash", "g")}, 5},
		{[]Transition{tr(1, "diverges", "f"), tr(5, "crash", "g")}, 1},
		{[]Transition{tr(1, "statement", "f", "x"), tr(5, "crash", "g")}, 1},
		// A variable the passing run changed and the failing run did not
		// comes after an overwrite, before a divergence.
		{[]Transition{tr(1, "diverges", "f"), passed(tr(5, "statement", "g"))}, 5},
		{[]Transition{passed(tr(1, "statement", "f")), tr(5, "statement", "g", "x")}, 5},
	} {
		ch := &Chain{trans: c.trans, timeline: make([]uint32, 20), prog: &instrument.Program{Stmts: []instrument.Stmt{{ID: 1, File: "f.go", Line: 2, Func: "g"}}}}
		for i := range ch.timeline {
			ch.timeline[i] = 1
		}
		ch.suggest()
		var got []uint64
		for _, t := range ch.trans {
			if t.Suggested {
				got = append(got, t.FromStep)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("suggested %v, want %d", got, c.want)
		}
	}
}

// TestRows: three or more plain transitions in a row are one row; a
// suggested, overwriting or diverging one stands alone.
func TestRows(t *testing.T) {
	s := tr(20, "statement", "m")
	s.Suggested = true
	trans := []Transition{tr(1, "statement", "f"), tr(2, "call", "g"), tr(3, "return", "f"), tr(4, "statement", "f"),
		s, tr(21, "statement", "m"), tr(22, "statement", "m"), tr(30, "diverges", "m")}
	rs := rows(trans)
	var sizes []int
	for _, r := range rs {
		sizes = append(sizes, r.n)
	}
	if len(sizes) != 5 || sizes[0] != 4 || sizes[1] != 1 || sizes[2] != 1 || sizes[3] != 1 || sizes[4] != 1 {
		t.Errorf("rows of %v", sizes)
	}
	if len(rs[0].funcs) != 2 || rs[0].first.FromStep != 1 || rs[0].last.ToStep != 5 {
		t.Errorf("first row %+v", rs[0])
	}
}

// TestParting: from matching states at the same statement, the first
// statement after which the failing run's steps and the passing run's
// differ; none when they take the same path or one is a part of the
// other's.
func TestParting(t *testing.T) {
	prog := &instrument.Program{}
	for i := 1; i <= 9; i++ {
		prog.Stmts = append(prog.Stmts, instrument.Stmt{ID: i, File: "f.go", Line: 10 + i, Func: "f"})
	}
	for _, c := range []struct {
		fail, pass   []uint32
		a, b, pa, pb uint64
		want         *Parting
	}{
		// 1 2 [3 4] 6 against 1 2 [3 5 5] 6: they part after 3 (f.go:13).
		{[]uint32{1, 2, 3, 4, 6}, []uint32{9, 1, 2, 3, 5, 5, 6}, 1, 5, 2, 7, &Parting{Step: 3, Where: "f.go:13", Fail: "f.go:14", Pass: "f.go:15"}},
		{[]uint32{1, 2, 3}, []uint32{1, 2, 3}, 1, 3, 1, 3, nil},
		{[]uint32{1, 2, 3}, []uint32{1, 2, 2, 3}, 1, 3, 1, 4, &Parting{Step: 2, Where: "f.go:12", Fail: "f.go:13", Pass: "f.go:12"}},
		{[]uint32{1, 3}, []uint32{1, 3, 3}, 1, 2, 1, 2, nil}, // the same path to the matching state
	} {
		ch := &Chain{timeline: c.fail, ptimeline: c.pass, prog: prog}
		got := ch.parting(&link{Link: Link{Step: c.a, Matched: true}, pstep: c.pa}, &link{Link: Link{Step: c.b, Matched: true}, pstep: c.pb})
		switch {
		case got == nil && c.want == nil:
		case got == nil || c.want == nil || *got != *c.want:
			t.Errorf("fail %v pass %v: parting %+v, want %+v", c.fail, c.pass, got, c.want)
		}
	}
	// Unmatched or unknown states have none.
	ch := &Chain{timeline: []uint32{1, 2}, ptimeline: []uint32{1, 3}, prog: prog}
	if p := ch.parting(&link{Link: Link{Step: 1, Matched: true}}, &link{Link: Link{Step: 2, Matched: true}, pstep: 2}); p != nil {
		t.Errorf("a state without the passing run's step: parting %+v", p)
	}
}

// TestPassOnly: a variable of the cause that keeps its failing value and
// changes its passing value between two states of one call.
func TestPassOnly(t *testing.T) {
	st := func(step uint64, stack string, ds ...Delta) *link {
		return &link{Link: Link{Step: step, Stack: stack, Relevant: ds}}
	}
	d := func(v, old, new string) Delta { return Delta{Kind: "change", Var: v, Old: old, New: new} }
	for _, c := range []struct {
		a, b *link
		want bool
	}{
		{st(1, "f < main", d("v", `"a"`, `""`)), st(4, "f < main", d("v", `a`, `""`)), true},
		{st(1, "f < main", d("v", `"a"`, `""`)), st(4, "f < main", d("v", `"a"`, `""`)), false}, // neither changed it
		{st(1, "f < main", d("v", `"a"`, `""`)), st(4, "f < main", d("v", `a`, `x`)), false},    // both did
		{st(1, "f < main", d("v", `"a"`, `""`)), st(4, "g < main", d("v", `a`, `""`)), false},   // another call
		{st(1, "f < main", d("v", `"a"`, `""`)), st(4, "f < main", d("w", `a`, `""`)), false},   // another variable
	} {
		if got := passOnly(c.a, c.b); got != c.want {
			t.Errorf("passOnly(%+v, %+v) = %v", c.a.Relevant, c.b.Relevant, got)
		}
	}
}

// offPathProg is nine statements of f, at f.go lines 11 to 19; the
// fifth is a return.
func offPathProg() *instrument.Program {
	prog := &instrument.Program{}
	for i := 1; i <= 9; i++ {
		text := "x++"
		if i == 5 {
			text = "return x"
		}
		prog.Stmts = append(prog.Stmts, instrument.Stmt{ID: i, File: "f.go", Line: 10 + i, Func: "f", Text: text})
	}
	return prog
}

// TestOffPath: from a state with the cause, the failing run goes on to
// a statement the passing run never goes to from there, however often
// each run passed the branch before (no alignment of their steps).
func TestOffPath(t *testing.T) {
	ch := &Chain{prog: offPathProg(),
		// The loop 2 3 runs three times in the failing run, twice in
		// the passing run; then the failing run goes from 3 to 4,
		// which the passing run never does.
		timeline:  []uint32{1, 2, 3, 2, 3, 2, 3, 4, 6},
		ptimeline: []uint32{1, 2, 3, 2, 3, 6, 1, 2, 3, 6}}
	l := func(step uint64) *link { return &link{Link: Link{Step: step, Matched: true}} }
	if p := ch.offPath(l(7)); p == nil || *p != (Parting{Step: 7, Where: "f.go:13", Fail: "f.go:14"}) {
		t.Errorf("offPath at step 7 = %+v, want the branch at f.go:13 to f.go:14", p)
	}
	for _, step := range []uint64{3, 5, 6} { // 3 to 2, 2 to 3: both runs go so
		if p := ch.offPath(l(step)); p != nil {
			t.Errorf("offPath at step %d = %+v, want none", step, p)
		}
	}
	if p := ch.offPath(&link{Link: Link{Step: 7, Matched: true}, bot: true}); p != nil {
		t.Errorf("a state without the cause: offPath %+v", p)
	}
	if p := ch.offPath(l(9)); p != nil {
		t.Errorf("the last step: offPath %+v", p)
	}
	if !ch.offSteps(Transition{FromStep: 5, ToStep: 9}) || ch.offSteps(Transition{FromStep: 1, ToStep: 7}) {
		t.Errorf("offSteps: steps 5 to 9 hold 3 to 4, steps 1 to 7 only ways the passing run takes too")
	}
	ch.ptimeline = nil
	if p := ch.offPath(l(7)); p != nil || !ch.offSteps(Transition{FromStep: 1, ToStep: 7}) {
		t.Errorf("without the passing run's steps: offPath %+v, offSteps false", p)
	}
}

// TestOneCall: two matching states of the passing run lie in one call
// of their function when it returns from it as often on the way as the
// failing run does.
func TestOneCall(t *testing.T) {
	ch := &Chain{prog: offPathProg(),
		timeline:  []uint32{1, 2, 3, 2, 3, 2, 3, 4},
		ptimeline: []uint32{1, 2, 3, 2, 3, 5, 1, 2, 3}}
	m := func(step, pstep uint64) *link {
		return &link{Link: Link{Step: step, Func: "f", Matched: true}, pstep: pstep}
	}
	if !ch.oneCall(m(1, 1), m(5, 5)) {
		t.Errorf("the second time at 3 in both runs' first call: not one call")
	}
	// The third time at 3: in the passing run, after it returned (5)
	// and was called again.
	if ch.oneCall(m(1, 1), m(7, 9)) {
		t.Errorf("the third time at 3 is in the passing run's second call: one call")
	}
}

// TestSuggestOffPath: a transition ending in a state whose cause leads
// the failing run where the passing run never goes from there is a
// divergence, its branch suggested; a transition into a state the
// passing run never reaches only because a loop ran more often there
// comes after a crash.
func TestSuggestOffPath(t *testing.T) {
	links := func(steps ...uint64) (map[uint64]*link, []uint64) {
		m := map[uint64]*link{}
		for _, s := range steps {
			m[s] = &link{Link: Link{Step: s, Func: "f", Matched: true, Relevant: []Delta{{Var: "a"}}}, pstep: 1}
		}
		return m, steps
	}
	ch := &Chain{prog: offPathProg(),
		timeline:  []uint32{1, 2, 3, 2, 3, 2, 3, 4, 6},
		ptimeline: []uint32{1, 2, 3, 2, 3, 6, 1, 2, 3, 6},
		// The transition into step 7 starts in g (a return into f).
		trans: []Transition{tr(2, "statement", "f"), tr(6, "return", "g"), tr(8, "statement", "f")}}
	ch.links, ch.order = links(2, 3, 6, 7, 8, 9)
	ch.suggest()
	if sg := ch.suggested; sg == nil || sg.Where != "f.go:13" || sg.Func != "f" || sg.Step != 7 || !strings.Contains(sg.Why, "went on to line 14, where the passing run never goes") {
		t.Errorf("suggested %+v, want the branch at f.go:13 (step 7)", sg)
	}
	if !ch.trans[1].Suggested {
		t.Errorf("the transition into the branch's state is not marked: %+v", ch.trans)
	}
	// With the branch's own transition in the chain (from step 7 on),
	// the mark is on it, not on the one into its state.
	ch = &Chain{prog: offPathProg(),
		timeline:  []uint32{1, 2, 3, 2, 3, 2, 3, 4, 6},
		ptimeline: []uint32{1, 2, 3, 2, 3, 6, 1, 2, 3, 6},
		trans:     []Transition{tr(2, "statement", "f"), tr(6, "return", "g"), tr(7, "diverges", "f"), tr(8, "statement", "f")}}
	ch.links, ch.order = links(2, 3, 6, 7, 8, 9)
	ch.suggest()
	if sg := ch.suggested; sg == nil || sg.Where != "f.go:13" || sg.Step != 7 || ch.trans[1].Suggested || !ch.trans[2].Suggested {
		t.Errorf("suggested %+v, marked %v %v; want the branch at f.go:13 (step 7), marked on its transition", sg, ch.trans[1].Suggested, ch.trans[2].Suggested)
	}
	// The failing run passes the loop once more: the state it reaches
	// then is one the passing run never reaches, by ways it takes too.
	ch = &Chain{prog: offPathProg(),
		timeline:  []uint32{1, 2, 3, 2, 3, 2, 3, 6},
		ptimeline: []uint32{1, 2, 3, 2, 3, 6},
		trans:     []Transition{tr(5, "diverges", "f"), tr(7, "crash", "f")}}
	ch.suggest()
	if sg := ch.suggested; sg == nil || sg.Step != 8 {
		t.Errorf("suggested %+v, want the crash", sg)
	}
}

// TestArrives: a loop over a copy the capture does not see (a range
// over a string) ends after statement 3 in the failing run, and the
// cause appears at statement 6 after it: a way the passing run, which
// leaves the loop after 4, never takes. The suggestion is where the
// failing run came to (a check missing there, as in a parser that
// returns with a number still pending), not the statement that moved
// the cause on later.
func TestArrives(t *testing.T) {
	hidden := func(from uint64, fn string) Transition {
		tr := tr(from, "hidden", fn)
		tr.Before, tr.Direct, tr.Where = nil, true, "f.go:13 → f.go:16"
		return tr
	}
	ch := &Chain{prog: offPathProg(),
		timeline:  []uint32{1, 2, 3, 2, 3, 6, 7, 8},
		ptimeline: []uint32{1, 2, 3, 2, 3, 2, 4, 6, 7, 8},
		trans:     []Transition{hidden(5, "f"), tr(7, "statement", "g")}}
	ch.suggest()
	if sg := ch.suggested; sg == nil || sg.Where != "f.go:16" || sg.Step != 6 || sg.Func != "f" || !strings.Contains(sg.Why, "never takes") {
		t.Errorf("suggested %+v, want f.go:16 (step 6), where the failing run came by a way the passing run never takes", sg)
	}
	// The passing run also goes from 3 to 6: the cause appeared on a
	// common way, and the statement that moved it is suggested.
	ch.ptimeline, ch.pedges, ch.suggested = []uint32{1, 2, 3, 2, 3, 6, 7, 8}, nil, nil
	ch.trans = []Transition{hidden(5, "f"), tr(7, "statement", "g")}
	ch.suggest()
	if sg := ch.suggested; sg == nil || sg.Step != 7 {
		t.Errorf("suggested %+v, want the statement at step 7", sg)
	}
	// A state with the cause before it: not a cause out of what the
	// capture does not see.
	ch.ptimeline, ch.pedges, ch.suggested = []uint32{1, 2, 3, 2, 3, 2, 4, 6, 7, 8}, nil, nil
	ch.trans = []Transition{tr(5, "hidden", "f"), tr(7, "statement", "g")}
	ch.trans[0].Direct = true
	ch.suggest()
	if sg := ch.suggested; sg == nil || sg.Step != 7 {
		t.Errorf("suggested %+v, want the statement at step 7", sg)
	}
}

// TestReports: a divergence into a statement that makes the failing
// output's error message is where the program noticed the bad state: an
// earlier statement that moved the cause is suggested first, and the
// branch only when nothing else is there. A literal the output does not
// show, or a short one, does not count.
func TestReports(t *testing.T) {
	prog := offPathProg()
	prog.Stmts[5].Text = `return nil, fmt.Errorf("improper constraint: %s", v)`
	ch := func(out string) *Chain {
		c := &Chain{prog: prog, failOut: []byte(out),
			timeline:  []uint32{1, 2, 3, 4, 6, 7},
			ptimeline: []uint32{1, 2, 3, 4, 5, 7},
			trans:     []Transition{tr(2, "statement", "f"), tr(4, "diverges", "f")}}
		c.trans[1].ToStep = 5
		return c
	}
	c := ch("error: improper constraint: >= 1.0.0<=2.0.0\n")
	if !c.reports(c.trans[1]) {
		t.Fatalf("the branch into the error's statement does not report the failure")
	}
	c.suggest()
	if sg := c.suggested; sg == nil || sg.Step != 2 || !strings.Contains(sg.Why, "moved the cause") {
		t.Errorf("suggested %+v, want the statement at step 2", sg)
	}
	c = ch("error: improper constraint: x\n")
	c.trans = c.trans[1:]
	c.suggest()
	if sg := c.suggested; sg == nil || sg.Step != 4 || !strings.Contains(sg.Why, "report the failure") {
		t.Errorf("suggested %+v, want the branch at step 4, into the report", sg)
	}
	for _, out := range []string{"error: something else\n", ""} {
		c = ch(out)
		if c.reports(c.trans[1]) {
			t.Errorf("output %q: the branch reports the failure", out)
		}
		c.suggest()
		if sg := c.suggested; sg == nil || sg.Step != 4 {
			t.Errorf("output %q: suggested %+v, want the divergence at step 4", out, sg)
		}
	}
	prog.Stmts[5].Text = `return nil, errors.New("bad")`
	if c := ch("bad\n"); c.reports(c.trans[1]) {
		t.Errorf("a literal of 3 bytes counts as a message")
	}
}
