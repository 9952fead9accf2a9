package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/wynot/wynot/command/chain"
	"github.com/wynot/wynot/command/changes"
	"github.com/wynot/wynot/command/isolate"
	"github.com/wynot/wynot/command/trace"
	"github.com/wynot/wynot/internal/proctest"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// End-to-end tests: they build the wynot binary and the failing programs
// of testdata/progs, and run reductions on real processes. Under -short
// they skip (each calls e2e) and nothing is built.

var (
	binDir   string
	wynotBin string
)

func TestMain(m *testing.M) {
	// Run as wynot by a script of testdata/script, the test binary is
	// wynot; otherwise it runs the tests.
	testscript.Main(suite{m}, map[string]func(){"wynot": func() { os.Exit(wynot()) }})
}

// suite runs the tests, with the programs the end-to-end tests run built
// first (but under -short).
type suite struct{ m *testing.M }

func (s suite) Run() int {
	m := s.m
	flag.Parse()
	if testing.Short() {
		// The end-to-end tests skip (e2e): build nothing.
		return m.Run()
	}
	// Made like wynot's own work directories (wynot-PID-e2e-...): when
	// go test kills this binary at its timeout, before the directory
	// (over 40 MB of programs) is removed below, the next run of wynot
	// or of these tests removes it, as it removes what a killed wynot
	// left.
	dir, err := runner.MkdirTemp("", "e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binDir = dir
	wynotBin = filepath.Join(dir, "wynot")
	build := func(args ...string) bool {
		cmd := exec.Command(args[0], args[1:]...)
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n%s", strings.Join(args, " "), err, out)
			return false
		}
		return true
	}
	ok := build("go", "build", "-o", wynotBin, ".")
	for _, p := range []string{"mystery", "flex", "slow"} {
		ok = ok && build("go", "build", "-o", filepath.Join(dir, p), "../../testdata/progs/"+p)
	}
	ok = ok && build("go", "build", "-o", filepath.Join(dir, "printer"), "../../examples/printer")
	ok = ok && build("gcc", "-O1", "-o", filepath.Join(dir, "crtplot"), "../../testdata/progs/crtplot/crtplot.c")
	if !ok {
		os.RemoveAll(dir)
		return 1
	}
	// wynot keeps what it knows of files reduced in place in the user's
	// cache directory: the tests get their own (and the Go build cache
	// stays where it is).
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err == nil {
		os.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	}
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	return code
}

func prog(name string) string { return filepath.Join(binDir, name) }

type result struct {
	code           int
	stdout, stderr string
}

// summary is a JSON summary as the tests read it: the common part and
// every command's own part (a field is set only in its command's).
type summary struct {
	report.Summary
	isolateDetail
	changesDetail
	traceDetail
	chainDetail
}

type (
	isolateDetail = isolate.Detail
	changesDetail = changes.Detail
	traceDetail   = trace.Detail
	chainDetail   = chain.Detail
)

func (r result) summary(t *testing.T) summary {
	t.Helper()
	var s summary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("no JSON summary (%v) in %q; stderr:\n%s", err, r.stdout, r.stderr)
	}
	return s
}

// e2e skips an end-to-end test under -short, where TestMain builds
// neither wynot nor the programs it runs; the commands' decisions are
// checked in-process there by the packages' own tests (the transcripts
// of command among them).
func e2e(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs the wynot binary on real programs")
	}
}

// long skips a TestLong test unless WYNOT_LONG_TESTS is set (.ci/run
// sets it and runs them after the README's go test ./...). Each runs a
// real toolchain hundreds of times to show one feature again on a
// larger or rarer shape (a vendor directory, export data of a
// requirement, a hanging program under gdb); the pieces each relies on
// have quicker tests that always run (package bundles, vendor and
// module checks, export data, tree-sitter and gdb end to end). Without
// them the end-to-end tests take about 6 minutes on two cores instead
// of close to ten.
func long(t *testing.T) {
	t.Helper()
	if !strings.HasPrefix(t.Name(), "TestLong") {
		t.Fatalf("%s calls long but is not named TestLong...: .ci/run selects the long tests by that name", t.Name())
	}
	if os.Getenv("WYNOT_LONG_TESTS") == "" || testing.Short() {
		t.Skip("a long test: WYNOT_LONG_TESTS=1 go test -run '^TestLong' ./cmd/wynot runs it (CI does)")
	}
}

// wynotRun runs wynot in dir with args. No fixed time limit: on a busy
// machine a reduction of a Go tree (hundreds of go vet runs) took over 5
// minutes where it takes 40 s alone. wynot is killed half a minute
// before go test's -timeout would end the whole package, so that the
// test shows what wynot had said (30 minutes without a -timeout).
func wynotRun(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	d := 30 * time.Minute
	if deadline, ok := t.Deadline(); ok {
		d = max(time.Until(deadline)-30*time.Second, time.Second)
	}
	return wynotRunWithin(t, d, dir, env, args...)
}

// wynotRunWithin is wynotRun killing wynot after d.
func wynotRunWithin(t *testing.T, d time.Duration, dir string, env []string, args ...string) result {
	t.Helper()
	if testing.Short() {
		t.Fatalf("%s runs wynot, which -short does not build: it must call e2e(t) first", t.Name())
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, wynotBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return runResult(t, cmd)
}

// runResult runs cmd and returns its exit status and output.
func runResult(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

// writeScript writes an executable script (a test, a program) at path.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	write(t, path, []byte(body))
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// signatureOf runs argv on data (in a file named name, replacing "{}")
// and returns the failure signature, as wynot would see it.
func signatureOf(t *testing.T, name string, data []byte, argv ...string) (runner.Signature, bool) {
	t.Helper()
	c := runner.Command{Argv: argv, Timeout: 10 * time.Second, Stdin: !strings.Contains(strings.Join(argv, " "), "{}")}
	r, err := c.ExecIn(context.Background(), runner.WorkDir(t.TempDir()), []runner.File{{Name: name, Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	return runner.Extract(r), r.Clean()
}

// checkOneMinimal checks that result fails like the original and that
// removing any single character makes it not fail that way (pass or
// another failure).
func checkOneMinimal(t *testing.T, name string, orig, result []byte, argv ...string) {
	t.Helper()
	want, _ := signatureOf(t, name, orig, argv...)
	got, clean := signatureOf(t, name, result, argv...)
	if clean || !got.Same(want, runner.Message) {
		t.Fatalf("result %q fails with %v, not %v", result, got, want)
	}
	s := string(result)
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		smaller := s[:i] + s[i+n:]
		if sig, clean := signatureOf(t, name, []byte(smaller), argv...); !clean && sig.Same(want, runner.Message) {
			t.Fatalf("result %q is not 1-minimal: without the character at %d it still fails", result, i)
		}
		i += n
	}
}

const mysteryInput = `V"/+!aF-(V4EOz*+s/Q,7)2@0_`

func TestReduceMysteryInPlace(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "input.txt")
	write(t, in, []byte(mysteryInput))
	r := wynotRun(t, dir, nil, "reduce", "--json", "input.txt", "--", prog("mystery"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, in)); got != "()" {
		t.Errorf("input.txt holds %q, want ()", got)
	}
	if got := string(read(t, in+".orig")); got != mysteryInput {
		t.Errorf("input.txt.orig holds %q", got)
	}
	s := r.summary(t)
	if !s.Minimal || !s.Confirmed || s.SizeBefore != 26 || s.SizeAfter != 2 || s.Granularity != "characters" {
		t.Errorf("summary %+v", s)
	}
	for _, want := range []string{"reduced input.txt from 26 bytes to 2 bytes", "1-minimal", "input.txt.orig"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

func TestReduceStdinAndOutput(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte("x(y)z\n"))
	// No {}: the candidate comes on standard input. -o leaves the input alone.
	r := wynotRun(t, dir, nil, "reduce", "-q", "-o", "out", "in", "--", prog("mystery"))
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(dir, "out"))); got != "()" {
		t.Errorf("out holds %q", got)
	}
	if got := string(read(t, filepath.Join(dir, "in"))); got != "x(y)z\n" {
		t.Errorf("input changed to %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "in.orig")); err == nil {
		t.Error("in.orig written although -o was given")
	}
}

// htmlPage builds an HTML page of about 900 lines with one SELECT tag.
func htmlPage() []byte {
	var b strings.Builder
	b.WriteString("<html>\n<head><title>Search for bug</title></head>\n<body>\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "<p class=\"row%d\">Bug %d: <a href=\"show_bug.cgi?id=%d\">details</a></p>\n", i%3, 24000+i, 24000+i)
		fmt.Fprintf(&b, "<td align=left>%d</td>\n", i)
	}
	b.WriteString("<form action=\"buglist.cgi\">\n<SELECT NAME=\"priority\" MULTIPLE SIZE=7>\n")
	for _, p := range []string{"P1", "P2", "P3", "P4", "P5"} {
		fmt.Fprintf(&b, "<OPTION VALUE=\"%s\">%s</OPTION>\n", p, p)
	}
	b.WriteString("</SELECT>\n")
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&b, "<input type=\"checkbox\" name=\"f%d\"> field %d<br>\n", i, i)
	}
	b.WriteString("</form>\n</body>\n</html>\n")
	return []byte(b.String())
}

func TestReducePrinterPage(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	page := htmlPage()
	if n := bytes.Count(page, []byte("\n")); n < 800 {
		t.Fatalf("page has only %d lines", n)
	}
	write(t, filepath.Join(dir, "page.html"), page)
	r := wynotRun(t, dir, nil, "reduce", "--json", "page.html", "--", prog("printer"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	got := read(t, filepath.Join(dir, "page.html"))
	if string(got) != "<SELECT>" {
		t.Errorf("reduced to %q, want <SELECT>", got)
	}
	checkOneMinimal(t, "page.html", page, got, prog("printer"), "{}")
}

// fuzz returns n random printable characters and newlines.
func fuzz(seed uint64, n int, newlines bool) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(32 + rng.IntN(95))
		if newlines && rng.IntN(40) == 0 {
			b[i] = '\n'
		}
	}
	return b
}

func TestReduceCrtplotFuzz(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	input := fuzz(1, 10000, true)
	write(t, filepath.Join(dir, "t16"), input)
	r := wynotRun(t, dir, nil, "reduce", "--json", "t16", "--", prog("crtplot"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(dir, "t16"))); got != "f" {
		t.Errorf("reduced to %q, want f", got)
	}
	if s := r.summary(t); !strings.Contains(s.Signature, "killed by SIGSEGV") {
		t.Errorf("signature %q", s.Signature)
	}
}

func TestReduceFlexFuzz(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	input := fuzz(2, 3000, true)
	// Make sure there is a long enough line.
	copy(input[100:], bytes.Repeat([]byte("abcdefghij"), 4))
	write(t, filepath.Join(dir, "t14"), input)
	argv := []string{prog("flex"), "-n", "20", "{}"}
	r := wynotRun(t, dir, nil, append([]string{"reduce", "--json", "t14", "--"}, argv...)...)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	got := read(t, filepath.Join(dir, "t14"))
	if len(got) != 21 || bytes.ContainsAny(got, "\n\x00") {
		t.Errorf("reduced to %q, want 21 characters without newline", got)
	}
	checkOneMinimal(t, "t14", input, got, argv...)
}

// TestParallelSameResult: -j 1 and -j 4 give the same results.
func TestParallelSameResult(t *testing.T) {
	e2e(t)
	t.Parallel()
	cases := []struct {
		name  string
		input []byte
		argv  []string
	}{
		{"mystery", []byte(mysteryInput), []string{prog("mystery"), "{}"}},
		{"page.html", htmlPage(), []string{prog("printer"), "{}"}},
		{"t16", fuzz(3, 5000, true), []string{prog("crtplot"), "{}"}},
		{"t14", append(fuzz(4, 500, true), bytes.Repeat([]byte("x"), 30)...), []string{prog("flex"), "-n", "12", "{}"}},
	}
	for _, c := range cases {
		var results [][]byte
		for _, j := range []string{"1", "4"} {
			dir := t.TempDir()
			write(t, filepath.Join(dir, c.name), c.input)
			r := wynotRun(t, dir, nil, append([]string{"reduce", "-q", "-j", j, c.name, "--"}, c.argv...)...)
			if r.code != 0 {
				t.Fatalf("%s -j %s: exit %d:\n%s", c.name, j, r.code, r.stderr)
			}
			results = append(results, read(t, filepath.Join(dir, c.name)))
		}
		if !bytes.Equal(results[0], results[1]) {
			t.Errorf("%s: -j 1 gives %q, -j 4 gives %q", c.name, results[0], results[1])
		}
	}
}

func TestReduceScriptAndLog(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "bug.c"), []byte("int main() {\n  int x = (1 + 2);\n  return x;\n}\n"))
	// A C-Reduce style script: run in the candidate's directory, exit 0
	// when the failure reproduces.
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, "#!/bin/sh\ngrep -q '(1' bug.c && grep -q 'return' bug.c\n")
	r := wynotRun(t, dir, nil, "reduce", "--json", "--log", "log.txt", "--events", "events.jsonl", "--test", "./test.sh", "bug.c")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	// Under --split auto a .c file is reduced as a C syntax tree, to
	// "(1);return;" (tree-sitter's C takes statements at top level);
	// then, the result being small, each removal of one character that
	// leaves it not parsing is tested, and one still fails (the test
	// greps): the input is reduced on as text, as it is without cgo.
	got := string(read(t, filepath.Join(dir, "bug.c")))
	if got != "(1return" {
		t.Errorf("reduced to %q", got)
	}
	if grammars && !strings.Contains(r.stderr, "bug.c with one character less, which no longer parses as c, still fails") {
		t.Errorf("no word of the parse probe:\n%s", r.stderr)
	}
	log := string(read(t, filepath.Join(dir, "log.txt")))
	if !strings.Contains(log, "Test #1 bug.c ") || !strings.Contains(log, ": FAIL (exit status 0 (interesting))") {
		t.Errorf("log:\n%s", log)
	}
	s := r.summary(t)
	lines := strings.Split(strings.TrimSpace(string(read(t, filepath.Join(dir, "events.jsonl")))), "\n")
	run := 0
	for _, l := range lines {
		var e report.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("event %q: %v", l, err)
		}
		if !e.Cached && !e.Discarded && !e.Predicted {
			run++
		}
	}
	if run != s.Tests-s.Checks {
		t.Errorf("%d events of tests run, summary says %d tests besides %d checks", run, s.Tests-s.Checks, s.Checks)
	}
}

// neededTests counts the tests of an --events file whose outcome the
// search took: run (not cached, not predicted) and not speculative tests
// discarded unused. The same outcomes give the same sequence of them at
// any -j, while how many speculative tests complete besides depends on
// the scheduler.
func neededTests(t *testing.T, path string) int {
	t.Helper()
	var events []report.Event
	discarded := map[int]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(read(t, path))), "\n") {
		var e report.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("event %q: %v", l, err)
		}
		if e.Discarded {
			discarded[e.Test] = true
			continue
		}
		events = append(events, e)
	}
	n := 0
	for _, e := range events {
		if !e.Cached && !e.Predicted && !discarded[e.Test] {
			n++
		}
	}
	return n
}

func TestReduceArgv(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	// Fails iff -O is given and none of the two options that prevent it.
	script := filepath.Join(dir, "cc")
	writeScript(t, script, `#!/bin/sh
O=; P=
for a in "$@"; do case $a in -O) O=1;; -ffast-math|-fforce-addr) P=1;; esac; done
if [ -n "$O" ] && [ -z "$P" ]; then echo "cc: internal compiler error: Segmentation fault" >&2; exit 4; fi
exit 0
`)
	r := wynotRun(t, dir, nil, "reduce", "--json", "--argv", "--", script, "-O", "-Wall", "-g", "-fno-inline", "-I.", "bug.c", "-o", "bug")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if s := r.summary(t); s.Result != script+" -O" {
		t.Errorf("result %q", s.Result)
	}
}

// TestReduceArgvPair: a flag and its value go only together (either
// alone is a usage error, another failure); the 1-minimal -a -n 1 -bad
// loses the pair at the check of adjacent pairs (--n-minimal 0 keeps
// it), and the verdict says so. The passing candidates append to a log where the test runs, which
// the original's failing runs do not: wynot says the tests wrote there.
func TestReduceArgvPair(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog")
	write(t, prog, []byte(`#!/bin/sh
bad=
while [ $# -gt 0 ]; do
  case "$1" in
  -n) shift; case "$1" in [0-9]*) ;; *) echo "usage: -n needs a number" >&2; exit 2;; esac ;;
  -bad) bad=1 ;;
  -a) a=1 ;;
  *) echo "usage: unexpected $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$bad" ] && [ -n "$a" ]; then echo "error: bad" >&2; exit 1; fi
echo run >> log.txt
`))
	os.Chmod(prog, 0o755)
	r := wynotRun(t, dir, nil, "reduce", "--json", "--argv", "--", prog, "-a", "-n", "1", "-bad")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if s := r.summary(t); s.Result != prog+" -a -bad" || !s.Minimal {
		t.Errorf("result %q, minimal %v\n%s", s.Result, s.Minimal, r.stderr)
	}
	for _, want := range []string{"and so does removing any two adjacent ones (a flag and its value)", "the tests changed files in " + dir + ", where they ran (log.txt)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	r = wynotRun(t, dir, nil, "reduce", "--json", "--n-minimal", "0", "--argv", "--", prog, "-a", "-n", "1", "-bad")
	if s := r.summary(t); r.code != 0 || s.Result != prog+" -a -n 1 -bad" {
		t.Errorf("--n-minimal 0: exit %d, result %q\n%s", r.code, s.Result, r.stderr)
	}
}

// TestReduceFileWrites: a test that gets the input by {} runs where
// wynot was started; its passing candidates append to a log there,
// which the original's failing runs do not: wynot says so at the end,
// and not of its own result or of the original it keeps beside it.
func TestReduceFileWrites(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t.sh"), []byte("#!/bin/sh\nif grep -q bad \"$1\"; then echo 'error: bad' >&2; exit 1; fi\necho run >> log.txt\n"))
	os.Chmod(filepath.Join(dir, "t.sh"), 0o755)
	write(t, filepath.Join(dir, "in.txt"), []byte("aaaa\nbbbad\ncccc\n"))
	r := wynotRun(t, dir, nil, "reduce", "--json", "in.txt", "--", "./t.sh", "{}")
	if got, _ := os.ReadFile(filepath.Join(dir, "in.txt")); r.code != 0 || string(got) != "bad" {
		t.Fatalf("exit %d, result %q:\n%s", r.code, got, r.stderr)
	}
	want := "the tests changed files in " + dir + ", where they ran (log.txt)"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	// A test that writes nothing: nothing said, though wynot wrote the
	// result and in.txt.orig there.
	write(t, filepath.Join(dir, "t.sh"), []byte("#!/bin/sh\nif grep -q bad \"$1\"; then echo 'error: bad' >&2; exit 1; fi\n"))
	write(t, filepath.Join(dir, "in2.txt"), []byte("aaaa\nbbbad\ncccc\n"))
	r = wynotRun(t, dir, nil, "reduce", "--json", "in2.txt", "--", "./t.sh", "{}")
	if r.code != 0 || strings.Contains(r.stderr, "changed files") {
		t.Errorf("exit %d:\n%s", r.code, r.stderr)
	}
}

func TestReduceMultipleFiles(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), []byte("alpha (beta\ngamma\n"))
	write(t, filepath.Join(dir, "b.txt"), []byte("delta) epsilon\n"))
	script := filepath.Join(dir, "t.sh")
	writeScript(t, script, "#!/bin/sh\ngrep -q '(' a.txt && grep -q ')' b.txt\n")
	r := wynotRun(t, dir, nil, "reduce", "-q", "--test", script, "a.txt", "b.txt")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if a, b := string(read(t, filepath.Join(dir, "a.txt"))), string(read(t, filepath.Join(dir, "b.txt"))); a != "(" || b != ")" {
		t.Errorf("reduced to %q and %q", a, b)
	}
}

func TestReduceCacheFile(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	// The first run tests candidates in parallel; the second is
	// sequential, so that it tests only the candidates its search needs,
	// which are the ones the first run's search needed and cached (the
	// speculative tests the first run cancelled are not in the cache, and
	// a parallel second run might start them again). The timeouts differ,
	// as calibrated ones do between runs: an outcome cached under one is
	// taken under another that the test's runs fitted in.
	r1 := wynotRun(t, dir, nil, "reduce", "--json", "-q", "-j", "2", "--timeout", "1m", "--cache", "cache", "-o", "out1", "in", "--", prog("mystery"), "{}")
	r2 := wynotRun(t, dir, nil, "reduce", "--json", "-q", "-j", "1", "--timeout", "30s", "--cache", "cache", "-o", "out2", "in", "--", prog("mystery"), "{}")
	if r1.code != 0 || r2.code != 0 {
		t.Fatalf("exit %d, %d", r1.code, r2.code)
	}
	s1, s2 := r1.summary(t), r2.summary(t)
	if s1.Tests-s1.Checks == 0 || s2.Tests != s2.Checks {
		t.Errorf("first run %d tests (%d checks), second %d tests (%d checks): the second should repeat no test",
			s1.Tests, s1.Checks, s2.Tests, s2.Checks)
	}
	if a, b := read(t, filepath.Join(dir, "out1")), read(t, filepath.Join(dir, "out2")); !bytes.Equal(a, b) {
		t.Errorf("results differ: %q, %q", a, b)
	}
}

func TestReduceNonRegularInput(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	// A pipe: the result goes to the current directory.
	cmd := exec.Command(wynotBin, "reduce", "-q", "/dev/stdin", "--", prog("mystery"), "{}")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(mysteryInput)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := string(read(t, filepath.Join(dir, "stdin.reduced"))); got != "()" {
		t.Errorf("stdin.reduced holds %q", got)
	}
}

func TestReduceHangingCandidates(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	piddir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte("ab(xy)cd"))
	// Candidates with "(" but no ")" hang; the timeout (calibrated: 1s)
	// kills them.
	r := wynotRun(t, dir, []string{"HANG=1", "SLEEP=1ms", "PIDDIR=" + piddir}, "reduce", "--json", "--split", "runes", "in", "--", prog("slow"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(dir, "in"))); got != "()" {
		t.Errorf("reduced to %q", got)
	}
	if s := r.summary(t); s.Outcomes.Unresolved == 0 {
		t.Errorf("no unresolved (timed out) tests: %+v", s.Outcomes)
	}
	checkNoSurvivors(t, piddir)
}

// patience bounds the waits for what must happen eventually (a process
// ending, a first result written): generous, since on a busy machine a
// start or a reap can take seconds; a wait returns as soon as it holds.
const patience = 2 * time.Minute

// waitUntil polls cond until it holds; if it does not within patience,
// it kills cmd (when not nil) and fails the test, saying what it waited
// for.
func waitUntil(t *testing.T, cmd *exec.Cmd, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			if cmd != nil {
				cmd.Process.Kill()
				cmd.Wait()
			}
			t.Fatalf("waited %s for %s", patience, what)
		}
	}
}

// checkNoSurvivors fails if a process whose pid is a file name in dir is
// still running.
func checkNoSurvivors(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	if len(entries) == 0 {
		t.Fatal("no test process recorded its pid")
	}
	deadline := time.Now().Add(patience)
	for _, e := range entries {
		pid, _ := strconv.Atoi(e.Name())
		for {
			if !proctest.Running(pid) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("test process %d still running", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestInterrupt kills wynot mid-run with SIGINT and with SIGKILL: the
// input file is then the original or a smaller failing input, never a
// broken one; the .orig file is intact; no test process survives.
func TestInterrupt(t *testing.T) {
	e2e(t)
	t.Parallel()
	orig := []byte(strings.Repeat("abcdefgh", 40) + "(" + strings.Repeat("ijklmnop", 40) + ")" + strings.Repeat("qrstuvwx", 40))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		dir, piddir, tmp := t.TempDir(), t.TempDir(), t.TempDir()
		in := filepath.Join(dir, "in")
		write(t, in, orig)
		cmd := exec.Command(wynotBin, "reduce", "-j", "2", "--split", "runes", "in", "--", prog("slow"), "{}")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PIDDIR="+piddir, "SLEEP=50ms", "WYNOT_TMPDIR="+tmp)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Mid-run: once a first smaller input was written (a fixed delay
		// can end before the first test on a busy machine).
		waitUntil(t, cmd, "a first reduction", func() bool { b, _ := os.ReadFile(in); return len(b) > 0 && len(b) < len(orig) })
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if sig == syscall.SIGINT && code != 130 {
			t.Errorf("SIGINT: exit %d, want 130; stderr:\n%s", code, errb.String())
		}
		got := read(t, in)
		if !bytes.Equal(read(t, in+".orig"), orig) {
			t.Errorf("%v: in.orig changed", sig)
		}
		if !bytes.Equal(got, orig) {
			if len(got) >= len(orig) {
				t.Errorf("%v: in holds %d bytes, not smaller", sig, len(got))
			}
			if s, clean := signatureOf(t, "in", got, prog("mystery"), "{}"); clean || !strings.Contains(s.Message, "Invalid input") {
				t.Errorf("%v: in holds %q, which does not fail", sig, got)
			}
		}
		if sig == syscall.SIGINT && !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("SIGINT: stderr does not say interrupted:\n%s", errb.String())
		}
		checkNoSurvivors(t, piddir)
		// Work directories: removed on SIGINT; after SIGKILL, by the next
		// run of wynot.
		if sig == syscall.SIGKILL {
			r := wynotRun(t, dir, []string{"WYNOT_TMPDIR=" + tmp}, "reduce", "-q", "-o", "out", "in", "--", prog("mystery"), "{}")
			if r.code != 0 {
				t.Errorf("the run after SIGKILL: exit %d\n%s", r.code, r.stderr)
			}
			os.Remove(filepath.Join(dir, "out"))
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%v: work directories left: %v", sig, left)
		}
		// Nothing is left behind in the directory but in and in.orig.
		entries, _ := os.ReadDir(dir)
		if len(entries) != 2 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%v: directory holds %v", sig, names)
		}
	}
}

// TestReduceGoTestInPlaceHint: a fuzz corpus entry reduced with the go
// test that reads it where it is: the test fails however small the
// candidate, and wynot refuses. Its hint is not to append {} (go test
// would take the path for a package, and fail otherwise) but to copy
// each candidate into place.
func TestReduceGoTestInPlaceHint(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, "package main\n\nfunc main() {}\n")
	write(t, filepath.Join(dir, "p_test.go"), []byte(`package main

import (
	"os"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	b, err := os.ReadFile("testdata/in.txt")
	if err != nil || strings.Contains(string(b), "BUG") {
		t.Fatal("BUG")
	}
}
`))
	write(t, filepath.Join(dir, "testdata", "in.txt"), []byte("a\nBUG\nb\n"))
	r := wynotRun(t, dir, nil, "reduce", "testdata/in.txt", "--", "go", "test", ".")
	if r.code != 4 || !strings.Contains(r.stderr, "go test reads its files where they are") ||
		!strings.Contains(r.stderr, `-- sh -c 'cp {} FILE && go test .'`) || strings.Contains(r.stderr, "put {} where the file goes") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
}

// TestReduceFlakyOriginalTimedOut: the original fails on its first run
// and is cut off by --timeout on the others, after printing the same
// panic: the verdict says that they timed out, not only the panic the
// failing run printed too.
func TestReduceFlakyOriginalTimedOut(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "ran")
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, "#!/bin/sh\necho 'panic: index out of range' >&2\nif [ -e "+state+" ]; then sleep 5; fi\ntouch "+state+"\nexit 2\n")
	write(t, filepath.Join(dir, "in.txt"), []byte("abc\n"))
	r := wynotRun(t, dir, nil, "reduce", "--timeout", "1s", "in.txt", "--", script, "{}")
	if r.code != 2 || !strings.Contains(r.stderr, "timed out after 1s") || !strings.Contains(r.stderr, "give --timeout D longer") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
}

// TestReduceFlakyOriginalShowsDifference: the original panics at one
// place on its first run and at another on the next, with the same
// message: at --precision stack the verdict names the part that
// differs, with both values, beside the failure it was compared with.
func TestReduceFlakyOriginalShowsDifference(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "ran")
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, `#!/bin/sh
f=main.parse
if [ -e `+state+` ]; then f=main.lex; fi
touch `+state+`
printf 'panic: boom\n\ngoroutine 1 [running]:\n%s(...)\n\t/src/p.go:5\nmain.main()\n\t/src/p.go:9 +0x1d\n' $f >&2
exit 2
`)
	write(t, filepath.Join(dir, "in.txt"), []byte("abc\n"))
	r := wynotRun(t, dir, nil, "reduce", "--precision", "stack", "in.txt", "--", script, "{}")
	want := "unlike the failure (exit status 2: panic: boom [main.parse < main.main]), its stack is [main.lex < main.main], not [main.parse < main.main]"
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d\n%s\nwant it to say: %s", r.code, r.stderr, want)
	}
}

// TestReduceCountsTimedOut: tests that the timeout cut off are counted
// in the closing lines and the JSON summary, beside all tests.
func TestReduceCountsTimedOut(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "test.sh")
	// Fails on an x; a candidate without the y hangs.
	writeScript(t, script, "#!/bin/sh\ngrep -q x \"$1\" || exit 0\ngrep -q y \"$1\" || sleep 30\nexit 1\n")
	write(t, filepath.Join(dir, "in.txt"), []byte("aaxbbbbyccc\n"))
	r := wynotRun(t, dir, nil, "reduce", "--json", "--timeout", "1s", "in.txt", "--", script, "{}")
	s := r.summary(t)
	line := fmt.Sprintf("wynot: %d of them timed out (after 1s, --timeout)\n", s.TimedOut)
	if r.code != 0 || s.TimedOut == 0 || s.TimedOut > s.Runs || !strings.Contains(r.stderr, line) {
		t.Errorf("exit %d, %d tests timed out of %d; want the line %q in:\n%s", r.code, s.TimedOut, s.Runs, line, r.stderr)
	}
}

// TestReduceMissingFileHint: the command names the input with a typo
// (in.tx for in.txt) and no {}: every run fails opening it, the empty
// input too. The hint names the missing file and puts {} in its place,
// not after it.
func TestReduceMissingFileHint(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in.txt"), []byte("crash\n"))
	r := wynotRun(t, dir, nil, "reduce", "in.txt", "--", "grep", "-q", "crash", "in.tx")
	want := "The command names in.tx, which does not exist (the run says so)"
	fix := "put {} in its place: -- grep -q crash {}"
	if r.code != 4 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, fix) || strings.Contains(r.stderr, "in.tx {}") {
		t.Errorf("exit %d\n%s\nwant it to say %q and %q", r.code, r.stderr, want, fix)
	}
}
