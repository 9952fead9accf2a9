// Package session holds what every wynot command shares when it searches
// for a failure cause: the test settings, the tester set up from the
// original failure, the counters, the progress line, log and events, the
// exit statuses and the safe writing of results. It starts no process
// itself; the runner does.
package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Exit statuses of the commands (DESIGN.md, "Command line").
const (
	ExitOK            = 0
	ExitInput         = 1   // a usage or input error
	ExitNotReproduced = 2   // the failure did not reproduce (or the passing side did not pass)
	ExitUnverified    = 3   // the search ended, but no result failed again when run again (wynot changes)
	ExitInterrupted   = 130 // interrupted; the best result so far is kept
)

// ExitError is an error with the exit status it calls for.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// InputError is a usage or input error (exit status 1).
func InputError(format string, args ...any) error {
	return &ExitError{ExitInput, fmt.Errorf(format, args...)}
}

// NotReproduced says the failure did not reproduce, or the passing side
// did not pass (exit status 2).
func NotReproduced(format string, args ...any) error {
	return &ExitError{ExitNotReproduced, fmt.Errorf(format, args...)}
}

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
	// FailOn states the failure as a regular expression over the output.
	FailOn *regexp.Regexp
	// Precision is how closely a candidate's failure must match the
	// original's (without Script and FailOn).
	Precision runner.Precision
	// Timeout bounds each test; zero calibrates it from the original run:
	// 10× its duration, at least 1 s, at most 300 s.
	Timeout time.Duration
	// Repeat runs each test this many times and takes an outcome only
	// when all agree.
	Repeat int
	// CacheFile keeps outcomes across runs.
	CacheFile string
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

// calibrationLimit bounds the first runs of the original when no timeout
// is given; after stillRunning, wynot says that it is waiting.
const (
	calibrationLimit = 5 * time.Minute
	stillRunning     = 10 * time.Second
)

// Session is what every command on inputs shares: the tester set up from
// the original failure, the counters, and the reporting.
type Session struct {
	Test
	Output
	Name string // the command, for the progress line
	Jobs int

	Tester   *runner.Tester
	Cache    *runner.Cache
	Progress *report.Progress
	TestLog  *report.Log    // the --log file, or nil
	EventLog *report.Events // the --events file, or nil
	Start    time.Time
	// Original is the first run of the failing original, as CheckOriginal
	// saw it.
	Original runner.Run

	// Mu guards the counters below.
	Mu        sync.Mutex
	Runs      int // test runs for candidates
	Checks    int // runs of the original and of the final result
	Outcomes  report.Outcomes
	CacheHits int
	Flaky     int
	// Predicted counts candidates whose outcome was predicted without
	// a test (they did not parse).
	Predicted int
	fatal     error
	cancel    context.CancelFunc
	eventBase int // test numbers of earlier searches, for the events file
}

// Open checks the test settings, prepares work directories and
// the cache. Close releases them.
func Open(command string, t Test, out Output, jobs int, inPlace bool, files, size int) (*Session, error) {
	s := &Session{Test: t, Output: out, Name: command, Jobs: max(jobs, 1), Start: time.Now()}
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
	default:
		cmd.Argv = absolutePaths(t.Argv)
		cmd.Stdin = !inPlace && files == 1 && !hasPlaceholder(t.Argv)
	}
	tester, err := runner.NewTester(cmd, nil, s.Jobs, runner.WorkDirParent(size))
	if err != nil {
		return nil, err
	}
	tester.Repeat = t.Repeat
	tester.InPlace = inPlace
	s.Tester = tester
	if t.CacheFile != "" {
		c, n, err := runner.OpenCache(t.CacheFile)
		if err != nil {
			tester.Close()
			return nil, InputError("cache: %v", err)
		}
		s.Cache = c
		if n > 0 && !out.Quiet {
			fmt.Fprintf(s.Stderr, "wynot: %s loaded from %s\n", report.Plural(n, "cached outcome"), t.CacheFile)
		}
	} else {
		s.Cache = runner.NewCache()
	}
	tester.Cache = s.Cache
	tester.OnTest = s.onTest
	if out.Log != nil {
		s.TestLog = report.NewLog(out.Log)
	}
	if out.Events != nil {
		s.EventLog = report.NewEvents(out.Events)
	}
	return s, nil
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
	if s.Cache != nil {
		s.Cache.Close()
	}
	if s.Tester != nil {
		s.Tester.Close()
	}
}

// StartProgress starts the progress line (unless quiet).
func (s *Session) StartProgress(sizeBefore int) {
	if s.Quiet {
		return
	}
	s.Progress = report.NewProgress(s.Stderr, s.TTY)
	s.Progress.Update(func(st *report.Status) {
		st.Command, st.SizeBefore, st.Size = s.Name, sizeBefore, sizeBefore
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
	s.Mu.Lock()
	if t.Cached {
		s.CacheHits++
	} else {
		s.Runs++
		switch t.Outcome {
		case dd.Pass:
			s.Outcomes.Pass++
		case dd.Fail:
			s.Outcomes.Fail++
		default:
			s.Outcomes.Unresolved++
		}
		if t.Flaky {
			s.Flaky++
		}
		if s.TestLog != nil {
			s.TestLog.Test(s.Runs, renderCandidate(t.Candidate), t.Outcome, t.Detail)
		}
	}
	s.Mu.Unlock()
	s.Progress.Update(func(st *report.Status) {
		if t.Cached {
			st.CacheHits++
		} else {
			st.Tests++
			st.Outcomes[t.Outcome]++
		}
	})
}

// SetFatal records an error that ends the whole search and stops it.
func (s *Session) SetFatal(err error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.fatal == nil {
		s.fatal = err
		if s.cancel != nil {
			s.cancel()
		}
	}
}

func (s *Session) fatalErr() error {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.fatal
}

// DescribeRun tells what a run of the original did, for error messages.
// DescribeRun tells what a run did, with the end of its output, for
// error messages.
func DescribeRun(r runner.Run) string {
	var b strings.Builder
	b.WriteString(r.Describe())
	out := r.Stderr
	if len(bytes.TrimSpace(out)) == 0 {
		out = r.Stdout
	}
	if t := lastLines(out, 8); t != "" {
		b.WriteString("; its output ends:\n" + t)
	} else {
		b.WriteString(", with no output")
	}
	return b.String()
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// CheckOriginal runs the original candidate twice (TSE 2002 Axiom 4, and
// the Debugging Book's check_reproducibility), sets up the oracle from
// what it does, and calibrates the timeout. It returns the error a
// command should exit with when the failure does not reproduce.
func (s *Session) CheckOriginal(ctx context.Context, orig runner.Candidate, what string) error {
	s.Tester.Command.Timeout = s.Timeout
	if s.Timeout == 0 {
		s.Tester.Command.Timeout = calibrationLimit
	}
	var runs [2]runner.Run
	for i := range runs {
		var still *time.Timer
		if s.Timeout == 0 {
			// Without --timeout, say soon that a slow original may hang,
			// rather than wait in silence for the calibration limit.
			still = time.AfterFunc(stillRunning, func() {
				s.Say("the %s is still running after %s; if it hangs, give --timeout D (without it, wynot waits up to %s)", what, stillRunning, calibrationLimit)
			})
		}
		r, err := s.Tester.Exec(ctx, orig)
		if still != nil {
			still.Stop()
		}
		s.Mu.Lock()
		s.Checks++
		s.Mu.Unlock()
		if err != nil {
			if errors.Is(err, runner.ErrStart) {
				return InputError("%v", err)
			}
			return err
		}
		if r.TimedOut && s.Timeout == 0 {
			return InputError("the %s did not finish within %s; give --timeout D (if the hang is the failure, timeouts then count as failures)", what, calibrationLimit)
		}
		runs[i] = r
	}
	var oracle runner.Oracle
	switch {
	case s.FailOn != nil:
		oracle = &runner.RegexOracle{Re: s.FailOn}
	case s.Script != "" || s.ExitStatus:
		oracle = &runner.ScriptOracle{Convention: s.Convention}
	default:
		sig := runner.Extract(runs[0])
		if runs[0].Clean() && (sig.Message == "" || s.Precision == runner.Exit) {
			return NotReproduced("the %s does not fail: %s", what, DescribeRun(runs[0]))
		}
		oracle = &runner.SignatureOracle{Want: sig, Precision: s.Precision}
	}
	for i, r := range runs {
		o, detail, err := oracle.Classify(r)
		if err != nil {
			return NotReproduced("the %s: %v", what, err)
		}
		if o == dd.Fail {
			continue
		}
		if i == 0 {
			switch {
			case s.FailOn != nil:
				return NotReproduced("the %s does not fail: its output does not match %q; it ended with %s", what, s.FailOn, DescribeRun(r))
			case s.Script != "":
				return NotReproduced("the %s is not reproduced by %s (%s convention): %s", what, s.Script, s.Convention, DescribeRun(r))
			case s.ExitStatus:
				return NotReproduced("the %s does not fail by the %s convention: %s", what, s.Convention, DescribeRun(r))
			}
		}
		first, _, _ := oracle.Classify(runs[0])
		return NotReproduced("the failure is flaky: run twice, the %s first gave %s, then %s (%s); --repeat N and a lower --precision may help",
			what, first, o, detail)
	}
	s.Tester.Oracle = oracle
	s.Original = runs[0]
	if s.Timeout == 0 {
		d := max(runs[0].Duration, runs[1].Duration) * 10
		s.Tester.Command.Timeout = min(max(d, time.Second), 300*time.Second).Round(100 * time.Millisecond)
	}
	// The search's first question is the original again: answer it.
	_, detail, _ := oracle.Classify(runs[0])
	return s.Tester.Seed(orig, dd.Fail, detail)
}

// Signature describes the failure being searched for.
func (s *Session) Signature() string {
	switch o := s.Tester.Oracle.(type) {
	case *runner.SignatureOracle:
		return o.Want.String()
	case *runner.RegexOracle:
		return "output matches " + o.Re.String()
	case *runner.ScriptOracle:
		if s.Script == "" {
			return "the command's exit status, by the " + o.Convention.String() + " convention"
		}
		return "test script " + s.Script + " (" + o.Convention.String() + " convention)"
	}
	return ""
}

// Search runs one delta debugging search over n changes, testing each
// configuration as the candidate that build makes of it. name names the
// search in the log and events; onStep sees every step.
func (s *Session) Search(ctx context.Context, name string, n int, alg dd.Algorithm, opts dd.Options, build func(dd.Config) runner.Candidate, onStep func(dd.Step)) (dd.Result, error) {
	return s.SearchTests(ctx, name, n, alg, opts, func(ctx context.Context, c dd.Config) (runner.Test, error) {
		return s.Tester.Test(ctx, build(c))
	}, onStep)
}

// TestOne tests a single candidate outside any search (the formatted
// form of a result), numbered and recorded in the events like the tests
// of a search.
func (s *Session) TestOne(ctx context.Context, name string, c runner.Candidate) (runner.Test, error) {
	rec, err := s.Tester.Test(ctx, c)
	if err != nil {
		return rec, err
	}
	s.Mu.Lock()
	s.eventBase++
	n := s.eventBase
	s.Mu.Unlock()
	s.EventLog.Write(event(n, name, rec))
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
	s.Mu.Lock()
	s.cancel = cancel
	base := s.eventBase
	s.Mu.Unlock()

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
				s.Mu.Lock()
				s.CacheHits++
				s.Mu.Unlock()
				s.Progress.Update(func(st *report.Status) { st.CacheHits++ })
			}
			if e.Test > 0 {
				mu.Lock()
				used[e.Test] = true
				mu.Unlock()
			}
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
	tester := dd.ResolvingTesterFunc(func(ctx context.Context, c dd.Config) (dd.Outcome, dd.Config) {
		rec, tested, err := test(ctx, c)
		if err != nil {
			if ctx.Err() == nil {
				s.SetFatal(err)
			}
			return dd.Unresolved, nil
		}
		ti, _ := dd.InfoFrom(ctx)
		ev := event(base+ti.Test, name, rec)
		ev.Speculative = ti.Speculative
		s.EventLog.Write(ev)
		if s.Report != nil {
			ran := c
			if tested != nil {
				ran = tested
			}
			ev.Config = report.Draw(ran, n)
			s.Report.Record(ev)
		}
		return rec.Outcome, tested
	})
	res, err := dd.Run(ctx, n, tester, opts)
	mu.Lock()
	for t, spec := range speculative {
		if spec && !used[t] {
			s.EventLog.Write(report.Event{Test: base + t, Pass: name, Discarded: true, Speculative: true})
		}
	}
	mu.Unlock()
	s.Mu.Lock()
	s.eventBase += maxTest
	s.cancel = nil
	s.Mu.Unlock()
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

// ShellQuote renders arguments as a shell would need them.
// ShellQuote renders arguments as a shell would need them.
func ShellQuote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ',' || r == ':' || r == '+' ||
				'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
		}) < 0 {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// WriteAtomic replaces path with data: written to a temporary file in the
// same directory, synced, then renamed over path, so that path always
// holds either its old or its new content.
func WriteAtomic(path string, data []byte, mode fs.FileMode) error {
	return replace(path, data, mode, true)
}

// ReplaceFile is WriteAtomic without syncing to the disk: path holds the
// old or the new content whenever the process stops, even by SIGKILL,
// but a crash of the whole system may find the old.
func ReplaceFile(path string, data []byte, mode fs.FileMode) error {
	return replace(path, data, mode, false)
}

// FreePath returns p when nothing exists there; otherwise the first of
// p.1, p.2, ... that is free (with ext moved behind the number:
// NAME.1.pass for p = NAME.pass and ext = ".pass"). wynot never writes
// over a file it did not make in the same run.
func FreePath(p, ext string) string {
	if _, err := os.Lstat(p); os.IsNotExist(err) {
		return p
	}
	stem := strings.TrimSuffix(p, ext)
	for k := 1; ; k++ {
		q := fmt.Sprintf("%s.%d%s", stem, k, ext)
		if _, err := os.Lstat(q); os.IsNotExist(err) {
			return q
		}
	}
}

func replace(path string, data []byte, mode fs.FileMode, sync bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".wynot-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode.Perm())
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// CheckWritable fails unless a file can be created in dir.
func CheckWritable(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".wynot-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
