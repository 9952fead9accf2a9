package runner

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wynot/wynot/dd"
)

// flipping is a test whose answer is truth except that, with probability
// p, it is the other one.
func flipping(rng *rand.Rand, truth dd.Outcome, p float64) dd.Outcome {
	if rng.Float64() >= p {
		return truth
	}
	if truth == dd.Fail {
		return dd.Pass
	}
	return dd.Fail
}

// decideFlipping decides one candidate of the given truth by rule, with
// runs flipping at rate p; flips and runs are what other decisions saw,
// and are updated with this one's runs once it is decided.
func decideFlipping(rng *rand.Rand, rule Sequential, truth dd.Outcome, p float64, flips, runs *int) (dd.Outcome, int) {
	seq := rule.Start()
	for {
		seq.Add(flipping(rng, truth, p), seq.Flip(*flips, *runs))
		if o, done := seq.Verdict(); done {
			*runs += seq.Runs
			*flips += min(seq.Fails, seq.Passes)
			return o, seq.Runs
		}
	}
}

// TestSequentialBound decides many candidates, failing and passing, at
// flip rates up to 0.4, and checks that the wrong verdicts each way stay
// under their bounds, and that a test that never flips is decided in the
// fewest runs the bound allows.
func TestSequentialBound(t *testing.T) {
	rule := Sequential{AlphaFail: 0.01, AlphaPass: 0.05, Budget: 400}
	const trials = 3000
	for _, p := range []float64{0, 0.1, 0.2, 0.3, 0.4} {
		for _, truth := range []dd.Outcome{dd.Fail, dd.Pass} {
			t.Run(fmt.Sprintf("p=%.1f/%s", p, truth), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(p*10), uint64(truth)))
				// The flip rate seen elsewhere: a history as a search
				// would have, with the test's real rate.
				flips, runs := int(p*200), 200
				wrong, undecided, total := 0, 0, 0
				for range trials {
					o, n := decideFlipping(rng, rule, truth, p, &flips, &runs)
					total += n
					switch o {
					case truth:
					case dd.Unresolved:
						undecided++
					default:
						wrong++
					}
				}
				alpha := rule.AlphaFail
				if truth == dd.Fail {
					alpha = rule.AlphaPass
				}
				t.Logf("flip rate %.1f, truly %s: %d wrong, %d undecided of %d, %.1f runs each", p, truth, wrong, undecided, trials, float64(total)/trials)
				if float64(wrong) > alpha*trials {
					t.Errorf("%d wrong verdicts of %d, more than the bound %.2f allows", wrong, trials, alpha)
				}
				if p == 0 && total != trials*7 && truth == dd.Fail {
					t.Errorf("a test that never flips took %d runs for %d verdicts, want 7 each", total, trials)
				}
			})
		}
	}
}

// TestSequentialUnknownRate checks the bound when the flip rate seen
// elsewhere is wrong: the bets are then poor, but a wrong verdict is
// still no more likely than the bound.
func TestSequentialUnknownRate(t *testing.T) {
	rule := Sequential{AlphaFail: 0.01, AlphaPass: 0.01, Budget: 300}
	rng := rand.New(rand.NewPCG(7, 8))
	const trials = 3000
	for _, c := range []struct{ real, seen float64 }{{0.4, 0.02}, {0.45, 0.45}, {0.1, 0.45}, {0.3, 0}} {
		wrong := 0
		for range trials {
			flips, runs := int(c.seen*1000), 1000
			if o, _ := decideFlipping(rng, rule, dd.Pass, c.real, &flips, &runs); o == dd.Fail {
				wrong++
			}
		}
		if float64(wrong) > rule.AlphaFail*trials {
			t.Errorf("flip rate %.2f, believed %.2f: %d of %d passing candidates called failing", c.real, c.seen, wrong, trials)
		}
	}
}

// TestSequentialHalf checks that a candidate as likely to fail as not is
// never decided within the bound's reach.
func TestSequentialHalf(t *testing.T) {
	rule := Sequential{AlphaFail: 0.01, AlphaPass: 0.01, Budget: 200}
	rng := rand.New(rand.NewPCG(3, 4))
	decided := 0
	const trials = 2000
	for range trials {
		flips, runs := 0, 0
		if o, _ := decideFlipping(rng, rule, dd.Pass, 0.5, &flips, &runs); o != dd.Unresolved {
			decided++
		}
	}
	if float64(decided) > 0.02*trials {
		t.Errorf("a coin toss was decided %d times of %d", decided, trials)
	}
}
