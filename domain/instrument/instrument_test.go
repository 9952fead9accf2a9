package instrument

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wynot/wynot/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// module makes a module of one main package from a program's source.
func module(t *testing.T, src []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// instrumentModule instruments the main package of a module made by module.
func instrumentModule(t *testing.T, dir string) *Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Instrument([]Package{{ImportPath: "example.com/p", Files: []File{{Path: filepath.Join(dir, "main.go"), Src: src}}}},
		Options{Importer: importer.ForCompiler(token.NewFileSet(), "gc", nil), Module: "example.com/p", ModuleDir: dir, GoVersion: "go1.24"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// build builds the module, with the program's overlay when p is set.
func build(t *testing.T, dir string, p *Program) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds and runs instrumented programs")
	}
	bin := filepath.Join(t.TempDir(), "prog")
	args := []string{"build", "-o", bin}
	if p != nil {
		of, err := p.WriteOverlay(dir, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, "-overlay", of)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type result struct {
	stdout, stderr string
	exit           int
}

func run(t *testing.T, bin string, plan []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = os.Environ()
	if plan != nil {
		f := filepath.Join(t.TempDir(), "plan")
		if err := os.WriteFile(f, plan, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, PlanEnv+"="+f)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	r := result{o.String(), e.String(), 0}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPitfalls instruments each program of testdata/pitfalls, compares
// the instrumented source with its golden file, builds both and checks
// that, with nothing skipped, the instrumented program does exactly
// what the original does.
func TestPitfalls(t *testing.T) {
	files, _ := filepath.Glob("testdata/pitfalls/*.go")
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".go")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			dir := module(t, src)
			p := instrumentModule(t, dir)
			got := p.Overlay[filepath.Join(dir, "main.go")]
			golden := strings.TrimSuffix(f, ".go") + ".golden"
			goldenfile.Check(t, golden, string(got), *update)
			if n := bytes.Count(got, []byte("\n")); n != bytes.Count(src, []byte("\n")) {
				t.Errorf("the instrumented source has %d lines, the original %d", n, bytes.Count(src, []byte("\n")))
			}
			orig := run(t, build(t, dir, nil), nil)
			inst := build(t, dir, p)
			if r := run(t, inst, nil); r != orig {
				t.Errorf("instrumented run differs:\n got %+v\nwant %+v", r, orig)
			}
			// Recording changes nothing either, and counts something.
			counts := filepath.Join(t.TempDir(), "counts")
			if r := run(t, inst, Plan{Record: counts}.Encode()); r != orig {
				t.Errorf("recording run differs:\n got %+v\nwant %+v", r, orig)
			}
			data, err := os.ReadFile(counts)
			if err != nil {
				t.Fatal(err)
			}
			c := ReadCounts(data)
			if len(c) != len(p.Stmts)+1 {
				t.Fatalf("%d counts for %d elements", len(c), len(p.Stmts))
			}
			total := 0
			for _, n := range c {
				total += int(n)
			}
			if total == 0 {
				t.Error("nothing counted")
			}
		})
	}
}

// TestSkips runs the sample program of AADEBUG 2000 §6 with plans: a
// skipped instance does not happen, the others do, and a run that
// leaves the reference run's trace ends at once.
func TestSkips(t *testing.T) {
	src, err := os.ReadFile("../../examples/sample/main.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := module(t, src)
	p := instrumentModule(t, dir)
	bin := build(t, dir, p)
	id := func(line int) int {
		for _, s := range p.Stmts {
			if s.Line == line && s.Kind == Statement {
				return s.ID
			}
		}
		t.Fatalf("no statement on line %d", line)
		return 0
	}
	loopID := 0
	for _, s := range p.Stmts {
		if s.Kind == Loop {
			loopID = s.ID // the loop body: the 7th iteration comes first
		}
	}
	counts := filepath.Join(t.TempDir(), "counts")
	orig := run(t, bin, Plan{Record: counts}.Encode(), "0", "5")
	if orig.stdout != "sum = 15\nmul = 0\n" {
		t.Fatalf("original: %+v", orig)
	}
	data, err := os.ReadFile(counts)
	if err != nil {
		t.Fatal(err)
	}
	limit := ReadCounts(data)
	if got := limit[id(18)]; got != 6 {
		t.Errorf("sum = sum + a ran %d times, want 6", got)
	}
	for _, c := range []struct {
		name string
		skip map[int][]uint32
		want result
	}{
		{"sum misses a = 1 and a = 3", map[int][]uint32{id(18): {2, 4}}, result{stdout: "sum = 11\nmul = 0\n"}},
		{"mul starts at zero", map[int][]uint32{id(14): {1}}, result{stdout: "sum = 15\nmul = 0\n"}},
		{"x := e skipped leaves x zero", map[int][]uint32{id(16): {1}}, result{stdout: "sum = 0\nmul = 0\n"}},
		{"all of mul's updates but the first", map[int][]uint32{id(19): {2, 3, 4, 5, 6}}, result{stdout: "sum = 15\nmul = 0\n"}},
		{"the loop runs longer than the reference run", map[int][]uint32{id(20): {1}},
			result{stderr: fmt.Sprintf("wynot trace runtime: the run diverged: main.go:%d ran more often than in the reference run\n", p.Stmt(loopID).Line), exit: 125}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run(t, bin, Plan{Skip: c.skip, Limit: limit}.Encode(), "0", "5"); got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	// A timeline holds the statement order.
	tl := filepath.Join(t.TempDir(), "timeline")
	run(t, bin, Plan{Timeline: tl, TimelineCap: 100}.Encode(), "0", "1")
	data, err = os.ReadFile(tl)
	if err != nil {
		t.Fatal(err)
	}
	events, complete := ReadTimeline(data)
	var lines []int
	for _, e := range events {
		lines = append(lines, p.Stmt(int(e)).Line)
	}
	// sum, mul, a, b, then two iterations (loop body, sum, mul, a), the prints.
	want := []int{13, 14, 15, 16, 17, 18, 19, 20, 17, 18, 19, 20, 22, 23}
	if !complete || fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("timeline %v (complete %v), want %v", lines, complete, want)
	}
	run(t, bin, Plan{Timeline: tl, TimelineCap: 3}.Encode(), "0", "1")
	data, _ = os.ReadFile(tl)
	if events, complete := ReadTimeline(data); complete || len(events) != 3 {
		t.Errorf("a timeline of 3 of 14 events: %d events, complete %v", len(events), complete)
	}
}

func TestPlanEncode(t *testing.T) {
	got := string(Plan{Record: "/r", Skip: map[int][]uint32{3: {7, 1, 2, 3, 9, 10}, 1: {4}, 2: nil}, Limit: []uint32{0, 5, 6, 7}}.Encode())
	want := "wynot-trace-plan 1\nrecord /r\nlimit 5 6 7\nskip 1 4\nskip 3 1-3 7 9-10\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestOldLanguageVersion: a module that declares Go 1.16 builds
// instrumented: the runtime's file states the version it needs, and no
// rewrite uses type parameters in the module's files.
func TestOldLanguageVersion(t *testing.T) {
	src, err := os.ReadFile("testdata/pitfalls/shadowtype.go")
	if err != nil {
		t.Fatal(err)
	}
	dir, p := go116(t, src)
	if bytes.Contains(p.Overlay[filepath.Join(dir, "main.go")], []byte(".Zero(")) || len(p.Unguarded) != 1 {
		t.Errorf("in a Go 1.16 module: %d unguarded, source:\n%s", len(p.Unguarded), p.Overlay[filepath.Join(dir, "main.go")])
	}
	orig := run(t, build(t, dir, nil), nil)
	if got := run(t, build(t, dir, p), nil); got != orig {
		t.Errorf("instrumented run differs:\n got %+v\nwant %+v", got, orig)
	}
}

// TestOldLanguageVariadicAny: in a Go 1.16 module, a variable that holds
// a function of the standard library with a variadic ...any parameter
// (fmt.Println's, testing.T's Errorf) is declared by the rewrite with
// interface{}: any is not a name before Go 1.18 (go-strutil v0.1.4,
// whose go.mod has no go line, did not build instrumented).
func TestOldLanguageVariadicAny(t *testing.T) {
	src := []byte("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tout := fmt.Println\n\tif len(fmt.Sprint()) == 0 {\n\t\tout = fmt.Print\n\t}\n\tout(\"x\")\n}\n")
	dir, p := go116(t, src)
	if out := p.Overlay[filepath.Join(dir, "main.go")]; regexp.MustCompile(`\bany\b`).Match(out) {
		t.Errorf("the rewrite names any in a Go 1.16 module:\n%s", out)
	}
	orig := run(t, build(t, dir, nil), nil)
	if got := run(t, build(t, dir, p), nil); got != orig {
		t.Errorf("instrumented run differs:\n got %+v\nwant %+v", got, orig)
	}
}

// go116 instruments src as the main package of a module that declares
// Go 1.16, in a directory of its own.
func go116(t *testing.T, src []byte) (string, *Program) {
	t.Helper()
	dir := module(t, src)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Instrument([]Package{{ImportPath: "example.com/p", Files: []File{{Path: filepath.Join(dir, "main.go"), Src: src}}}},
		Options{Importer: importer.ForCompiler(token.NewFileSet(), "gc", nil), Module: "example.com/p", ModuleDir: dir, GoVersion: "go1.16"})
	if err != nil {
		t.Fatal(err)
	}
	return dir, p
}
