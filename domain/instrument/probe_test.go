package instrument

import (
	"encoding/json"
	"fmt"
	"go/importer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/memgraph"
)

// probeModule instruments the main package of a module made by module
// with probes.
func probeModule(t *testing.T, dir string) *Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Probes([]Package{{ImportPath: "example.com/p", Files: []File{{Path: filepath.Join(dir, "main.go"), Src: src}}}},
		Options{Importer: importer.ForCompiler(token.NewFileSet(), "gc", nil), Module: "example.com/p", ModuleDir: dir, GoVersion: "go1.24"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runState runs the program with a state plan.
func runState(t *testing.T, bin string, plan StatePlan, args ...string) result {
	t.Helper()
	f := filepath.Join(t.TempDir(), "plan")
	if err := os.WriteFile(f, plan.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(StatePlanEnv, f)
	defer os.Unsetenv(StatePlanEnv)
	return run(t, bin, nil, args...)
}

func probeLine(t *testing.T, p *Program, marker string, src []byte) int {
	t.Helper()
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, marker) {
			for _, s := range p.Stmts {
				if s.Line == i+1 {
					return s.ID
				}
			}
		}
	}
	t.Fatalf("no probe on the line of %q", marker)
	return 0
}

// capture runs the program to the probe's first step and reads the
// state there; ops, when set, are applied first.
func capture(t *testing.T, bin string, probe int, stack string, ops []memgraph.Op, args ...string) *memgraph.Graph {
	t.Helper()
	out := filepath.Join(t.TempDir(), "graph.json")
	m := Moment{Probe: probe, Stack: stack, Occurrence: 1, Graph: out}
	if stack == "" {
		m.Stack = "main.main"
	}
	if ops != nil {
		m.Ops = memgraph.Encode(ops)
	}
	plan := StatePlan{At: []Moment{m}}
	r := runState(t, bin, plan, args...)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no state captured (%v): %+v", err, r)
	}
	g, err := memgraph.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func vertexNamed(t *testing.T, g *memgraph.Graph, name string) memgraph.Vertex {
	t.Helper()
	for i := range g.Vertices {
		if g.Name(i) == name {
			return g.Vertices[i]
		}
	}
	t.Fatalf("no vertex %s", name)
	return memgraph.Vertex{}
}

func TestProbeCapture(t *testing.T) {
	src, err := os.ReadFile("testdata/probe/kinds.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := module(t, src)
	p := probeModule(t, dir)
	bin := build(t, dir, p)
	probe := probeLine(t, p, "// probe", src)
	// The instrumented program does what the program does.
	want := "b3 [1 2 3 9] [1 2] 2 [1 2 3 9] map[x:1 y:3 z:3] ab [true true] 1.5 3 6 3 10\n"
	if r := run(t, bin, nil, "3"); r.stdout != want {
		t.Fatalf("instrumented output %q, want %q", r.stdout, want)
	}
	g := capture(t, bin, probe, "", nil, "3")
	if g.Point.Line != 54 || g.Point.Func != "main.main" || g.Point.Occurrence != 1 {
		t.Errorf("point %+v", g.Point)
	}
	for _, c := range []struct{ name, kind, value string }{
		{"n", "atom", "3"},
		{"(*b).Label", "atom", `"b3"`},
		{"keep[3]", "atom", "9"},
		{"(*b).Scores", "slice", ""},
		{"(*b).tags[\"z\"]", "atom", "3"},
		{"(*b).data", "atom", `"ab"`},
		{"(*b).grid[1]", "atom", "true"},
		{"(*b).ratio", "atom", "1.5"},
		{"(*(*b).list).next", "ptr", ""},
		{"(*(*(*b).list).next).val", "atom", "3"},
		{"(*(*(*b).list).next).next", "ptr", ""},
		{"(*b).s", "iface", "main.rect"},
		{"(*b).s.(main.rect).w", "atom", "3"},
		{"(*b).ch", "opaque", ""},
		{"(*b).f", "opaque", ""},
		{"(*b).weight", "atom", "3"},
		{"main.total", "atom", "10"},
		{"os.Args[1]", "atom", `"3"`},
	} {
		v := vertexNamed(t, g, c.name)
		if string(v.Kind) != c.kind || v.Value != c.value {
			t.Errorf("%s: %s %q, want %s %q", c.name, v.Kind, v.Value, c.kind, c.value)
		}
	}
	if v := vertexNamed(t, g, "(*(*(*b).list).next).next"); !v.Nil {
		t.Errorf("the list's end is not nil")
	}
	// Aliases: one vertex for b.Scores[1], alias[1], *p and keep[1],
	// named by the first: alias[1].
	var id int
	for i := range g.Vertices {
		if g.Name(i) == "alias[1]" {
			id = i
		}
	}
	names := strings.Join(g.Names(id), " ")
	for _, n := range []string{"(*b).Scores[1]", "alias[1]", "*p", "keep[1]"} {
		if !strings.Contains(names, n) {
			t.Errorf("alias[1] has the names %s, not %s", names, n)
		}
	}
}

// TestProbeApply transplants every difference between two runs' states
// into the passing one (§A.2.5): afterwards the graphs match entirely,
// and the program goes on with the failing run's values.
func TestProbeApply(t *testing.T) {
	src, err := os.ReadFile("testdata/probe/kinds.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := module(t, src)
	p := probeModule(t, dir)
	bin := build(t, dir, p)
	probe := probeLine(t, p, "// probe", src)
	for _, c := range []struct{ pass, fail string }{{"2", "3"}, {"3", "2"}, {"1", "4"}} {
		gp := capture(t, bin, probe, "", nil, c.pass)
		gf := capture(t, bin, probe, "", nil, c.fail)
		m := memgraph.Match(gp, gf)
		deltas := m.Deltas()
		if len(deltas) == 0 {
			t.Fatalf("%s→%s: no differences", c.pass, c.fail)
		}
		all := make([]int, len(deltas))
		for i := range all {
			all[i] = i
		}
		ops := m.Plan(deltas, all)
		after := capture(t, bin, probe, "", ops, c.pass)
		rest := memgraph.Match(after, gf).Deltas()
		if len(rest) > 0 {
			m2 := memgraph.Match(after, gf)
			var left []string
			for _, d := range rest {
				left = append(left, m2.Describe(d))
			}
			js, _ := json.Marshal(ops)
			t.Errorf("%s→%s: after applying all %d deltas, %d remain: %s\nops: %s", c.pass, c.fail, len(deltas), len(rest), strings.Join(left, "; "), js)
		}
		// Matching works: identical variables give no deltas.
		for _, d := range deltas {
			if place := m.Place(d); strings.HasPrefix(place, "(*b).ch") || strings.HasPrefix(place, "(*b).f") || place == "(*(*b).list).val" {
				t.Errorf("%s→%s: a delta where both runs agree: %s", c.pass, c.fail, m.Describe(d))
			}
		}
	}
}

// gdbSample builds a C program for the gdb backend, or skips.
func gdbSample(t *testing.T, src string) (bin string, lines []GDBLine) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: compiles a C program and runs it under gdb")
	}
	if _, err := exec.LookPath("gdb"); err != nil {
		t.Skip("no gdb")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(c, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, "prog")
	if out, err := exec.Command("gcc", "-g", "-O0", "-o", bin, c).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	lines, err = ListGDBLines(bin, dir, func(argv, env []string) (bool, string, error) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return err == nil, string(out), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bin, lines
}

// gdbCapture runs the C program under the chain script with a plan and
// reads the state of its one moment.
func gdbCapture(t *testing.T, bin string, lines []GDBLine, m Moment, args ...string) (*memgraph.Graph, result) {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "chain.py")
	if err := os.WriteFile(script, GDBChainScript(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(GDBConfig{Mode: "run", Binary: bin, Args: []string{}, Elements: lines})
	cfgPath := filepath.Join(dir, "gdb.json")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	m.Graph = filepath.Join(dir, "graph.json")
	plan := filepath.Join(dir, "plan")
	if err := os.WriteFile(plan, StatePlan{At: []Moment{m}, Args: args}.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(GDBArgv(script)[0], GDBArgv(script)[1:]...)
	cmd.Env = append(os.Environ(), GDBChainEnv+"="+cfgPath, StatePlanEnv+"="+plan)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	}
	data, err := os.ReadFile(m.Graph)
	if err != nil {
		t.Fatalf("no state captured: %+v", r)
	}
	g, err := memgraph.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return g, r
}

func gdbProbe(t *testing.T, lines []GDBLine, src, marker string) int {
	t.Helper()
	data, _ := os.ReadFile(src)
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			for j, gl := range lines {
				if gl.Line == i+1 {
					return j + 1
				}
			}
		}
	}
	t.Fatalf("no line with %q", marker)
	return 0
}

// TestGDBCapture: the gdb backend's graph of a C program's state:
// atoms, structs, arrays, char arrays and pointers as strings, a list
// through pointers, a dynamic array sized from its heap block, an
// alias into it, globals.
func TestGDBCapture(t *testing.T) {
	bin, lines := gdbSample(t, "testdata/probe/kinds.c")
	probe := gdbProbe(t, lines, "testdata/probe/kinds.c", "/* probe */")
	g, r := gdbCapture(t, bin, lines, Moment{Probe: probe, Stack: "main", Occurrence: 1}, "3")
	if r.stdout != "box 3 3 1.5 3 3 9 10 3\n" || r.exit != 0 {
		t.Errorf("the program under gdb: %+v", r)
	}
	for _, c := range []struct{ name, kind, value string }{
		{"n", "atom", "3"},
		{"b.label", "atom", `"box"`},
		{"b.grid[1]", "atom", "3"},
		{"b.ratio", "atom", "1.5"},
		{"(*second).val", "atom", "3"},
		{"(*second).next", "ptr", ""},
		{"(*b.list).val", "atom", "1"},
		{"*b.name", "atom", `"3"`},
		{"heap[3]", "atom", "9"},
		{"total", "atom", "10"},
		{"argc", "atom", "2"},
		{"argv[1]", "ptr", ""}, // main's argv is argc strings
	} {
		v := vertexNamed(t, g, c.name)
		if string(v.Kind) != c.kind || v.Value != c.value {
			t.Errorf("%s: %s %q, want %s %q", c.name, v.Kind, v.Value, c.kind, c.value)
		}
	}
	if v := vertexNamed(t, g, "(*second).next"); !v.Nil {
		t.Error("the list's end is not NULL")
	}
	if names := strings.Join(g.Names(g.Lookup("*second")), " "); !strings.Contains(names, "*(*b.list).next") {
		t.Errorf("*second has the names %s, not *(*b.list).next", names)
	}
	if names := strings.Join(g.Names(g.Lookup("*b.name")), " "); !strings.Contains(names, "*argv[1]") {
		t.Errorf("*b.name has the names %s, not *argv[1] (the string b.name shares with argv[1])", names)
	}
	// alias points into heap's block: one vertex, two names.
	id := g.Lookup("*alias")
	if names := strings.Join(g.Names(id), " "); !strings.Contains(names, "heap[1]") {
		t.Errorf("*alias has the names %s, not heap[1]", names)
	}
}

// TestGDBApply transplants the differences between two runs' states
// into the passing one through gdb (set variable): the graphs then
// match, and the program goes on with the failing run's values.
func TestGDBApply(t *testing.T) {
	bin, lines := gdbSample(t, "testdata/probe/kinds.c")
	probe := gdbProbe(t, lines, "testdata/probe/kinds.c", "/* probe */")
	at := Moment{Probe: probe, Stack: "main", Occurrence: 1}
	gp, _ := gdbCapture(t, bin, lines, at, "2")
	gf, rf := gdbCapture(t, bin, lines, at, "5")
	m := memgraph.Match(gp, gf)
	deltas := m.Deltas()
	all := make([]int, len(deltas))
	for i := range all {
		all[i] = i
	}
	at.Ops = memgraph.Encode(m.Plan(deltas, all))
	after, r := gdbCapture(t, bin, lines, at, "2")
	m2 := memgraph.Match(after, gf)
	if rest := m2.Deltas(); len(rest) > 0 {
		var left []string
		for _, d := range rest {
			left = append(left, m2.Describe(d))
		}
		t.Errorf("after applying all %d deltas, %d remain: %s", len(deltas), len(rest), strings.Join(left, "; "))
	}
	if r.stdout != rf.stdout {
		t.Errorf("transplanted run printed %q, the failing run %q", r.stdout, rf.stdout)
	}
}

// TestMaxStateFile: the runtime's bound on the files that are state is
// the one the chain tells users of.
func TestMaxStateFile(t *testing.T) {
	if want := fmt.Sprintf("const maxNamed = %d << 10", MaxStateFile>>10); !strings.Contains(string(probeTemplate), want) {
		t.Errorf("the runtime has no %q", want)
	}
}

// TestProbeCaptureCut: a state larger than the limit is cut fairly: a
// long slice unfolded first does not take the place of a short one's
// elements, and every variable keeps its first parts.
func TestProbeCaptureCut(t *testing.T) {
	src := []byte(`package main

import "fmt"

func main() {
	long := make([]int, 5000)
	short := []int{7, 8}
	fmt.Println(len(long), short) // probe
}
`)
	dir := module(t, src)
	p := probeModule(t, dir)
	bin := build(t, dir, p)
	out := filepath.Join(t.TempDir(), "graph.json")
	plan := StatePlan{At: []Moment{{Probe: probeLine(t, p, "// probe", src), Stack: "main.main", Occurrence: 1, Graph: out}}, MaxVertices: 100}
	runState(t, bin, plan)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	g, err := memgraph.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Cut || g.Size() > 101 {
		t.Errorf("cut %v, %d vertices; want a cut at 100", g.Cut, g.Size())
	}
	for name, want := range map[string]string{"short[1]": "8", "long[0]": "0", "long[40]": "0"} {
		if v := vertexNamed(t, g, name); v.Value != want {
			t.Errorf("%s = %q, want %q", name, v.Value, want)
		}
	}
}
