package trace

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestPlan: a configuration keeps its instances and skips the others,
// on top of what an earlier level skipped.
func TestPlan(t *testing.T) {
	groups := [][]inst{{{1, 1}}, {{2, 1}, {2, 2}}, {{3, 1}}, {{2, 3}}}
	p := plan(map[int][]uint32{4: {2}}, groups, dd.Config{0, 2}, []uint32{0, 1, 3, 1, 2})
	got := string(p.Encode())
	want := "wynot-trace-plan 1\nlimit 1 3 1 2\nskip 2 1-3\nskip 4 2\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestInstances orders instances by time when the timeline is complete,
// by element otherwise.
func TestInstances(t *testing.T) {
	tr := &Trace{prog: &instrument.Program{Stmts: []instrument.Stmt{{ID: 1}, {ID: 2, Kind: instrument.Loop}, {ID: 3}}}}
	counts := []uint32{0, 1, 2, 2}
	timeline := []uint32{1, 2, 3, 2, 3}
	stmts := func(k instrument.Kind) bool { return k == instrument.Statement }
	if got := tr.instances(recording{counts, timeline, true}, stmts); len(got) != 3 || got[0] != (inst{1, 1}) || got[1] != (inst{3, 1}) || got[2] != (inst{3, 2}) {
		t.Errorf("by time: %v", got)
	}
	if got := tr.instances(recording{counts, timeline, false}, isUnit); len(got) != 2 || got[0] != (inst{2, 1}) || got[1] != (inst{2, 2}) {
		t.Errorf("by element: %v", got)
	}
}

// TestTable writes the slice as Fig. 6 of AADEBUG 2000 does (golden).
func TestTable(t *testing.T) {
	lines := []SliceLine{
		{File: "main.go", Line: 13, Text: "sum := 0", Ran: 1, Kept: []int{}},
		{File: "main.go", Line: 16, Text: "b, _ := strconv.Atoi(os.Args[2])", Ran: 1, Kept: []int{1}, Times: []int{4}},
		{File: "main.go", Line: 18, Text: "sum = sum + a", Ran: 6, Kept: []int{2, 3, 4, 5, 6}, Times: []int{8, 11, 14, 17, 20}},
		{File: "lex.go", Line: 87, Text: "lx.state = lx.state(lx) // a statement longer than the column is wide, cut", Ran: 20,
			Kept: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
	}
	golden(t, "testdata/table.golden", table(lines))
}

// golden compares got with a golden file (go test -update writes it).
func golden(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Check(t, path, got, *update)
}

// TestAnnotated shows the source around the statements that ran, each
// with its kept instances.
func TestAnnotated(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nfunc main() {\n\tx := 1\n\ty := 2\n\t_ = y\n\tprintln(x)\n}\n\n\n\nfunc f() {}\n"
	if err := os.WriteFile(dir+"/main.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := annotated([]SliceLine{
		{File: "main.go", Line: 4, Ran: 1, Kept: []int{1}, Times: []int{1}},
		{File: "main.go", Line: 5, Ran: 1, Kept: []int{}},
		{File: "main.go", Line: 7, Ran: 1, Kept: []int{1}, Times: []int{3}},
	}, func(f string) string { return filepath.Join(dir, f) })
	golden(t, "testdata/annotated.golden", got)
}
