package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/runner"
)

// calibrationLimit bounds the first runs of the original when no timeout
// is given; after stillRunning, wynot says that it is waiting.
const (
	calibrationLimit = 5 * time.Minute
	stillRunning     = 10 * time.Second
)

// checkOriginal runs the original candidate twice (TSE 2002 Axiom 4, and
// the Debugging Book's check_reproducibility), sets up the oracle from
// what it does, and calibrates the timeout. It returns the error a
// command should exit with when the failure does not reproduce.
func (s *Session) checkOriginal(ctx context.Context, orig runner.Candidate, what string) error {
	s.origWhat = what
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
	var before runner.Footprint
	if s.here != "" {
		before = runner.TakeFootprint(s.here)
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
			return &runner.RegexOracle{Re: s.settings.FailOn, Pass: s.settings.PassOn, Phase: runner.Extract(runs[0]).Phase}, nil
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
				conv := ""
				if s.settings.Convention == runner.CReduce && r.Exit > 0 && r.Exit != 125 && !r.TimedOut {
					conv = "\n(by the creduce convention, a script says that its candidate fails by exiting 0; one that exits non-zero on a failure follows git bisect's: give --convention bisect)"
				}
				return NotReproduced("the %s is not reproduced by %s (%s convention): %s%s%s", what, s.settings.Script, s.settings.Convention, r.Explain(), conv, hint)
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
	if o, ok := oracle.(*runner.SignatureOracle); ok && o.Want.Phase == runner.NotSetUp {
		// The tool never got to the code: that is how the command fails
		// where it runs, not a failure of what it tests.
		return NotReproduced("the %s fails before anything is built or tested: %s could not start on it (%s). That is how the command fails %s, not a failure of the program; run it there by hand, or, if this is the failure you are after, state it with --fail-on REGEX.\nThe run: %s",
			what, o.Want.Tool, o.Want.Message, s.where(), runs[0].Explain())
	}
	s.tester.Oracle = oracle
	s.Original = runs[0]
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
		d := max(runs[0].Duration, runs[1].Duration) * 10
		s.tester.Command.Timeout = min(max(d, time.Second), 300*time.Second).Round(100 * time.Millisecond)
		// A confirmation that times out under this timeout, calibrated
		// in a quiet moment, runs once more with three times as long
		// before it counts (its timeout says nothing of its candidate
		// on a machine busy meanwhile).
		s.tester.Patience = 3
	}
	// The search's first question is the original again: answer it.
	_, detail, _ := oracle.Classify(runs[0])
	return s.tester.Seed(orig, dd.Fail, detail)
}

// checkWrites compares the directory the tests run in, where wynot was
// started, with what it held before the original's runs: a test that
// writes there would step on another one running at the same time, so
// the tests then run one at a time, as they would in the user's shell.
func (s *Session) checkWrites(before runner.Footprint) {
	changed := before.Changed(runner.TakeFootprint(s.here))
	if len(changed) == 0 {
		return
	}
	shown := changed
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(changed)-3))
	}
	if s.Jobs > 1 {
		s.Jobs = 1
		s.Say("the test writes into %s, where it runs (%s): its tests run one at a time, so that no two write there at once (a --test SCRIPT runs in a private directory instead)", s.here, strings.Join(shown, ", "))
		return
	}
	s.Say("the test writes into %s, where it runs (%s)", s.here, strings.Join(shown, ", "))
}

// where says where the tests run, for messages about a test that cannot
// work there.
func (s *Session) where() string {
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
