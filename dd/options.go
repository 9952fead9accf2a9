package dd

import (
	"context"
	"fmt"
)

// Algorithm selects one of the delta debugging algorithms of the papers (see the package documentation).
type Algorithm int

const (
	// Minimize is ddmin: the general dd procedure in mode "-" (Debugging
	// Book), TSE 2002 Fig. 5. It shrinks c✗ to a 1-minimal failing
	// configuration (Def. 10).
	Minimize Algorithm = iota
	// Maximize is ddmax: the general dd procedure in mode "+" (Debugging
	// Book; TSE 2002 footnote 15). It grows c✓ = ∅ to a 1-maximal passing
	// configuration.
	Maximize
	// Isolate is the general dd in mode "+-" (TSE 2002 Fig. 15): it
	// maximizes the passing and minimizes the failing configuration until
	// their difference is 1-minimal (Def. 15; Formal Definitions A.16).
	Isolate
	// Interference is FSE 1999 Algorithm 1 (there called dd): binary
	// search that, when neither half fails, searches both halves with the
	// other half applied, and so returns every change of a failure-inducing
	// combination.
	Interference
	// Plus is FSE 1999 Algorithm 2, dd+: Algorithm 1 extended for
	// unresolved outcomes by the rules found, interference, preference and
	// try again.
	Plus
)

var algorithmNames = [...]string{"ddmin", "ddmax", "dd", "dd-interference", "ddplus"}

// String returns the algorithm's short name: ddmin, ddmax, dd, dd-interference or ddplus.
func (a Algorithm) String() string {
	if a >= 0 && int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// minimizes and maximizes say which sides of the general dd move.
func (a Algorithm) minimizes() bool { return a == Minimize || a == Isolate }
func (a Algorithm) maximizes() bool { return a == Maximize || a == Isolate }

// Variant selects how the general dd procedure (Minimize, Maximize, Isolate)
// orders and chooses its tests. Both variants have the same rules and the
// same guarantees; they differ in which candidates they test.
type Variant int

const (
	// Book is the Debugging Book's dd: subsets are tested only at
	// granularity 2, complements at every granularity; for each subset
	// index the rules are tried in the order reduce to subset, increase to
	// complement, reduce to complement, increase to subset; the start index
	// rotates to the subset of the last reduction, so reductions spread
	// over the input.
	Book Variant = iota
	// TSE is the procedure exactly as TSE 2002 Fig. 5 and Fig. 15 define
	// it: subsets are tested at every granularity, each rule is tried for
	// every subset before the next rule (reduce to subset, increase to
	// complement, increase to subset, reduce to complement), always from
	// the first subset.
	TSE
)

// String returns "book" or "tse".
func (v Variant) String() string {
	switch v {
	case Book:
		return "book"
	case TSE:
		return "tse"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// MarshalText returns the variant's name.
func (v Variant) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a variant by name: "book" or "tse".
func (v *Variant) UnmarshalText(b []byte) error {
	switch string(b) {
	case "book":
		*v = Book
	case "tse":
		*v = TSE
	default:
		return fmt.Errorf("want book or tse")
	}
	return nil
}

// A Tester runs the test on a configuration (TSE 2002 Def. 6): it applies
// the changes in c to the passing run and reports the outcome. Test may be
// called from several goroutines at once when Options.Parallel > 1, never
// more than Parallel at a time. It must return promptly once ctx is done;
// the outcome it returns then is ignored. The configuration is only valid
// during the call.
type Tester interface {
	Test(ctx context.Context, c Config) Outcome
}

// A ResolvingTester is a Tester that may test more than it is asked.
// When a configuration cannot be tested as it is (FSE 1999 §5: a change
// needs changes that are not applied, so the program cannot be integrated
// or built), it may add the changes the configuration needs and test the
// larger configuration instead: the failure-resolution loop of FSE 1999
// §8, or changes known to depend on each other (§6, "grouping related
// changes"). TestResolved returns the outcome and the configuration it
// belongs to: c itself (or nil), or a sorted superset of c.
//
// The algorithms credit every outcome to the configuration actually
// tested. In particular, a failure found through resolution makes the
// larger configuration the failing one, so the changes resolution added
// can still be removed by later tests; the configuration asked for is
// never held as failing, since it never failed (invariant of every
// algorithm: each configuration held as failing failed in a real run).
// A larger configuration that passes counts as a pass of c: by
// monotony, the subset c of a passing configuration does not fail.
type ResolvingTester interface {
	Tester
	TestResolved(ctx context.Context, c Config) (o Outcome, tested Config)
}

// ResolvingTesterFunc adapts a function to a ResolvingTester.
type ResolvingTesterFunc func(ctx context.Context, c Config) (Outcome, Config)

// Test calls f(ctx, c) and returns its outcome.
func (f ResolvingTesterFunc) Test(ctx context.Context, c Config) Outcome {
	o, _ := f(ctx, c)
	return o
}

// TestResolved calls f(ctx, c).
func (f ResolvingTesterFunc) TestResolved(ctx context.Context, c Config) (Outcome, Config) {
	return f(ctx, c)
}

// TesterFunc adapts a function to a Tester.
type TesterFunc func(ctx context.Context, c Config) Outcome

// Test calls f(ctx, c).
func (f TesterFunc) Test(ctx context.Context, c Config) Outcome { return f(ctx, c) }

// A Predictor knows some outcomes without running the test (FSE 1999 §6,
// "Predicting test outcomes"), for instance because a configuration is
// known to be inconsistent. Predicted outcomes are used like tested ones and
// counted separately. Predict must be safe for concurrent use.
type Predictor interface {
	Predict(c Config) (o Outcome, ok bool)
}

// PredictorFunc adapts a function to a Predictor.
type PredictorFunc func(c Config) (Outcome, bool)

// Predict calls f(c).
func (f PredictorFunc) Predict(c Config) (Outcome, bool) { return f(c) }

// Ordered returns the predictor for totally ordered changes (FSE 1999
// Table 7): each change implies all earlier changes, so a configuration
// that is not a prefix {0, 1, ..., k-1} is predicted Unresolved. With it,
// dd+ over a version history acts as a binary search.
func Ordered() Predictor {
	return PredictorFunc(func(c Config) (Outcome, bool) {
		for j, i := range c {
			if i != j {
				return Unresolved, true
			}
		}
		return 0, false
	})
}

// Options configure a run. The zero value runs ddmin, Book variant,
// sequentially, with the outcome cache and nothing else.
type Options struct {
	// Algorithm selects the algorithm; the zero value is Minimize.
	Algorithm Algorithm

	// Variant selects the test order of Minimize, Maximize and Isolate;
	// the zero value is Book.
	Variant Variant

	// Bisect makes Isolate act on the first determinate outcome at
	// granularity 2: when c'✓ ∪ Δi fails it reduces to it, when it passes
	// it increases to it, without first testing the other half. Every
	// step then halves the difference with one test, which is the binary
	// search of TSE 2002 Proposition 18: ⌈log₂ |Δ|⌉ tests when no outcome
	// is unresolved. Without Bisect, both variants test both halves
	// before increasing (the rule order of Fig. 15), up to twice as many.
	Bisect bool

	// Parallel is the largest number of tests run at once. Values below 2
	// run every test in the caller's goroutine. With more, the candidates
	// of a step are tested ahead in the order the algorithm will look at
	// them; the algorithm still takes the candidate the sequential
	// algorithm would take, so results and decisions do not depend on
	// Parallel. Tests whose outcome is not needed are cancelled.
	Parallel int

	// NoCache turns off the outcome cache. Without it, a configuration is
	// tested at most once per run (TSE 2002 §3.2); turn it off only for a
	// test whose outcome may change between runs on purpose.
	NoCache bool

	// Monotone lets the engine answer from earlier outcomes (TSE 2002 §7):
	// a subset of a passing configuration passes, a superset of a failing
	// one fails. Inferred outcomes are counted separately. Only sound for
	// a monotone failure.
	Monotone bool

	// WatchMonotony keeps the tested outcomes as Monotone does, without
	// answering from them, to report a Contradiction when a configuration
	// fails inside one that passed, or passes around one that failed.
	// Where the failure is monotone (as FSE 1999 assumes of code
	// changes), that only happens when the test is flaky.
	WatchMonotony bool

	// Predict, when set, is asked before each test (FSE 1999 §6).
	Predict Predictor

	// Observer, when set, is told of every test and every step. Calls are
	// serialized; the observer need not be safe for concurrent use.
	Observer Observer

	// Start is the granularity the first step divides Δ into (at least 2,
	// at most |Δ|); zero means 2, as in the papers. Starting at |Δ| tests
	// every single change first: for a plan of a few changes of which
	// probably none can go (the transformations of one level of a deep
	// syntax tree), that takes |Δ| tests instead of the subsets and
	// complements of every granularity on the way. The result is
	// 1-minimal either way: the last step is at n = |Δ| (Prop. 11).
	Start int

	// Partition, when set, replaces the way the difference Δ is divided
	// into n subsets (TSE 2002 §8: "the implementation can choose how to
	// partition"). It must return n non-empty, pairwise disjoint subsets
	// whose union is delta; their elements may come in any order. The
	// default gives contiguous runs of sorted delta of sizes differing by
	// at most one, larger ones first.
	Partition func(delta Config, n int) []Config
}
