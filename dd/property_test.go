package dd_test

import (
	"context"
	"fmt"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/dd/ddtest"
)

// sized is full, or under -short a tenth of it: the property tests
// check the same properties on fewer random oracles.
func sized(full int) int {
	if testing.Short() {
		return full / 10
	}
	return full
}

// randomOracle is a test over n changes with outcome rules drawn at random:
//
//   - monotone: it fails iff the configuration holds one of a few random
//     "causes" (sets of 1-3 changes); other configurations pass, or are
//     unresolved with probability pUnres (decided by a hash of the
//     configuration, so the same configuration always gets the same
//     outcome);
//   - arbitrary: every configuration gets a random outcome.
//
// Either way ∅ passes and the full configuration fails.
type randomOracle struct {
	n        int
	monotone bool
	causes   []dd.Config
	pUnres   float64
	pFail    float64
	seed     maphash.Seed
}

func (o *randomOracle) String() string {
	return fmt.Sprintf("n=%d monotone=%v causes=%v unresolved=%.2f", o.n, o.monotone, o.causes, o.pUnres)
}

func newRandomOracle(rng *rand.Rand, monotone bool) *randomOracle {
	o := &randomOracle{n: 1 + rng.IntN(24), monotone: monotone, seed: maphash.MakeSeed()}
	if rng.IntN(3) > 0 {
		o.pUnres = rng.Float64() * 0.6
	}
	o.pFail = 0.1 + rng.Float64()*0.4
	for range 1 + rng.IntN(3) {
		k := 1 + rng.IntN(min(3, o.n))
		cause := dd.Config(rng.Perm(o.n)[:k])
		slices.Sort(cause)
		o.causes = append(o.causes, cause)
	}
	return o
}

func (o *randomOracle) coin(c dd.Config, salt uint64) float64 {
	var h maphash.Hash
	h.SetSeed(o.seed)
	for _, x := range c {
		h.WriteByte(byte(x))
	}
	h.WriteByte(byte(salt))
	return float64(h.Sum64()>>11) / (1 << 53)
}

func (o *randomOracle) Outcome(c dd.Config) dd.Outcome {
	switch len(c) {
	case 0:
		return dd.Pass
	case o.n:
		return dd.Fail
	}
	if o.monotone {
		for _, cause := range o.causes {
			if isSubset(cause, c) {
				return dd.Fail
			}
		}
		if o.coin(c, 1) < o.pUnres {
			return dd.Unresolved
		}
		return dd.Pass
	}
	switch r := o.coin(c, 2); {
	case r < o.pUnres:
		return dd.Unresolved
	case r < o.pUnres+o.pFail*(1-o.pUnres):
		return dd.Fail
	}
	return dd.Pass
}

func (o *randomOracle) Test(_ context.Context, c dd.Config) dd.Outcome { return o.Outcome(c) }

func isSubset(a, b dd.Config) bool {
	for _, x := range a {
		if !b.Contains(x) {
			return false
		}
	}
	return true
}

func log2ceil(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// TestPropertiesRandomOracles runs every algorithm of the general dd on
// thousands of random oracles, monotone and not, with and without
// unresolved outcomes, and checks what the papers prove: ddmin results fail
// and are 1-minimal (Prop. 11), ddmax results pass and are 1-maximal, dd
// differences are 1-minimal (Prop. 16, Def. A.16), and test counts stay
// within the worst-case bounds (Prop. 12: n² + 3n; Formal Definitions
// A.18: |Δ|² + 7|Δ|), plus the two precondition tests.
func TestPropertiesRandomOracles(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	runs := 0
	for k := range sized(3000) {
		o := newRandomOracle(rng, k%2 == 0)
		for _, variant := range []dd.Variant{dd.Book, dd.TSE} {
			for _, alg := range []dd.Algorithm{dd.Minimize, dd.Maximize, dd.Isolate} {
				for _, bisect := range []bool{false, true} {
					if bisect && alg != dd.Isolate {
						continue
					}
					// Every other oracle starts at a random granularity.
					start := 0
					if k%4 >= 2 {
						start = rng.IntN(o.n + 2)
					}
					opts := dd.Options{Algorithm: alg, Variant: variant, Bisect: bisect, Start: start}
					res, err := dd.Run(context.Background(), o.n, o, opts)
					if err != nil {
						t.Fatalf("%v %v: %v", o, opts, err)
					}
					runs++
					n := o.n
					var bound int
					switch alg {
					case dd.Minimize:
						err = ddtest.OneMinimal(o, res.Fail)
						bound = n*n + 3*n + 2
					case dd.Maximize:
						err = ddtest.OneMaximal(o, res.Pass, n)
						bound = n*n + 7*n + 2
					case dd.Isolate:
						err = ddtest.OneMinimalDiff(o, res.Pass, res.Fail)
						bound = n*n + 7*n + 2
					}
					if err != nil {
						t.Fatalf("%v %s/%s bisect=%v: %v", o, alg, variant, bisect, err)
					}
					if res.Stats.Tests > bound {
						t.Fatalf("%v %s/%s: %d tests, bound %d", o, alg, variant, res.Stats.Tests, bound)
					}
					if !res.Minimal {
						t.Fatalf("%v: not marked minimal", o)
					}
				}
			}
		}
	}
	t.Logf("%d runs", runs)
}

// TestIsolateDeterminate checks Proposition 18 and Corollary 19: when no
// outcome is unresolved, dd returns a difference of one change, with at
// most ⌈log₂ n⌉ tests in Bisect mode (one test halves the difference) and
// at most twice that in the figure order, plus the two precondition tests.
func TestIsolateDeterminate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range sized(2000) {
		o := newRandomOracle(rng, rng.IntN(2) == 0)
		o.pUnres = 0
		o.n = 2 + rng.IntN(2000)
		for i := range o.causes {
			o.causes[i] = dd.Config{rng.IntN(o.n)}
		}
		for _, variant := range []dd.Variant{dd.Book, dd.TSE} {
			for _, bisect := range []bool{false, true} {
				res, err := dd.Run(context.Background(), o.n, o, dd.Options{Algorithm: dd.Isolate, Variant: variant, Bisect: bisect})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Delta) != 1 {
					t.Fatalf("%v %s bisect=%v: |Δ| = %d, want 1", o, variant, bisect, len(res.Delta))
				}
				bound := log2ceil(o.n) + 2
				if !bisect {
					bound = 2*log2ceil(o.n) + 2
				}
				if res.Stats.Tests > bound {
					t.Fatalf("%v %s bisect=%v: %d tests, want at most %d", o, variant, bisect, res.Stats.Tests, bound)
				}
			}
		}
	}
}

// TestFSEAlgorithmsFindCauses: on monotone, unambiguous and consistent
// changes (one cause, no unresolved outcome), Algorithms 1 and 2 return
// exactly the changes of the cause (FSE 1999 §4: a minimal failure-inducing
// set), in at most about two tests per change of the cause per level.
func TestFSEAlgorithmsFindCauses(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 3000 {
		n := 1 + rng.IntN(64)
		cause := dd.Config(rng.Perm(n)[:1+rng.IntN(min(n, 4))])
		slices.Sort(cause)
		o := ddtest.Func(func(c dd.Config) dd.Outcome {
			if isSubset(cause, c) {
				return dd.Fail
			}
			return dd.Pass
		})
		for _, alg := range []dd.Algorithm{dd.Interference, dd.Plus} {
			res, err := dd.Run(context.Background(), n, o, dd.Options{Algorithm: alg})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Fail, cause) {
				t.Fatalf("%s n=%d cause %v: found %v", alg, n, cause, res.Fail)
			}
			if bound := 2 + 2*len(cause)*(log2ceil(n)+1); alg == dd.Interference && res.Stats.Tests > bound {
				t.Fatalf("%s n=%d cause %v: %d tests, bound %d", alg, n, cause, res.Stats.Tests, bound)
			}
		}
	}
}

// TestFSEAlgorithmsArbitrary runs Algorithms 1 and 2 on arbitrary random
// outcomes: they must terminate with a subset of the changes.
func TestFSEAlgorithmsArbitrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 3000 {
		o := newRandomOracle(rng, rng.IntN(2) == 0)
		for _, alg := range []dd.Algorithm{dd.Interference, dd.Plus} {
			res, err := dd.Run(context.Background(), o.n, o, dd.Options{Algorithm: alg})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range res.Fail {
				if x < 0 || x >= o.n {
					t.Fatalf("%v: result %v out of range", o, res.Fail)
				}
			}
			if !slices.IsSorted(res.Fail) {
				t.Fatalf("%v: result %v not sorted", o, res.Fail)
			}
		}
	}
}

// TestMonotonyInference: with Monotone on a monotone oracle, results are
// the same as without, and some lookups are answered without a test.
func TestMonotonyInference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inferred := 0
	for range 500 {
		o := newRandomOracle(rng, true)
		for _, alg := range []dd.Algorithm{dd.Minimize, dd.Isolate} {
			plain, err := dd.Run(context.Background(), o.n, o, dd.Options{Algorithm: alg, Variant: dd.TSE})
			if err != nil {
				t.Fatal(err)
			}
			mono, err := dd.Run(context.Background(), o.n, o, dd.Options{Algorithm: alg, Variant: dd.TSE, Monotone: true})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plain.Fail, mono.Fail) || !slices.Equal(plain.Pass, mono.Pass) {
				t.Fatalf("%v %s: monotony changed the result %v/%v to %v/%v", o, alg, plain.Pass, plain.Fail, mono.Pass, mono.Fail)
			}
			if mono.Stats.Tests+mono.Stats.Inferred != plain.Stats.Tests {
				t.Fatalf("%v %s: %d tests + %d inferred, without monotony %d tests", o, alg, mono.Stats.Tests, mono.Stats.Inferred, plain.Stats.Tests)
			}
			inferred += mono.Stats.Inferred
		}
	}
	if inferred == 0 {
		t.Error("monotony never inferred an outcome")
	}
}

// slowOracle yields the processor a random number of times in each test
// (and now and then sleeps) so that parallel tests finish in a shuffled
// order.
type slowOracle struct {
	*randomOracle
}

func (o slowOracle) Test(ctx context.Context, c dd.Config) dd.Outcome {
	for range rand.IntN(50) {
		if ctx.Err() != nil {
			break
		}
		runtime.Gosched()
	}
	if rand.IntN(20) == 0 {
		time.Sleep(50 * time.Microsecond)
	}
	return o.Outcome(c)
}

// TestParallelSameDecisions: with several tests in flight, every algorithm
// takes the same steps, looks up the same configurations in the same
// order, and returns the same result as with one. Run under -race.
func TestParallelSameDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for k := range sized(300) {
		o := slowOracle{newRandomOracle(rng, k%2 == 0)}
		for _, alg := range []dd.Algorithm{dd.Minimize, dd.Maximize, dd.Isolate, dd.Interference, dd.Plus} {
			for _, variant := range []dd.Variant{dd.Book, dd.TSE} {
				var want []string
				var wantRes dd.Result
				for _, par := range []int{1, 2, 4} {
					rec := &ddtest.Recorder{}
					opts := dd.Options{Algorithm: alg, Variant: variant, Parallel: par, Observer: rec, Monotone: k%4 == 0, Bisect: k%3 == 0}
					res, err := dd.Run(context.Background(), o.n, o, opts)
					if err != nil {
						t.Fatal(err)
					}
					got := append(rec.Steps, rec.Rows...)
					if par == 1 {
						want, wantRes = got, res
						continue
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%v %s/%s: with %d workers the run differs:\n%q\nwant\n%q", o, alg, variant, par, got, want)
					}
					if !slices.Equal(res.Fail, wantRes.Fail) || !slices.Equal(res.Pass, wantRes.Pass) {
						t.Fatalf("%v %s: result differs with %d workers", o, alg, par)
					}
					if s := res.Stats; s.Lookups != wantRes.Stats.Lookups || s.CacheHits != wantRes.Stats.CacheHits ||
						s.Tests-s.Discarded != wantRes.Stats.Tests {
						t.Fatalf("%v %s: stats %+v with %d workers, %+v with 1", o, alg, s, par, wantRes.Stats)
					}
				}
			}
		}
	}
}

// TestStartAtSingleChanges: when every change is needed, starting at
// n = |Δ| costs one test per change (each left out once), against the
// subsets and complements of every granularity from 2 on.
func TestStartAtSingleChanges(t *testing.T) {
	const n = 8
	allNeeded := dd.TesterFunc(func(_ context.Context, c dd.Config) dd.Outcome {
		if len(c) == n {
			return dd.Fail
		}
		return dd.Pass
	})
	from2, err := dd.Run(context.Background(), n, allNeeded, dd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromN, err := dd.Run(context.Background(), n, allNeeded, dd.Options{Start: n})
	if err != nil {
		t.Fatal(err)
	}
	if len(fromN.Fail) != n || !fromN.Minimal || len(from2.Fail) != n {
		t.Fatalf("results %v, %v", from2.Fail, fromN.Fail)
	}
	// The two preconditions, then the n complements.
	if fromN.Stats.Tests != n+2 || from2.Stats.Tests <= fromN.Stats.Tests {
		t.Errorf("from n = 2: %d tests; from n = |Δ|: %d, want %d", from2.Stats.Tests, fromN.Stats.Tests, n+2)
	}
}
