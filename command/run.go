package command

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// A Job is one command's part of a run: what the run starts from, how it
// searches and what it found. Run does the rest, the same way for every
// command.
type Job interface {
	// Begin says what the run starts from. It is called once the session
	// is open.
	Begin() Begin
	// Search searches, once the failing original failed twice and the
	// passing side passed, keeping its best result where the user finds
	// it as it goes. It says what it found; the error ends the run (the
	// context's error when it is interrupted).
	Search(ctx context.Context, s *Session) (Found, error)
	// Close fills in the command's part of the summary (the common part
	// is filled in) and says what to tell the user at the end.
	Close(sum *report.Summary, end End) Closing
}

// A Restarter is a job that can go back to where it began: when the
// test shows itself flaky only in the final confirmation, the search
// starts over from the original, with repetition, instead of ending
// without a result.
type Restarter interface {
	Restart() error
}

// Begin is what a run starts from.
type Begin struct {
	// Failing is the failing original and What names it ("original
	// input"); it must fail twice, which sets up the oracle (TSE 2002
	// Axiom 4).
	Failing runner.Candidate
	What    string
	// Passing, when set, must pass (isolation); PassingWhat names it.
	Passing     *runner.Candidate
	PassingWhat string
	// Size is the size the progress line starts from, Unit what it
	// counts ("" for bytes).
	Size int
	Unit string
	// Algorithm names the search for the summary ("ddmin", "dd", ...).
	Algorithm string
	// Empty, when set, is the smallest candidate the search could reach
	// (the empty input, the command without arguments) and EmptyWhat
	// names it: it is tested before the search, and when it fails as the
	// original does the test cannot tell inputs apart and the run stops
	// (ExitIndistinct) instead of calling it a result.
	Empty     *runner.Candidate
	EmptyWhat string
}

// Found is what a search found.
type Found struct {
	// Minimal says that the search completed and certifies its result
	// (1-minimal, or as the command defines it).
	Minimal bool
	// Confirm are the results to run once more, without the cache, when
	// the search ended: the run is confirmed when each gives its outcome
	// again. A result the command confirmed itself as it searched (with
	// Session.Confirm, as wynot changes does for each candidate patch) is
	// listed too: it is not run again unless the test has shown itself
	// flaky since. With none, the run is not confirmed.
	Confirm []Check
	// Removals, when the result claims to be 1-minimal, are the result
	// with one change less each; they are tested again before the claim
	// is made (unless --repeat 1 says the test is deterministic). A job
	// that gives none cannot be certified once the test shows itself
	// flaky.
	Removals []Removal
	// Kept says what an interrupted run leaves ("the smallest failing
	// input so far is kept").
	Kept string
}

// End is how a run ended, for the closing words.
type End struct {
	Minimal     bool // the search completed and certified its result
	Confirmed   bool // the result behaved the same when run again
	Interrupted bool
}

// Closing is what a run tells the user at the end, and the exit it calls
// for. The lines are written to standard error, each after "wynot: ", in
// the order of the fields; Text is written as it is.
type Closing struct {
	Head []string // what was found
	Text string   // the result itself: a diff, a patch, values
	// Verdict says what is certified of the result (1-minimal, or not).
	Verdict []string
	Tail    []string // where the result is
	// Page makes what the HTML report shows besides the tests; it is
	// called only when a report is asked for (it may diff large inputs).
	Page func() report.Page
	// Err is the error to exit with although the run ended (the result
	// could not be verified), or nil.
	Err error
}

// Run runs job in the session: the checks of the failing original and of
// the passing side, the search, the final confirmation, the summary and
// the closing lines. The summary is filled in as far as the run got,
// also when it returns an error.
func (s *Session) Run(ctx context.Context, job Job, sum *report.Summary) (page func() report.Page, err error) {
	b := job.Begin()
	sum.Algorithm, sum.Unit = b.Algorithm, b.Unit
	if sum.Unit == "" {
		sum.Unit = "bytes"
	}
	var found Found
	searched, confirmed, notMinimal := false, false, ""
	defer func() {
		interrupted := ctx.Err() != nil
		if !searched {
			s.fill(sum, false, false, interrupted)
			if interrupted {
				err = interruptedBefore(s.Doing())
			}
			err = s.roomCause(err)
			return
		}
		flaky := s.flakiness()
		// A result is called minimal only when the search certified it,
		// it behaved the same when run again, and, once the test showed
		// itself flaky, its removals were rechecked; and neither when a
		// caveat says its failure may not be the original's.
		caveats := s.caveatList()
		minimal := found.Minimal && err == nil && !interrupted && notMinimal == "" && confirmed &&
			(flaky == "" || len(found.Removals) > 0) && len(caveats) == 0
		s.fill(sum, minimal, confirmed && len(caveats) == 0, interrupted)
		sum.Caveats = caveats
		c := job.Close(sum, End{Minimal: minimal, Confirmed: confirmed, Interrupted: interrupted})
		s.EndProgress()
		page = c.Page
		if (err == nil || interrupted) && !s.Quiet {
			s.tell(c, notMinimal, caveats)
		}
		switch {
		case interrupted && ExitCode(err) != ExitInterrupted || interrupted && errors.Is(err, context.Canceled):
			// The job's own word on what an interruption leaves stands.
			err = interruptedError(found.Kept)
		case err != nil && !interrupted && found.Kept != "":
			// A search that could not go on (the test can no longer be
			// started, the cluster is gone) leaves its best result too.
			err = fmt.Errorf("%w; %s", err, found.Kept)
		case err != nil:
		case c.Err != nil:
			err = c.Err
		case len(caveats) > 0:
			err = Unverified("the result is not certified: it may fail another way than the %s (above)", s.origWhat)
		case !confirmed && s.undecidedWhy() != "":
			err = Unverified("the result is not certified: %s%s", s.undecidedWhy(), flakyNote(flaky))
		case !confirmed:
			err = Unverified("the result did not behave the same when run again%s; the result is kept, but it is not certified", flakyNote(flaky))
		case notMinimal != "" && s.undecidedWhy() != "":
			err = Unverified("the result is not certified 1-minimal: %s%s", notMinimal, flakyNote(flaky))
		case notMinimal != "":
			err = Unverified("the result is not 1-minimal: %s%s", notMinimal, flakyNote(flaky))
		}
		if !interrupted {
			err = s.roomCause(err)
		}
		if n := s.tester.OutOfRoom(); err == nil && n > 0 && !s.Quiet {
			fmt.Fprintf(s.Stderr, "wynot: warning: %s; %s ran out of room there, and what they answered says nothing of their candidates: the result may be larger than it would be otherwise\n",
				noRoom(filepath.Dir(s.tester.Root())), report.Plural(int(n), "run")+" of the test")
		}
		if n := s.tester.Retimed(); n > 0 && !s.Quiet {
			fmt.Fprintf(s.Stderr, "wynot: %s timed out under the timeout calibrated on the original (%s) and ran again with %d times as long, which counted: the machine may have been busy (--timeout D sets the timeout)\n",
				report.Plural(int(n), "confirmation run"), s.Timeout(), s.tester.Patience)
		}
	}()
	if err := s.checkOriginal(ctx, b.Failing, b.What); err != nil {
		return page, err
	}
	sum.Signature = s.Signature()
	if b.Passing != nil && s.settings.Reproduce != nil {
		if err := s.referencePassing(ctx, *b.Passing, b.PassingWhat); err != nil {
			return page, err
		}
	}
	if b.Passing != nil {
		if err := s.checkPassing(ctx, *b.Passing, b.PassingWhat); err != nil {
			return page, err
		}
	}
	if b.Empty != nil {
		if err := s.checkEmpty(ctx, *b.Empty, b.EmptyWhat); err != nil {
			return page, err
		}
	}
	s.StartProgress(b.Size, b.Unit)
	searched = true
	for k := 1; ; k++ {
		notMinimal = ""
		found, err = job.Search(ctx, s)
		if err != nil || ctx.Err() != nil {
			return page, err
		}
		// Under --repeat auto, what is decided while the test has shown no
		// flip is decided again by certainty once it has.
		confirmLoose := s.settings.Repeat == 0 && s.flakiness() == ""
		confirmed = false
		if len(found.Confirm) > 0 {
			var runs []runner.Run
			if confirmed, runs, err = s.Confirm(ctx, found.Confirm...); err != nil {
				return page, err
			}
			for i, c := range found.Confirm {
				if c.Want == dd.Fail && i < len(runs) {
					if why := s.FailsOtherwise(c.What, runs[i]); why != "" {
						s.Caveat(why)
					}
				}
			}
			r, ok := job.(Restarter)
			if !confirmed && ok && k < s.certainty.MaxSearches && s.settings.Repeat == 0 && s.undecidedWhy() == "" {
				s.Say("the result did not behave the same when run again; searching again from the original, with every test run %d times", s.certainty.AutoRepeat)
				if err = r.Restart(); err != nil {
					return page, err
				}
				continue
			}
			if !confirmed {
				return page, nil
			}
		}
		if !found.Minimal || len(found.Removals) == 0 || s.settings.Repeat == 1 {
			if len(found.Confirm) > 0 && s.settings.Repeat == 0 {
				confirmed, err = s.confirmAgain(ctx, found.Confirm, confirmLoose)
			}
			return page, err
		}
		var failing *Removal
		notMinimal, failing, err = s.recheck(ctx, found.Removals)
		if err == nil && notMinimal == "" && len(found.Confirm) > 0 && s.settings.Repeat == 0 {
			confirmed, err = s.confirmAgain(ctx, found.Confirm, confirmLoose)
		}
		if err != nil || notMinimal == "" || !confirmed {
			return page, err
		}
		if k == s.certainty.MaxSearches || s.undecidedWhy() != "" {
			return page, nil
		}
		if failing != nil && failing.Take != nil {
			failing.Take()
			s.Say("the result is not 1-minimal after all: %s; searching on from that smaller input", notMinimal)
			continue
		}
		s.Say("the result is not 1-minimal after all: %s; searching on from it", notMinimal)
	}
}

// confirmAgain makes a confirmation under --repeat auto stand by the
// bound: one made while the test had shown no flip (loose) is made again
// by certainty if the test has flipped since; otherwise, while it still
// has not, the checks run again until Certainty.MinAgreed fresh runs in all
// agreed (a disagreement makes the test flaky, and the checks are
// decided by certainty).
func (s *Session) confirmAgain(ctx context.Context, checks []Check, loose bool) (bool, error) {
	if !loose {
		return true, nil
	}
	for i := 0; s.flakiness() == "" && s.agreedRuns() < s.certainty.MinAgreed && ctx.Err() == nil; i++ {
		c := checks[i%len(checks)]
		v, err := s.decide(ctx, c.Candidate, 1, c.What)
		if err != nil {
			return false, err
		}
		if v.Outcome == c.Want {
			s.count(func(*Stats) { s.agreed++ })
		} else {
			s.noteFlaky(fmt.Sprintf("run again, %s gave %s", c.What, v.Outcome))
		}
	}
	if s.flakiness() == "" {
		return true, ctx.Err()
	}
	ok, _, err := s.Confirm(ctx, checks...)
	return ok, err
}

// fill fills in the common part of the summary.
func (s *Session) fill(sum *report.Summary, minimal, confirmed, interrupted bool) {
	st := s.Stats()
	sum.Command = s.Name
	sum.Tests, sum.Runs, sum.Checks, sum.CacheHits, sum.Predicted, sum.Flaky, sum.Outcomes = st.Tests(), st.Runs, st.Checks, st.CacheHits, st.Predicted, st.Flaky, st.Outcomes
	sum.TimedOut = st.TimedOut
	sum.Minimal, sum.Confirmed, sum.Interrupted = minimal, confirmed, interrupted
	sum.Seconds = time.Since(s.start).Seconds()
}

// tell writes the closing lines; caveats come first, before any claim.
func (s *Session) tell(c Closing, notMinimal string, caveats []string) {
	say := func(lines []string) {
		for _, l := range lines {
			fmt.Fprintf(s.Stderr, "wynot: %s\n", l)
		}
	}
	for _, cv := range caveats {
		say([]string{"caution: " + cv})
	}
	say(c.Head)
	if n := s.Stats().TimedOut; n > 0 {
		say([]string{fmt.Sprintf("%d of them timed out (after %s, --timeout)", n, s.Timeout())})
	}
	fmt.Fprint(s.Stderr, c.Text)
	say(c.Verdict)
	switch {
	case notMinimal != "" && s.undecidedWhy() != "":
		say([]string{"not certified 1-minimal: " + notMinimal})
	case notMinimal != "":
		say([]string{"not 1-minimal: " + notMinimal})
	}
	say(c.Tail)
}

// flakyNote says why the test is known to be flaky, after a verdict
// that is not certified; nothing when no run showed it flaky (a
// deterministic program is never called flaky).
func flakyNote(why string) string {
	if why == "" {
		return ""
	}
	return "; the test is flaky (" + why + ")"
}
