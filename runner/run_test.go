package runner

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/proctest"
)

func sh(script string) Command { return Command{Argv: []string{"sh", "-c", script}} }

func execIn(t *testing.T, c Command, files ...File) Run {
	t.Helper()
	r, err := c.ExecIn(context.Background(), WorkDir(t.TempDir()), files)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExecEndings(t *testing.T) {
	if r := execIn(t, sh("exit 3")); r.Exit != 3 || r.Clean() || r.Describe() != "exit status 3" {
		t.Errorf("exit 3: %+v %s", r, r.Describe())
	}
	if r := execIn(t, sh("true")); !r.Clean() {
		t.Errorf("true: %+v", r)
	}
	if r := execIn(t, sh("kill -SEGV $$")); r.Signal != syscall.SIGSEGV || r.Describe() != "killed by SIGSEGV" {
		t.Errorf("SIGSEGV: %+v %s", r, r.Describe())
	}
	if r := execIn(t, sh("exit 124")); !r.TimedOut {
		t.Errorf("exit 124 is read as a timeout: %+v", r)
	}
	r := execIn(t, sh("echo out; echo err >&2"))
	if string(r.Stdout) != "out\n" || string(r.Stderr) != "err\n" {
		t.Errorf("output %q %q", r.Stdout, r.Stderr)
	}
}

func TestOutput(t *testing.T) {
	for _, c := range []struct {
		script, out, err string
	}{
		{"echo hello; echo noise >&2", "hello\n", ""},
		{"echo partial; echo why >&2; exit 3", "", "exit status 3"},
	} {
		cmd := sh(c.script)
		out, err := cmd.Output(context.Background())
		if string(out) != c.out || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %q, %v; want %q and an error holding %q", c.script, out, err, c.out, c.err)
		}
	}
}

func TestExecCandidate(t *testing.T) {
	f := File{Name: "input.txt", Data: []byte("hello\n")}
	if r := execIn(t, Command{Argv: []string{"cat", "{}"}}, f); string(r.Stdout) != "hello\n" {
		t.Errorf("{} not replaced by the candidate's path: %q %q", r.Stdout, r.Stderr)
	}
	if r := execIn(t, Command{Argv: []string{"cat"}, Stdin: true}, f); string(r.Stdout) != "hello\n" {
		t.Errorf("candidate not on stdin: %q", r.Stdout)
	}
	if r := execIn(t, Command{Argv: []string{"cat"}}, f); len(r.Stdout) != 0 || !r.Clean() {
		t.Errorf("stdin should be empty: %q", r.Stdout)
	}
	// The test runs in the work directory, where the file has its name.
	if r := execIn(t, sh("cat input.txt; pwd"), f); !strings.HasPrefix(string(r.Stdout), "hello\n/") {
		t.Errorf("not run in the work dir: %q", r.Stdout)
	}
}

func TestExecEmptiesWorkDir(t *testing.T) {
	dir := t.TempDir()
	c := sh("ls; touch leftover; mkdir -p sub; touch sub/x")
	if _, err := c.ExecIn(context.Background(), WorkDir(dir), []File{{Name: "a", Data: []byte("1")}}); err != nil {
		t.Fatal(err)
	}
	r, err := c.ExecIn(context.Background(), WorkDir(dir), []File{{Name: "a", Data: []byte("1")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(r.Stdout)); len(got) != 1 || got[0] != "a" {
		t.Errorf("work dir held %q before the second test, want only a", got)
	}
}

func TestExecLongOutputKeepsTail(t *testing.T) {
	r := execIn(t, sh("head -c 1000000 /dev/zero | tr '\\0' x; echo END"))
	if len(r.Stdout) != OutputLimit || !strings.HasSuffix(string(r.Stdout), "xEND\n") {
		t.Errorf("kept %d bytes ending %q", len(r.Stdout), r.Stdout[len(r.Stdout)-8:])
	}
}

// ends reports whether the process pid ends within a generous time. A
// process killed (or orphaned) runs on until the kernel has delivered
// the signal and a parent has reaped it, which on a busy machine can
// take a while: the test asks that it ends, not how soon.
func ends(pid int) bool {
	for deadline := time.Now().Add(30 * time.Second); proctest.Running(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

func waitGone(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); !ends(pid) {
		t.Errorf("process in %s still running", file)
	}
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(t.TempDir(), "bg.pid")
	c := sh("sleep 30 & echo $! > " + pidfile + "; sleep 30")
	// On a busy machine the shell may not have started its background
	// process within the timeout: then there is nothing to check, and
	// the test runs again with a longer timeout.
	for c.Timeout = 300 * time.Millisecond; ; c.Timeout *= 2 {
		r, err := c.ExecIn(context.Background(), WorkDir(dir), nil)
		if err != nil {
			t.Fatal(err)
		}
		// Without the timeout the run would end after 30 s, not timed out.
		if !r.TimedOut {
			t.Fatalf("run %+v", r)
		}
		if b, err := os.ReadFile(pidfile); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			break
		}
		if c.Timeout > 10*time.Second {
			t.Fatal("the shell never started its background process")
		}
	}
	waitGone(t, pidfile)
}

func TestBackgroundProcessesDieWithTheTest(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "bg.pid")
	r := execIn(t, sh("sleep 30 & echo $! > "+pidfile))
	if !r.Clean() {
		t.Fatalf("run %+v", r)
	}
	waitGone(t, pidfile)
}

func TestCancelKillsTest(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "bg.pid")
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the background process runs (after a fixed delay, a
	// busy machine may not have started it yet).
	go func() {
		for {
			if b, err := os.ReadFile(pidfile); err == nil && bytes.HasSuffix(b, []byte("\n")) {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	c := sh("sleep 30 & echo $! > " + pidfile + "; wait")
	_, err := c.ExecIn(ctx, WorkDir(t.TempDir()), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	waitGone(t, pidfile)
}

func TestExecNotStartable(t *testing.T) {
	_, err := (&Command{Argv: []string{"/no/such/program"}}).ExecIn(context.Background(), WorkDir(t.TempDir()), nil)
	if !errors.Is(err, ErrStart) {
		t.Errorf("err = %v, want ErrStart", err)
	}
}

func TestOracles(t *testing.T) {
	panicRun := Run{Exit: 2, Stderr: []byte("panic: index out of range [7] with length 2\n\ngoroutine 1 [running]:\nmain.f()\n\t/x/m.go:3 +0x1\n")}
	sig := &SignatureOracle{Want: Extract(panicRun), Precision: Message}
	for _, c := range []struct {
		o    Oracle
		r    Run
		want dd.Outcome
	}{
		{sig, panicRun, dd.Fail},
		{sig, Run{Exit: 2, Stderr: []byte("panic: index out of range [1] with length 0\n")}, dd.Fail},
		{sig, Run{Exit: 2, Stderr: []byte("panic: nil map\n")}, dd.Unresolved},
		{sig, Run{Exit: 0}, dd.Pass},
		{sig, Run{Exit: -1, Signal: syscall.SIGKILL, TimedOut: true}, dd.Unresolved},
		{&RegexOracle{Re: regexp.MustCompile(`out of range`)}, panicRun, dd.Fail},
		{&RegexOracle{Re: regexp.MustCompile(`nil map`)}, panicRun, dd.Unresolved},
		{&RegexOracle{Re: regexp.MustCompile(`nil map`)}, Run{}, dd.Pass},
		{&ScriptOracle{CReduce}, Run{Exit: 0}, dd.Fail},
		{&ScriptOracle{CReduce}, Run{Exit: 1}, dd.Pass},
		{&ScriptOracle{CReduce}, Run{Exit: 125}, dd.Unresolved},
		{&ScriptOracle{Bisect}, Run{Exit: 0}, dd.Pass},
		{&ScriptOracle{Bisect}, Run{Exit: 1}, dd.Fail},
		{&ScriptOracle{Bisect}, Run{Exit: 125}, dd.Unresolved},
	} {
		got, _, err := c.o.Classify(c.r)
		if err != nil || got != c.want {
			t.Errorf("%s on %+v: %s, %v; want %s", c.o.Key(), c.r.Describe(), got, err, c.want)
		}
	}
	if _, _, err := (&ScriptOracle{Bisect}).Classify(Run{Exit: 128}); err == nil {
		t.Error("bisect convention: exit 128 should abort")
	}
}

func TestTesterCacheAndRepeat(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "count")
	// Fails on "x", except every other run: flaky.
	c := sh(`n=$(cat ` + counter + ` 2>/dev/null || echo 0); n=$((n+1)); echo $n > ` + counter + `
if grep -q flaky {} && [ $((n % 2)) = 0 ]; then exit 0; fi
if grep -q x {}; then exit 1; fi`)
	tester, err := NewTester(c, &ScriptOracle{Bisect}, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	tester.Cache = NewCache()
	tester.SetRepeat(2)
	ctx := context.Background()
	x := Candidate{Files: []File{{Name: "in", Data: []byte("x")}}}
	r1, err := tester.Test(ctx, x)
	if err != nil || r1.Outcome != dd.Fail || r1.Cached {
		t.Fatalf("first test: %+v %v", r1, err)
	}
	r2, _ := tester.Test(ctx, x)
	if !r2.Cached || r2.Outcome != dd.Fail {
		t.Errorf("second test of the same content not cached: %+v", r2)
	}
	r3, _ := tester.Test(ctx, Candidate{Files: []File{{Name: "in", Data: []byte("x flaky")}}})
	if r3.Outcome != dd.Unresolved || !r3.Flaky {
		t.Errorf("flaky test: %+v", r3)
	}
	root := tester.Root()
	tester.Close()
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("work dirs not removed: %v", err)
	}
}

// TestTesterSameCandidateInFlight: the same candidate asked for twice
// at once (two removals that leave the same text, tested in parallel)
// runs once; the second gets its answer, as from the cache. One whose
// test is cancelled is run by the next asking.
func TestTesterSameCandidateInFlight(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "count")
	tester, err := NewTester(sh(`echo >> `+counter+`; sleep 0.3; grep -q x {} && exit 1; exit 0`), &ScriptOracle{Bisect}, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	tester.Cache = NewCache()
	x := Candidate{Files: []File{{Name: "in", Data: []byte("x")}}}
	var recs [2]Test
	var wg sync.WaitGroup
	for i := range recs {
		wg.Go(func() {
			rec, err := tester.Test(context.Background(), x)
			if err != nil {
				t.Error(err)
			}
			recs[i] = rec
		})
	}
	wg.Wait()
	runs, _ := os.ReadFile(counter)
	if n := bytes.Count(runs, []byte("\n")); n != 1 || recs[0].Outcome != dd.Fail || recs[1].Outcome != dd.Fail || recs[0].Cached == recs[1].Cached {
		t.Errorf("%d runs; outcomes %s (cached %v) and %s (cached %v): want 1 run, both FAIL, one cached",
			n, recs[0].Outcome, recs[0].Cached, recs[1].Outcome, recs[1].Cached)
	}

	// The first asking is cancelled while its test runs: the second runs
	// it.
	y := Candidate{Files: []File{{Name: "in", Data: []byte("y")}}}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := tester.Test(ctx, y); first <- err }()
	time.Sleep(100 * time.Millisecond)
	second := make(chan Test, 1)
	go func() { rec, _ := tester.Test(context.Background(), y); second <- rec }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-first; err == nil {
		t.Errorf("the cancelled test gave no error")
	}
	if rec := <-second; rec.Outcome != dd.Pass || rec.Cached {
		t.Errorf("after the first was cancelled: %s, cached %v; want PASS, run", rec.Outcome, rec.Cached)
	}
}

func TestCacheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	c, n, err := OpenCache(path)
	if err != nil || n != 0 {
		t.Fatal(n, err)
	}
	k1, k2 := KeyOf("q", []File{{"a", []byte("1")}}), KeyOf("q", []File{{"a", []byte("2")}})
	c.Put(k1, Cached{Outcome: dd.Fail, Detail: "panic: x"})
	c.Put(k2, Cached{Outcome: dd.Pass})
	c.Close()
	// An interrupted write leaves a partial line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"key":"00`)
	f.Close()
	c, n, err = OpenCache(path)
	if err != nil || n != 2 {
		t.Fatalf("reopened: %d entries, %v", n, err)
	}
	if v, ok := c.Get(k1); !ok || v.Outcome != dd.Fail || v.Detail != "panic: x" {
		t.Errorf("k1: %+v %v", v, ok)
	}
	k3 := KeyOf("q", []File{{"a", []byte("3")}})
	c.Put(k3, Cached{Outcome: dd.Unresolved})
	c.Close()
	c, n, _ = OpenCache(path)
	if n != 3 {
		t.Errorf("after a partial line and a new entry: %d entries, want 3", n)
	}
	c.Close()
	if KeyOf("q", []File{{"a", []byte("1")}}) == KeyOf("r", []File{{"a", []byte("1")}}) {
		t.Error("the question is not part of the key")
	}
}

// TestCachedAnswers: whether an outcome cached under one timeout is the
// one a test under another would give.
func TestCachedAnswers(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		cached  Cached
		timeout time.Duration
		want    bool
	}{
		{Cached{Slowest: 2 * s, Timeout: 10 * s}, 0, true},
		{Cached{Slowest: 2 * s, Timeout: 10 * s}, 3 * s, true},
		{Cached{Slowest: 2 * s, Timeout: 10 * s}, 2 * s, true},
		{Cached{Slowest: 2 * s, Timeout: 10 * s}, s, false}, // it would time out now
		{Cached{Slowest: 2 * s}, 20 * s, true},
		{Cached{}, s, true}, // seeded: known without a run
		{Cached{TimedOut: true, Slowest: 5 * s, Timeout: 5 * s}, 5 * s, true},
		{Cached{TimedOut: true, Slowest: 5 * s, Timeout: 5 * s}, 4 * s, true},
		{Cached{TimedOut: true, Slowest: 5 * s, Timeout: 5 * s}, 6 * s, false}, // it may end in time now
		{Cached{TimedOut: true, Slowest: 5 * s, Timeout: 5 * s}, 0, false},
	} {
		if got := c.cached.Answers(c.timeout); got != c.want {
			t.Errorf("%+v under timeout %s: %v, want %v", c.cached, c.timeout, got, c.want)
		}
	}
}

// TestCacheAcrossTimeouts: a cache file answers a later run whose timeout
// differs (as a calibrated one does), unless the outcome could differ
// under it: a test slower than the new limit runs again.
func TestCacheAcrossTimeouts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	test := func(timeout time.Duration) Test {
		t.Helper()
		cache, _, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer cache.Close()
		cmd := sh(`grep -q x {}`) // exit 0: interesting (fails)
		cmd.Timeout = timeout
		tester, err := NewTester(cmd, &ScriptOracle{}, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		defer tester.Close()
		tester.Cache = cache
		rec, err := tester.Test(context.Background(), Candidate{Files: []File{{"in", []byte("x")}}})
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	if r := test(time.Minute); r.Cached || r.Outcome != dd.Fail {
		t.Fatalf("first run: %+v", r)
	}
	if r := test(30 * time.Second); !r.Cached || r.Outcome != dd.Fail {
		t.Errorf("under another timeout the outcome was not taken from the cache: %+v", r)
	}
	if r := test(time.Nanosecond); r.Cached || r.Outcome != dd.Unresolved {
		t.Errorf("under a timeout shorter than the test took: %+v, want a new run that times out", r)
	}
	if r := test(time.Nanosecond); !r.Cached || r.Outcome != dd.Unresolved {
		t.Errorf("a timeout cached under the same limit: %+v, want it from the cache", r)
	}
	if r := test(time.Minute); r.Cached || r.Outcome != dd.Fail {
		t.Errorf("a timeout cached under a shorter limit answered a longer one: %+v", r)
	}
}

// TestTesterReusesOutputFiles: the output of one test does not leak into
// the next one in the same work directory.
func TestTesterReusesOutputFiles(t *testing.T) {
	tester, err := NewTester(sh(`cat {} >&2`), &RegexOracle{Re: regexp.MustCompile(`^second\n$`)}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	ctx := context.Background()
	first, _ := tester.Test(ctx, Candidate{Files: []File{{Name: "in", Data: []byte("a much longer first output\n")}}})
	second, _ := tester.Test(ctx, Candidate{Files: []File{{Name: "in", Data: []byte("second\n")}}})
	if first.Outcome == dd.Fail || second.Outcome != dd.Fail || string(second.Run.Stderr) != "second\n" {
		t.Errorf("first %s, second %s with stderr %q", first.Outcome, second.Outcome, second.Run.Stderr)
	}
}

// TestCandidateArgsAreLiteral: a candidate's own arguments reach the
// program as they are ("{}" in a JSON argument is not the candidate's
// path), while "{}" in the command still is.
func TestCandidateArgsAreLiteral(t *testing.T) {
	tester, err := NewTester(Command{Argv: []string{"echo", "{}"}}, &ScriptOracle{CReduce}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	ctx := context.Background()
	r, err := tester.Test(ctx, Candidate{Args: []string{"{}", "a{}b"}, Files: []File{{Name: "in", Data: []byte("x")}}})
	if err != nil || string(r.Run.Stdout) != "{} a{}b\n" {
		t.Errorf("the candidate's arguments {} a{}b reached the program as %q (%v)", r.Run.Stdout, err)
	}
	r, err = tester.Test(ctx, Candidate{Files: []File{{Name: "in", Data: []byte("x")}}})
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(r.Run.Stdout)), "/in") {
		t.Errorf("{} in the command reached the program as %q (%v), not the candidate's path", r.Run.Stdout, err)
	}
}

// TestCaptureBounded: a test that writes without end is trimmed, and its
// output still ends as written.
func TestCaptureBounded(t *testing.T) {
	tester, err := NewTester(sh(`head -c 60000000 /dev/zero; echo END`), &ScriptOracle{CReduce}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	rec, err := tester.Test(context.Background(), Candidate{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(rec.Run.Stdout), "END\n") || len(rec.Run.Stdout) > OutputLimit {
		t.Errorf("kept %d bytes, ending %q", len(rec.Run.Stdout), rec.Run.Stdout[max(0, len(rec.Run.Stdout)-8):])
	}
}

func TestCaptureTrim(t *testing.T) {
	c, err := newCapture(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	c.f.Write(make([]byte, captureLimit+1))
	c.trim()
	c.f.Write([]byte("END"))
	st, _ := c.f.Stat()
	if blocks := st.Sys().(*syscall.Stat_t).Blocks; blocks*512 > 1<<20 {
		t.Errorf("trimmed capture still takes %d bytes", blocks*512)
	}
	if got := string(c.tail(OutputLimit)); got != "END" {
		t.Errorf("tail %q, want END", got)
	}
	c.reset()
	c.f.Write([]byte("next"))
	if got := string(c.tail(OutputLimit)); got != "next" {
		t.Errorf("after reset, tail %q", got)
	}
}

// TestMajority checks how repeated runs decide: by default any
// disagreement is unresolved; with Majority, one disagreeing run of three
// brings two more, and all runs but one decide.
func TestMajority(t *testing.T) {
	for _, c := range []struct {
		seq      string // outcomes of successive runs: F fails, P passes
		majority bool
		want     dd.Outcome
		runs     int
	}{
		{"FFF", true, dd.Fail, 3},
		{"FPF", false, dd.Unresolved, 2},
		{"FPFFF", true, dd.Fail, 5},
		{"PFPPP", true, dd.Pass, 5},
		{"FPFPF", true, dd.Unresolved, 5},
		{"FPP", true, dd.Pass, 5}, // then PP
		{"PPP", false, dd.Pass, 3},
	} {
		var mu sync.Mutex
		i := 0
		seq := c.seq
		if c.seq == "FPP" {
			seq = "FPPPP"
		}
		tester, err := NewTester(Command{Argv: []string{"prog"}}, &ScriptOracle{Bisect}, 1, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		tester.Fake = func(ctx context.Context, dir string, cand Candidate) (Run, error) {
			mu.Lock()
			defer mu.Unlock()
			r := Run{}
			if seq[i%len(seq)] == 'F' {
				r.Exit = 1
			}
			i++
			return r, nil
		}
		tester.SetRepeat(3)
		tester.Majority = c.majority
		rec, err := tester.Test(context.Background(), Candidate{Files: []File{{Name: "x", Data: []byte("x")}}})
		tester.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Outcome != c.want || rec.Runs != c.runs || rec.Flaky != (c.seq != "FFF" && c.seq != "PPP") {
			t.Errorf("%s (majority %v): %s in %d runs (flaky %v), want %s in %d", c.seq, c.majority, rec.Outcome, rec.Runs, rec.Flaky, c.want, c.runs)
		}
	}
}

// TestCacheFileRefusesOthers: --cache never appends to a file that is not
// a cache; an empty or missing file becomes one, and a cache written
// before caches had a header line is still read.
func TestCacheFileRefusesOthers(t *testing.T) {
	k := KeyOf("q", []File{{"a", []byte("1")}})
	record := `{"key":"` + hex.EncodeToString(k[:]) + `","outcome":"FAIL","detail":"panic: x"}` + "\n"
	for _, c := range []struct {
		name    string
		content *string // nil: no file
		loaded  int     // -1: refused
	}{
		{"missing", nil, 0},
		{"empty", ptr(""), 0},
		{"new cache", ptr(cacheHeader + "\n" + record), 1},
		{"cache without header", ptr(record), 1},
		{"text", ptr(strings.Repeat("The quick brown fox.\n", 1000)), -1},
		{"other JSON", ptr(`{"key":"value"}` + "\n" + record), -1},
		{"blank first line", ptr("\n" + record), -1},
		{"binary", ptr("\x7fELF\x00\x01\x02"), -1},
		{"long line", ptr(strings.Repeat("x", 2<<20)), -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache")
			if c.content != nil {
				if err := os.WriteFile(path, []byte(*c.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cache, n, err := OpenCache(path)
			if c.loaded < 0 {
				if !errors.Is(err, ErrNotCache) {
					t.Fatalf("opened with %d entries, error %v; want ErrNotCache", n, err)
				}
				if got, _ := os.ReadFile(path); string(got) != *c.content {
					t.Errorf("the refused file changed: %d bytes, was %d", len(got), len(*c.content))
				}
				return
			}
			if err != nil || n != c.loaded {
				t.Fatalf("%d entries, %v; want %d", n, err, c.loaded)
			}
			k2 := KeyOf("q", []File{{"a", []byte("2")}})
			if err := cache.Put(k2, Cached{Outcome: dd.Pass}); err != nil {
				t.Fatal(err)
			}
			cache.Close()
			cache, n, err = OpenCache(path)
			if err != nil || n != c.loaded+1 {
				t.Fatalf("reopened: %d entries, %v; want %d", n, err, c.loaded+1)
			}
			cache.Close()
			got, _ := os.ReadFile(path)
			if c.content == nil || *c.content == "" {
				if first, _, _ := strings.Cut(string(got), "\n"); first != cacheHeader {
					t.Errorf("a new cache starts with %q, not the header", first)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestRanOutOfRoom(t *testing.T) {
	dir := t.TempDir()
	if ranOutOfRoom(Run{Exit: 1}, dir) {
		t.Skip("the temporary directory's file system is full")
	}
	for _, c := range []struct {
		r    Run
		want bool
	}{
		{Run{Exit: 1, Stderr: []byte("cat: write error: No space left on device\n")}, true},
		{Run{Exit: 2, Stdout: []byte("open x: no space left on device\n")}, true},
		{Run{Exit: 2, Stderr: []byte("panic: boom\n")}, false},
		{Run{Exit: 1}, false},
	} {
		if got := ranOutOfRoom(c.r, dir); got != c.want {
			t.Errorf("%q %q: %v, want %v", c.r.Stdout, c.r.Stderr, got, c.want)
		}
	}
}

// Started is called once, while the test's process runs: the test waits
// for the file the callback writes and exits 0 only when it appears.
func TestStartedWhileRunning(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "started")
	tester, err := NewTester(sh(`i=0; while [ ! -e `+flag+` ]; do i=$((i+1)); [ $i -gt 600 ] && exit 3; sleep 0.05; done; exit 0`), &ScriptOracle{Bisect}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	var calls atomic.Int32
	c := Candidate{Files: []File{{Name: "in", Data: []byte("x")}}, Started: func() {
		if calls.Add(1) == 1 {
			os.WriteFile(flag, nil, 0o644)
		}
	}}
	r, err := tester.Exec(context.Background(), c)
	if err != nil || r.Exit != 0 {
		t.Fatalf("%s %v: the test did not see its start called while it ran", r.Describe(), err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("started called %d times, want once", n)
	}
}

// Patience: a fresh run (as confirmations make) that times out is run
// once more with three times the timeout, and that run counts; a test
// that truly hangs still times out, and runs that are not fresh (the
// search's) are not run again.
func TestPatience(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	// Slow on its first run only (a busy moment), then quick; fails.
	slowOnce := sh(`n=$(cat ` + count + ` 2>/dev/null || echo 0); echo $((n+1)) > ` + count + `; [ "$n" = 0 ] && sleep 3; exit 1`)
	slowOnce.Timeout = 1 * time.Second
	for _, c := range []struct {
		patience int
		fresh    bool
		timedOut bool
		runs     string
	}{
		{3, true, false, "2"},
		{0, true, true, "1"},
		{3, false, true, "1"},
	} {
		os.Remove(count)
		tester, err := NewTester(slowOnce, &ScriptOracle{Bisect}, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		tester.Patience = c.patience
		var rec Test
		if c.fresh {
			rec, err = tester.Decide(context.Background(), Candidate{Files: []File{{Name: "in", Data: []byte("x")}}}, 1)
		} else {
			rec, err = tester.Test(context.Background(), Candidate{Files: []File{{Name: "in", Data: []byte("x")}}})
		}
		tester.Close()
		n, _ := os.ReadFile(count)
		if err != nil || rec.Run.TimedOut != c.timedOut || strings.TrimSpace(string(n)) != c.runs {
			t.Errorf("patience %d, fresh %v: timed out %v (%s), %s runs, %v; want timed out %v, %s runs", c.patience, c.fresh, rec.Run.TimedOut, rec.Run.Describe(), strings.TrimSpace(string(n)), err, c.timedOut, c.runs)
		}
		if !c.timedOut && rec.Outcome != dd.Fail {
			t.Errorf("patience %d: %s, want FAIL from the second run", c.patience, rec.Outcome)
		}
	}
	// A hang stays a hang.
	hang := sh(`sleep 30`)
	hang.Timeout = 200 * time.Millisecond
	tester, err := NewTester(hang, &ScriptOracle{Bisect}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	tester.Patience = 3
	rec, err := tester.Decide(context.Background(), Candidate{Files: []File{{Name: "in", Data: []byte("x")}}}, 1)
	if err != nil || !rec.Run.TimedOut || tester.Retimed() != 1 {
		t.Errorf("a hang: timed out %v, %d retimed, %v; want timed out after one more run", rec.Run.TimedOut, tester.Retimed(), err)
	}
}

// TestPairedRun: a paired command runs after the first on the same
// candidate, with "{}" its own file, and the output oracle compares both
// runs: a candidate whose first run reproduces but whose paired run does
// not is not the reference's behavior, and says why.
func TestPairedRun(t *testing.T) {
	cmd := sh(`cat {}`)
	cmd.Paired = &Command{Argv: []string{"sh", "-c", "cat {}; exit 3"}, File: "pass"}
	cand := func(fail, pass string) Candidate {
		return Candidate{Files: []File{{Name: "fail", Data: []byte(fail)}, {Name: "pass", Data: []byte(pass)}}}
	}
	tester, err := NewTester(cmd, &ScriptOracle{}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	ctx := context.Background()
	ref, err := tester.Test(ctx, cand("F\n", "P\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p := ref.Run.Paired; string(ref.Run.Stdout) != "F\n" || p == nil || string(p.Stdout) != "P\n" || p.Exit != 3 {
		t.Fatalf("run %q, paired %+v", ref.Run.Stdout, p)
	}
	tester.Oracle = &OutputOracle{Observe: Observation{Stdout: true, Exit: true}, Want: ref.Run}
	for _, c := range []struct {
		fail, pass string
		want       dd.Outcome
		detail     string
	}{
		{"F\n", "P\n", dd.Fail, "reproduced"},
		{"F\n", "Q\n", dd.Pass, `the paired run: stdout line 1: "Q" instead of "P"`},
		{"G\n", "P\n", dd.Pass, `stdout line 1: "G" instead of "F"`},
	} {
		r, err := tester.Test(ctx, cand(c.fail, c.pass))
		if err != nil || r.Outcome != c.want || r.Detail != c.detail {
			t.Errorf("%q, %q: %s (%s), want %s (%s) %v", c.fail, c.pass, r.Outcome, r.Detail, c.want, c.detail, err)
		}
	}
}

// TestExecPrivateTemp: a local test gets a temporary directory of its
// own (TMPDIR, GOTMPDIR), removed with what it left there when the test
// ends, also a read-only directory (a module cache's) of a test cut off
// by its timeout, as an interrupted go command leaves its go-build
// directory; PWD is the directory it runs in. A TMPDIR or GOTMPDIR the
// test's environment sets stays.
func TestExecPrivateTemp(t *testing.T) {
	dir := t.TempDir()
	c := sh(`echo "$TMPDIR $GOTMPDIR $PWD"; mkdir -p "$TMPDIR/go-build1/ro" && touch "$TMPDIR/go-build1/ro/f" && chmod 500 "$TMPDIR/go-build1/ro"; sleep 5`)
	c.Timeout = 300 * time.Millisecond
	r, err := c.ExecIn(context.Background(), WorkDir(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(r.Stdout))
	if len(f) != 3 || !strings.HasPrefix(filepath.Base(f[0]), fmt.Sprintf("wynot-%d-test-", os.Getpid())) || f[1] != f[0] || f[2] != dir || !r.TimedOut {
		t.Fatalf("TMPDIR GOTMPDIR PWD = %q (timed out %v), want a wynot-PID-test- directory twice and %s", r.Stdout, r.TimedOut, dir)
	}
	if _, err := os.Stat(f[0]); !os.IsNotExist(err) {
		t.Errorf("%s is still there after the test: %v", f[0], err)
		os.Chmod(filepath.Join(f[0], "go-build1", "ro"), 0o700)
		os.RemoveAll(f[0])
	}
	c = Command{Argv: []string{"sh", "-c", `echo "$TMPDIR $GOTMPDIR"`}, Env: []string{"TMPDIR=" + dir, "PATH=" + os.Getenv("PATH")}}
	if r := execIn(t, c); strings.TrimSpace(string(r.Stdout)) != dir {
		t.Errorf("with TMPDIR set: %q, want %s and no GOTMPDIR", r.Stdout, dir)
	}
	c = Command{Argv: []string{"sh", "-c", `echo "$GOTMPDIR"`}, Env: []string{"GOTMPDIR=" + dir, "PATH=" + os.Getenv("PATH")}}
	if r := execIn(t, c); strings.TrimSpace(string(r.Stdout)) != dir {
		t.Errorf("with GOTMPDIR set: %q, want %s", r.Stdout, dir)
	}
}

// TestTesterPrivateTemp: a Tester's tests get their slot's temporary
// directory, emptied after each test (a read-only part too) and the
// same for the next; Close removes it.
func TestTesterPrivateTemp(t *testing.T) {
	c := sh(`echo "$TMPDIR $GOTMPDIR"; ls -A "$TMPDIR"; mkdir "$TMPDIR/go-build1" && touch "$TMPDIR/go-build1/f" "$TMPDIR/t" && chmod 500 "$TMPDIR/go-build1"`)
	tester, err := NewTester(c, nil, 1, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for range 2 {
		r, err := tester.Exec(context.Background(), Candidate{Files: []File{{Name: "in", Data: []byte("x")}}})
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(r.Stdout))
		if len(f) != 2 || f[0] != f[1] || filepath.Base(f[0]) != "w0.tmp" {
			t.Fatalf("TMPDIR GOTMPDIR and what TMPDIR holds: %q, want the slot's w0.tmp, twice, and nothing", r.Stdout)
		}
		dirs = append(dirs, f[0])
		if names, err := os.ReadDir(f[0]); err != nil || len(names) != 0 {
			t.Errorf("after the test, %s holds %v (%v)", f[0], names, err)
		}
	}
	if dirs[0] != dirs[1] {
		t.Errorf("the slot's tests got %s and %s", dirs[0], dirs[1])
	}
	if err := tester.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
		t.Errorf("%s after Close: %v", dirs[0], err)
	}
}
