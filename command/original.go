package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/runner"
)

// stillRunning is how long a first run of the original without
// --timeout goes on before wynot says that it is waiting (up to
// Certainty.CalibrationLimit).
const stillRunning = 10 * time.Second

// checkOriginal runs the original candidate twice (TSE 2002 Axiom 4, and
// the Debugging Book's check_reproducibility), sets up the oracle from
// what it does, and calibrates the timeout. It returns the error a
// command should exit with when the failure does not reproduce.
func (s *Session) checkOriginal(ctx context.Context, orig runner.Candidate, what string) error {
	s.origWhat = what
	s.tester.Command.Timeout = s.settings.Timeout
	if s.settings.Timeout == 0 {
		s.tester.Command.Timeout = s.certainty.CalibrationLimit
	}
	planned := s.certainty.OriginalRuns
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
						s.Say("the %s is still running after %s; if it hangs, give --timeout D (without it, wynot waits up to %s)", what, stillRunning, s.certainty.CalibrationLimit)
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
			return r, InputError("the %s did not finish within %s; give --timeout D (if the hang is the failure, timeouts then count as failures)", what, s.certainty.CalibrationLimit)
		}
		return r, nil
	}
	var before runner.Footprint
	if s.here != "" {
		before = runner.TakeFootprint(s.here)
	}
	var runs []runner.Run
	for range s.certainty.OriginalRuns {
		r, err := run()
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	facts := originalFacts{settings: s.settings, what: what, hint: s.executorHint(), where: s.where(), byName: s.byName,
		timeout: s.tester.Command.Timeout, outOfRoom: s.tester.OutOfRoom() > 0}
	j := judgeOriginal(runs, facts, s.certainty)
	if j.more {
		planned += s.certainty.OriginalRetry
		for range s.certainty.OriginalRetry {
			r, err := run()
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
		j = judgeOriginal(runs, facts, s.certainty)
	}
	if j.err != nil {
		return j.err
	}
	oracle, fails, ref := j.oracle, j.fails, j.ref
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
	s.original = runs[0]
	// Said once for every command: what the failure is, and how a run
	// is told to be it (the oracle of a signature only: a script, a
	// --fail-on and the reproduction of a run's output say it
	// themselves), with the end of the output where the exit status is
	// all that tells it.
	verb := "fails"
	if strings.HasSuffix(what, "inputs") {
		verb = "fail"
	}
	switch oracle.(type) {
	case *runner.SignatureOracle:
		s.Say("the %s %s: %s", what, verb, s.Signature())
		s.Say("a run counts as this failure %s", s.failureRule(what))
	case *runner.ScriptOracle:
		s.Say("the %s %s: %s", what, verb, s.failureRule(what))
	case *runner.RegexOracle:
		s.Say("the %s %s: %s", what, verb, s.failureRule(what))
	}
	if s.here != "" {
		s.checkWrites(before)
	}
	if s.exitOnly() {
		_, script := oracle.(*runner.ScriptOracle)
		switch t := tail(runs[0], outputTail); {
		case t != "":
			s.Say("the %s's output ends:\n%s", what, strings.TrimRight(t, "\n"))
		case !script:
			s.Say("the %s printed nothing", what)
		}
	}
	if s.settings.Timeout == 0 {
		s.tester.Command.Timeout = calibrate(runs, s.certainty)
		// A confirmation that times out under this timeout, calibrated
		// in a quiet moment, runs once more with Patience times as long
		// before it counts (its timeout says nothing of its candidate
		// on a machine busy meanwhile).
		s.tester.Patience = s.certainty.Patience
	}
	// The search's first question is the original again: answer it.
	_, detail, _ := oracle.Classify(runs[0])
	return s.tester.Seed(orig, dd.Fail, detail)
}

// calibrate is the tests' timeout when none is given: TimeoutFactor
// times the slowest of the original's runs, between MinTimeout and
// MaxTimeout.
func calibrate(runs []runner.Run, c Certainty) time.Duration {
	var d time.Duration
	for _, r := range runs {
		d = max(d, r.Duration)
	}
	return min(max(d*time.Duration(c.TimeoutFactor), c.MinTimeout), c.MaxTimeout).Round(100 * time.Millisecond)
}

// originalFacts is what judging the original's runs needs besides them:
// the test's settings, what the original is called, and the particulars
// of where the tests run that errors name.
type originalFacts struct {
	settings Test
	what     string
	hint     string // executorHint
	where    string // where the tests run
	// byName, when set, is the command with {} in the place of the
	// argument that names the input: it runs in a private work
	// directory because it reads the candidate by that name.
	byName    string
	timeout   time.Duration
	outOfRoom bool // a run ran out of room in its work directory
}

// originalJudgment is what the runs of the original say: the oracle
// that tells the failure, the run it was taken from (ref) and how many
// runs fail; or that the runs disagree and more must be made (more); or
// the error a command should exit with.
type originalJudgment struct {
	oracle runner.Oracle
	ref    int
	fails  int
	more   bool
	err    error
}

// judgeOriginal decides from the original's runs whether its failure
// reproduces (TSE 2002 Axiom 4) and how a run is told to be it, by the
// policy c: OriginalRuns that all fail reproduce it; under --repeat
// auto, runs that disagree call for OriginalRetry more, and at least
// ReproducedIf failing runs of all of them reproduce it, flaky. It runs
// nothing: checkOriginal makes the runs.
func judgeOriginal(runs []runner.Run, f originalFacts, c Certainty) originalJudgment {
	st, what := f.settings, f.what
	var j originalJudgment
	oracleFor := func() (runner.Oracle, error) {
		switch {
		case st.Reproduce != nil:
			o := &runner.OutputOracle{Observe: *st.Reproduce, Want: runs[0]}
			if st.Paired != nil {
				o.PairedName = st.Paired.Name
			}
			return o, nil
		case st.FailOn != nil:
			return &runner.RegexOracle{Re: st.FailOn, Pass: st.PassOn, Phase: runner.Extract(runs[0]).Phase}, nil
		case st.Script != "" || st.ExitStatus:
			return &runner.ScriptOracle{Convention: st.Convention}, nil
		}
		j.ref = 0
		for i, r := range runs {
			if !r.Clean() {
				j.ref = i
				break
			}
		}
		sig := runner.Extract(runs[j.ref])
		if runs[j.ref].Clean() && (sig.Message == "" || st.Precision == runner.Exit) {
			return nil, NotReproduced("the %s does not fail: %s%s", what, runs[0].Explain(), f.hint)
		}
		return &runner.SignatureOracle{Want: sig, Precision: st.Precision, QuotedAside: st.QuotedAside}, nil
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
	if err != nil && (st.Repeat != 0 || len(runs) > c.OriginalRuns) {
		return originalJudgment{err: err}
	}
	fails, other := 0, 0
	if err == nil {
		if fails, other, err = classify(oracle); err != nil {
			return originalJudgment{err: err}
		}
	}
	if len(runs) == c.OriginalRuns && st.Repeat == 0 && fails < len(runs) && (fails > 0 || !runs[len(runs)-1].Clean()) && !allTimedOut(runs) && !f.outOfRoom {
		// Under --repeat auto, runs that disagree are asked again: a
		// failure that shows in four of five runs is a flaky one, and
		// the search goes on with repetition. An original that hung
		// every time is not asked again: it hangs, and each run would
		// cost the whole timeout again; nor is one whose runs ran out of
		// room.
		return originalJudgment{more: true}
	} else if err != nil {
		return originalJudgment{err: err}
	}
	if fails < len(runs) && !(len(runs) == c.OriginalRuns+c.OriginalRetry && fails >= c.ReproducedIf) {
		r := runs[other]
		o, detail, _ := oracle.Classify(r)
		if fails == 0 {
			switch {
			case st.FailOn != nil:
				return originalJudgment{err: NotReproduced("the %s does not fail: its output does not match %q; it ended with %s%s", what, Shown(st.FailOn), r.Explain(), f.hint)}
			case st.Script != "":
				conv := ""
				if st.Convention == runner.CReduce && r.Exit > 0 && r.Exit != 125 && !r.TimedOut {
					conv = "\n(by the creduce convention, a script says that its candidate fails by exiting 0; one that exits non-zero on a failure follows git bisect's: give --convention bisect. A script gets no arguments: it runs in a directory that holds the candidate under the input's own name)"
				}
				return originalJudgment{err: NotReproduced("the %s is not reproduced by %s (%s convention): %s%s%s", what, st.Script, st.Convention, r.Explain(), conv, f.hint)}
			case st.ExitStatus:
				return originalJudgment{err: NotReproduced("the %s does not fail by the %s convention: %s%s", what, st.Convention, r.Explain(), f.hint)}
			}
		}
		if st.Reproduce != nil {
			for _, r := range runs {
				if r.TimedOut {
					return originalJudgment{err: NotReproduced("the %s did not finish within %s (--timeout)", what, f.timeout)}
				}
			}
			return originalJudgment{err: NotReproduced("the %s's output is not deterministic: two runs of it differ (%s); the runs must do the same every time, or --observe must compare only what does not change", what, detail)}
		}
		if len(runs) == c.OriginalRuns {
			first, _, _ := oracle.Classify(runs[0])
			return originalJudgment{err: NotReproduced("the failure is flaky: run twice, the %s first gave %s, then %s (%s%s); --repeat N and a lower --precision may help",
				what, first, o, detail, unlike(oracle, r))}
		}
		if detail != "" {
			detail = ": " + detail
		}
		if !r.TimedOut {
			detail += unlike(oracle, r)
		}
		advice := "--repeat N and a lower --precision may help"
		if r.TimedOut {
			// Cut off: its output is what it printed until then, which
			// may well be the failure's own.
			if rest, ok := strings.CutPrefix(detail, ": timed out"); ok {
				detail = fmt.Sprintf(": timed out after %s%s", f.timeout, rest)
			} else {
				detail = fmt.Sprintf(", timed out after %s%s", f.timeout, detail)
			}
			advice = "a busy machine slows runs down: give --timeout D longer than the original takes, or --repeat N"
		}
		return originalJudgment{err: NotReproduced("the failure is flaky: the %s failed in %d of %d runs (otherwise %s%s); %s",
			what, fails, len(runs), o, detail, advice)}
	}
	if o, ok := oracle.(*runner.SignatureOracle); ok && o.Want.Phase == runner.NotSetUp {
		// The tool never got to the code: that is how the command fails
		// where it runs, not a failure of what it tests.
		how := "run it there by hand, or, if this is the failure you are after, state it with --fail-on REGEX"
		if f.byName != "" {
			how = "it runs there because it names the input by its name, where the candidate is under that name. To run it here, where you typed it, write {} in the input's place: -- " + f.byName +
				" (or, if this is the failure you are after, state it with --fail-on REGEX)"
		}
		return originalJudgment{err: NotReproduced("the %s fails before anything is built or tested: %s could not start on it (%s). That is how the command fails %s, not a failure of the program; %s.\nThe run: %s",
			what, o.Want.Tool, o.Want.Message, f.where, how, runs[j.ref].Explain())}
	}
	j.oracle, j.fails = oracle, fails
	return j
}

// unlike says, for a flaky verdict, how a run that did not fail as the
// original did differs from the failure, part by part; "" when it
// passed or the oracle is not a signature.
func unlike(oracle runner.Oracle, r runner.Run) string {
	so, ok := oracle.(*runner.SignatureOracle)
	if !ok || r.Clean() {
		return ""
	}
	if d := runner.Extract(r).Diff(so.Want, so.Precision, so.QuotedAside); d != "" {
		return "; unlike the failure (" + so.Want.String() + "), " + d
	}
	return ""
}

func allTimedOut(runs []runner.Run) bool {
	for _, r := range runs {
		if !r.TimedOut {
			return false
		}
	}
	return true
}

// checkWrites compares the directory the tests run in, where wynot was
// started, with what it held before the original's runs: a test that
// writes there would step on another one running at the same time, so
// the tests then run one at a time, as they would in the user's shell.
func (s *Session) checkWrites(before runner.Footprint) {
	s.hereBefore = &before
	changed := s.testWrites(before)
	if len(changed) == 0 {
		return
	}
	s.saidWrites = true
	shown := shownPaths(changed)
	if s.Jobs > 1 {
		s.Jobs = 1
		s.Say("the test writes into %s, where it runs (%s): its tests run one at a time, so that no two write there at once (a --test SCRIPT runs in a private directory instead)", s.here, strings.Join(shown, ", "))
		return
	}
	s.Say("the test writes into %s, where it runs (%s)", s.here, strings.Join(shown, ", "))
}

// testWrites are the paths of here that changed since before, but for
// those wynot writes itself.
func (s *Session) testWrites(before runner.Footprint) []string {
	return slices.DeleteFunc(before.Changed(runner.TakeFootprint(s.here)), func(p string) bool {
		// What wynot writes itself is not the test's doing: its files,
		// and its directories with what they hold and the directories
		// made to hold them.
		abs := filepath.Join(s.here, p)
		if slices.ContainsFunc(s.ownDirs, func(d string) bool { return within(abs, d) || within(d, abs) }) {
			return true
		}
		fi, err := os.Stat(abs)
		return err == nil && slices.ContainsFunc(s.own, func(own os.FileInfo) bool { return os.SameFile(fi, own) })
	})
}

// within says that path is dir or lies in it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func shownPaths(changed []string) []string {
	if len(changed) > 3 {
		return append(changed[:3:3], fmt.Sprintf("and %d more", len(changed)-3))
	}
	return changed
}

// Own names files that wynot itself wrote where the tests run (a
// result, the original kept beside it), as they are now, and a
// directory of its own (its cache's) that may lie there: a change of
// theirs is not the test's doing (SayWritesDuring).
func (s *Session) Own(dir string, paths ...string) {
	for _, p := range paths {
		if fi, err := os.Stat(p); p != "" && err == nil {
			s.own = append(s.own, fi)
		}
	}
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			s.ownDirs = append(s.ownDirs, abs)
		}
	}
}

// SayWritesDuring says, after a search whose tests ran where wynot was
// started (where wynot wrote nothing but what Own names), which files
// the tests changed there: the original's runs did not (checkWrites),
// but candidates did, so a test saw what the ones before it left, and
// what was there is not kept.
func (s *Session) SayWritesDuring() {
	if s.hereBefore == nil || s.saidWrites {
		return
	}
	changed := s.testWrites(*s.hereBefore)
	if len(changed) == 0 {
		return
	}
	s.saidWrites = true
	s.Say("the tests changed files in %s, where they ran (%s): each test saw what the tests before it left there, and what those files held before is not kept; run the test on a copy of them (a --test SCRIPT that copies them first) for tests that do not depend on each other", s.here, strings.Join(shownPaths(changed), ", "))
}

// where says where the tests run, for messages about a test that cannot
// work there.
func (s *Session) where() string {
	if p, ok := s.tester.Executor.(runner.Placer); ok {
		return p.Where()
	}
	if d := s.tester.Command.Dir; d != "" {
		return "in " + d
	}
	if s.tester.InPlace {
		return "in the current directory"
	}
	return "in a private work directory (" + s.tester.Root() + "/w0)"
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
		return "output matches " + Shown(o.Re)
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
		return s.notPassing(ctx, c, what, rec)
	}
	return nil
}

// notPassing says how the passing side (what) did not pass in rec. It
// runs it once more: when that run passes, the runs disagree (the test
// is flaky), and the message says so and shows the run that did not
// pass (rec's own, when at hand); else it shows a run that did not pass.
func (s *Session) notPassing(ctx context.Context, c runner.Candidate, what string, rec runner.Test) error {
	flaky := rec.Flaky || slices.Contains(rec.Outcomes, dd.Pass)
	r, have := rec.Run, !rec.Cached && rec.Runs > 0
	if have {
		if o, _, err := s.tester.Oracle.Classify(r); err != nil || o == dd.Pass {
			have, flaky = false, flaky || err == nil // the last of several runs passed
		}
	}
	again, err := s.tester.Exec(ctx, c)
	if err != nil {
		return err
	}
	if o, _, err := s.tester.Oracle.Classify(again); err == nil && o == dd.Pass {
		flaky = true
	} else if !have {
		r, have = again, true
	}
	if !flaky {
		return NotReproduced("%s does not pass (%s): %s", what, rec.Outcome, r.Explain())
	}
	advice := "; try --repeat 3"
	if s.settings.Repeat > 1 {
		advice = "" // it was tried
	}
	if have {
		return NotReproduced("%s does not pass every time: its runs disagree (the test is flaky%s); a run that did not pass ended with %s", what, advice, r.Explain())
	}
	how := rec.Outcome.String()
	if rec.Detail != "" {
		how += " (" + rec.Detail + ")"
	}
	return NotReproduced("%s does not pass every time: its runs disagree (the test is flaky%s): one gave %s, and run again it passed", what, advice, how)
}
