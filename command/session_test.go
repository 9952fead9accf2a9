package command

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// target is a formula target: a run fails (as a Go panic) when the
// candidate file holds every byte of want; flip, when set, makes every
// run pass (a test that stops failing).
type target struct {
	want string
	flip atomic.Bool
	runs atomic.Int32
	// once is an input whose first run fails another way (exit status
	// 3), and whose later runs do as any other.
	once     string
	onceDone atomic.Bool
}

func (tg *target) exec(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
	tg.runs.Add(1)
	data, err := os.ReadFile(filepath.Join(dir, "in"))
	if err != nil {
		return runner.Run{}, err
	}
	if tg.once != "" && string(data) == tg.once && !tg.onceDone.Swap(true) {
		return runner.Run{Exit: 3, Stderr: []byte("FAIL: once\n")}, nil
	}
	for _, b := range []byte(tg.want) {
		if !bytes.ContainsRune(data, rune(b)) || tg.flip.Load() {
			return runner.Run{}, nil
		}
	}
	return runner.Run{Exit: 2, Stderr: []byte("panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n")}, nil
}

// job is a small ddmin job over the bytes of input.
type job struct {
	input, passing string
	result         []byte
	search         func(ctx context.Context, s *Session, j *job) (Found, error)
	closing        Closing
	ended          End
}

func file(data []byte) runner.Candidate {
	return runner.Candidate{Files: []runner.File{{Name: "in", Data: data}}}
}

func (j *job) Begin() Begin {
	b := Begin{Failing: file([]byte(j.input)), What: "original input", Size: len(j.input), Algorithm: "ddmin"}
	if j.passing != "" {
		p := file([]byte(j.passing))
		b.Passing, b.PassingWhat = &p, "the passing input"
	}
	return b
}

func (j *job) Search(ctx context.Context, s *Session) (Found, error) {
	if j.search != nil {
		return j.search(ctx, s, j)
	}
	pick := func(c dd.Config) []byte {
		var out []byte
		for _, i := range c {
			out = append(out, j.input[i])
		}
		return out
	}
	res, err := s.Search(ctx, Search{Name: "bytes", N: len(j.input), Algorithm: dd.Minimize,
		Build: func(c dd.Config) runner.Candidate { return file(pick(c)) }})
	j.result = pick(res.Fail)
	return Found{Minimal: res.Minimal, Kept: "the smallest so far is kept",
		Confirm: []Check{{Candidate: file(j.result), Want: dd.Fail, What: "the result"}}}, err
}

func (j *job) Close(sum *report.Summary, end End) Closing {
	j.ended = end
	sum.SizeBefore, sum.SizeAfter = len(j.input), len(j.result)
	c := j.closing
	c.Head = []string{fmt.Sprintf("reduced to %q", j.result)}
	c.Verdict = []string{fmt.Sprintf("minimal %v", end.Minimal)}
	c.Tail = []string{"done"}
	return c
}

func run(t *testing.T, tg *target, j *job, ctx context.Context) (*report.Summary, string, error) {
	t.Helper()
	return runRepeat(t, tg, j, ctx, 0)
}

// runRepeat is run with --repeat repeat (0: auto).
func runRepeat(t *testing.T, tg *target, j *job, ctx context.Context, repeat int) (*report.Summary, string, error) {
	t.Helper()
	var stderr bytes.Buffer
	s, err := Open(Config{Command: "test", Test: Test{Argv: []string{"prog", "{}"}, Repeat: repeat}, Output: Output{Stderr: &stderr},
		Jobs: 1, Files: 1, Size: len(j.input), Fake: tg.exec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum := &report.Summary{}
	_, err = s.Run(ctx, j, sum)
	return sum, stderr.String(), err
}

func TestRun(t *testing.T) {
	tg := &target{want: "bd"}
	j := &job{input: "abcdef"}
	sum, stderr, err := run(t, tg, j, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if string(j.result) != "bd" || !sum.Minimal || !sum.Confirmed || sum.Command != "test" || sum.Algorithm != "ddmin" {
		t.Errorf("result %q, summary %+v", j.result, sum)
	}
	// Two runs of the original and AutoRepeat of the result are checks,
	// and, with no removals to recheck, more runs of the result until
	// DefaultCertainty.MinAgreed fresh runs gave the outcome seen before (the original's
	// second run counts); every run is counted once.
	if sum.Checks != 1+DefaultCertainty.MinAgreed || int(tg.runs.Load()) != sum.Tests || sum.Tests != sum.Runs+sum.Checks || sum.Runs != sum.Outcomes.Pass+sum.Outcomes.Fail+sum.Outcomes.Unresolved {
		t.Errorf("%d runs; summary: %d tests, %d runs, %d checks, outcomes %+v", tg.runs.Load(), sum.Tests, sum.Runs, sum.Checks, sum.Outcomes)
	}
	// What the failure is and how it is told is said once, before the
	// search: at --precision exit, with the end of the original's output.
	want := "wynot: the original input fails: exit status 2: panic: boom\n" +
		"wynot: a run counts as this failure when it ends with exit status 2 (--precision exit: its message is not compared); a run that fails otherwise is unresolved\n" +
		"wynot: the original input's output ends:\n    | panic: boom\n    | \n    | goroutine 1 [running]:\n    | main.main()\n" +
		"wynot: reduced to \"bd\"\nwynot: minimal true\nwynot: done\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

func TestRunUnconfirmed(t *testing.T) {
	tg := &target{want: "bd"}
	j := &job{input: "abcdef"}
	search := j.Search
	j.search = func(ctx context.Context, s *Session, j *job) (Found, error) {
		j.search = nil
		f, err := search(ctx, s)
		tg.flip.Store(true) // the test stops failing
		return f, err
	}
	sum, stderr, err := run(t, tg, j, context.Background())
	if ExitCode(err) != ExitUnverified {
		t.Errorf("error %v (exit %d), want exit %d", err, ExitCode(err), ExitUnverified)
	}
	if sum.Confirmed || j.ended.Confirmed || sum.Minimal {
		t.Error("confirmed or minimal, although the result passed when run again")
	}
	for _, l := range []string{"wynot: warning: run again, the result gave FAIL in 0 of 3 runs, PASS otherwise; the test may be flaky\n", "wynot: minimal false\nwynot: done\n"} {
		if !strings.Contains(stderr, l) {
			t.Errorf("stderr lacks %q:\n%s", l, stderr)
		}
	}
}

func TestRunInterrupted(t *testing.T) {
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"context", func() error { return context.Canceled }, "interrupted; the smallest so far is kept"},
		{"job's word", func() error { return &ExitError{ExitInterrupted, errors.New("interrupted while doing X")} }, "interrupted while doing X"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			j := &job{input: "abcdef", search: func(ctx context.Context, s *Session, j *job) (Found, error) {
				j.result = []byte("abc")
				cancel()
				return Found{Minimal: true, Kept: "the smallest so far is kept", Confirm: []Check{{Candidate: file(j.result), Want: dd.Fail, What: "the result"}}}, c.err()
			}}
			sum, stderr, err := run(t, &target{want: "b"}, j, ctx)
			if ExitCode(err) != ExitInterrupted || err.Error() != c.want {
				t.Fatalf("error %v (exit %d), want %q", err, ExitCode(err), c.want)
			}
			if !sum.Interrupted || sum.Minimal || !j.ended.Interrupted || sum.Checks != 2 {
				t.Errorf("summary %+v, end %+v: want interrupted, not minimal, no confirmation run", sum, j.ended)
			}
			if !strings.Contains(stderr, "wynot: minimal false\n") || strings.Contains(stderr, "warning") {
				t.Errorf("stderr:\n%s", stderr)
			}
		})
	}
}

// A search that fails (the test can no longer start) says what it
// leaves, with the error's own exit status.
func TestRunSearchError(t *testing.T) {
	j := &job{input: "abcdef", search: func(ctx context.Context, s *Session, j *job) (Found, error) {
		j.result = []byte("abc")
		return Found{Kept: "the smallest so far is kept"}, InputError("cannot start the test: gone")
	}}
	_, _, err := run(t, &target{want: "b"}, j, context.Background())
	if ExitCode(err) != ExitInput || err.Error() != "cannot start the test: gone; the smallest so far is kept" {
		t.Errorf("error %v (exit %d)", err, ExitCode(err))
	}
}

func TestRunCloseError(t *testing.T) {
	j := &job{input: "abcdef", closing: Closing{Err: Unverified("nothing verified")}}
	_, stderr, err := run(t, &target{want: "b"}, j, context.Background())
	if ExitCode(err) != ExitUnverified || !strings.Contains(stderr, "wynot: done\n") {
		t.Errorf("error %v (exit %d), stderr:\n%s", err, ExitCode(err), stderr)
	}
}

func TestRunChecks(t *testing.T) {
	for _, c := range []struct {
		name           string
		input, passing string
		want           string
		once           bool // the passing side fails another way once
	}{
		{"original passes", "ac", "", "the original input does not fail: exit status 0, with no output", false},
		{"passing side fails", "abcd", "bd", "the passing input does not pass (FAIL): exit status 2; its output ends:\n    panic: boom", false},
		// The passing side fails another way once, then passes: the
		// message shows the run that did not pass, and that they disagree.
		{"passing side flaky", "abcd", "ac", "the passing input does not pass every time: its runs disagree (the test is flaky; try --repeat 3); a run that did not pass ended with exit status 3; its output ends:\n    FAIL: once", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			searched := false
			j := &job{input: c.input, passing: c.passing, search: func(ctx context.Context, s *Session, j *job) (Found, error) {
				searched = true
				return Found{}, nil
			}}
			tg := &target{want: "bd"}
			if c.once {
				tg.once = c.passing
			}
			_, _, err := run(t, tg, j, context.Background())
			if ExitCode(err) != ExitNotReproduced || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q (exit %d), want %q", err, ExitCode(err), c.want)
			}
			if searched {
				t.Error("searched although the checks failed")
			}
		})
	}
}

func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, 0}, {InputError("x"), 1}, {NotReproduced("x"), 2}, {Unverified("x"), 3},
		{fmt.Errorf("wrapped: %w", context.Canceled), 130}, {interruptedError("kept"), 130}, {errors.New("other"), 1},
	} {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

func TestFlagMessage(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	var p runner.Precision
	fs.TextVar(&p, "precision", runner.Message, "")
	err := fs.Parse([]string{"--precision", "loose"})
	if got, want := flagMessage(err).Error(), `unknown --precision "loose" (want exit, message, stack or exact)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	other := errors.New("flag provided but not defined: -zz")
	if flagMessage(other) != other {
		t.Error("other flag errors are not left alone")
	}
}

// TestHere: a command that gets a single candidate by {} or on standard
// input runs where wynot was started; one that names its input, a tree
// or several files, argument lists and remote executors do not.
func TestHere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("bug.c", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	one := Config{Files: 1, Inputs: []string{"bug.c"}}
	for _, c := range []struct {
		argv []string
		cfg  Config
		want bool
	}{
		{[]string{"go", "run", "./cmd/x"}, one, true},
		{[]string{"go", "run", "./cmd/x", "{}"}, one, true},
		{[]string{"gcc", "-c", "bug.c"}, one, false},
		{[]string{"gcc", "-c", "./bug.c"}, one, false},
		{[]string{"tool", "--file=bug.c"}, one, false},
		{[]string{"sh", "-c", "parser bug.c && exit 1"}, one, false},
		{[]string{"sh", "-c", "parser < bug.c | grep -q x"}, one, false},
		{[]string{"sh", "-c", "parser {} | grep -q bug"}, one, true},
		{[]string{"sh", "-c", "make test"}, Config{Files: 1, Inputs: []string{"test"}}, true},
		{[]string{"./check", "test"}, Config{Files: 1, Inputs: []string{"test"}}, false},
		{[]string{"gcc", "-c", filepath.Join(dir, "bug.c")}, one, false},
		{[]string{"bug.c"}, one, true}, // the program itself is no input
		{[]string{"make"}, Config{Files: 2, Inputs: []string{"a", "b"}}, false},
		{[]string{"go", "run", "."}, Config{Files: 1, Inputs: []string{"bug.c", "main.go"}}, false}, // --with main.go
		{[]string{"make"}, Config{Files: 0}, false},
		{[]string{"cc"}, Config{Files: 1, InPlace: true}, false},
	} {
		if got := here(c.argv, c.cfg); got != c.want {
			t.Errorf("here(%q, %+v) = %v, want %v", c.argv, c.cfg, got, c.want)
		}
	}
}

// TestByName: a command that names its single input as a whole argument
// is written back with {} in its place (the flag's name kept), as the
// user would type it to run where wynot was started; a word of a shell
// command, several files and argument lists give none.
func TestByName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("in.txt", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	one := Config{Files: 1, Inputs: []string{"in.txt"}}
	for _, c := range []struct {
		argv []string
		cfg  Config
		want string
	}{
		{[]string{"go", "run", "./cmd/x", "in.txt"}, one, "go run ./cmd/x {}"},
		{[]string{"go", "run", "./cmd/x", "./in.txt", "-v"}, one, "go run ./cmd/x {} -v"},
		{[]string{"tool", "--file=in.txt"}, one, "tool --file={}"},
		{[]string{"sh", "-c", "tool in.txt"}, one, ""},
		{[]string{"go", "run", "./cmd/x"}, one, ""},
		{[]string{"tool", "in.txt"}, Config{Files: 2, Inputs: []string{"in.txt", "b"}}, ""},
		{[]string{"tool", "in.txt"}, Config{Files: 1, InPlace: true, Inputs: []string{"in.txt"}}, ""},
	} {
		if got := byName(c.argv, c.cfg); got != c.want {
			t.Errorf("byName(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}

// TestCopying: a copy of a tree into a work directory is said once it
// has taken two seconds, then every two seconds, never once done.
func TestCopying(t *testing.T) {
	var b bytes.Buffer
	s := &Session{Output: Output{Stderr: &b}}
	s.copying("w1", 1024, 100000)
	if b.Len() > 0 {
		t.Fatalf("said at once: %q", b.String())
	}
	s.copyStart["w1"] = s.copyStart["w1"].Add(-3 * time.Second)
	s.copying("w1", 2048, 100000)
	s.copying("w1", 3072, 100000) // said two seconds ago
	if got := b.String(); got != "wynot: copying the tree into a work directory: 2048 of 100000 files\n" {
		t.Errorf("said %q", got)
	}
	s.copySaid = s.copySaid.Add(-3 * time.Second)
	s.copying("w1", 100000, 100000)
	if _, ok := s.copyStart["w1"]; ok || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("at the end: said %q", b.String())
	}
}

// A result the job confirmed itself as it searched (as changes does for
// each patch it settles on) and names in Found.Confirm is not run again
// at the end: the session takes the confirmation it made. With
// --repeat 1 every confirmation is one run, so the counts tell.
func TestRunConfirmedInSearch(t *testing.T) {
	checks := func(confirmInSearch bool) (*report.Summary, *target) {
		tg := &target{want: "bd"}
		j := &job{input: "abcdef"}
		search := j.Search
		j.search = func(ctx context.Context, s *Session, j *job) (Found, error) {
			j.search = nil
			f, err := search(ctx, s)
			if err == nil && confirmInSearch {
				if ok, _, cerr := s.Confirm(ctx, f.Confirm...); cerr != nil || !ok {
					t.Fatalf("confirm in the search: %v %v", ok, cerr)
				}
			}
			return f, err
		}
		sum, stderr, err := runRepeat(t, tg, j, context.Background(), 1)
		if err != nil || !sum.Confirmed || string(j.result) != "bd" {
			t.Fatalf("result %q, confirmed %v, %v\n%s", j.result, sum.Confirmed, err, stderr)
		}
		return sum, tg
	}
	plain, _ := checks(false)
	self, tg := checks(true)
	if self.Checks != plain.Checks || int(tg.runs.Load()) != self.Tests {
		t.Errorf("confirmed in the search: %d checks, %d runs of %d tests; confirmed at the end only: %d checks", self.Checks, tg.runs.Load(), self.Tests, plain.Checks)
	}
}

// TestRecheckUntested: a removal of the result that the search never ran
// (it predicted it, or took another way) and that fails makes the result
// not 1-minimal; the search goes on from that smaller input, and nothing
// calls the test flaky, for no run of it answered otherwise.
func TestRecheckUntested(t *testing.T) {
	tg := &target{want: "bd"}
	j := &job{input: "abcdef"}
	removals := func(kept string) []Removal {
		var rs []Removal
		for i := range kept {
			less := kept[:i] + kept[i+1:]
			rs = append(rs, Removal{Candidate: file([]byte(less)), What: "removing " + kept[i:i+1],
				Take: func() { j.result = []byte(less) }})
		}
		return rs
	}
	searches := 0
	j.search = func(ctx context.Context, s *Session, j *job) (Found, error) {
		searches++
		if searches == 1 {
			j.result = []byte("bde") // as a search that missed a removal would end
		}
		return Found{Minimal: true, Kept: "the smallest so far is kept",
			Confirm:  []Check{{Candidate: file(j.result), Want: dd.Fail, What: "the result"}},
			Removals: removals(string(j.result))}, nil
	}
	sum, stderr, err := run(t, tg, j, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if string(j.result) != "bd" || !sum.Minimal || searches != 2 {
		t.Errorf("result %q after %d searches, minimal %v\n%s", j.result, searches, sum.Minimal, stderr)
	}
	if strings.Contains(stderr, "flaky") || sum.Flaky != 0 ||
		!strings.Contains(stderr, "not 1-minimal after all: removing e still fails (in 1 of 1 runs); searching on from that smaller input") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestAbsolutePaths: paths in a test command that runs in another
// directory. A bare name is a path only where an interpreter runs it
// (sh check.sh) and a file of that name is there; a word stays a word.
func TestAbsolutePaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"check.sh", "t.py", "error", "repo/tracked.sh", "repo/sub/in.sh", "bug.c"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(p string) string { return filepath.Join(dir, p) }
	inTree := func(p string) bool { return p == "tracked.sh" || p == "sub/in.sh" }
	for _, tc := range []struct {
		argv, tree []string
		want       []string
	}{
		{[]string{"sh", "check.sh", "."}, nil, []string{"sh", abs("check.sh"), "."}},
		{[]string{"bash", "-e", "-x", "check.sh"}, nil, []string{"bash", "-e", "-x", abs("check.sh")}},
		{[]string{"/usr/bin/python3", "-u", "t.py", "error"}, nil, []string{"/usr/bin/python3", "-u", abs("t.py"), "error"}},
		{[]string{"sh", "-c", "sh check.sh", "check.sh"}, nil, []string{"sh", "-c", "sh check.sh", "check.sh"}},
		{[]string{"perl", "-e", "print 1", "check.sh"}, nil, []string{"perl", "-e", "print 1", "check.sh"}},
		{[]string{"grep", "-q", "error", "check.sh"}, nil, []string{"grep", "-q", "error", "check.sh"}},
		{[]string{"sh", "missing.sh"}, nil, []string{"sh", "missing.sh"}},
		{[]string{"sh", "repo"}, nil, []string{"sh", "repo"}}, // a directory
		{[]string{"./check.sh", "x/y"}, nil, []string{abs("check.sh"), "x/y"}},
		// Into the candidate tree: relative to its root, from where
		// the test runs.
		{[]string{"sh", "repo/tracked.sh"}, []string{"repo"}, []string{"sh", "./tracked.sh"}},
		{[]string{"sh", "check.sh"}, []string{"repo"}, []string{"sh", abs("check.sh")}},
		{[]string{"cat", "bug.c"}, nil, []string{"cat", "bug.c"}},
		{[]string{"sh", "check.sh", "./bug.c"}, nil, []string{"sh", abs("check.sh"), "./bug.c"}},
	} {
		if got := absolutePaths(tc.argv, tc.tree, inTree, []string{"bug.c"}); !slices.Equal(got, tc.want) {
			t.Errorf("%q (tree %q):\n got %q\nwant %q", tc.argv, tc.tree, got, tc.want)
		}
	}
	// In a subdirectory of the tree, a script of the tree is named from
	// its root.
	t.Chdir(filepath.Join(dir, "repo", "sub"))
	if got := absolutePaths([]string{"sh", "in.sh"}, []string{".."}, inTree, nil); !slices.Equal(got, []string{"sh", "./sub/in.sh"}) {
		t.Errorf("sh in.sh in repo/sub: %q", got)
	}
}
