package command

import (
	"time"

	"github.com/wynot/wynot/runner"
)

// Certainty is wynot's policy for what runs of a test that may be flaky
// must show before a result is certified: how the original failure is
// judged reproduced, how results and their removals are run again, and
// how far a flaky test is followed. Every command reads it through its
// session (Config.Certainty; DefaultCertainty when none is given), so
// that "certified 1-minimal" means one thing everywhere, and a change of
// policy is a change of this file.
type Certainty struct {
	// OriginalRuns is how many times the original runs first (TSE 2002
	// Axiom 4: the failure must reproduce). Under --repeat auto, when
	// they disagree, OriginalRetry more runs follow, and the failure
	// counts as reproduced, flaky, when at least ReproducedIf of all the
	// runs fail.
	OriginalRuns, OriginalRetry, ReproducedIf int
	// CalibrationLimit bounds the original's first runs when no
	// --timeout is given; the calibrated timeout is TimeoutFactor times
	// the slower of them, between MinTimeout and MaxTimeout.
	CalibrationLimit       time.Duration
	TimeoutFactor          int
	MinTimeout, MaxTimeout time.Duration
	// Patience: a confirmation that times out under the calibrated
	// timeout runs once more with this many times as long before it
	// counts (a machine busy meanwhile says nothing of its candidate).
	Patience int
	// AutoRepeat is how many times each test runs under --repeat auto
	// once the test has shown itself flaky, and how many times the final
	// result is confirmed.
	AutoRepeat int
	// MinAgreed is how many fresh runs of the original, the result and
	// its removals must have given the outcome seen before, with none
	// disagreeing, before a confirmation made while the test has shown
	// no flip stands: were the test's answers to flip at any rate ε,
	// three confirmations of a result that does not fail would all fail
	// and four other runs agree with probability at most ε³(1-ε)⁴ < 1%.
	// (A removal that fails passes its one recheck, with k other runs
	// agreeing, with probability at most ε(1-ε)^k ≤ 1/(e(k+1)): below 1%
	// from 36 runs, as with 32 removals rechecked; fewer removals give a
	// weaker bound, which more runs of every deterministic test would
	// buy.)
	MinAgreed int
	// MaxProbes is how many removals of a result are rechecked while the
	// test has not shown itself flaky (spread over the result).
	MaxProbes int
	// MaxSearches bounds the searches of a run: when a result's
	// 1-minimality does not hold up when rechecked (a flaky test), the
	// search goes on from it, with repetition, at most this many times
	// in all.
	MaxSearches int
	// Sequential decides, once the test has shown itself flaky under
	// --repeat auto, whether a result gives its outcome again and
	// whether a removal of it fails: a verdict is wrong with probability
	// at most AlphaFail or AlphaPass for a candidate that gives the other
	// outcome in at least half of its runs (for a flip rate below 1/2 and
	// any number of runs), and a decision that has not reached its
	// verdict in Budget runs leaves the result not certified.
	Sequential runner.Sequential
}

// DefaultCertainty is the policy of every command.
var DefaultCertainty = Certainty{
	OriginalRuns: 2, OriginalRetry: 3, ReproducedIf: 4,
	CalibrationLimit: 5 * time.Minute, TimeoutFactor: 10, MinTimeout: time.Second, MaxTimeout: 300 * time.Second,
	Patience:    3,
	AutoRepeat:  AutoRepeat,
	MinAgreed:   7,
	MaxProbes:   32,
	MaxSearches: 3,
	Sequential:  runner.Sequential{AlphaFail: 0.01, AlphaPass: 0.01, Budget: 200},
}

// AutoRepeat is DefaultCertainty's: how many times each test runs under
// --repeat auto once the test has shown itself flaky, and how many times
// the final result is confirmed.
const AutoRepeat = 3
