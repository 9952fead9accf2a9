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
	// QuotedAside compares failure messages with their quoted strings
	// aside (runner.SignatureOracle.QuotedAside).
	QuotedAside bool
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
	// Sandbox, when set, confines each test (--sandbox).
	Sandbox *runner.Sandbox
	// Paired, when set, is a second process of every test
	// (runner.Command.Paired): wynot trace --pass runs the passing
	// program beside the failing one.
	Paired *runner.Command
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

// logTail is how many lines of each test's output the test log shows.
const logTail = 3

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
	// Inputs are the paths of a candidate's files as the user gave them
	// (Workload.Inputs).
	Inputs []string
	// Tree and InTree say which relative paths of the test command name
	// a path of the candidate trees (Workload.Tree).
	Tree   []string
	InTree func(rel string) bool
	// Fake, if set, stands in for every run of the test: it sees the
	// work directory prepared as for a real run and returns what the
	// run did. It lets command logic be tested without processes.
	Fake func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error)
	// Executor, if set, runs the tests (a Slurm job step, a remote
	// action); otherwise they run as local processes.
	Executor runner.Executor
	// Copies are the work directories' copies of a tree (Workload.Copies).
	Copies CopiedTrees
	// Certainty is the policy of certification; nil for
	// DefaultCertainty.
	Certainty *Certainty
}

// Session is what every command shares while it searches: the tester
// set up from the original failure, the counters, and the reporting.
// Commands test candidates only through it, so that every test is
// counted, logged and recorded the same way.
type Session struct {
	settings  Test
	certainty Certainty
	Output
	Name string // the command, for the progress line
	Jobs int

	tester   *runner.Tester
	cache    *runner.Cache
	progress *report.Progress
	testLog  *report.Log    // the --log file, or nil
	eventLog *report.Events // the --events file, or nil
	start    time.Time
	// original is the first run of the failing original, as the check
	// of the original saw it (Original).
	original runner.Run

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
	// held are the checks that held when Confirm ran them, by
	// candidate and outcome: a check that held is not run again while
	// the test shows no flip it was not decided under.
	held map[heldKey]heldCheck
	// saidHeld is whether a certified check that held in all its runs
	// was said (quietHeld).
	saidHeld bool
	// undecided says why a certifying decision ran out of runs ("").
	undecided string
	// caveats say why the result may not be what it seems (Caveat).
	caveats []string
	// origWhat names the failing original ("original input", "new
	// version"), as the check of the original was told.
	origWhat string
	// here is the directory the tests run in when it is where wynot was
	// started (a command that gets its candidate by {} or on standard
	// input, or an argument list), or "": whether the test writes there
	// is checked on the original's runs, and after the search
	// (SayWritesDuring).
	here string
	// own are the files wynot itself writes (its standard output and
	// error, --log, --events, --cache), which a change of here does not
	// count as the test's.
	own []os.FileInfo
	// ownDirs are wynot's own directories (Own), absolute.
	ownDirs []string
	// hereBefore is here's footprint before the original's runs;
	// saidWrites says the test's writes there were told.
	hereBefore *runner.Footprint
	saidWrites bool
	// byName is the test command with {} in the place of the argument
	// that names the input, when that argument is why it runs in a
	// private work directory (originalFacts.byName).
	byName    string
	cancel    context.CancelFunc
	eventBase int    // test numbers of earlier searches, for the events file
	doing     string // what the run does before its search, for an interruption
	// copyStart is when each work directory's copy of the tree began,
	// copySaid when how it goes was said last (copying).
	copyStart map[string]time.Time
	copySaid  time.Time
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
	// TimedOut counts the runs for candidates that the timeout cut off.
	TimedOut int
	// Predicted counts candidates whose outcome was predicted without a
	// test: they did not parse or type-check (the domain's prediction),
	// or the algorithm knew it (dd.Stats.Predicted).
	Predicted int
}

// Tests is every run: candidates and checks.
func (st Stats) Tests() int { return st.Runs + st.Checks }

// Known is the outcome a test of c gave in this run (or the cache file
// holds for it); ok is false when it was not tested.
func (s *Session) Known(c runner.Candidate) (o dd.Outcome, ok bool) { return s.tester.Known(c) }

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
	s := &Session{settings: t, certainty: DefaultCertainty, Output: out, Name: cfg.Command, Jobs: max(cfg.Jobs, 1), start: time.Now()}
	if cfg.Certainty != nil {
		s.certainty = *cfg.Certainty
	}
	if s.Stderr == nil {
		s.Stderr = io.Discard
	}
	if cfg.Copies != nil {
		cfg.Copies.OnCopy(s.copying)
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
		switch {
		case st.IsDir():
			return nil, InputError("test script %s is a directory: --test takes an executable script, run on each candidate, whose exit status says whether the candidate fails (%s convention); to run a command, give it after -- instead", t.Script, t.Convention)
		case st.Mode().Perm()&0o111 == 0:
			return nil, InputError("test script %s is not executable (chmod +x it)", t.Script)
		}
		cmd.Argv = []string{abs}
	case len(t.Argv) == 0:
		return nil, InputError("no test: give a command after -- or --test SCRIPT")
	case t.Dir != "":
		// The test runs where the user is: its arguments stay as given.
		cmd.Argv = t.Argv
		cmd.Stdin = !cfg.InPlace && cfg.Files == 1 && !hasPlaceholder(t.Argv)
	case here(t.Argv, cfg):
		// A command that gets the candidate by {} or on its standard
		// input runs where wynot was started, as the user's shell runs
		// it: go run ./cmd/x, make check, ./scripts/t.sh work as typed.
		// Whether it writes there is checked on the original's runs.
		dir, err := os.Getwd()
		if err != nil {
			return nil, InputError("the current directory: %v", err)
		}
		cmd.Argv, cmd.Dir = t.Argv, dir
		cmd.Stdin = !hasPlaceholder(t.Argv)
		s.here = dir
	default:
		cmd.Argv = absolutePaths(t.Argv, cfg.Tree, cfg.InTree, cfg.Inputs)
		cmd.Stdin = !cfg.InPlace && cfg.Files == 1 && !hasPlaceholder(t.Argv)
		s.byName = byName(t.Argv, cfg)
	}
	cmd.Env, cmd.Input, cmd.Persistent, cmd.Sandbox, cmd.Paired = t.Env, t.Input, t.Persistent, t.Sandbox, t.Paired
	if t.Dir != "" {
		cmd.Dir = t.Dir
	}
	if cfg.InPlace && cfg.Executor == nil {
		// Tests of argument lists run where wynot was started: whether
		// they write there is checked too.
		if dir, err := os.Getwd(); err == nil {
			s.here = dir
		}
	}
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
		s.testLog = report.NewLog(out.Log)
	}
	if out.Events != nil {
		s.eventLog = report.NewEvents(out.Events)
	}
	if s.here != "" {
		s.own = ownFiles(t.CacheFile, os.Stdout, os.Stderr, out.Stderr, out.Log, out.Events)
	}
	return s, nil
}

// ownFiles are the files that wynot writes to, among writers (those that
// are files) and the file at path: what a test that runs where wynot was
// started finds changed there without having written it (wynot's output
// redirected to a file there, its --log).
func ownFiles(path string, writers ...any) []os.FileInfo {
	var own []os.FileInfo
	for _, w := range writers {
		if f, ok := w.(interface{ Stat() (os.FileInfo, error) }); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				own = append(own, fi)
			}
		}
	}
	if path != "" {
		if fi, err := os.Stat(path); err == nil {
			own = append(own, fi)
		}
	}
	return own
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
	if say, ok := s.tester.Executor.(runner.Speaker); ok {
		say.SetSay(s.Say)
	}
	if !s.Quiet {
		fmt.Fprintf(s.Stderr, "wynot: tests run on %s, %d at a time\n", s.tester.Executor, s.Jobs)
	}
	return nil
}

// here reports whether a test command runs where wynot was started: a
// command after "--" (not a --test script) testing a single file, which
// it gets by {} or on its standard input, not by its own file name.
// Tests of argument lists run there already (InPlace); tests of trees
// and of several files run in the work directory, which holds them.
func here(argv []string, cfg Config) bool {
	if cfg.InPlace || cfg.Files != 1 || len(cfg.Inputs) > cfg.Files || len(argv) == 0 || cfg.Executor != nil {
		return false // no single file, or files given beside it (--with)
	}
	return !namesInput(argv[1:], cfg.Inputs)
}

// byName is argv with {} in the place of the argument that names the
// single input, as the user would write it for the test to run where
// wynot was started; "" when no argument as a whole names it.
func byName(argv []string, cfg Config) string {
	if cfg.InPlace || cfg.Files != 1 || len(cfg.Inputs) != 1 || len(argv) < 2 || cfg.Executor != nil {
		return ""
	}
	for i, a := range argv[1:] {
		if strings.ContainsAny(a, " \t") || !namesInput([]string{a}, cfg.Inputs) {
			continue
		}
		with := runner.Placeholder
		if flag, _, ok := strings.Cut(a, "="); ok {
			with = ShellQuote([]string{flag + "="}) + with // --file={}
		}
		quoted := []string{ShellQuote(argv[:i+1]), with}
		if rest := argv[i+2:]; len(rest) > 0 {
			quoted = append(quoted, ShellQuote(rest))
		}
		return strings.Join(quoted, " ")
	}
	return ""
}

// namesInput reports whether an argument names one of the inputs by its
// path or its file name (also as a flag's value, --file=bug.c, or as a
// word of a shell command, sh -c 'parser bug.c'), so that the command
// reads the candidate by its name.
func namesInput(args, inputs []string) bool {
	for _, arg := range args {
		words := strings.FieldsFunc(arg, shellSeparator)
		for _, a := range words {
			if strings.Contains(a, runner.Placeholder) {
				continue
			}
			if _, v, ok := strings.Cut(a, "="); ok {
				a = v
			}
			for _, in := range inputs {
				// A word of a longer command names a file only with a
				// dot or a slash in it (bug.c, not "test" in "make test").
				if len(words) > 1 && !strings.ContainsAny(filepath.Base(in), ".") && !strings.Contains(a, "/") {
					continue
				}
				if a == in || a == filepath.Base(in) || filepath.Clean(a) == filepath.Clean(in) || sameFile(a, in) {
					return true
				}
			}
		}
	}
	return false
}

// shellSeparator reports whether r separates the words of a shell
// command that could name a file.
func shellSeparator(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(";|&<>()'\"`$", r)
}

func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// absolutePaths makes relative paths in a command absolute, since tests
// run in another directory: the program if it is named with a "/"
// ("./prog"), and arguments with a "/" that name existing files. A path
// into one of the directories of tree whose candidates hold it too
// (inTree) is made relative to that directory instead, with a "./":
// the test runs at the root of the candidate tree, and the path names
// the candidate's copy (go test ./pkg typed in the repository). A path
// of one of the input files (./bug.c, in/bug.c) names the candidate,
// which the work directory holds by the file's name: it becomes
// ./bug.c. The script an interpreter runs (sh check.sh, python3 t.py)
// is a path too, with or without a "/".
func absolutePaths(argv []string, tree []string, inTree func(string) bool, inputs []string) []string {
	out := append([]string(nil), argv...)
	script := ScriptArg(argv)
	for i, a := range out {
		if i == script && !strings.Contains(a, "/") {
			if st, err := os.Stat(a); err != nil || !st.Mode().IsRegular() {
				continue
			}
		} else if !strings.Contains(a, "/") {
			continue
		}
		if filepath.IsAbs(a) || strings.Contains(a, runner.Placeholder) || strings.HasPrefix(a, "-") {
			continue
		}
		if i > 0 && len(tree) == 0 && slices.ContainsFunc(inputs, func(in string) bool { return sameFile(a, in) }) {
			out[i] = "./" + filepath.Base(a)
			continue
		}
		if _, err := os.Stat(a); err != nil && i > 0 {
			continue
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			continue
		}
		out[i] = abs
		for _, root := range tree {
			root, err := filepath.Abs(root)
			if err != nil {
				continue
			}
			rel, err := filepath.Rel(root, abs)
			if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || inTree == nil || !inTree(filepath.ToSlash(rel)) {
				continue
			}
			if rel == "." {
				out[i] = "."
			} else {
				out[i] = "./" + filepath.ToSlash(rel)
			}
			break
		}
	}
	return out
}

// interpreters are the commands whose first argument that is not an
// option is the script they run.
var interpreters = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true,
	"python": true, "python3": true, "perl": true, "ruby": true, "node": true, "tclsh": true}

// ScriptArg is the index in argv of the script an interpreter runs
// (check.sh of sh -e check.sh), or -1: argv[0] is no interpreter, or
// its code comes another way (sh -c CODE, python3 -m MODULE).
func ScriptArg(argv []string) int {
	if len(argv) == 0 || !interpreters[filepath.Base(argv[0])] {
		return -1
	}
	shell := strings.HasSuffix(filepath.Base(argv[0]), "sh")
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "-c" || a == "-m" || a == "-e" && !shell || a == "-" || a == "--":
			// Code given inline (perl -e, node -e: a shell's -e is
			// errexit), a module, or standard input.
			return -1
		case !strings.HasPrefix(a, "-"):
			return i
		}
	}
	return -1
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
	s.EndProgress()
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
	s.EndProgress()
	s.progress = report.NewProgress(s.Stderr, s.TTY)
	s.Status(func(st *report.Status) {
		st.Command, st.SizeBefore, st.Size, st.Unit = s.Name, size, size, unit
	})
}

// copySlow is how long a copy of a tree into a work directory goes on
// before the session says how it goes, and then how often it says so.
const copySlow = 2 * time.Second

// copying says, every copySlow once a copy of a tree into the work
// directory dir has taken that long, how many of its files are written.
func (s *Session) copying(dir string, done, total int) {
	now := time.Now()
	s.mu.Lock()
	if s.copyStart == nil {
		s.copyStart = map[string]time.Time{}
	}
	start, ok := s.copyStart[dir]
	if !ok {
		start = now
		s.copyStart[dir] = now
	}
	say := done < total && now.Sub(start) >= copySlow && now.Sub(s.copySaid) >= copySlow
	if say {
		s.copySaid = now
	}
	if done == total {
		delete(s.copyStart, dir)
	}
	s.mu.Unlock()
	if say {
		s.Say("copying the tree into a work directory: %d of %s", done, report.Plural(total, "file"))
	}
}

// Say writes a message line (unless quiet).
func (s *Session) Say(format string, args ...any) {
	if s.Quiet {
		return
	}
	if s.progress != nil {
		s.progress.Printf("wynot: "+format+"\n", args...)
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
		if t.Run.TimedOut {
			s.stats.TimedOut++
		}
		if s.testLog != nil {
			s.testLog.Test(s.stats.Runs, renderCandidate(t.Candidate), t.Outcome, t.Detail)
			if tl := tail(t.Run, logTail); tl != "" {
				s.Logf("%s", tl)
			}
		}
	}
	s.mu.Unlock()
	s.Status(func(st *report.Status) {
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
		s.tester.SetRepeat(s.certainty.AutoRepeat)
		// Say locks the progress line, which never waits for s.mu.
		s.Say("the test is flaky (%s): from now on every test runs %d times, and an outcome counts only when all runs agree", why, s.certainty.AutoRepeat)
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

// Original is the first run of the failing original, as the check of
// the original saw it: what a command reads of how the failure looks.
func (s *Session) Original() runner.Run { return s.original }

// Status changes the progress line's status (the size reached, the
// pass under way).
func (s *Session) Status(f func(*report.Status)) { s.progress.Update(f) }

// EndProgress ends the progress line of a search a command started
// (StartProgress) and drew itself.
func (s *Session) EndProgress() { s.progress.Close() }

// Logf writes a line to the test log (--log), if there is one.
func (s *Session) Logf(format string, args ...any) { s.testLog.Printf(format, args...) }

// Predict records a candidate whose outcome the domain knows without a
// test (it does not parse): counted, and logged in the events as a test.
func (s *Session) Predict(detail string) runner.Test {
	s.count(func(st *Stats) { st.Predicted++ })
	return runner.Test{Outcome: dd.Unresolved, Predicted: true, Detail: detail}
}

// Search is one delta debugging search of a session (Session.Search).
type Search struct {
	// Name names the search in the log and the events; N is the number
	// of changes it searches over.
	Name      string
	N         int
	Algorithm dd.Algorithm
	Options   dd.Options
	// How a configuration is tested, one of three: Build makes its
	// candidate, which the session tests; Test tests it and returns the
	// test whose outcome counts; Resolved is Test for a test that may run
	// a larger configuration than the one asked (as the failure-
	// resolution loop of wynot changes does, FSE 1999 §8) and returns the
	// configuration it ran too, nil if the one asked: the algorithm
	// credits the outcome to it (dd.ResolvingTester).
	Build    func(dd.Config) runner.Candidate
	Test     func(context.Context, dd.Config) (runner.Test, error)
	Resolved func(context.Context, dd.Config) (runner.Test, dd.Config, error)
	// OnStep, when set, sees every step.
	OnStep func(dd.Step)
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

// Search runs one delta debugging search, counting, logging and
// recording every test as the session does.
func (s *Session) Search(ctx context.Context, sp Search) (dd.Result, error) {
	test := sp.Resolved
	switch {
	case test != nil:
	case sp.Test != nil:
		test = func(ctx context.Context, c dd.Config) (runner.Test, dd.Config, error) {
			rec, err := sp.Test(ctx, c)
			return rec, nil, err
		}
	case sp.Build != nil:
		test = func(ctx context.Context, c dd.Config) (runner.Test, dd.Config, error) {
			rec, err := s.tester.Test(ctx, sp.Build(c))
			return rec, nil, err
		}
	default:
		return dd.Result{}, fmt.Errorf("search %s: no test (Build, Test or Resolved)", sp.Name)
	}
	name, n, alg, opts, onStep := sp.Name, sp.N, sp.Algorithm, sp.Options, sp.OnStep
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
			s.Status(func(st *report.Status) { st.Granularity = e.N })
		case dd.Step:
			if onStep != nil {
				onStep(e)
			}
		case dd.Lookup:
			if e.Source == dd.Cached {
				s.count(func(st *Stats) { st.CacheHits++ })
				s.Status(func(st *report.Status) { st.CacheHits++ })
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
