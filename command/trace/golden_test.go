package trace

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/internal/goldenfile"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// TestCloseGolden: the JSON summary and the HTML report of a slice stay
// as they are, byte for byte: every field of the trace's part of the
// summary set, the outcomes in trace's words.
func TestCloseGolden(t *testing.T) {
	root := t.TempDir()
	src := "package main\n\nfunc main() {\n\tx := 1\n\tif x < 2 {\n\t\tprintln(x)\n\t}\n}\n\nfunc two() int {\n\treturn 2\n}\n"
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := &Trace{
		root: root, work: t.TempDir(), hierarchy: true, before: 6, buildTime: 1500e6,
		obs: runner.Observation{Stdout: true, Lines: regexp.MustCompile("x < 2")},
		prog: &instrument.Program{
			Stmts: []instrument.Stmt{
				{ID: 1, Kind: instrument.Statement, File: "main.go", Line: 4, Text: "x := 1", Func: "main.main"},
				{ID: 2, Kind: instrument.Statement, File: "main.go", Line: 5, Text: "if x < 2 {", Func: "main.main"},
				{ID: 3, Kind: instrument.Statement, File: "main.go", Line: 6, Text: "println(x)", Func: "main.main"},
				{ID: 4, Kind: instrument.Statement, File: "main.go", Line: 10, Text: "return 2", Func: "main.two"},
			},
			Unguarded: []instrument.Unguarded{{File: "main.go", Line: 3, Why: "a function's <header>"}},
		},
		origCounts: []uint32{0, 1, 2, 3, 2},
		levels:     []Level{{Name: "functions and loops", Before: 2, After: 1, Tests: 3}, {Name: "statement instances", Before: 6, After: 3, Tests: 9}},
		skip:       map[int][]uint32{2: {2}, 3: {1, 3}},
		kept:       []inst{{1, 1}, {2, 1}, {3, 2}},
	}
	sum := &report.Summary{Command: "trace", Tests: 14, Runs: 12, Checks: 2, Outcomes: report.Outcomes{Pass: 5, Fail: 6, Unresolved: 1}, Confirmed: true, Minimal: true}
	cl := tr.Close(sum, command.End{Minimal: true, Confirmed: true})
	var js strings.Builder
	if err := sum.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	check := func(name, got string) {
		got = strings.ReplaceAll(got, root, "$ROOT")
		goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
	}
	check("close.json", js.String())
	var rec report.Recorder
	rec.Record(report.Event{Test: 1, Pass: "statement instances", Config: "1.3", Size: 2, Outcome: "FAIL"})
	rec.Record(report.Event{Test: 2, Pass: "statement instances", Config: "..3", Size: 1, Outcome: "PASS", Detail: "other lines"})
	rec.Record(report.Event{Test: 3, Pass: "statement instances", Config: "1..", Size: 1, Outcome: "UNRESOLVED", Cached: true})
	p := cl.Page()
	p.Summary = sum
	var page strings.Builder
	if err := rec.WriteHTML(&page, p); err != nil {
		t.Fatal(err)
	}
	check("close.html", page.String())
}
