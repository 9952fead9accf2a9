package dd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Stats counts what a run did. Every lookup of an outcome by the algorithm
// is answered by exactly one of: a test (Tests less Discarded), the cache,
// the predictor or monotony.
type Stats struct {
	Tests      int // Tester calls that completed, including speculative ones
	Pass       int // of those, how many passed,
	Fail       int // failed,
	Unresolved int // or were unresolved
	Resolved   int // of those, how many a ResolvingTester ran on a larger configuration than asked
	Lookups    int // outcomes the algorithm took
	CacheHits  int // lookups answered by an earlier lookup of the same configuration
	Predicted  int // lookups answered by the Predictor
	Inferred   int // lookups answered by monotony
	Steps      int // rules applied

	Speculative int // tests started ahead of need (Parallel > 1)
	Discarded   int // speculative tests that completed but whose outcome was never taken
	Canceled    int // speculative tests stopped because their outcome was no longer needed
}

// Result is what a run found.
//
// For Minimize, Maximize and Isolate, Pass is the maximized passing
// configuration c'✓, Fail the minimized failing configuration c'✗, and
// Delta = Fail − Pass their difference (TSE 2002 §5.2). Minimize keeps
// Pass = ∅; Maximize keeps Fail = c✗.
//
// For Interference and Plus, Fail and Delta are the failure-inducing
// changes found (FSE 1999 Def. 4) and Pass is empty.
type Result struct {
	Algorithm Algorithm
	N         int // number of changes
	Pass      Config
	Fail      Config
	Delta     Config

	// Minimal is true when the algorithm ran to completion, so the result
	// carries its guarantee: a 1-minimal failing configuration (ddmin,
	// TSE Prop. 11), a 1-maximal passing one (ddmax), a 1-minimal
	// difference (dd, Prop. 16), or for the FSE algorithms a minimal
	// failure-inducing set when the changes are monotone, unambiguous and
	// consistent. It is false when the run was interrupted: the result is
	// then the best found so far.
	Minimal bool

	Stats Stats
}

// NotFailingError reports that the configuration expected to fail did
// not (Debugging Book NotFailingError; TSE 2002 Axiom 4).
type NotFailingError struct {
	Config  Config
	N       int
	Outcome Outcome
}

func (e *NotFailingError) Error() string {
	return fmt.Sprintf("dd: failing configuration %s does not fail: outcome %s", describe(e.Config, e.N), e.Outcome)
}

// NotPassingError reports that the configuration expected to pass did not
// (Debugging Book NotPassingError; TSE 2002 Axiom 4).
type NotPassingError struct {
	Config  Config
	N       int
	Outcome Outcome
}

func (e *NotPassingError) Error() string {
	return fmt.Sprintf("dd: passing configuration %s does not pass: outcome %s", describe(e.Config, e.N), e.Outcome)
}

// describe names a configuration briefly for messages.
func describe(c Config, n int) string {
	switch {
	case len(c) == 0:
		return "∅ (no changes)"
	case len(c) == n && n > 0 && c[0] == 0 && c[n-1] == n-1:
		return fmt.Sprintf("c✗ (all %d changes)", n)
	case len(c) <= 12:
		var b strings.Builder
		b.WriteByte('{')
		for i, x := range c {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(&b, x)
		}
		b.WriteByte('}')
		return b.String()
	}
	return fmt.Sprintf("{%d, %d, ..., %d} (%d changes)", c[0], c[1], c[len(c)-1], len(c))
}

// Run runs the algorithm of opts over the changes 0..n-1, taking outcomes
// from t. The passing configuration is ∅ and the failing one holds all n
// changes; Run checks both first (Debugging Book order: ∅ first) and
// returns a *NotPassingError or *NotFailingError if they do not hold where
// the algorithm needs them.
//
// When ctx ends, Run stops after the tests in flight return and reports
// the best result so far, with Minimal false, together with an error that
// wraps ctx.Err(). No Tester call is running when Run returns.
func Run(ctx context.Context, n int, t Tester, opts Options) (Result, error) {
	if n < 0 {
		return Result{}, fmt.Errorf("dd: negative number of changes %d", n)
	}
	if opts.Algorithm < Minimize || opts.Algorithm > Plus {
		return Result{}, fmt.Errorf("dd: unknown algorithm %d", int(opts.Algorithm))
	}
	if opts.Variant != Book && opts.Variant != TSE {
		return Result{}, fmt.Errorf("dd: unknown variant %d", int(opts.Variant))
	}
	e := newEngine(ctx, n, t, opts)
	e.emit(Start{Algorithm: opts.Algorithm, Variant: opts.Variant, N: n})
	res := Result{Algorithm: opts.Algorithm, N: n}
	var err error
	switch opts.Algorithm {
	case Interference, Plus:
		res.Fail, err = e.fse()
		res.Pass = Config{}
		res.Delta = res.Fail
	default:
		res.Pass, res.Fail, err = e.general()
		res.Delta = minus(Config{}, res.Fail, res.Pass)
	}
	res.Stats = e.finish()
	res.Minimal = err == nil
	var pe *partitionError
	if errors.As(err, &pe) {
		return res, err
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("dd: %s interrupted after %d tests, result not minimal: %w", opts.Algorithm, res.Stats.Tests, err)
	}
	return res, err
}

// partition divides delta into n subsets: by default contiguous runs of
// sizes differing by at most one, larger first (the Debugging Book's
// split); each returned subset is sorted.
func (e *engine) partition(delta Config, n int) ([]Config, error) {
	if e.opts.Partition == nil {
		return split(delta, n), nil
	}
	parts := e.opts.Partition(slices.Clone(delta), n)
	if len(parts) != n {
		return nil, &partitionError{fmt.Sprintf("returned %d subsets, want %d", len(parts), n)}
	}
	all := make(Config, 0, len(delta))
	out := make([]Config, n)
	for i, p := range parts {
		if len(p) == 0 {
			return nil, &partitionError{fmt.Sprintf("subset %d is empty", i)}
		}
		out[i] = slices.Sorted(slices.Values(p))
		all = append(all, p...)
	}
	slices.Sort(all)
	if !slices.Equal(all, delta) {
		return nil, &partitionError{"subsets are not a partition of the difference"}
	}
	return out, nil
}

type partitionError struct{ msg string }

func (e *partitionError) Error() string { return "dd: Partition " + e.msg }

// split is the default partition.
func split(delta Config, n int) []Config {
	k, m := len(delta)/n, len(delta)%n
	out := make([]Config, n)
	for i := range out {
		out[i] = delta[i*k+min(i, m) : (i+1)*k+min(i+1, m)]
	}
	return out
}
