package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/internal/fixtures"
)

// End-to-end tests of the commands people type first, on real processes:
// go test on a real git history, go run inside a module, a test that
// always fails. Each failed before wynot read go's output, ran a test
// command where it was typed and tested the empty input first.

// gitIn runs git in dir (fixtures.Git), failing the test on an error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := fixtures.Git(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// statsHistory makes a Go module with a test of Max on negative numbers
// and 21 commits from v0.1 to v0.2; the tenth rewrites Max's loop wrongly
// (m := xs[0] and range xs[1:] become m := 0 and range xs), and removing
// either half of that rewrite alone does not build.
func statsHistory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	loop := "m := xs[0]\n\tfor _, x := range xs[1:] {"
	src := func(loop string, notes int) string {
		s := "package stats\n\n// Max returns the largest of xs.\nfunc Max(xs []int) int {\n\t" + loop + `
		if x > m {
			m = x
		}
	}
	return m
}

// Sum returns the sum of xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
`
		for i := 1; i <= notes; i++ {
			s += fmt.Sprintf("\n// note %d\n", i)
		}
		return s
	}
	files := map[string]string{
		"go.mod":   "module example.com/stats\n\ngo 1.22\n",
		"stats.go": src(loop, 0),
		"stats_test.go": `package stats

import "testing"

func TestMax(t *testing.T) {
	if got := Max([]int{-3, -1, -2}); got != -1 {
		t.Fatalf("Max = %d, want -1", got)
	}
}

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}); got != 6 {
		t.Fatalf("Sum = %d", got)
	}
}
`,
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	commit := func(msg string) {
		t.Helper()
		if _, err := fixtures.Commit(dir, msg, files); err != nil {
			t.Fatal(err)
		}
	}
	commit("stats: Max and Sum")
	gitIn(t, dir, "tag", "v0.1")
	for i := 1; i <= 20; i++ {
		msg := fmt.Sprintf("stats: note %d", i)
		if i == 10 {
			loop, msg = "m := 0\n\tfor _, x := range xs {", "stats: simplify Max"
		}
		files = map[string]string{"stats.go": src(loop, i)}
		commit(msg)
	}
	gitIn(t, dir, "tag", "v0.2")
	return dir
}

// TestTypedChangesGitGoTest: wynot changes --git v0.1 v0.2 -- go test
// ./..., typed in the repository. go test exits 1 when TestMax fails and
// when the package does not build; the failure is TestMax failing, so a
// patch that only breaks the build (the deletion of m := xs[0]) is no
// answer: the answer is the line that makes Max start from 0.
func TestTypedChangesGitGoTest(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := statsHistory(t)
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "--git", "v0.1", "v0.2", "--", "go", "test", "./...")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !strings.Contains(s.Commit, "simplify Max") {
		t.Errorf("commit %q", s.Commit)
	}
	if !strings.Contains(s.Diff, "+\tm := 0") || !s.Confirmed || !s.Minimal || len(s.Caveats) > 0 {
		t.Errorf("patch, confirmed %v, minimal %v, caveats %q:\n%s\n%s", s.Confirmed, s.Minimal, s.Caveats, s.Diff, r.stderr)
	}
	for _, want := range []string{
		"the bad revision v0.2 fails: exit status 1: TestMax failed: stats_test.go:7: Max = 0, want -1 (go test)",
		"a run counts as this failure when TestMax fails with the same message (numbers, addresses and paths aside) and nothing else fails, as go test reports it",
		"a run whose code does not build, or in which other tests fail, is unresolved",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	// The patch applied to the culprit's parent fails as v0.2 does.
	parent := strings.TrimSpace(gitIn(t, dir, "rev-parse", "v0.2~11"))
	work := t.TempDir()
	gitIn(t, dir, "worktree", "add", "-q", "--detach", work, parent)
	cmd := exec.Command("git", "apply")
	cmd.Dir, cmd.Stdin = work, strings.NewReader(s.Diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	cmd = exec.Command("go", "test", "./...")
	cmd.Dir, cmd.Env = work, append(os.Environ(), goEnv()...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--- FAIL: TestMax") || strings.Contains(string(out), "build failed") {
		t.Errorf("the culprit's parent with the patch: %v\n%s", err, out)
	}
}

// kvModule makes a module whose cmd/kvcat panics on a key=@ref line whose
// reference is missing, and a 300-line config with one such line.
func kvModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/kv\n\ngo 1.22\n"))
	write(t, filepath.Join(dir, "cmd", "kvcat", "main.go"), []byte(`package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	m := map[string]string{}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		if strings.HasPrefix(v, "@") {
			ref := m[v[1:]]
			_ = ref[0] // index out of range on a missing reference
		}
		m[k] = v
	}
	fmt.Println(len(m))
}
`))
	var conf strings.Builder
	for i := range 300 {
		if i == 150 {
			conf.WriteString("bad=@missing\n")
		}
		fmt.Fprintf(&conf, "key%d=value%d\n", i, i)
	}
	write(t, filepath.Join(dir, "g.conf"), []byte(conf.String()))
	return dir
}

// TestTypedReduceGoRun: wynot reduce -o g.out g.conf -- go run ./cmd/kvcat,
// typed inside the module: the test runs there, as in the user's shell,
// with the candidate on its standard input; -v shows the end of each
// test's output.
func TestTypedReduceGoRun(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := kvModule(t)
	r := wynotRun(t, dir, goEnv(), "reduce", "-v", "-j2", "-o", "g.out", "g.conf", "--", "go", "run", "./cmd/kvcat")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	got := read(t, filepath.Join(dir, "g.out"))
	if !bytes.Contains(got, []byte("=@")) || len(got) > 12 {
		t.Errorf("result %q", got)
	}
	if !strings.Contains(r.stderr, "the original input fails: exit status 1: panic: runtime error: index out of range [0] with length 0 [main.main]") ||
		!strings.Contains(r.stderr, "    | exit status 2\n") || !strings.Contains(r.stderr, "    | 1\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	cmd := exec.Command("go", "run", "./cmd/kvcat")
	cmd.Dir, cmd.Stdin, cmd.Env = dir, bytes.NewReader(got), append(os.Environ(), goEnv()...)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "index out of range [0] with length 0") {
		t.Errorf("the result run as typed: %v\n%s", err, out)
	}
}

// TestTypedReduceNotSetUp: the same command typed outside the module: go
// cannot start (no go.mod), and wynot says so with go's own words instead
// of reducing the input to nothing.
func TestTypedReduceNotSetUp(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := kvModule(t)
	elsewhere := t.TempDir()
	conf := filepath.Join(dir, "g.conf")
	r := wynotRun(t, elsewhere, goEnv(), "reduce", "-o", "g.out", conf, "--", "go", "run", "./cmd/kvcat")
	if r.code != 2 || !strings.Contains(r.stderr, "fails before anything is built or tested") || !strings.Contains(r.stderr, "go.mod file not found") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "g.out")); err == nil {
		t.Error("a result was written")
	}
}

// TestTypedAlwaysFails: a test that fails whatever the input (false; a
// C-Reduce script that always says "interesting") cannot tell inputs
// apart: wynot stops with exit status 4 and leaves the input alone,
// instead of an empty result called 1-minimal.
func TestTypedAlwaysFails(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	conf := []byte("a = 1\nb = 2\nc = 3\n")
	write(t, filepath.Join(dir, "m.conf"), conf)
	write(t, filepath.Join(dir, "interesting.sh"), []byte("#!/bin/sh\nexit 0\n"))
	if err := os.Chmod(filepath.Join(dir, "interesting.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"reduce", "-o", "f.out", "m.conf", "--", "false"},
		{"reduce", "--test", "interesting.sh", "m.conf"},
	} {
		r := wynotRun(t, dir, nil, args...)
		if r.code != 4 || !strings.Contains(r.stderr, "the empty input fails as the original input does") || !strings.Contains(r.stderr, "cannot tell them apart") {
			t.Errorf("%q: exit %d\n%s", args, r.code, r.stderr)
		}
		if got := read(t, filepath.Join(dir, "m.conf")); !bytes.Equal(got, conf) {
			t.Errorf("%q: the input became %q", args, got)
		}
		for _, f := range []string{"f.out", "m.conf.orig"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				t.Errorf("%q: %s was written", args, f)
			}
		}
	}
}

// TestTypedWritesHere: a test command that writes where it runs (the
// directory wynot was started in) runs its tests one at a time there,
// and says so.
func TestTypedWritesHere(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in.txt"), []byte(strings.Repeat("filler line\n", 40)+"NEEDLE\n"+strings.Repeat("more filler\n", 40)))
	r := wynotRun(t, dir, nil, "reduce", "-j2", "-o", "out.txt", "in.txt", "--", "sh", "-c", "cp {} copy.txt && ! grep -q NEEDLE copy.txt")
	if r.code != 0 || !strings.Contains(r.stderr, "the test writes into "+dir+", where it runs (copy.txt): its tests run one at a time") ||
		!strings.Contains(r.stderr, "1 test at a time") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	if got := read(t, filepath.Join(dir, "out.txt")); string(got) != "NEEDLE" {
		t.Errorf("result %q", got)
	}
}
