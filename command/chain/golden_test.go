package chain

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/internal/goldenfile"
	"github.com/wynot/wynot/report"
)

var update = flag.Bool("update", false, "rewrite the golden files with what Close writes now")

// golden compares got with the file testdata/name, or rewrites it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

// TestCloseGolden: the JSON summary and the HTML report of a chain stay
// as they are, byte for byte: every field of the chain's part of the
// summary set, a state without relevant deltas, a suggested transition.
func TestCloseGolden(t *testing.T) {
	c := &Chain{MaxVertices: 500, captures: 4, links: map[uint64]*link{}}
	add := func(l *link) {
		c.links[l.Step] = l
		c.order = append(c.order, l.Step)
	}
	add(&link{Link: Link{Step: 9, File: "main.go", Line: 12, Func: "main.f", Stack: "main.main", Matched: true,
		PassVertices: 20, FailVertices: 21, Cut: true, Deltas: 3, Tests: 7,
		Relevant:    []Delta{{Kind: "change", Var: "x", Old: "1", New: "<2>", Text: "x = <2> (was 1)", Aliases: []string{"*p"}}},
		Differences: []string{"x = <2> (was 1)", "y = 3 (was 4)"}}})
	add(&link{Link: Link{Step: 2, File: "main.go", Line: 5, Func: "main.main", Note: "no matching state"}, bot: true})
	add(&link{Link: Link{Step: 14, File: "main.go", Line: 20, Func: "main.g", Matched: true, PassVertices: 8, FailVertices: 8,
		Deltas: 1, Tests: 2, Relevant: []Delta{{Kind: "add", Var: "s[1]", New: "a & b", Text: "s[1] = \"a & b\" (added)"}}}})
	c.trans = []Transition{
		{FromStep: 9, ToStep: 14, Where: "main.go:12 → main.go:20", Func: "main.f", Before: []string{"x"}, After: []string{"s[1]"},
			Kind: "call", Overwritten: []string{"x"}, Direct: false, Suggested: true},
		{FromStep: 2, ToStep: 9, Where: "main.go:5 → main.go:12", Func: "main.main", Before: []string{}, After: []string{"x"}, Kind: "diverges"},
	}
	sum := &report.Summary{Command: "chain", Tests: 9, Runs: 7, Checks: 2, Outcomes: report.Outcomes{Pass: 3, Fail: 3, Unresolved: 1}, Confirmed: true, Minimal: true}
	cl := c.Close(sum, command.End{Minimal: true, Confirmed: true})
	var js strings.Builder
	if err := sum.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	golden(t, "close.json", js.String())
	var rec report.Recorder
	rec.Record(report.Event{Test: 1, Pass: "deltas at main.go:12", Config: "1..", Changes: 1, Outcome: "FAIL", Detail: "panic"})
	rec.Record(report.Event{Test: 2, Pass: "deltas at main.go:12", Config: ".2.", Changes: 1, Outcome: "PASS"})
	rec.Record(report.Event{Test: 3, Pass: "deltas at main.go:12", Config: "..3", Changes: 1, Outcome: "UNRESOLVED"})
	p := cl.Page()
	p.Summary = sum
	var page strings.Builder
	if err := rec.WriteHTML(&page, p); err != nil {
		t.Fatal(err)
	}
	golden(t, "close.html", page.String())
}
