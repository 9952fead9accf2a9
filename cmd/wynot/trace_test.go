package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/internal/proctest"
)

// traceModule makes a module of one main package from a program's file.
func traceModule(t *testing.T, file string) string {
	t.Helper()
	return goModule(t, string(read(t, file)))
}

// goModule makes a module of one main package from its source.
func goModule(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.24\n"))
	write(t, filepath.Join(dir, "main.go"), []byte(src))
	return dir
}

// replayer runs the program instrumented independently of wynot (the
// same instrumentation gives the same element ids), with plans.
type replayer struct {
	t    *testing.T
	prog *instrument.Program
	bin  string
	dir  string
	args []string
}

func newReplayer(t *testing.T, dir string, args ...string) *replayer {
	t.Helper()
	src := read(t, filepath.Join(dir, "main.go"))
	p, err := instrument.Instrument([]instrument.Package{{ImportPath: "example.com/p", Files: []instrument.File{{Path: filepath.Join(dir, "main.go"), Src: src}}}},
		instrument.Options{Importer: importer.ForCompiler(token.NewFileSet(), "gc", nil), Module: "example.com/p", ModuleDir: dir, GoVersion: "go1.24"})
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	ov, err := p.WriteOverlay(dir, work, nil)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "prog")
	if out, err := exec.Command("go", "-C", dir, "build", "-overlay", ov, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return &replayer{t, p, bin, dir, args}
}

// run runs the program with a plan and returns what it printed and how
// it ended.
func (r *replayer) run(p instrument.Plan) string {
	r.t.Helper()
	f := filepath.Join(r.t.TempDir(), "plan")
	write(r.t, f, p.Encode())
	cmd := exec.Command(r.bin, r.args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), instrument.PlanEnv+"="+f)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return fmt.Sprintf("stdout %q stderr %q exit %d", out.String(), errb.String(), code)
}

// counts records a run's counts.
func (r *replayer) counts(p instrument.Plan) []uint32 {
	r.t.Helper()
	p.Record = filepath.Join(r.t.TempDir(), "counts")
	r.run(p)
	return instrument.ReadCounts(read(r.t, p.Record))
}

// parseSkipped reads the summary's plan ("12: 1-4 7" is "12 1-4 7" in
// the plan file).
func parseSkipped(t *testing.T, lines []string) map[int][]uint32 {
	t.Helper()
	skip := map[int][]uint32{}
	for _, l := range lines {
		f := strings.Fields(l)
		id, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("bad skipped line %q", l)
		}
		for _, r := range f[1:] {
			a, b, ok := strings.Cut(r, "-")
			from, _ := strconv.Atoi(a)
			to := from
			if ok {
				to, _ = strconv.Atoi(b)
			}
			for k := from; k <= to; k++ {
				skip[id] = append(skip[id], uint32(k))
			}
		}
	}
	return skip
}

// checkSlice replays a slice independently: its plan (the calls and
// iterations skipped first, which set the reference counts, then the
// statement instances) reproduces the original output, and skipping any
// one kept instance more does not (AADEBUG 2000 §6: 1-minimality).
func checkSlice(t *testing.T, r *replayer, s summary, observe func(string) string) {
	t.Helper()
	skip := parseSkipped(t, s.Skipped)
	units := map[int][]uint32{}
	for id, ks := range skip {
		if r.prog.Stmt(id).Kind != instrument.Statement {
			units[id] = ks
		}
	}
	orig := r.counts(instrument.Plan{})
	ref := orig
	if len(units) > 0 {
		ref = r.counts(instrument.Plan{Skip: units, Limit: orig})
	}
	want := observe(r.run(instrument.Plan{}))
	if got := observe(r.run(instrument.Plan{Skip: skip, Limit: ref})); got != want {
		t.Fatalf("replaying the slice's plan: %s, want %s", got, want)
	}
	kept := 0
	for _, l := range s.Slice {
		id := 0
		for _, st := range r.prog.Stmts {
			if st.File == l.File && st.Line == l.Line && st.Kind == instrument.Statement {
				id = st.ID
			}
		}
		if id == 0 {
			t.Fatalf("no statement at %s:%d", l.File, l.Line)
		}
		for _, k := range l.Kept {
			kept++
			more := map[int][]uint32{}
			for i, ks := range skip {
				more[i] = append([]uint32(nil), ks...)
			}
			more[id] = append(more[id], uint32(k))
			if got := observe(r.run(instrument.Plan{Skip: more, Limit: ref})); got == want {
				t.Errorf("skipping %s:%d#%d too still reproduces the output: not 1-minimal", l.File, l.Line, k)
			}
		}
	}
	if kept != s.ElementsAfter {
		t.Errorf("the slice shows %d instances, the summary says %d", kept, s.ElementsAfter)
	}
}

// keptOn is how many instances of the statement on a line the slice keeps.
func keptOn(s summary, line int) int {
	for _, l := range s.Slice {
		if l.Line == line {
			return len(l.Kept)
		}
	}
	return -1
}

// TestTraceSample is AADEBUG 2000 §6's sample.pl in Go, run with a = 0,
// b = 5: the critical slice with respect to the whole output, to the
// sum alone and to the product alone (Fig. 6's columns).
func TestTraceSample(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := traceModule(t, "../../examples/sample/main.go")
	r := newReplayer(t, dir, "0", "5")
	lines := func(name string) func(string) string {
		re := regexp.MustCompile(name + ` = -?[0-9]+`)
		return func(out string) string { return strings.Join(re.FindAllString(out, -1), "|") }
	}
	whole := func(out string) string { return out }
	const (
		sumInit, mulInit, readA, readB = 13, 14, 15, 16
		sumAdd, mulMul, aInc           = 18, 19, 20
		printSum, printMul             = 22, 23
	)
	for _, c := range []struct {
		name    string
		args    []string
		observe func(string) string
		want    map[int]int // line -> instances kept
	}{
		// With a = 0, mul is 0 whatever it starts as: its initialization
		// and all its updates go (the seed's footnote); the first sum
		// update adds 0; the loop must run as often as it did.
		{"whole output", nil, whole, map[int]int{sumInit: 0, mulInit: 0, readA: 0, readB: 1, sumAdd: 5, mulMul: 0, aInc: 6, printSum: 1, printMul: 1}},
		// Only the sum: the product's output goes as well.
		{"sum alone", []string{"--observe", "^sum"}, lines("sum"), map[int]int{mulInit: 0, mulMul: 0, sumAdd: 5, aInc: 6, printSum: 1, printMul: 0}},
		// Only the product: next to nothing remains (seed: the initial
		// assignment and the output).
		{"mul alone", []string{"--observe", "^mul"}, lines("mul"), map[int]int{sumAdd: 0, mulMul: 0, printSum: 0, printMul: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"trace", "--json", "-j2"}, c.args...)
			res := wynotRun(t, dir, nil, append(args, ".", "--", "0", "5")...)
			if res.code != 0 {
				t.Fatalf("exit %d:\n%s", res.code, res.stderr)
			}
			s := res.summary(t)
			if s.ElementsBefore != 24 || !s.Minimal || !s.Confirmed {
				t.Errorf("before %d, minimal %v, confirmed %v", s.ElementsBefore, s.Minimal, s.Confirmed)
			}
			for line, n := range c.want {
				if got := keptOn(s, line); got != n {
					t.Errorf("line %d: %d instances kept, want %d\n%s", line, got, n, res.stderr)
				}
			}
			checkSlice(t, r, s, c.observe)
			if !strings.Contains(res.stderr, "main.go:18  sum = sum + a") {
				t.Errorf("no slice table in the output:\n%s", res.stderr)
			}
		})
	}
}

// TestTraceScale reduces a run of more than 10⁵ statement instances
// through the hierarchy, within a bounded number of tests, and leaves
// the user's module as it was.
func TestTraceScale(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := traceModule(t, "testdata/trace/scale/main.go")
	before := treeDigest(t, dir)
	res := wynotRun(t, dir, nil, "trace", "--json", "-j2", ".")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	s := res.summary(t)
	t.Logf("%d instances -> %d in %d tests, %.1fs; levels %+v", s.ElementsBefore, s.ElementsAfter, s.Tests, s.Seconds, s.Levels)
	if len(s.Levels) != 4 || s.Levels[1].Name != "calls and iterations" || s.Levels[1].After >= s.Levels[1].Before {
		t.Errorf("levels %+v: want four, the calls and iterations reduced", s.Levels)
	}
	if s.ElementsBefore < 100000 {
		t.Errorf("only %d instances", s.ElementsBefore)
	}
	if s.Tests > 2000 {
		t.Errorf("%d tests: the hierarchy should need far fewer", s.Tests)
	}
	if !s.Minimal || !s.Confirmed || s.ElementsAfter == 0 || s.ElementsAfter > 200 {
		t.Errorf("minimal %v, confirmed %v, %d instances kept", s.Minimal, s.Confirmed, s.ElementsAfter)
	}
	if after := treeDigest(t, dir); after != before {
		t.Error("the module's files changed")
	}
	checkSlice(t, newReplayer(t, dir), s, func(out string) string { return out })
}

// cSample builds the sample program in C, statically, with debugging
// information and without optimization.
func cSample(t *testing.T) (dir, bin string) {
	t.Helper()
	if _, err := exec.LookPath("gdb"); err != nil {
		t.Skip("no gdb")
	}
	dir = t.TempDir()
	write(t, filepath.Join(dir, "sample.c"), read(t, "testdata/trace/sample.c"))
	bin = filepath.Join(dir, "sample")
	if out, err := exec.Command("gcc", "-g", "-O0", "-static", "-o", bin, filepath.Join(dir, "sample.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return dir, bin
}

// TestTraceGDBSample is the sample program in C under the GDB backend:
// a critical slice of the same shape as the Go program's, by line.
func TestTraceGDBSample(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, _ := cSample(t)
	res := wynotRun(t, dir, nil, "trace", "--gdb", "--json", "-j2", "./sample", "--", "0", "5")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	s := res.summary(t)
	if s.ElementsBefore != 26 || !s.Minimal || !s.Confirmed {
		t.Errorf("before %d, minimal %v, confirmed %v\n%s", s.ElementsBefore, s.Minimal, s.Confirmed, res.stderr)
	}
	const (
		mulInit, readB, sumAdd, mulMul, aInc, printSum, printMul = 8, 10, 12, 13, 14, 16, 17
	)
	// With a = 0 the product is 0 whatever mul starts as: its
	// initialization goes, and of its updates at most the first (a = 0)
	// stays, as in the seed's Fig. 6.
	for line, want := range map[int]int{mulInit: 0, readB: 1, sumAdd: 5, aInc: 6, printSum: 1, printMul: 1} {
		if got := keptOn(s, line); got != want {
			t.Errorf("line %d: %d instances kept, want %d\n%s", line, got, want, res.stderr)
		}
	}
	if got := keptOn(s, mulMul); got > 1 {
		t.Errorf("mul = mul * a: %d instances kept, want at most the first\n%s", got, res.stderr)
	}
}

// TestTraceStdinObserveExit: the program reads --stdin, and the slice is
// taken with respect to its exit status alone.
func TestTraceStdinObserveExit(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, `package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sum, n := 0, 0
	for sc.Scan() {
		v, _ := strconv.Atoi(sc.Text())
		sum += v
		n++
	}
	fmt.Println("read", n, "numbers")
	if sum%2 == 1 {
		os.Exit(3)
	}
}
`)
	write(t, filepath.Join(dir, "in.txt"), []byte("4\n7\n10\n"))
	res := wynotRun(t, dir, nil, "trace", "--json", "--stdin", "in.txt", "--observe", "exit", ".")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	s := res.summary(t)
	// Only the odd number's addition and the exit matter for the exit
	// status: the even ones, the count and the message do not.
	want := map[int]int{15: 1, 16: 0, 18: 0, 20: 1}
	for line, n := range want {
		if got := keptOn(s, line); got != n {
			t.Errorf("line %d: %d instances kept, want %d\n%s", line, got, n, res.stderr)
		}
	}
	if s.Observe != "exit" || !s.Minimal {
		t.Errorf("observe %q, minimal %v", s.Observe, s.Minimal)
	}
}

// TestTraceCrash: the slice of a run that panics. The addresses in the
// traceback differ from run to run; they do not make the output
// nondeterministic.
func TestTraceCrash(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, `package main

import (
	"fmt"
	"os"
)

type T struct{ m map[string]int }

func (t *T) add(k string, v int) { t.m[k] = v }

func main() {
	ts := []*T{{m: map[string]int{}}, {}}
	for i, t := range ts {
		t.add(os.Args[1], i)
		fmt.Println("added", i)
	}
}
`)
	res := wynotRun(t, dir, nil, "trace", "--json", ".", "--", "key")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	s := res.summary(t)
	// The panic needs the T values (line 13), the second call of add
	// (line 15, into the nil map; the first one can go) and the
	// assignment that panics (line 10); the first iteration's message
	// (line 16) is output that must stay.
	for line, want := range map[int]int{10: 1, 13: 1, 15: 1, 16: 1} {
		if got := keptOn(s, line); got != want {
			t.Errorf("line %d: %d instances kept, want %d\n%s", line, got, want, res.stderr)
		}
	}
	if strings.Contains(res.stderr, "check the arguments") {
		t.Errorf("a crash is not a usage message:\n%s", res.stderr)
	}
}

// TestTraceGDBStdin: a C program under gdb reads --stdin.
func TestTraceGDBStdin(t *testing.T) {
	e2e(t)
	t.Parallel()
	if _, err := exec.LookPath("gdb"); err != nil {
		t.Skip("no gdb")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sum.c"), []byte(`#include <stdio.h>

int main(void) {
	int x, sum = 0, n = 0;
	while (scanf("%d", &x) == 1) {
		sum += x;
		n++;
	}
	printf("sum = %d\n", sum);
	return 0;
}
`))
	write(t, filepath.Join(dir, "in.txt"), []byte("4\n0\n5\n"))
	if out, err := exec.Command("gcc", "-g", "-O0", "-static", "-o", filepath.Join(dir, "sum"), filepath.Join(dir, "sum.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	res := wynotRun(t, dir, nil, "trace", "--gdb", "--json", "--stdin", "in.txt", "./sum")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	s := res.summary(t)
	// Adding 0 does not matter; the count n does not either.
	if got := keptOn(s, 6); got != 2 {
		t.Errorf("sum += x: %d instances kept, want 2 (not the 0)\n%s", got, res.stderr)
	}
	if got := keptOn(s, 7); got != 0 {
		t.Errorf("n++: %d instances kept, want 0\n%s", got, res.stderr)
	}
	if !s.Minimal || !strings.Contains(res.stderr, "sum.c:9") {
		t.Errorf("minimal %v:\n%s", s.Minimal, res.stderr)
	}
}

// TestTraceIfInit: the init statement of an if (the idiom if n, err :=
// f(); err == nil) is a statement of its own that a run may skip, so
// the call it makes can be in the slice.
func TestTraceIfInit(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, `package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	total := 0
	for _, a := range os.Args[1:] {
		if n, err := strconv.Atoi(a); err == nil {
			total += n
		}
	}
	fmt.Println(total)
}
`)
	res := wynotRun(t, dir, nil, "trace", "--json", "-j2", ".", "--", "1", "x", "3")
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	s := res.summary(t)
	for _, l := range s.Slice {
		if l.Line == 12 {
			if len(l.Kept) == 0 || l.Text != "n, err := strconv.Atoi(a)" {
				t.Errorf("line 12: %+v", l)
			}
			return
		}
	}
	t.Errorf("the if's init is not in the slice:\n%s", res.stderr)
}

// TestTraceShallowOutput: an output that a run skipping everything but
// main.main's own statements also prints (a count of zero) is said to
// be so, with what to do instead; an output the computation makes is not.
func TestTraceShallowOutput(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, `package main

import (
	"fmt"
	"os"
)

func count(s string) int {
	n := 0
	for _, c := range s {
		if c == 'x' {
			n++
		}
	}
	return n
}

func main() {
	fmt.Println(count(os.Args[1]))
}
`)
	for _, c := range []struct {
		arg     string
		shallow bool
	}{{"abc", true}, {"axc", false}} {
		res := wynotRun(t, dir, nil, "trace", "--json", "-j2", ".", "--", c.arg)
		if res.code != 0 {
			t.Fatalf("%s: exit %d:\n%s", c.arg, res.code, res.stderr)
		}
		said := strings.Contains(res.stderr, "every instance of the slice is in main.main")
		if s := res.summary(t); s.Shallow != c.shallow || said != c.shallow {
			t.Errorf("%s: shallow %v, said %v; want %v\n%s", c.arg, s.Shallow, said, c.shallow, res.stderr)
		}
	}
	// A computation in main.main itself is not said to be skipped.
	dir = goModule(t, `package main

import (
	"fmt"
	"os"
)

func main() {
	n := 0
	for _, c := range os.Args[1] {
		if c == 'x' {
			n++
		}
	}
	fmt.Println(n)
}
`)
	res := wynotRun(t, dir, nil, "trace", "--json", "-j2", ".", "--", "abc")
	if s := res.summary(t); res.code != 0 || s.Shallow || strings.Contains(res.stderr, "every instance of the slice") {
		t.Errorf("all in main.main: exit %d, shallow %v\n%s", res.code, s.Shallow, res.stderr)
	}
}

// TestTracePass: a wrong output that a run computing nothing prints too
// (a count of zero) gives a slice all in main.main; traced against a run
// whose output is right (--pass), every test runs that one too with the
// same instances skipped, and the defective statement, which both runs
// execute and the passing run's output needs, is in the slice.
func TestTracePass(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, `package main

import (
	"fmt"
	"os"
	"strings"
)

// vowels counts the vowels of a word, whatever their case.
func vowels(w string) int {
	lower := strings.ToLower(w[:len(w)-1])
	n := 0
	for _, c := range lower {
		if strings.ContainsRune("aeiou", c) {
			n++
		}
	}
	return n
}

func main() {
	fmt.Println(vowels(os.Args[1]))
}
`)
	const defect = 11 // lower := strings.ToLower(w[:len(w)-1])
	kept := func(s summary) bool {
		for _, l := range s.Slice {
			if l.Line == defect && len(l.Kept) > 0 {
				return true
			}
		}
		return false
	}
	alone := wynotRun(t, dir, nil, "trace", "--json", "-j2", ".", "--", "xA")
	if s := alone.summary(t); alone.code != 0 || !s.Shallow || kept(s) {
		t.Fatalf("alone: exit %d, shallow %v, defect kept %v\n%s", alone.code, s.Shallow, kept(s), alone.stderr)
	}
	if !strings.Contains(alone.stderr, "--pass 'ARGS'") {
		t.Errorf("the shallow slice's note does not point to --pass:\n%s", alone.stderr)
	}
	res := wynotRun(t, dir, nil, "trace", "--json", "-j2", "--pass", "Ax", ".", "--", "xA")
	s := res.summary(t)
	if res.code != 0 || s.Shallow || !kept(s) || s.Pass == nil || !slices.Equal(s.Pass.Args, []string{"Ax"}) {
		t.Fatalf("--pass: exit %d, shallow %v, defect kept %v, pass %+v\n%s", res.code, s.Shallow, kept(s), s.Pass, res.stderr)
	}
	for _, want := range []string{"matter for the original run's output and the passing run's", "each test also ran the passing run (Ax)"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("no %q in:\n%s", want, res.stderr)
		}
	}
	// A "passing" run that prints the same is said to be none.
	same := wynotRun(t, dir, nil, "trace", "-j2", "--pass", "xB", ".", "--", "xA")
	if same.code != 0 || !strings.Contains(same.stderr, "it is no passing run of this failure") {
		t.Errorf("--pass with the same output: exit %d\n%s", same.code, same.stderr)
	}
}

// TestTraceGDBPass: --pass under gdb (a C program, by line): a wrong
// count of zero, which a run skipping the count's computation prints
// too, keeps the defective line only against the passing run, which
// runs in a gdb of its own beside the failing run's.
func TestTraceGDBPass(t *testing.T) {
	e2e(t)
	t.Parallel()
	for _, tool := range []string{"gdb", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "count.c"), read(t, "testdata/trace/count.c"))
	if out, err := exec.Command("gcc", "-g", "-O0", "-static", "-o", filepath.Join(dir, "count"), filepath.Join(dir, "count.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	const defect = 8 // len = strlen(s) - 1;
	kept := func(s summary) bool {
		for _, l := range s.Slice {
			if l.Line == defect && len(l.Kept) > 0 {
				return true
			}
		}
		return false
	}
	alone := wynotRun(t, dir, nil, "trace", "--json", "-j2", "--gdb", "./count", "--", "xa")
	if s := alone.summary(t); alone.code != 0 || kept(s) {
		t.Fatalf("alone: exit %d, defect kept %v\n%s", alone.code, kept(s), alone.stderr)
	}
	res := wynotRun(t, dir, nil, "trace", "--json", "-j2", "--gdb", "--pass", "ax", "./count", "--", "xa")
	if s := res.summary(t); res.code != 0 || !kept(s) || s.Pass == nil {
		t.Fatalf("--pass: exit %d, defect kept %v\n%s", res.code, kept(s), res.stderr)
	}
	// Neither gdb outlives the run.
	for deadline := time.Now().Add(patience); len(proctest.Marked(filepath.Join(dir, "count"))) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("processes of the run outlived it: %v", proctest.Marked(filepath.Join(dir, "count")))
		}
	}
}

// TestTraceInterruptedBetweenLevels interrupts a trace while it searches
// the calls and loop iterations, after the functions and loops were
// reduced: the slice shown is what the run executes without what the
// first level found unneeded (not every instance, as if nothing had been
// reduced), the interrupted level says its result is not in it, and the
// counts are the original run's.
func TestTraceInterruptedBetweenLevels(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, `package main

import (
	"fmt"
	"os"
	"time"
)

func noise(i int) int {
	return i * 3
}

func main() {
	time.Sleep(100 * time.Millisecond)
	unused := 0
	for i := 0; i < 40; i++ {
		unused += noise(i)
	}
	sum := 0
	for i := 0; i < 40; i++ {
		sum += i
	}
	fmt.Println(sum, len(os.Args))
}
`)
	events := filepath.Join(t.TempDir(), "events")
	cmd := exec.Command(wynotBin, "trace", "--json", "-j2", "--hierarchy", "on", "--events", events, ".")
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, cmd, "a test of the calls and iterations", func() bool {
		b, _ := os.ReadFile(events)
		return bytes.Contains(b, []byte(`"pass":"calls and iterations"`))
	})
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130:\n%s", err, errb.String())
	}
	var s struct {
		ElementsBefore int `json:"elements_before"`
		ElementsAfter  int `json:"elements_after"`
		Levels         []struct {
			Name        string `json:"name"`
			Before      int    `json:"before"`
			After       int    `json:"after"`
			Interrupted bool   `json:"interrupted"`
		} `json:"levels"`
		Slice []struct {
			Line int `json:"line"`
			Ran  int `json:"ran"`
		} `json:"slice"`
	}
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("%v:\n%s\n%s", err, out.String(), errb.String())
	}
	if len(s.Levels) != 2 || s.Levels[0].After >= s.Levels[0].Before || !s.Levels[1].Interrupted {
		t.Fatalf("levels %+v, want functions and loops reduced, then calls and iterations interrupted\n%s", s.Levels, errb.String())
	}
	if s.ElementsAfter >= s.ElementsBefore {
		t.Errorf("the slice keeps %d of %d instances: what the first level found unneeded is back in it\n%s", s.ElementsAfter, s.ElementsBefore, errb.String())
	}
	for _, l := range s.Slice {
		if l.Line == 11 && l.Ran != 40 { // return i * 3
			t.Errorf("line 11 ran %d times, want the original run's 40", l.Ran)
		}
	}
	if strings.Contains(errb.String(), "no statement instance was reduced yet") || !strings.Contains(errb.String(), "without the functions and loops found unneeded") {
		t.Errorf("what the slice is, after the interruption:\n%s", errb.String())
	}
}
