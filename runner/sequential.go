package runner

import (
	"context"
	"math"

	"github.com/wynot/wynot/dd"
)

// Sequential decides the outcome of a candidate from fresh runs of a
// flaky test, one run at a time, with a stated bound on each wrong
// verdict. It is a sequential probability ratio test (Wald, "Sequential
// Tests of Statistical Hypotheses", 1945) of "the candidate fails in more
// than half of its runs" against the boundary "it fails in at most half",
// in the form of a test martingale (Ville's inequality): after each run,
// the evidence for Fail is multiplied by 2θ if the run failed and by
// 2(1-θ) if it did not, where θ, the chance of a failing run bet on, is
// fixed before the run from the flip rate observed so far. Whatever θ is,
// for a candidate that fails in at most half of its runs (a passing one
// under any flip rate up to 1/2) this product is a nonnegative
// supermartingale starting at 1, so it ever reaches 1/AlphaFail with
// probability at most AlphaFail; likewise for Pass. The flip rate only
// decides how many runs a verdict takes (about ln(1/α) / KL(1-ε ‖ 1/2)
// at flip rate ε; for a failing candidate and α = 1%, measured: 7 runs
// when the test never flips, 13 at 0.1, 25 at 0.2, 60 at 0.3, 220 at
// 0.4); the bound holds for every flip rate below 1/2. A
// sequence that reaches Budget runs without a verdict is undecided.
type Sequential struct {
	// AlphaFail bounds the chance of the verdict Fail for a candidate
	// that fails in at most half of its runs; AlphaPass the chance of
	// Pass for one that passes in at most half.
	AlphaFail, AlphaPass float64
	// Budget is the most runs a verdict may take.
	Budget int
}

// Sequence is one decision in progress: the runs so far and the evidence
// they give each way (as logarithms).
type Sequence struct {
	rule           Sequential
	Fails, Passes  int // runs that failed, that passed
	Runs           int // all runs, unresolved ones too
	logFail, logPs float64
}

// Start begins a decision by the rule.
func (q Sequential) Start() *Sequence { return &Sequence{rule: q} }

// Add records one run's outcome; flip is the flip rate estimated before
// the run (from other candidates' runs and this one's earlier runs,
// never from this run). Each side bets on its own outcome only while it
// leads or ties.
func (s *Sequence) Add(o dd.Outcome, flip float64) {
	theta := 1 - min(max(flip, minFlip), maxFlip)
	betFail, betPass := s.Fails >= s.Passes, s.Passes >= s.Fails
	win, lose := math.Log(2*theta), math.Log(2*(1-theta))
	if betFail {
		if o == dd.Fail {
			s.logFail += win
		} else {
			s.logFail += lose
		}
	}
	if betPass {
		if o == dd.Pass {
			s.logPs += win
		} else {
			s.logPs += lose
		}
	}
	s.Runs++
	switch o {
	case dd.Fail:
		s.Fails++
	case dd.Pass:
		s.Passes++
	}
}

// The flip rate a bet assumes stays within these bounds: a test that has
// not flipped yet may still flip, and at 1/2 a bet gains nothing.
const (
	minFlip = 0.02
	maxFlip = 0.45
)

// Verdict is the outcome decided so far: Fail or Pass with done set once
// the evidence for it reaches its bound; Unresolved with done set when
// the budget is spent without a verdict; done unset while more runs are
// needed.
func (s *Sequence) Verdict() (o dd.Outcome, done bool) {
	switch {
	case s.logFail >= math.Log(1/s.rule.AlphaFail):
		return dd.Fail, true
	case s.logPs >= math.Log(1/s.rule.AlphaPass):
		return dd.Pass, true
	case s.Runs >= s.rule.Budget:
		return dd.Unresolved, true
	}
	return dd.Unresolved, false
}

// Flip estimates the flip rate from flips of runs (runs that disagreed
// with the outcome of their candidate) seen elsewhere, and from this
// decision's runs so far (the fewer of its fails and passes), with one
// flip in three runs assumed before any run: it only sets the bets.
func (s *Sequence) Flip(flips, runs int) float64 {
	return float64(flips+min(s.Fails, s.Passes)+1) / float64(runs+s.Runs+3)
}

// Sequence runs c again and again without the cache (the executor's
// neither) and without calling OnTest, in one work directory, until more,
// called with each run's outcome and detail, says to stop. The Test's
// Outcomes and Details say what each run gave; its Outcome is the last
// run's.
func (t *Tester) Sequence(ctx context.Context, c Candidate, more func(dd.Outcome, string) bool) (Test, error) {
	rec := Test{Candidate: c}
	var slot string
	select {
	case slot = <-t.dirs:
	case <-ctx.Done():
		return rec, ctx.Err()
	}
	defer func() { t.dirs <- slot }()
	for {
		run, err := t.run(ctx, slot, c, true)
		rec.Run = run
		if err != nil {
			return rec, err
		}
		o, detail := dd.Unresolved, run.Lost
		if run.Lost == "" {
			if o, detail, err = t.Oracle.Classify(run); err != nil {
				return rec, err
			}
		}
		rec.Outcomes, rec.Details = append(rec.Outcomes, o), append(rec.Details, detail)
		rec.Outcome, rec.Detail, rec.Runs = o, detail, len(rec.Outcomes)
		if !more(o, detail) {
			return rec, nil
		}
	}
}
