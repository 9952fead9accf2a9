package runner

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/rmtree"
)

// Tester runs the test on candidates: each in a private work directory of
// its own (one per parallel slot, reused), with the outcome cached by
// content and, with Repeat > 1, taken only when repeated runs agree.
type Tester struct {
	Command Command
	Oracle  Oracle
	// Cache, if set, answers candidates seen before (in this run or, with
	// a cache file, an earlier one).
	Cache *Cache
	// OnTest, if set, is called after each test, cached or run, from the
	// goroutine that asked for it.
	OnTest func(Test)
	// InPlace runs tests in the current directory instead of private work
	// directories; candidates then carry arguments, not files.
	InPlace bool
	// Majority changes how repeated runs decide (with a repeat of 3 or
	// more): when exactly one run disagrees, two more run, and the outcome
	// of all runs but one is taken; otherwise any disagreement makes the
	// test unresolved. Either way a disagreement marks it flaky.
	Majority bool
	// Fake, if set, stands in for the test process: it is called with
	// the work directory, prepared as for a real run (the candidate's
	// files written, or its Setup done), and returns what the run did.
	// Tests of wynot's commands use it to run formula targets without
	// processes (as x/tools' cmd/bisect tests do).
	Fake func(ctx context.Context, dir string, c Candidate) (Run, error)
	// Executor, if set, runs the test processes (a Slurm job step, a
	// remote action); otherwise they are local process groups.
	Executor Executor
	// Patience, when above 1, is how many times longer than the timeout
	// a fresh run that timed out (a confirmation, a decision on repeated
	// runs) is given once more before its timeout counts: on a busy
	// machine a test can take longer than a timeout calibrated in a quiet
	// moment, which says nothing of its candidate. Zero when the user
	// gave the timeout, under which a hang may be the failure.
	Patience int

	retimed atomic.Int64 // fresh runs given once more for Patience

	repeat    atomic.Int32 // runs per test (SetRepeat)
	outOfRoom atomic.Int64 // runs that ran out of room (OutOfRoom)
	servers   servers      // Command.Persistent: a process per slot
	paired    servers      // and one of Command.Paired
	root      string
	dirs      chan string
	outs      map[string][]*capture // per work directory: its output captures

	// flights are the tests running now by key, with a cache: a
	// candidate asked for again while its test runs (two removals that
	// leave the same text, tested in parallel) waits for its channel to
	// close and then finds the answer in the cache.
	flightMu sync.Mutex
	flights  map[Key]chan struct{}
}

// Test records one test of a candidate.
type Test struct {
	Candidate Candidate
	Key       Key
	Size      int // bytes in the candidate's files
	Outcome   dd.Outcome
	Detail    string
	Run       Run // the (last) run; zero when Cached
	Cached    bool
	Flaky     bool
	Runs      int // how many times the test ran (0 when Cached)
	Agreed    int // how many of the runs gave Outcome (with Majority: all but one, at least)
	// Outcomes and Details are what each run gave.
	Outcomes []dd.Outcome
	Details  []string
	// Predicted is set when the outcome was predicted without running
	// the test (a candidate that does not parse is Unresolved).
	Predicted bool
	Duration  time.Duration
	// slowest is the longest of the runs, timedOut whether one of them
	// timed out: what the cache needs to weigh another timeout.
	slowest  time.Duration
	timedOut bool
}

// WorkDirParent returns where work directories go: $WYNOT_TMPDIR if set;
// else, for candidates up to 64 MiB, /dev/shm when it is a writable
// directory, since writing a candidate to memory costs a tenth of writing
// it to disk; else the system's temporary directory.
func WorkDirParent(candidateSize int) string {
	if d := os.Getenv("WYNOT_TMPDIR"); d != "" {
		return d
	}
	if candidateSize <= 64<<20 {
		if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() && syscall.Access("/dev/shm", 2) == nil {
			return "/dev/shm"
		}
	}
	return os.TempDir()
}

// NewTester prepares slots private work directories under a new
// directory (mode 0700) in parent ("" for the system's temporary
// directory). Close removes them.
func NewTester(cmd Command, oracle Oracle, slots int, parent string) (*Tester, error) {
	root, err := MkdirTemp(parent, "")
	if err != nil {
		return nil, err
	}
	t := &Tester{Command: cmd, Oracle: oracle, root: root, dirs: make(chan string, max(slots, 1)), outs: map[string][]*capture{}}
	for i := range max(slots, 1) {
		d := filepath.Join(root, fmt.Sprint("w", i))
		// The slot's work directory, and its tests' temporary one
		// (TMPDIR, GOTMPDIR: testTemp).
		for _, dir := range []string{d, d + ".tmp"} {
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Close()
				return nil, err
			}
		}
		for _, name := range []string{".stdout", ".stderr"} {
			c, err := newCapture(d + name)
			if err != nil {
				t.Close()
				return nil, err
			}
			t.outs[d] = append(t.outs[d], c)
		}
		t.dirs <- d
	}
	return t, nil
}

// Root is the directory holding the work directories.
func (t *Tester) Root() string { return t.root }

// Close removes the work directories.
func (t *Tester) Close() error {
	t.servers.closeAll()
	t.paired.closeAll()
	for _, cs := range t.outs {
		for _, c := range cs {
			c.close()
		}
	}
	return rmtree.RemoveAll(t.root) // read-only directories a test left too
}

// SetRepeat makes each test run n times from now on; if the outcomes
// differ, the test is unresolved and marked flaky. Zero means once. It may
// be called while tests run: outcomes cached from fewer runs are not used
// after it, since the number of runs is part of a candidate's key.
func (t *Tester) SetRepeat(n int) { t.repeat.Store(int32(max(n, 1))) }

// Repeat is how many times each test runs.
func (t *Tester) Repeat() int { return max(int(t.repeat.Load()), 1) }

// contextKey names everything besides the files and the timeout that
// decides an outcome. The timeout is left out (Cached.Answers weighs it),
// so that a run started again, whose calibrated timeout is never quite
// the same, finds the outcomes of the first.
func (t *Tester) contextKey(repeat int) string {
	paired := ""
	if p := t.Command.Paired; p != nil {
		paired = fmt.Sprintf(" paired %q file=%q", strings.Join(p.Argv, "\x00"), p.File)
	}
	return fmt.Sprintf("%q stdin=%v repeat=%d%s %s", strings.Join(t.Command.Argv, "\x00"), t.Command.Stdin, repeat, paired, t.Oracle.Key())
}

// Candidate is what a test runs on: files for the work directory and,
// when Args is not nil, the arguments that replace Command.Argv[1:].
type Candidate struct {
	Files []File
	Args  []string
	// Setup, when set, brings the work directory to the candidate itself
	// instead of the runner writing Files, which then only identify the
	// candidate for the cache: the directory is neither emptied nor
	// written by the runner, so that a tree kept in it across tests (a
	// source tree with a subset of changes applied) is only touched where
	// it must be. "{}" in the command stands for the directory.
	Setup func(dir string) error
	// Label, when set, shows the candidate in the test log.
	Label string
	// Started, when set, is called when the test of the candidate begins
	// to execute (Process.Started): time waiting for a work slot or in a
	// remote queue is not running time.
	Started func()
}

// Identity identifies the candidate by what it is made of (its files
// and arguments), whatever question is asked of it.
func (c Candidate) Identity() Key { return c.key("") }

func (c Candidate) key(context string) Key {
	files := c.Files
	if c.Args != nil {
		files = append([]File{{Name: "\x00args", Data: []byte(strings.Join(c.Args, "\x00"))}}, files...)
	}
	return KeyOf(context, files)
}

// Test tests a candidate. The error is the context's when it ends, or
// one that no other candidate would avoid either (the test cannot be
// started, the oracle aborts).
func (t *Tester) Test(ctx context.Context, c Candidate) (Test, error) {
	repeat := t.Repeat()
	rec := Test{Candidate: c, Key: c.key(t.contextKey(repeat))}
	for _, f := range c.Files {
		rec.Size += len(f.Data)
	}
	for _, a := range c.Args {
		rec.Size += len(a)
	}
	if t.Cache != nil {
		for {
			if c, ok := t.cached(rec.Key); ok {
				rec.Outcome, rec.Detail, rec.Cached = c.Outcome, c.Detail, true
				if t.OnTest != nil {
					t.OnTest(rec)
				}
				return rec, nil
			}
			t.flightMu.Lock()
			done, running := t.flights[rec.Key]
			if !running {
				done = make(chan struct{})
				if t.flights == nil {
					t.flights = map[Key]chan struct{}{}
				}
				t.flights[rec.Key] = done
				t.flightMu.Unlock()
				defer func() {
					t.flightMu.Lock()
					delete(t.flights, rec.Key)
					t.flightMu.Unlock()
					close(done)
				}()
				break
			}
			t.flightMu.Unlock()
			// The cache has its answer once it ends, unless it was
			// cancelled: then this one runs it.
			select {
			case <-done:
			case <-ctx.Done():
				return rec, ctx.Err()
			}
		}
	}
	start := time.Now()
	if err := t.repeatRuns(ctx, c, repeat, t.Majority, repeat > 1, &rec); err != nil {
		return rec, err
	}
	rec.Duration = time.Since(start)
	if t.Cache != nil {
		if err := t.Cache.Put(rec.Key, Cached{Outcome: rec.Outcome, Detail: rec.Detail,
			Timeout: t.Command.Timeout, Slowest: rec.slowest, TimedOut: rec.timedOut}); err != nil {
			return rec, fmt.Errorf("writing the cache: %w", err)
		}
	}
	if t.OnTest != nil {
		t.OnTest(rec)
	}
	return rec, nil
}

// Known is the outcome the cache holds for c, tested as tests run now
// (or recorded by Seed); ok is false when it holds none. Without a cache
// nothing is known.
func (t *Tester) Known(c Candidate) (o dd.Outcome, ok bool) {
	if t.Cache == nil {
		return dd.Unresolved, false
	}
	got, ok := t.cached(c.key(t.contextKey(t.Repeat())))
	if !ok {
		return dd.Unresolved, false
	}
	return got.Outcome, true
}

// cached is the outcome the cache holds under key that answers for the
// command's timeout.
func (t *Tester) cached(key Key) (Cached, bool) {
	c, ok := t.Cache.Get(key)
	return c, ok && c.Answers(t.Command.Timeout)
}

// Seed records an outcome known for a candidate, as if it had been
// tested, so that the candidate is not run again.
func (t *Tester) Seed(c Candidate, o dd.Outcome, detail string) error {
	if t.Cache == nil {
		return nil
	}
	return t.Cache.Put(c.key(t.contextKey(t.Repeat())), Cached{Outcome: o, Detail: detail})
}

// Exec runs the command once on a candidate in a work directory, without
// oracle or cache (the executor's neither): for looking at the original
// failure.
func (t *Tester) Exec(ctx context.Context, c Candidate) (Run, error) {
	var slot string
	select {
	case slot = <-t.dirs:
	case <-ctx.Done():
		return Run{Exit: -1}, ctx.Err()
	}
	defer func() { t.dirs <- slot }()
	return t.run(ctx, slot, c, true)
}

// run runs the command once on c in the work directory slot; fresh
// as in Process. A fresh run that timed out is run once more with
// Patience times the timeout (at most maxPatient, unless the timeout is
// longer), its work directory set up again, and that run counts.
func (t *Tester) run(ctx context.Context, slot string, c Candidate, fresh bool) (Run, error) {
	r, err := t.runWithin(ctx, slot, c, fresh, 0)
	timeout := t.Command.Timeout
	if err != nil || !fresh || !r.TimedOut || t.Patience <= 1 || timeout <= 0 || ctx.Err() != nil || t.Fake != nil || t.Command.Persistent {
		return r, err
	}
	t.retimed.Add(1)
	return t.runWithin(ctx, slot, c, fresh, max(min(timeout*time.Duration(t.Patience), maxPatient), timeout))
}

// maxPatient bounds the longer timeout of Patience.
const maxPatient = 5 * time.Minute

// Retimed is how many fresh runs timed out and were given once more
// with Patience times the timeout.
func (t *Tester) Retimed() int64 { return t.retimed.Load() }

// runWithin is run without Patience, with timeout instead of the
// command's when it is not zero.
func (t *Tester) runWithin(ctx context.Context, slot string, c Candidate, fresh bool, timeout time.Duration) (Run, error) {
	cmd := t.Command
	if timeout > 0 {
		cmd.Timeout = timeout
	}
	if c.Args != nil {
		cmd.Argv, cmd.literal = append([]string{cmd.Argv[0]}, c.Args...), 1
	}
	if t.Fake != nil {
		return t.fake(ctx, slot, c)
	}
	var p Process
	switch {
	case cmd.Persistent && !t.InPlace && c.Setup == nil:
		return t.serve(ctx, slot, c, timeout)
	case t.InPlace:
		if len(c.Files) > 0 {
			return Run{Exit: -1}, errors.New("runner: files need a work directory")
		}
		p = cmd.process("", nil)
	case c.Setup != nil:
		if err := c.Setup(slot); err != nil {
			return Run{Exit: -1}, err
		}
		p = Process{Argv: substitute(cmd.Argv, slot), Env: cmd.Env, Dir: slot, WorkDir: slot, Timeout: cmd.Timeout}
	default:
		if err := prepare(slot, c.Files); err != nil {
			return Run{Exit: -1}, err
		}
		p = cmd.process(slot, c.Files)
	}
	p.outs, p.tmp, p.Fresh, p.Started = t.outs[slot], slot+".tmp", fresh, c.Started
	e := t.Executor
	if e == nil {
		e = Local
	}
	r, err := e.Execute(ctx, p)
	if err == nil && e == Local && !t.InPlace && !r.Clean() && ranOutOfRoom(r, slot) {
		t.outOfRoom.Add(1)
	}
	if err != nil || cmd.Paired == nil || r.TimedOut || r.Lost != "" {
		return r, err
	}
	// The paired process: the same candidate, already in place.
	pc := *cmd.Paired
	pc.Timeout, pc.Sandbox = cmd.Timeout, cmd.Sandbox
	dir := slot
	if t.InPlace {
		dir = ""
	}
	q := pc.process(dir, c.Files)
	q.WorkDir, q.outs, q.tmp, q.Fresh = p.WorkDir, p.outs, p.tmp, fresh
	r2, err := e.Execute(ctx, q)
	if err != nil {
		return r, err
	}
	return paired(r, r2), nil
}

// paired is the run of a test of two processes: the first's, with the
// paired one's as its Paired; timed out or lost when either was, and as
// long as both.
func paired(r, r2 Run) Run {
	r.Paired = &r2
	r.TimedOut, r.Duration = r.TimedOut || r2.TimedOut, r.Duration+r2.Duration
	if r.Lost == "" {
		r.Lost = r2.Lost
	}
	return r
}

// OutOfRoom is how many local runs did not end cleanly while the file
// system of the work directories was full, or saying "No space left on
// device": a test that fills it fails for that, not for its candidate.
func (t *Tester) OutOfRoom() int64 { return t.outOfRoom.Load() }

// ranOutOfRoom reports whether a run that did not end cleanly found the
// file system of its work directory full (less than 1% or 64 KiB free,
// whichever is more), or said it was: the strerror of ENOSPC in its
// output, as a C program, the shell's tools and Go (in lower case) print
// it. A test that filled the file system may have had its files removed
// by the time it is looked at, as the next candidate is written; its
// message remains.
func ranOutOfRoom(r Run, dir string) bool {
	for _, out := range [][]byte{r.Stderr, r.Stdout} {
		if bytes.Contains(out, []byte("o space left on device")) {
			return true
		}
	}
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil || st.Blocks == 0 {
		return false
	}
	free, total := st.Bavail*uint64(st.Bsize), st.Blocks*uint64(st.Bsize)
	return free < max(total/100, 64<<10)
}

// fake runs t.Fake on c in the work directory slot, prepared as run
// prepares it.
func (t *Tester) fake(ctx context.Context, slot string, c Candidate) (Run, error) {
	switch {
	case t.InPlace:
		slot = ""
	case c.Setup != nil:
		if err := c.Setup(slot); err != nil {
			return Run{Exit: -1}, err
		}
	default:
		if err := prepare(slot, c.Files); err != nil {
			return Run{Exit: -1}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Run{Exit: -1}, err
	}
	return t.Fake(ctx, slot, c)
}

// repeatRuns runs c n times in one work directory and decides its
// outcome into rec (Outcome, Detail, Run, Runs, Agreed, Flaky, Outcomes,
// Details). All runs agreeing decide. Otherwise, without majority, the
// first disagreement stops the runs and the test is unresolved; with
// majority (and n of 3 or more), one disagreeing run of n brings two
// more, and the outcome of all runs but one decides; anything else is
// unresolved. Either way a disagreement marks the test flaky. With
// fresh, no run is answered from an executor's cache (Process.Fresh).
func (t *Tester) repeatRuns(ctx context.Context, c Candidate, n int, majority, fresh bool, rec *Test) error {
	var slot string
	select {
	case slot = <-t.dirs:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { t.dirs <- slot }()
	outs, details := rec.Outcomes[:0], rec.Details[:0]
	extended := false
	for i := 0; i < n; i++ {
		run, err := t.run(ctx, slot, c, fresh)
		rec.Run = run
		if err != nil {
			return err
		}
		rec.slowest = max(rec.slowest, run.Duration)
		rec.timedOut = rec.timedOut || run.TimedOut
		o, detail := dd.Unresolved, run.Lost
		if run.Lost == "" {
			if o, detail, err = t.Oracle.Classify(run); err != nil {
				return err
			}
		}
		outs, details = append(outs, o), append(details, detail)
		if o != outs[0] && !majority {
			break // one disagreement settles it
		}
		if i == n-1 && majority && n >= 3 && !extended && mostCommon(outs) == len(outs)-1 {
			n, extended = n+2, true // one run of them disagrees: two more decide
		}
	}
	rec.Outcomes, rec.Details = outs, details
	rec.Outcome, rec.Detail, rec.Runs, rec.Agreed = outs[0], details[0], len(outs), len(outs)
	if k := mostCommon(outs); k < len(outs) {
		rec.Flaky = true
		if majority && len(outs) >= 5 && k >= len(outs)-1 {
			i := slices.Index(outs, top(outs))
			rec.Outcome, rec.Detail, rec.Agreed = outs[i], details[i], k
		} else {
			other := slices.IndexFunc(outs, func(o dd.Outcome) bool { return o != outs[0] })
			rec.Detail = fmt.Sprintf("flaky: %s (%s), then %s (%s)", outs[0], details[0], outs[other], details[other])
			rec.Outcome, rec.Agreed = dd.Unresolved, 0
		}
	}
	return nil
}

// Count is how many of outs are o.
func Count(outs []dd.Outcome, o dd.Outcome) int {
	n := 0
	for _, x := range outs {
		if x == o {
			n++
		}
	}
	return n
}

// top is the most common outcome of outs; mostCommon how often it is.
func top(outs []dd.Outcome) dd.Outcome {
	best, n := outs[0], 0
	for _, o := range outs {
		if k := Count(outs, o); k > n {
			best, n = o, k
		}
	}
	return best
}

func mostCommon(outs []dd.Outcome) int { return Count(outs, top(outs)) }

// Decide runs a candidate n times, without the cache (the executor's
// neither) and without calling OnTest, and decides its outcome by a
// clear majority, as repeated tests do with Majority: how a result is confirmed, or a removal of it
// rechecked, when the test may be flaky. The Test's Outcomes and Details
// say what each run gave.
func (t *Tester) Decide(ctx context.Context, c Candidate, n int) (Test, error) {
	rec := Test{Candidate: c}
	err := t.repeatRuns(ctx, c, n, true, true, &rec)
	return rec, err
}

// MkdirTemp makes a private directory (mode 0700) in parent ("" for
// the system's temporary directory) named by the one rule for every
// temporary file of wynot, "wynot-PID-[purpose-]*", which removeStale
// understands: it is removed, with what still runs in it, by the next
// run after this process died without cleaning up. It first does that
// cleanup of parent, and of the default parent of work directories
// (WorkDirParent) if that is another.
func MkdirTemp(parent, purpose string) (string, error) {
	removeStale(parent)
	if def := WorkDirParent(0); filepath.Clean(def) != filepath.Clean(cmp.Or(parent, os.TempDir())) {
		removeStale(def)
	}
	pattern := fmt.Sprintf("wynot-%d-", os.Getpid())
	if purpose != "" {
		pattern += purpose + "-"
	}
	return os.MkdirTemp(parent, pattern)
}

// removeStale removes the work directories that wynot processes killed
// without a chance to clean up (SIGKILL, a crash) left in parent: those
// named after a process that no longer exists; and kills what of their
// tests still runs there.
func removeStale(parent string) {
	if parent == "" {
		parent = os.TempDir()
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "wynot-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			stale := filepath.Join(parent, e.Name())
			killStragglers(stale)
			os.RemoveAll(stale)
		}
	}
}
