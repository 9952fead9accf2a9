package command

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/runner"
)

// Check is a result to run again at the end of a run, and the outcome it
// must give then.
type Check struct {
	Candidate runner.Candidate
	Want      dd.Outcome
	What      string // "the result", "the passing result", ...
}

// Confirm runs each check's candidate again, without the cache, and
// counts the runs as checks; a check that already held in this session
// (a command that confirms its candidates as it goes, as changes does,
// hands the one it ends with to Run, which confirms it) is not run
// again, unless it held before the test showed itself flaky and was not
// decided by certainty then. Under --repeat auto, while the test has
// shown no flip, each runs AutoRepeat times and holds when all runs give
// its outcome; once it has, the runs go on until certainty decides. With
// --repeat N, N times (at least AutoRepeat), decided as decide does;
// with --repeat 1, once. Confirm reports whether all held, says of each
// that did not how often it gave its outcome, and returns each check's
// last run.
func (s *Session) Confirm(ctx context.Context, checks ...Check) (bool, []runner.Run, error) {
	n := s.settings.Repeat
	if n != 1 {
		n = max(n, s.certainty.AutoRepeat)
	}
	ok := true
	var runs []runner.Run
	for _, c := range checks {
		if r, ok := s.heldBefore(c); ok {
			runs = append(runs, r)
			continue
		}
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
			s.hold(c, v.Run, certified)
			switch {
			case certified && agree == len(v.Outcomes):
				// The test flipped before, so every check is run
				// several times; one whose runs all agree is news
				// only the first time.
				if s.quietHeld() {
					continue
				}
				s.Say("run again %d times, as every check is since the test flipped, %s gave %s every time: the result holds (one that gives it in at most half of its runs gets there with at most %g%% chance); further checks that hold in every run are not listed", len(v.Outcomes), c.What, c.Want, s.certaintyPercent(c.Want))
			case certified:
				s.Say("run again, %s gave %s in %d of %d runs: the test is flaky, but the result holds (one that gives it in at most half of its runs gets there with at most %g%% chance)", c.What, c.Want, agree, len(v.Outcomes), s.certaintyPercent(c.Want))
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

// heldKey identifies a check: its candidate and the outcome it must give.
type heldKey struct {
	id   runner.Key
	want dd.Outcome
}

// heldCheck is a check that held: its last run, and whether certainty
// decided it (rather than runs made while the test had shown no flip).
type heldCheck struct {
	run       runner.Run
	certified bool
}

// hold records that check c held, with run its last run.
func (s *Session) hold(c Check, run runner.Run, certified bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held == nil {
		s.held = map[heldKey]heldCheck{}
	}
	s.held[heldKey{c.Candidate.Identity(), c.Want}] = heldCheck{run, certified}
}

// heldBefore returns the last run of check c if it held before and
// still stands: decided by certainty, or while the test has still shown
// no flip.
func (s *Session) heldBefore(c Check) (runner.Run, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.held[heldKey{c.Candidate.Identity(), c.Want}]
	if !ok || !h.certified && s.flaky != "" {
		return runner.Run{}, false
	}
	return h.run, true
}

// certaintyPercent is the bound, in percent, on a verdict of o that is
// wrong.
func (s *Session) certaintyPercent(o dd.Outcome) float64 {
	if o == dd.Fail {
		return s.certainty.Sequential.AlphaFail * 100
	}
	return s.certainty.Sequential.AlphaPass * 100
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
	seq := s.certainty.Sequential.Start()
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

// OneMinimal checks that every change of c is needed, as dd.OneMinimal
// does: each removed alone, the rest tested as it is, a removal that
// still fails taken out; for a search whose configurations were
// completed by resolution or grouped, which leaves that check to be
// made. test tests one configuration (through the session, or
// Predict); each test is numbered in the events and drawn in the report
// under name, as a search's are. What is left after removals that
// failed is for the caller to confirm (Session.Confirm) before it
// stands: it was tested once, as any configuration of a search.
func (s *Session) OneMinimal(ctx context.Context, name string, c dd.Config, test func(context.Context, dd.Config) (runner.Test, error)) (dd.Removals, error) {
	return dd.OneMinimal(ctx, c, func(ctx context.Context, c dd.Config) (dd.Outcome, error) {
		rec, err := test(ctx, c)
		if err != nil {
			return dd.Unresolved, err
		}
		s.mu.Lock()
		s.eventBase++
		n := s.eventBase
		s.mu.Unlock()
		ev := event(n, name, rec)
		s.eventLog.Write(ev)
		if s.Report != nil {
			ev.Changes = len(c)
			s.Report.Record(ev)
		}
		return rec.Outcome, nil
	}, s.Jobs)
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
	// Take, when set, makes the result the candidate, for the search to
	// go on from when it still fails: the search need not find it again.
	Take func()
}

// recheck tests the removals of a result again, without the cache,
// before the result is called 1-minimal. Under --repeat auto, while the
// test has shown no flip, each once (at most Certainty.MaxProbes of them, spread
// over them); once it has, or as soon as one of these runs fails, every
// removal is decided afresh by Certainty.Sequential. With --repeat N, each N times, decided by
// a clear majority. A removal that fails makes the result not 1-minimal;
// recheck says which ("" when none does), and gives it. A removal that
// certainty cannot decide leaves the result not certified (undecidedWhy).
func (s *Session) recheck(ctx context.Context, removals []Removal) (string, *Removal, error) {
	if s.settings.Repeat == 0 && s.flakiness() == "" {
		probes := removals
		if maxProbes := s.certainty.MaxProbes; len(removals) > maxProbes {
			// While the test has shown no flakiness, a sample of the
			// removals, spread over them, is enough to see whether it
			// answers the same when asked again; only then are all
			// asked, with repetition.
			probes = make([]Removal, maxProbes)
			for i := range probes {
				probes[i] = removals[i*len(removals)/maxProbes]
			}
		}
		found, r, err := s.recheckAll(ctx, probes)
		if err != nil || found != "" {
			return found, r, err
		}
		if s.flakiness() == "" {
			return "", nil, ctx.Err()
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

func (s *Session) recheckAll(ctx context.Context, removals []Removal) (string, *Removal, error) {
	var mu sync.Mutex
	found := ""
	var failing *Removal
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
				before, seen := s.tester.Known(r.Candidate)
				// Without a cache, what the search saw is not known: a
				// removal that fails is taken for one it saw not fail.
				sawOther := seen && before != dd.Fail || s.tester.Cache == nil
				v, err = s.decide(ctx, r.Candidate, 1, r.What)
				switch {
				case err != nil:
				case v.Outcome == dd.Fail && sawOther:
					// A removal the search saw not fail fails now: the
					// test is flaky; decide afresh, by Certainty.Sequential.
					s.noteFlaky(r.What + " failed when run again, where it did not before")
					v, decided, err = s.certify(ctx, r.Candidate, dd.Fail, r.What)
				case v.Outcome == dd.Fail:
					// The search never ran it (it took another way, or
					// predicted it): the result is not 1-minimal, and
					// nothing says the test is flaky.
					decided = true
				default:
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
				failing = &r
			}
		}()
	}
	wg.Wait()
	if found == "" && firstErr == nil {
		if why := s.undecidedWhy(); why != "" {
			return why, nil, nil
		}
	}
	return found, failing, firstErr
}

// quietHeld reports whether a certified check whose runs all agreed was
// said before; it records that one is being said now.
func (s *Session) quietHeld() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	said := s.saidHeld
	s.saidHeld = true
	return said
}
