// Package command holds what every wynot command shares: the Command
// value and the prologue it runs (flags, JSON summary, HTML report, exit
// status), and the session, which owns a run's lifecycle: the checks of
// the failing original and of the passing side, the searches, the final
// confirmation, the counters, the progress line, log and events, and the
// closing lines. A command supplies a Job; the session does the rest the
// same way for every command. Commands test candidates only through the
// session, which tests them through the runner; it starts no process
// itself.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Test says how candidates are tested and what counts as the failure.
type Test struct {
	// Argv is the command after "--"; "{}" stands for the candidate's path.
	Argv []string
	// Script is a test script run in the work directory (--test); its exit
	// status is read by Convention.
	Script     string
	Convention runner.Convention
	// ExitStatus reads the exit status of the command after "--" by
	// Convention too, as if it were a test script (wynot changes, where
	// the git bisect convention is the default).
	ExitStatus bool
	// FailOn states the failure as a regular expression over the output;
	// PassOn, when set, the passing behavior (a run matching neither is
	// unresolved).
	FailOn *regexp.Regexp
	PassOn *regexp.Regexp
	// Precision is how closely a candidate's failure must match the
	// original's (without Script and FailOn).
	Precision runner.Precision
	// Timeout bounds each test; zero calibrates it from the original run:
	// 10× its duration, at least 1 s, at most 300 s.
	Timeout time.Duration
	// Repeat runs each test this many times and takes an outcome only
	// when all agree. Zero is auto: each test runs once until the test
	// shows itself flaky (a candidate that gives two outcomes, a result
	// that does not fail again, a contradiction of monotony where the
	// algorithm assumes it), and AutoRepeat times from then on.
	Repeat int
	// CacheFile keeps outcomes across runs.
	CacheFile string
	// Reproduce, when set, makes the outcome the question whether a run
	// reproduces the failing original's output (runner.OutputOracle):
	// wynot trace's test. The original must do the same twice.
	Reproduce *runner.Observation
	// Env, Dir and Input, when set, are the test's environment (with
	// "{}" for the candidate's first file), the directory it runs in
	// instead of the work directory, and its standard input.
	Env   []string
	Dir   string
	Input []byte
	// Persistent keeps the test command running per work slot and sends
	// it each test (runner.Command.Persistent): a debugger that would
	// spend most of a test starting.
	Persistent bool
}

// Output says where messages go.
type Output struct {
	Stderr io.Writer // progress and messages
	TTY    bool      // Stderr is a terminal: draw a live status line
	Quiet  bool      // no progress, only errors
	Log    io.Writer // the test log, or nil
	Events io.Writer // one JSON line per test, or nil
	// Report, when set, keeps every test of the searches for the HTML
	// report (--report).
	Report *report.Recorder
}

// AutoRepeat is how many times each test runs under --repeat auto once
// the test has shown itself flaky, and how many times the final result is
// confirmed.
const AutoRepeat = 3

// calibrationLimit bounds the first runs of the original when no timeout
// is given; after stillRunning, wynot says that it is waiting.
const (
	calibrationLimit = 5 * time.Minute
	stillRunning     = 10 * time.Second
)

// Config is what a session is opened with.
type Config struct {
	Command string // the command, for the progress line and the summary
	Test    Test
	Output  Output
	Jobs    int // tests in flight
	// InPlace runs the tests in the current directory (the candidates
	// are argument lists, wynot reduce --argv); otherwise each test runs
	// in a private work directory.
	InPlace bool
	// Files is how many files a candidate has: the test reads a single
	// file on its standard input when its command names no {}.
	Files int
	// Size is the size of the largest candidate in bytes, which decides
	// where work directories go (runner.WorkDirParent).
	Size int
	// Fake, if set, stands in for every run of the test: it sees the
	// work directory prepared as for a real run and returns what the
	// run did. It lets command logic be tested without processes.
	Fake func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error)
	// Executor, if set, runs the tests (a Slurm job step, a remote
	// action); otherwise they run as local processes.
	Executor runner.Executor
}

// Session is what every command shares while it searches: the tester
// set up from the original failure, the counters, and the reporting.
// Commands test candidates only through it, so that every test is
// counted, logged and recorded the same way.
type Session struct {
	settings Test
	Output
	Name string // the command, for the progress line
	Jobs int

	tester   *runner.Tester
	cache    *runner.Cache
	Progress *report.Progress
	TestLog  *report.Log    // the --log file, or nil
	eventLog *report.Events // the --events file, or nil
	start    time.Time
	// Original is the first run of the failing original, as the check
	// of the original saw it.
	Original runner.Run

	mu    sync.Mutex // guards the counters and what follows them
	stats Stats
	fatal error
	flaky string // why the test is known to be flaky ("" while it is not)
	// flips and flipRuns count the runs of candidates run more than
	// once, and of them the runs that disagreed with their candidate's
	// outcome: the flip rate observed so far, which sets the bets of
	// the certifying runs (certainty).
	flips, flipRuns int
	// agreed counts the fresh runs of results and of their removals
	// that gave the outcome the search had seen, while the test has
	// shown no flip (deterministicAgreement).
	agreed int
	// undecided says why a certifying decision ran out of runs ("").
	undecided string
	cancel    context.CancelFunc
	eventBase int    // test numbers of earlier searches, for the events file
	doing     string // what the run does before its search, for an interruption
}

// setDoing records what the run does before its search starts ("running
// the original input (run 1 of 2)"), so that an interruption can say it.
func (s *Session) setDoing(format string, args ...any) {
	s.mu.Lock()
	s.doing = fmt.Sprintf(format, args...)
	s.mu.Unlock()
}

// Doing says what the run was doing before its search started, or "".
func (s *Session) Doing() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.doing
}

// Stats are a session's counters.
type Stats struct {
	Runs      int // test runs for candidates
	Checks    int // runs of the original and of the final results
	Outcomes  report.Outcomes
	CacheHits int
	Flaky     int
	// Predicted counts candidates whose outcome was predicted without a
	// test: they did not parse or type-check (the domain's prediction),
	// or the algorithm knew it (dd.Stats.Predicted).
	Predicted int
}

// Tests is every run: candidates and checks.
func (st Stats) Tests() int { return st.Runs + st.Checks }

// Stats returns the counters now.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Timeout is the time limit per test, as given or as calibrated.
func (s *Session) Timeout() time.Duration { return s.tester.Command.Timeout }

// Open checks the test settings, prepares work directories and the
// cache. Close releases them.
func Open(cfg Config) (*Session, error) {
	t, out := cfg.Test, cfg.Output
	s := &Session{settings: t, Output: out, Name: cfg.Command, Jobs: max(cfg.Jobs, 1), start: time.Now()}
	if s.Stderr == nil {
		s.Stderr = io.Discard
	}
	cmd := runner.Command{Argv: t.Argv}
	switch {
	case t.Script != "":
		if len(t.Argv) > 0 {
			return nil, InputError("give either --test SCRIPT or a command after --, not both")
		}
		abs, err := filepath.Abs(t.Script)
		if err != nil {
			return nil, InputError("test script: %v", err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, InputError("test script: %v", err)
		}
		if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
			return nil, InputError("test script %s is not executable (chmod +x it)", t.Script)
		}
		cmd.Argv = []string{abs}
	case len(t.Argv) == 0:
		return nil, InputError("no test: give a command after -- or --test SCRIPT")
	case t.Dir != "":
		// The test runs where the user is: its arguments stay as given.
		cmd.Argv = t.Argv
		cmd.Stdin = !cfg.InPlace && cfg.Files == 1 && !hasPlaceholder(t.Argv)
	default:
		cmd.Argv = absolutePaths(t.Argv)
		cmd.Stdin = !cfg.InPlace && cfg.Files == 1 && !hasPlaceholder(t.Argv)
	}
	cmd.Env, cmd.Dir, cmd.Input, cmd.Persistent = t.Env, t.Dir, t.Input, t.Persistent
	tester, err := runner.NewTester(cmd, nil, s.Jobs, runner.WorkDirParent(cfg.Size))
	if err != nil {
		return nil, err
	}
	tester.SetRepeat(t.Repeat)
	// Under --repeat auto, repeated runs decide by a clear majority.
	tester.Majority = t.Repeat == 0
	tester.InPlace = cfg.InPlace
	tester.Fake = cfg.Fake
	tester.Executor = cfg.Executor
	s.tester = tester
	if t.CacheFile != "" {
		c, n, err := runner.OpenCache(t.CacheFile)
		if err != nil {
			tester.Close()
			return nil, InputError("cache: %v", err)
		}
		s.cache = c
		if n > 0 && !out.Quiet {
			fmt.Fprintf(s.Stderr, "wynot: %s loaded from %s\n", report.Plural(n, "cached outcome"), t.CacheFile)
		}
	} else {
		s.cache = runner.NewCache()
	}
	tester.Cache = s.cache
	tester.OnTest = s.onTest
	if out.Log != nil {
		s.TestLog = report.NewLog(out.Log)
	}
	if out.Events != nil {
		s.eventLog = report.NewEvents(out.Events)
	}
	return s, nil
}

// checkExecutor checks, before the first test, that the executor can
// run tests on the session's work directories.
func (s *Session) checkExecutor(ctx context.Context) error {
	c, ok := s.tester.Executor.(runner.Checker)
	if !ok || s.tester.Fake != nil {
		return nil
	}
	s.setDoing("checking that %s can run the tests", s.tester.Executor)
	if err := c.Check(ctx, s.tester.Root()); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return InputError("%v", err)
	}
	if say, ok := s.tester.Executor.(interface{ SetSay(func(string, ...any)) }); ok {
		say.SetSay(s.Say)
	}
	if !s.Quiet {
		fmt.Fprintf(s.Stderr, "wynot: tests run on %s, %d at a time\n", s.tester.Executor, s.Jobs)
	}
	return nil
}

// absolutePaths makes relative paths in a command absolute, since tests
// run in another directory: the program if it is named with a "/"
// ("./prog"), and arguments with a "/" that name existing files.
func absolutePaths(argv []string) []string {
	out := append([]string(nil), argv...)
	for i, a := range out {
		if !strings.Contains(a, "/") || filepath.IsAbs(a) || strings.Contains(a, runner.Placeholder) || strings.HasPrefix(a, "-") {
			continue
		}
		if _, err := os.Stat(a); err != nil && i > 0 {
			continue
		}
		if abs, err := filepath.Abs(a); err == nil {
			out[i] = abs
		}
	}
	return out
}

func hasPlaceholder(argv []string) bool {
	for _, a := range argv {
		if strings.Contains(a, runner.Placeholder) {
			return true
		}
	}
	return false
}

// Close ends the progress line and removes the work directories.
func (s *Session) Close() {
	s.Progress.Close()
	if s.cache != nil {
		s.cache.Close()
	}
	if s.tester != nil {
		s.tester.Close()
	}
}

// StartProgress starts the progress line (unless quiet), or starts it
// over: size is the size now, unit what it counts ("" for bytes).
func (s *Session) StartProgress(size int, unit string) {
	if s.Quiet {
		return
	}
	s.Progress.Close()
	s.Progress = report.NewProgress(s.Stderr, s.TTY)
	s.Progress.Update(func(st *report.Status) {
		st.Command, st.SizeBefore, st.Size, st.Unit = s.Name, size, size, unit
	})
}

// Say writes a message line (unless quiet).
func (s *Session) Say(format string, args ...any) {
	if s.Quiet {
		return
	}
	if s.Progress != nil {
		s.Progress.Printf("wynot: "+format+"\n", args...)
		return
	}
	fmt.Fprintf(s.Stderr, "wynot: "+format+"\n", args...)
}

// onTest counts every test the runner answers.
func (s *Session) onTest(t runner.Test) {
	s.mu.Lock()
	if t.Flaky && s.flaky == "" {
		s.flakyLocked("a candidate gave two outcomes: " + t.Detail)
	}
	if t.Cached {
		s.stats.CacheHits++
	} else {
		s.stats.Runs++
		s.seenLocked(t.Outcomes)
		switch t.Outcome {
		case dd.Pass:
			s.stats.Outcomes.Pass++
		case dd.Fail:
			s.stats.Outcomes.Fail++
		default:
			s.stats.Outcomes.Unresolved++
		}
		if t.Flaky {
			s.stats.Flaky++
		}
		if s.TestLog != nil {
			s.TestLog.Test(s.stats.Runs, renderCandidate(t.Candidate), t.Outcome, t.Detail)
		}
	}
	s.mu.Unlock()
	s.Progress.Update(func(st *report.Status) {
		if t.Cached {
			st.CacheHits++
		} else {
			st.Tests++
			st.Outcomes[t.Outcome]++
		}
	})
}

// noteFlaky records that the test showed itself flaky, and why; under
// --repeat auto, every test runs AutoRepeat times from then on.
func (s *Session) noteFlaky(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.flaky == "" {
		s.flakyLocked(why)
	}
}

func (s *Session) flakyLocked(why string) {
	s.flaky = why
	if s.settings.Repeat == 0 {
		s.tester.SetRepeat(AutoRepeat)
		// Say locks the progress line, which never waits for s.mu.
		s.Say("the test is flaky (%s): from now on every test runs %d times, and an outcome counts only when all runs agree", why, AutoRepeat)
	}
}

// seenLocked adds the runs of one candidate to the flip rate observed,
// when it ran more than once: the runs that did not give its most
// common outcome flipped.
func (s *Session) seenLocked(outs []dd.Outcome) {
	if len(outs) < 2 {
		return
	}
	s.flipRuns += len(outs)
	s.flips += len(outs) - runner.Count(outs, top(outs))
}

// top is the most common of outs.
func top(outs []dd.Outcome) dd.Outcome {
	best, n := outs[0], 0
	for _, o := range outs {
		if k := runner.Count(outs, o); k > n {
			best, n = o, k
		}
	}
	return best
}

// flakiness says why the test is known to be flaky, or "".
func (s *Session) flakiness() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flaky
}

// SetFatal records an error that ends the whole search and stops it.
func (s *Session) SetFatal(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fatal == nil {
		s.fatal = err
		if s.cancel != nil {
			s.cancel()
		}
	}
}

func (s *Session) fatalErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fatal
}

// checkOriginal runs the original candidate twice (TSE 2002 Axiom 4, and
// the Debugging Book's check_reproducibility), sets up the oracle from
// what it does, and calibrates the timeout. It returns the error a
// command should exit with when the failure does not reproduce.
func (s *Session) checkOriginal(ctx context.Context, orig runner.Candidate, what string) error {
	s.tester.Command.Timeout = s.settings.Timeout
	if s.settings.Timeout == 0 {
		s.tester.Command.Timeout = calibrationLimit
	}
	planned := 2
	run := func() (runner.Run, error) {
		s.setDoing("running the %s (run %d of %d)", what, s.Stats().Checks+1, planned)
		var mu sync.Mutex
		var still *time.Timer
		ended := false
		c := orig
		if s.settings.Timeout == 0 {
			// Without --timeout, say soon that a slow original may hang,
			// rather than wait in silence for the calibration limit:
			// counted from when it starts, not while it waits in a
			// remote queue (the executor's watch speaks of that).
			c.Started = func() {
				mu.Lock()
				defer mu.Unlock()
				if !ended {
					still = time.AfterFunc(stillRunning, func() {
						s.Say("the %s is still running after %s; if it hangs, give --timeout D (without it, wynot waits up to %s)", what, stillRunning, calibrationLimit)
					})
				}
			}
		}
		r, err := s.tester.Exec(ctx, c)
		mu.Lock()
		ended = true
		if still != nil {
			still.Stop()
		}
		mu.Unlock()
		s.count(func(st *Stats) { st.Checks++ })
		if err != nil {
			if errors.Is(err, runner.ErrStart) {
				return r, InputError("%v", err)
			}
			return r, err
		}
		if r.TimedOut && s.settings.Timeout == 0 {
			return r, InputError("the %s did not finish within %s; give --timeout D (if the hang is the failure, timeouts then count as failures)", what, calibrationLimit)
		}
		return r, nil
	}
	var runs []runner.Run
	for range 2 {
		r, err := run()
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	// ref is the run the failure is taken from: the first that fails.
	ref := 0
	oracleFor := func() (runner.Oracle, error) {
		switch {
		case s.settings.Reproduce != nil:
			return &runner.OutputOracle{Observe: *s.settings.Reproduce, Want: runs[0]}, nil
		case s.settings.FailOn != nil:
			return &runner.RegexOracle{Re: s.settings.FailOn, Pass: s.settings.PassOn}, nil
		case s.settings.Script != "" || s.settings.ExitStatus:
			return &runner.ScriptOracle{Convention: s.settings.Convention}, nil
		}
		for i, r := range runs {
			if !r.Clean() {
				ref = i
				break
			}
		}
		sig := runner.Extract(runs[ref])
		if runs[ref].Clean() && (sig.Message == "" || s.settings.Precision == runner.Exit) {
			return nil, NotReproduced("the %s does not fail: %s%s", what, runs[0].Explain(), s.executorHint())
		}
		return &runner.SignatureOracle{Want: sig, Precision: s.settings.Precision}, nil
	}
	classify := func(oracle runner.Oracle) (fails int, firstOther int, err error) {
		firstOther = -1
		for i, r := range runs {
			o, _, err := oracle.Classify(r)
			if err != nil {
				return 0, 0, NotReproduced("the %s: %v", what, err)
			}
			if o == dd.Fail {
				fails++
			} else if firstOther < 0 {
				firstOther = i
			}
		}
		return fails, firstOther, nil
	}
	oracle, err := oracleFor()
	if err != nil && s.settings.Repeat != 0 {
		return err
	}
	fails, other := 0, 0
	if err == nil {
		if fails, other, err = classify(oracle); err != nil {
			return err
		}
	}
	if s.settings.Repeat == 0 && fails < len(runs) && (fails > 0 || !runs[1].Clean()) && !(runs[0].TimedOut && runs[1].TimedOut) && s.tester.OutOfRoom() == 0 {
		// Under --repeat auto, two runs that disagree are asked again:
		// a failure that shows in four of five runs is a flaky one, and
		// the search goes on with repetition. An original that hung
		// both times is not asked three times more: it hangs, and each
		// run would cost the whole timeout again; nor is one whose runs
		// ran out of room.
		planned = 5
		for range 3 {
			r, err := run()
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
		if oracle, err = oracleFor(); err != nil {
			return err
		}
		if fails, other, err = classify(oracle); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if fails < len(runs) && !(len(runs) == 5 && fails >= 4) {
		r := runs[other]
		o, detail, _ := oracle.Classify(r)
		if fails == 0 {
			hint := s.executorHint()
			switch {
			case s.settings.FailOn != nil:
				return NotReproduced("the %s does not fail: its output does not match %q; it ended with %s%s", what, s.settings.FailOn, r.Explain(), hint)
			case s.settings.Script != "":
				return NotReproduced("the %s is not reproduced by %s (%s convention): %s%s", what, s.settings.Script, s.settings.Convention, r.Explain(), hint)
			case s.settings.ExitStatus:
				return NotReproduced("the %s does not fail by the %s convention: %s%s", what, s.settings.Convention, r.Explain(), hint)
			}
		}
		if s.settings.Reproduce != nil {
			for _, r := range runs {
				if r.TimedOut {
					return NotReproduced("the %s did not finish within %s (--timeout)", what, s.tester.Command.Timeout)
				}
			}
			return NotReproduced("the %s's output is not deterministic: two runs of it differ (%s); the runs must do the same every time, or --observe must compare only what does not change", what, detail)
		}
		if len(runs) == 2 {
			first, _, _ := oracle.Classify(runs[0])
			return NotReproduced("the failure is flaky: run twice, the %s first gave %s, then %s (%s); --repeat N and a lower --precision may help",
				what, first, o, detail)
		}
		if detail != "" {
			detail = ": " + detail
		}
		return NotReproduced("the failure is flaky: the %s failed in %d of %d runs (otherwise %s%s); --repeat N and a lower --precision may help",
			what, fails, len(runs), o, detail)
	}
	s.mu.Lock()
	s.flipRuns += len(runs)
	s.flips += len(runs) - fails
	if fails == len(runs) {
		s.agreed += len(runs) - 1
	}
	s.mu.Unlock()
	if fails < len(runs) {
		defer s.noteFlaky(fmt.Sprintf("the %s failed in %d of %d runs", what, fails, len(runs)))
	}
	runs[0], runs[ref] = runs[ref], runs[0]
	s.tester.Oracle = oracle
	s.Original = runs[0]
	if s.settings.Timeout == 0 {
		d := max(runs[0].Duration, runs[1].Duration) * 10
		s.tester.Command.Timeout = min(max(d, time.Second), 300*time.Second).Round(100 * time.Millisecond)
	}
	// The search's first question is the original again: answer it.
	_, detail, _ := oracle.Classify(runs[0])
	return s.tester.Seed(orig, dd.Fail, detail)
}

// Oracle is what tells the outcome of a run, as the check of the
// original set it up.
func (s *Session) Oracle() runner.Oracle { return s.tester.Oracle }

// Signature describes the failure being searched for.
func (s *Session) Signature() string {
	switch o := s.tester.Oracle.(type) {
	case *runner.SignatureOracle:
		return o.Want.String()
	case *runner.RegexOracle:
		return "output matches " + o.Re.String()
	case *runner.OutputOracle:
		return "the original run's " + o.Observe.String()
	case *runner.ScriptOracle:
		if s.settings.Script == "" {
			return "the command's exit status, by the " + o.Convention.String() + " convention"
		}
		return "test script " + s.settings.Script + " (" + o.Convention.String() + " convention)"
	}
	return ""
}

// count changes the counters under the session's lock.
func (s *Session) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

// Test tests a candidate, from the cache if it was tested before.
func (s *Session) Test(ctx context.Context, c runner.Candidate) (runner.Test, error) {
	return s.tester.Test(ctx, c)
}

// Predict records a candidate whose outcome the domain knows without a
// test (it does not parse): counted, and logged in the events as a test.
func (s *Session) Predict(detail string) runner.Test {
	s.count(func(st *Stats) { st.Predicted++ })
	return runner.Test{Outcome: dd.Unresolved, Predicted: true, Detail: detail}
}

// Check is a result to run again at the end of a run, and the outcome it
// must give then.
type Check struct {
	Candidate runner.Candidate
	Want      dd.Outcome
	What      string // "the result", "the passing result", ...
}

// certainty is the rule by which fresh runs decide, once the test has
// shown itself flaky under --repeat auto, whether a result gives its
// outcome again and whether a removal of it fails: a verdict is wrong
// with probability at most 1% each way for a candidate that gives the
// other outcome in at least half of its runs (for a flip rate below 1/2
// and any number of runs), and a decision that has not reached its
// verdict in 200 runs leaves the result not certified.
var certainty = runner.Sequential{AlphaFail: 0.01, AlphaPass: 0.01, Budget: 200}

// minAgreed is how many fresh runs of the original, the result and its
// removals must have given the outcome seen before, with none
// disagreeing, before a confirmation made while the test has shown no
// flip stands: were the test's answers to flip at any rate ε, three
// confirmations of a result that does not fail would all fail and four
// other runs agree with probability at most ε³(1-ε)⁴ < 1%. (A removal
// that fails passes its one recheck, with k other runs agreeing, with
// probability at most ε(1-ε)^k ≤ 1/(e(k+1)): below 1% from 36 runs, as
// with 32 removals rechecked; fewer removals give a weaker bound, which
// more runs of every deterministic test would buy.)
const minAgreed = 7

// Confirm runs each check's candidate again, without the cache, and
// counts the runs as checks. Under --repeat auto, while the test has
// shown no flip, each runs AutoRepeat times and holds when all runs give
// its outcome; once it has, the runs go on until certainty decides. With
// --repeat N, N times (at least AutoRepeat), decided as decide does;
// with --repeat 1, once. Confirm reports whether all held, says of each
// that did not how often it gave its outcome, and returns each check's
// last run.
func (s *Session) Confirm(ctx context.Context, checks ...Check) (bool, []runner.Run, error) {
	n := s.settings.Repeat
	if n != 1 {
		n = max(n, AutoRepeat)
	}
	ok := true
	var runs []runner.Run
	for _, c := range checks {
		var v runner.Test
		var err error
		certified, decided := false, false
		if s.settings.Repeat == 0 && s.flakiness() != "" {
			v, decided, err = s.certify(ctx, c.Candidate, c.Want, c.What)
			certified = true
		} else {
			v, err = s.decide(ctx, c.Candidate, n, c.What)
			if err == nil && s.settings.Repeat == 0 {
				if v.Flaky {
					// A confirmation run disagreed: decide afresh, by
					// certainty.
					v, decided, err = s.certify(ctx, c.Candidate, c.Want, c.What)
					certified = true
				} else if v.Outcome == c.Want {
					s.count(func(*Stats) { s.agreed += len(v.Outcomes) })
				}
			}
		}
		if err != nil {
			return false, runs, err
		}
		runs = append(runs, v.Run)
		agree, other := tally(v.Outcomes, c.Want)
		if v.Outcome == c.Want {
			switch {
			case certified:
				s.Say("run again, %s gave %s in %d of %d runs: the test is flaky, but the result holds (one that gives it in at most half of its runs gets there with at most %g%% chance)", c.What, c.Want, agree, len(v.Outcomes), certaintyPercent(c.Want))
			case agree < len(v.Outcomes):
				s.Say("run again, %s gave %s in %d of %d runs: the test is flaky, but the result holds", c.What, c.Want, agree, len(v.Outcomes))
			}
			continue
		}
		ok = false
		if certified && !decided {
			why := fmt.Sprintf("run again %d times, %s gave %s in %d of them: too flaky to decide either way", len(v.Outcomes), c.What, c.Want, agree)
			s.setUndecided(why)
			s.Say("warning: %s", why)
			continue
		}
		detail := ""
		if other >= 0 && v.Details[other] != "" {
			detail = " (" + v.Details[other] + ")"
		}
		what := fmt.Sprintf("%s gave %s%s", c.What, v.Outcomes[max(other, 0)], detail)
		if len(v.Outcomes) > 1 {
			what = fmt.Sprintf("%s gave %s in %d of %d runs, %s otherwise%s", c.What, c.Want, agree, len(v.Outcomes), v.Outcomes[max(other, 0)], detail)
		}
		s.Say("warning: run again, %s; the test may be flaky", what)
		s.noteFlaky("run again, " + what)
	}
	return ok, runs, nil
}

// certaintyPercent is the bound, in percent, on a verdict of o that is
// wrong.
func certaintyPercent(o dd.Outcome) float64 {
	if o == dd.Fail {
		return certainty.AlphaFail * 100
	}
	return certainty.AlphaPass * 100
}

// setUndecided records why a certifying decision ran out of runs.
func (s *Session) setUndecided(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.undecided == "" {
		s.undecided = why
	}
}

// undecidedWhy says why a certifying decision ran out of runs, or "".
func (s *Session) undecidedWhy() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.undecided
}

// decide runs c n times without the cache, counted as checks, and
// decides its outcome as runner.Tester.Decide does; a disagreement shows
// the test flaky (what names c for that note).
func (s *Session) decide(ctx context.Context, c runner.Candidate, n int, what string) (runner.Test, error) {
	rec, err := s.tester.Decide(ctx, c, n)
	s.count(func(st *Stats) {
		st.Checks += len(rec.Outcomes)
		s.seenLocked(rec.Outcomes)
	})
	if err == nil && rec.Flaky {
		o := rec.Outcome
		if o == dd.Unresolved {
			o = rec.Outcomes[0]
		}
		s.noteFlaky(fmt.Sprintf("run again, %s gave %s in %d of %d runs", what, o, runner.Count(rec.Outcomes, o), len(rec.Outcomes)))
	}
	return rec, err
}

// certify runs c afresh, without the cache, counted as checks, until
// certainty decides whether it gives target: rec.Outcome is then target,
// or the most common other outcome it gave, and decided is set; when the
// runs ran out first, rec.Outcome is Unresolved and decided unset. Only
// these runs count, never earlier ones of c; the flip rate observed so
// far sets how much each run is trusted.
func (s *Session) certify(ctx context.Context, c runner.Candidate, target dd.Outcome, what string) (rec runner.Test, decided bool, err error) {
	seq := certainty.Start()
	rec, err = s.tester.Sequence(ctx, c, func(o dd.Outcome, _ string) bool {
		s.mu.Lock()
		flip := seq.Flip(s.flips, s.flipRuns)
		s.mu.Unlock()
		// The sequence weighs "gives target" (as Fail) against
		// anything else (as Pass).
		b := dd.Pass
		if o == target {
			b = dd.Fail
		}
		seq.Add(b, flip)
		_, done := seq.Verdict()
		return !done
	})
	s.count(func(st *Stats) {
		st.Checks += len(rec.Outcomes)
		s.seenLocked(rec.Outcomes)
	})
	if err != nil {
		return rec, false, err
	}
	v, _ := seq.Verdict()
	switch v {
	case dd.Fail:
		rec.Outcome, decided = target, true
	case dd.Pass:
		others := slices.DeleteFunc(slices.Clone(rec.Outcomes), func(o dd.Outcome) bool { return o == target })
		rec.Outcome, decided = top(others), true
	default:
		rec.Outcome = dd.Unresolved
	}
	rec.Agreed = runner.Count(rec.Outcomes, rec.Outcome)
	rec.Flaky = runner.Count(rec.Outcomes, top(rec.Outcomes)) < len(rec.Outcomes)
	if i := slices.Index(rec.Outcomes, rec.Outcome); i >= 0 && decided {
		rec.Detail = rec.Details[i]
	} else {
		rec.Detail = fmt.Sprintf("undecided after %d runs, %d of them %s", seq.Runs, seq.Fails, target)
	}
	if rec.Flaky {
		s.noteFlaky(fmt.Sprintf("run again, %s gave %s in %d of %d runs", what, target, seq.Fails, seq.Runs))
	}
	return rec, decided, nil
}

// tally counts the outcomes that are want, and finds the first that is not.
func tally(outs []dd.Outcome, want dd.Outcome) (agree, other int) {
	return runner.Count(outs, want), slices.IndexFunc(outs, func(o dd.Outcome) bool { return o != want })
}

// Removal is a candidate one change smaller than a result that claims
// to be 1-minimal: it must not fail.
type Removal struct {
	Candidate runner.Candidate
	What      string // "removing line 3 of bug.txt"
}

// recheck tests the removals of a result again, without the cache,
// before the result is called 1-minimal. Under --repeat auto, while the
// test has shown no flip, each once (at most maxProbes of them, spread
// over them); once it has, or as soon as one of these runs fails, every
// removal is decided afresh by certainty. With --repeat N, each N times, decided by
// a clear majority. A removal that fails makes the result not 1-minimal;
// recheck says which ("" when none does). A removal that certainty
// cannot decide leaves the result not certified (undecidedWhy).
func (s *Session) recheck(ctx context.Context, removals []Removal) (string, error) {
	if s.settings.Repeat == 0 && s.flakiness() == "" {
		probes := removals
		if len(removals) > maxProbes {
			// While the test has shown no flakiness, a sample of the
			// removals, spread over them, is enough to see whether it
			// answers the same when asked again; only then are all
			// asked, with repetition.
			probes = make([]Removal, maxProbes)
			for i := range probes {
				probes[i] = removals[i*len(removals)/maxProbes]
			}
		}
		found, err := s.recheckAll(ctx, probes)
		if err != nil || found != "" {
			return found, err
		}
		if s.flakiness() == "" {
			return "", ctx.Err()
		}
	}
	return s.recheckAll(ctx, removals)
}

// agreedRuns is how many fresh runs agreed with what was seen before.
func (s *Session) agreedRuns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agreed
}

// maxProbes is how many removals are rechecked while the test has not
// shown itself flaky.
const maxProbes = 32

func (s *Session) recheckAll(ctx context.Context, removals []Removal) (string, error) {
	var mu sync.Mutex
	found := ""
	var firstErr error
	sem := make(chan struct{}, s.Jobs)
	var wg sync.WaitGroup
	for _, r := range removals {
		mu.Lock()
		stop := found != "" || firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil || s.undecidedWhy() != "" {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			var v runner.Test
			var err error
			decided := true
			switch {
			case s.settings.Repeat != 0:
				v, err = s.decide(ctx, r.Candidate, s.settings.Repeat, r.What)
			case s.flakiness() != "":
				v, decided, err = s.certify(ctx, r.Candidate, dd.Fail, r.What)
			default:
				v, err = s.decide(ctx, r.Candidate, 1, r.What)
				if err == nil && v.Outcome == dd.Fail {
					// A removal the search saw not fail fails now: the
					// test is flaky; decide afresh, by certainty.
					s.noteFlaky(r.What + " failed when run again, where it did not before")
					v, decided, err = s.certify(ctx, r.Candidate, dd.Fail, r.What)
				} else if err == nil {
					decided = true
					s.count(func(*Stats) { s.agreed++ })
				}
			}
			if err == nil && v.Outcome != dd.Unresolved && decided {
				// What the runs decided stands for the search that goes
				// on from the result: it is not asked again.
				err = s.tester.Seed(r.Candidate, v.Outcome, v.Detail)
			}
			if err == nil && !decided {
				s.setUndecided(fmt.Sprintf("run again %d times, %s failed in %d of them: too flaky to decide either way", len(v.Outcomes), r.What, runner.Count(v.Outcomes, dd.Fail)))
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				if firstErr == nil {
					firstErr = err
				}
			case v.Outcome == dd.Fail && found == "":
				found = fmt.Sprintf("%s still fails (in %d of %d runs)", r.What, v.Agreed, len(v.Outcomes))
			}
		}()
	}
	wg.Wait()
	if found == "" && firstErr == nil {
		if why := s.undecidedWhy(); why != "" {
			return why, nil
		}
	}
	return found, firstErr
}

// referencePassing runs the passing side twice and makes its output the
// output oracle's passing reference (wynot chain: a run that reproduces
// neither run's output is unresolved).
func (s *Session) referencePassing(ctx context.Context, c runner.Candidate, what string) error {
	o, ok := s.tester.Oracle.(*runner.OutputOracle)
	if !ok {
		return nil
	}
	var runs [2]runner.Run
	for i := range runs {
		s.setDoing("running %s (run %d of 2)", what, i+1)
		r, err := s.tester.Exec(ctx, c)
		s.count(func(st *Stats) { st.Checks++ })
		if err != nil {
			return err
		}
		runs[i] = r
	}
	if !o.Same(runs[0], runs[1]) {
		return NotReproduced("%s's output is not deterministic: two runs of it differ; the output can only tell the runs apart when each does the same every time (--observe compares only what does not change)", what)
	}
	if o.Same(runs[0], o.Want) {
		return NotReproduced("%s does the same as the failing run (%s): there is no difference in behavior to explain", what, runs[0].Describe())
	}
	o.Pass = &runs[0]
	return nil
}

// checkPassing tests that the passing side passes (TSE 2002 §5: the
// isolation starts from a passing and a failing input); what names it.
func (s *Session) checkPassing(ctx context.Context, c runner.Candidate, what string) error {
	s.setDoing("running %s", what)
	rec, err := s.tester.Test(ctx, c)
	if err != nil {
		return err
	}
	if rec.Outcome != dd.Pass {
		r, _ := s.tester.Exec(ctx, c)
		return NotReproduced("%s does not pass (%s): %s", what, rec.Outcome, r.Explain())
	}
	return nil
}

// Search runs one delta debugging search over n changes, testing each
// configuration as the candidate that build makes of it. name names the
// search in the log and events; onStep sees every step.
func (s *Session) Search(ctx context.Context, name string, n int, alg dd.Algorithm, opts dd.Options, build func(dd.Config) runner.Candidate, onStep func(dd.Step)) (dd.Result, error) {
	return s.SearchTests(ctx, name, n, alg, opts, func(ctx context.Context, c dd.Config) (runner.Test, error) {
		return s.tester.Test(ctx, build(c))
	}, onStep)
}

// TestOne tests a single candidate outside any search (the formatted
// form of a result), numbered and recorded in the events like the tests
// of a search.
func (s *Session) TestOne(ctx context.Context, name string, c runner.Candidate) (runner.Test, error) {
	rec, err := s.tester.Test(ctx, c)
	if err != nil {
		return rec, err
	}
	s.mu.Lock()
	s.eventBase++
	n := s.eventBase
	s.mu.Unlock()
	s.eventLog.Write(event(n, name, rec))
	return rec, nil
}

// event is the events file's record of test number n of pass name.
func event(n int, name string, rec runner.Test) report.Event {
	return report.Event{Test: n, Pass: name, Key: rec.Key.String(), Size: rec.Size, Outcome: rec.Outcome.String(),
		Seconds: rec.Duration.Seconds(), Cached: rec.Cached, Predicted: rec.Predicted, Detail: rec.Detail}
}

// SearchTests is Search with the test of a configuration in the caller's
// hands: test returns the test whose outcome counts.
func (s *Session) SearchTests(ctx context.Context, name string, n int, alg dd.Algorithm, opts dd.Options, test func(context.Context, dd.Config) (runner.Test, error), onStep func(dd.Step)) (dd.Result, error) {
	return s.SearchResolved(ctx, name, n, alg, opts, func(ctx context.Context, c dd.Config) (runner.Test, dd.Config, error) {
		rec, err := test(ctx, c)
		return rec, nil, err
	}, onStep)
}

// SearchResolved is SearchTests for a test that may run a larger
// configuration than the one asked (as the failure-resolution loop of
// wynot changes does, FSE 1999 §8): test returns the test whose outcome
// counts and the configuration it ran, nil if c itself. The algorithm
// credits the outcome to that configuration (dd.ResolvingTester).
func (s *Session) SearchResolved(ctx context.Context, name string, n int, alg dd.Algorithm, opts dd.Options, test func(context.Context, dd.Config) (runner.Test, dd.Config, error), onStep func(dd.Step)) (dd.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.cancel = cancel
	base := s.eventBase
	s.mu.Unlock()

	var mu sync.Mutex
	speculative := map[int]bool{}
	used := map[int]bool{}
	var maxTest int
	opts.Algorithm = alg
	opts.Parallel = s.Jobs
	next := opts.Observer
	opts.Observer = dd.ObserverFunc(func(e dd.Event) {
		switch e := e.(type) {
		case dd.Granularity:
			s.Progress.Update(func(st *report.Status) { st.Granularity = e.N })
		case dd.Step:
			if onStep != nil {
				onStep(e)
			}
		case dd.Lookup:
			if e.Source == dd.Cached {
				s.count(func(st *Stats) { st.CacheHits++ })
				s.Progress.Update(func(st *report.Status) { st.CacheHits++ })
			}
			if e.Test > 0 {
				mu.Lock()
				used[e.Test] = true
				mu.Unlock()
			}
		case dd.Contradiction:
			s.noteFlaky(fmt.Sprintf("a configuration of %d changes failed, inside one of %d that passed", len(e.Failed), len(e.Passed)))
		case dd.TestStarted:
			mu.Lock()
			speculative[e.Test] = e.Speculative
			maxTest = max(maxTest, e.Test)
			mu.Unlock()
		}
		if next != nil {
			next.Observe(e)
		}
	})
	// Where the algorithm assumes monotony (FSE 1999: dd with interference
	// and dd+), a configuration that fails inside one that passed shows
	// the test flaky.
	opts.WatchMonotony = alg == dd.Interference || alg == dd.Plus
	tester := dd.ResolvingTesterFunc(func(ctx context.Context, c dd.Config) (dd.Outcome, dd.Config) {
		// The whole configuration is what the search holds: it failed in
		// a real run, so it is not built (a candidate as large as the
		// input) nor asked again; once the test is flaky, asking could
		// only get a flip, which would end the search. Likewise the empty
		// configuration of an isolation, which passed.
		switch {
		case len(c) == n:
			s.count(func(st *Stats) { st.CacheHits++ })
			return dd.Fail, nil
		case len(c) == 0 && (alg == dd.Isolate || alg == dd.Maximize) && s.flakiness() != "":
			return dd.Pass, nil
		}
		rec, tested, err := test(ctx, c)
		if err != nil {
			if ctx.Err() == nil {
				s.SetFatal(err)
			}
			return dd.Unresolved, nil
		}
		if rec.Predicted {
			s.count(func(st *Stats) { st.Predicted++ })
		}
		ti, _ := dd.InfoFrom(ctx)
		ev := event(base+ti.Test, name, rec)
		ev.Speculative = ti.Speculative
		s.eventLog.Write(ev)
		if s.Report != nil {
			ran := c
			if tested != nil {
				ran = tested
			}
			ev.Config, ev.Changes = report.Draw(ran, n), len(ran)
			s.Report.Record(ev)
		}
		return rec.Outcome, tested
	})
	res, err := dd.Run(ctx, n, tester, opts)
	s.count(func(st *Stats) { st.Predicted += res.Stats.Predicted })
	mu.Lock()
	for t, spec := range speculative {
		if spec && !used[t] {
			s.eventLog.Write(report.Event{Test: base + t, Pass: name, Discarded: true, Speculative: true})
		}
	}
	mu.Unlock()
	s.mu.Lock()
	s.eventBase += maxTest
	s.cancel = nil
	s.mu.Unlock()
	if f := s.fatalErr(); f != nil {
		return res, f
	}
	return res, err
}

// renderCandidate shows a candidate in a log line: each file's name and
// the start of its content, or the command line.
func renderCandidate(c runner.Candidate) string {
	if c.Label != "" {
		return c.Label
	}
	var parts []string
	if c.Args != nil {
		parts = append(parts, ShellQuote(c.Args))
	}
	for _, f := range c.Files {
		parts = append(parts, f.Name+" "+report.Abbreviate(f.Data, 60))
	}
	return strings.Join(parts, ", ")
}

// executorHint is what the executor says of a test that fails locally
// and not where it runs (a remote test gets less of wynot's
// environment), on a line of its own, or "".
func (s *Session) executorHint() string {
	if h, ok := s.tester.Executor.(runner.Hinter); ok {
		return "\n(" + h.Hint() + ")"
	}
	return ""
}
