package reduce

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// reduceBE reduces "a b c d e f" in a fresh directory to out.txt (-j1,
// by runes) with a target that fails while the input holds b and e,
// except that on the runs flake says (given the content and how often it
// ran) it answers the other way.
// It returns the exit status, what wynot said, and how often each content
// ran.
func reduceBE(t *testing.T, flake func(data string, k int) bool) (int, string, map[string]int) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache"))
	if err := os.WriteFile("in.txt", []byte("a b c d e f"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	runs := map[string]int{}
	fake := func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
		data, err := os.ReadFile(filepath.Join(dir, "in.txt"))
		if err != nil {
			return runner.Run{}, err
		}
		mu.Lock()
		runs[string(data)]++
		k := runs[string(data)]
		mu.Unlock()
		fails := strings.Contains(string(data), "b") && strings.Contains(string(data), "e")
		if flake(string(data), k) {
			fails = !fails
		}
		if fails {
			return runner.Run{Exit: 2, Stderr: []byte("panic: boom\n")}, nil
		}
		return runner.Run{}, nil
	}
	var stderr strings.Builder
	code := Command.Main(context.Background(), []string{"-j1", "--split", "runes", "-o", "out.txt", "in.txt", "--", "prog", "{}"},
		command.Env{Stdout: io.Discard, Stderr: &stderr, Fake: fake})
	return code, stderr.String(), runs
}

// TestConfirmsTheResult checks that the run after the search confirms the
// result, not the input it began from: the result runs again (three
// times and once more, under --repeat auto), the original only in its
// two checks.
func TestConfirmsTheResult(t *testing.T) {
	code, stderr, runs := reduceBE(t, func(string, int) bool { return false })
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// Once in the search, AutoRepeat times to confirm it, and once more:
	// with the original's second run and one recheck of each of its two
	// removals, 6 fresh runs agreed, and a confirmation needs 7.
	if runs["be"] != 1+command.AutoRepeat+1 {
		t.Errorf("the result ran %d times, want once in the search and %d times to confirm it", runs["be"], command.AutoRepeat+1)
	}
	if runs["a b c d e f"] != 2 {
		t.Errorf("the original ran %d times, want twice", runs["a b c d e f"])
	}
}

// TestRestartFromOriginal: when the result does not fail again (here the
// test passes it on its second to fourth runs, all three confirmation
// runs), the search starts over
// from the original, which -o left in the input file, and the result
// that holds up is written.
func TestRestartFromOriginal(t *testing.T) {
	code, stderr, _ := reduceBE(t, func(data string, k int) bool { return data == "be" && k >= 2 && k <= 4 })
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "searching again from the original") {
		t.Errorf("no restart:\n%s", stderr)
	}
	if got, _ := os.ReadFile("out.txt"); string(got) != "be" {
		t.Errorf("result %q", got)
	}
	if got, _ := os.ReadFile("in.txt"); string(got) != "a b c d e f" {
		t.Errorf("the input became %q", got)
	}
}

// TestSameLengthReplacement: a replacement that keeps the length (a
// number by 0) is taken when the input still fails, so the result is
// 1-minimal for it; before, the search found it, the reducer left it
// behind as not smaller, and the final check took the deterministic
// test for a flaky one.
func TestSameLengthReplacement(t *testing.T) {
	got, stderr := reduceGoFile(t, "package p\n\nfunc g(a, b int) int { return a + b }\n\nvar v = g(4, 5)\n",
		func(data string) bool { return strings.Contains(data, "g(") && strings.Contains(data, "var v") },
		"-j2", "--split", "go")
	if strings.ContainsAny(got, "45") {
		t.Errorf("the result keeps a number that 0 replaces:\n%s", got)
	}
	if strings.Contains(stderr, "flaky") || !strings.Contains(stderr, "is 1-minimal") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// reduceGoFile reduces src as in.go in a fresh directory with flags,
// the test a fake process that fails when fails says so of the
// candidate; the run must exit 0. It returns the result and what wynot
// said.
func reduceGoFile(t *testing.T, src string, fails func(data string) bool, flags ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache"))
	if err := os.WriteFile("in.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	code := Command.Main(context.Background(), append(flags, "in.go", "--", "prog", "{}"),
		command.Env{Stdout: io.Discard, Stderr: &stderr, Fake: goFake(fails)})
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	got, _ := os.ReadFile("in.go")
	return string(got), stderr.String()
}

// goFake is a test process that fails (exit status 1) when fails says
// so of the candidate in.go, and passes otherwise.
func goFake(fails func(data string) bool) func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
	return func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
		data, err := os.ReadFile(filepath.Join(dir, "in.go"))
		if err != nil {
			return runner.Run{}, err
		}
		if fails(string(data)) {
			return runner.Run{Exit: 1}, nil
		}
		return runner.Run{}, nil
	}
}

// prepare returns as soon as its context ends, without waiting for the
// work it was given, and runs none once it has.
func TestPrepareInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	errc := make(chan error, 1)
	go func() { errc <- prepare(ctx, func() { close(started); <-release }) }()
	<-started
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Errorf("prepare = %v, want context.Canceled", err)
	}
	ran := false
	if err := prepare(ctx, func() { ran = true }); err != context.Canceled || ran {
		t.Errorf("prepare after the end = %v (ran %v)", err, ran)
	}
	if err := prepare(context.Background(), func() { ran = true }); err != nil || !ran {
		t.Errorf("prepare = %v (ran %v)", err, ran)
	}
}

func TestBeyondVerdict(t *testing.T) {
	for _, c := range []struct {
		g    schedule.Guarantee
		want string
	}{
		{schedule.Guarantee{N: 3, Span: 8, Finest: []string{"runes"}, Spanned: []string{"lines", "tokens", "characters"}}, "and 3-minimal: no two or three of its characters, and no run of 2 to 8 consecutive lines, tokens or characters, can be removed at once with the failure still there"},
		{schedule.Guarantee{N: 2, Finest: []string{"bytes"}}, "and 2-minimal: no two of its bytes can be removed at once with the failure still there"},
		{schedule.Guarantee{N: 1, Span: 4, Spanned: []string{"syntax tree transformations"}}, "and no run of 2 to 4 consecutive syntax tree transformations can be removed at once with the failure still there"},
		{schedule.Guarantee{N: 2, Span: 2, Finest: []string{"lines"}, Spanned: []string{"lines"}}, "and 2-minimal: no two of its lines, and no run of 2 consecutive lines, can be removed at once with the failure still there"},
	} {
		if got := beyondVerdict(c.g); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.g, got, c.want)
		}
	}
}

// TestPrintingUndoesNoRemoval: removing the space between two Go tokens
// gives back, printed, the input as it is; taking it as a step would
// leave the search's configuration without a change the text still
// holds, so that removing * after it would join b and a. Found on a
// reduced BurntSushi/toml tree: the final check found "(b *a)" →
// "(b a)" still failing, and called the deterministic build flaky.
func TestPrintingUndoesNoRemoval(t *testing.T) {
	// Fails while it is Go with a method whose receiver is named b and
	// whose type is named a.
	got, stderr := reduceGoFile(t, "package a\n\nfunc (b *a) a() {}\n", func(data string) bool {
		_, err := parser.ParseFile(token.NewFileSet(), "in.go", data, 0)
		return err == nil && (strings.Contains(data, "(b a)") || strings.Contains(data, "(b *a)"))
	}, "-j1", "--n-minimal", "0")
	if !strings.Contains(got, "(b a)") {
		t.Errorf("the result keeps the * that can go:\n%s", got)
	}
	if strings.Contains(stderr, "flaky") || strings.Contains(stderr, "after all") || !strings.Contains(stderr, "is 1-minimal") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// failsFirst is a compiler whose first error is the failure: Go source
// fails while it calls min and has no type error on a line before the
// call's (go build reports errors in the order of their lines).
func failsFirst(data string) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "in.go", data, 0)
	if err != nil {
		return false
	}
	at := 0
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && at == 0 {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "min" {
				at = fset.Position(c.Pos()).Line
			}
		}
		return true
	})
	if at == 0 {
		return false
	}
	ok := true
	conf := types.Config{Importer: importer.Default(), Error: func(err error) {
		if te, is := err.(types.Error); is && te.Fset.Position(te.Pos).Line < at {
			ok = false
		}
	}}
	conf.Check("a", fset, []*ast.File{f}, nil)
	return ok
}

// TestTypeProbeAgain: the probes before the search meet type errors
// before the failure's line (a compiler reports those instead) and keep
// the predictions of new type errors; on the 1-minimal result, a
// candidate one change away with a new type error after that line
// (missing return) still fails: the predictions are turned off and the
// search goes on from it.
func TestTypeProbeAgain(t *testing.T) {
	src := "package a\n\nfunc g() int { return 0 }\n\nfunc f() int {\n\tx := g()\n\ty := x\n\tz := y\n\tx = z\n\tif min(0) > 0 {\n\t}\n\treturn x\n}\n"
	if !failsFirst(src) || failsFirst(strings.Replace(src, "func g() int { return 0 }", "", 1)) {
		t.Fatal("the fake compiler does not tell the original from a candidate with an error before min")
	}
	got, stderr := reduceGoFile(t, src, failsFirst, "-j1")
	if strings.Contains(got, "return") || !failsFirst(got) {
		t.Errorf("the result keeps what only a candidate with a new type error removes:\n%s\n%s", got, stderr)
	}
	if !strings.Contains(stderr, "still fails: the test does not need code that type-checks") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestTypeProbeAgainPasses: the probe on the result takes the
// candidates of the passes the probes before the search take (the
// syntax tree's), not every character's removal that leaves a name
// undefined: on a result that only a type error could shrink further
// and none does, it tests few.
func TestTypeProbeAgainPasses(t *testing.T) {
	src := "package a\n\nfunc f(alpha, beta, gamma int) int {\n\tdelta := alpha + beta\n\tepsilon := delta * gamma\n\tif min(epsilon) > 0 {\n\t\treturn epsilon\n\t}\n\treturn delta\n}\n"
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache"))
	if err := os.WriteFile("in.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// Fails while the whole function is there and type-checks: no
	// candidate with a type error fails.
	fails := func(data string) bool {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "in.go", data, 0)
		if err != nil {
			return false
		}
		ok := true
		conf := types.Config{Importer: importer.Default(), Error: func(error) { ok = false }}
		conf.Check("a", fset, []*ast.File{f}, nil)
		return ok && strings.Contains(data, "min(epsilon)") && strings.Count(data, "return") == 2
	}
	var stdout, stderr strings.Builder
	if code := Command.Main(context.Background(), []string{"--json", "-j1", "in.go", "--", "prog", "{}"},
		command.Env{Stdout: &stdout, Stderr: &stderr, Fake: goFake(fails)}); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var sum struct {
		Passes []report.PassStats `json:"passes"`
	}
	if err := json.Unmarshal([]byte(stdout.String()), &sum); err != nil {
		t.Fatal(err)
	}
	probe := 0
	for _, p := range sum.Passes {
		if strings.HasPrefix(p.Name, "type probe") {
			probe += p.Tests
		}
	}
	t.Logf("type probe: %d tests", probe)
	if probe > 8 {
		t.Errorf("the type probe on the result tested %d candidates", probe)
	}
}
