// Package wynot finds the causes of failures automatically, by delta
// debugging ("worked yesterday, not today"). Given a test that reproduces a
// failure, it simplifies a failure-inducing input to a 1-minimal one
// (Minimize, ddmin), grows a passing part of it to a 1-maximal one
// (Maximize, ddmax), or isolates a 1-minimal failure-inducing difference
// between a passing and a failing input (Isolate, dd).
//
// The input is any slice; the test sees subsets of it, in the original
// order, and says whether the failure occurred:
//
//	res, err := wynot.Minimize(ctx, input, func(ctx context.Context, part []byte) wynot.Outcome {
//		if crashes(part) {
//			return wynot.Fail
//		}
//		return wynot.Pass
//	}, nil)
//
// Call does the same for the arguments of a failing call of a Go function,
// like the Debugging Book's DeltaDebugger. The algorithms themselves, with
// more knobs, are in package dd; the wynot command runs them on files and
// programs.
package wynot

import (
	"context"
	"fmt"
	"io"

	"github.com/wynot/wynot/dd"
)

// Outcome is the result of a test: Pass, Fail or Unresolved.
type Outcome = dd.Outcome

// The outcomes of a test.
const (
	Pass       = dd.Pass       // the failure did not occur
	Fail       = dd.Fail       // the failure occurred
	Unresolved = dd.Unresolved // the test could not tell (another failure, an invalid input, ...)
)

// Options tune a reduction. The zero value (or nil) is the Debugging Book's
// algorithm, one test at a time, with an outcome cache.
type Options struct {
	// Variant picks the test order of the algorithms: dd.Book (default)
	// or dd.TSE. See dd.Variant.
	Variant dd.Variant

	// Bisect makes Isolate a binary search when outcomes are determinate
	// (one test per halving). See dd.Options.Bisect.
	Bisect bool

	// Parallel is the most tests run at once; the test function must then
	// be safe for concurrent use. Results do not depend on it.
	Parallel int

	// NoCache tests a configuration again each time it comes up.
	NoCache bool

	// Monotone lets the algorithm infer outcomes: a part of a passing
	// input passes, anything containing a failing input fails.
	Monotone bool

	// Predict, when set, is asked before each test with the indices (into
	// the input) of the candidate; it may answer instead of the test.
	Predict func(indices []int) (Outcome, bool)

	// Observer is told of every test and every step of the algorithm.
	Observer dd.Observer

	// Partition replaces how a difference is divided into subsets. See
	// dd.Options.Partition.
	Partition func(delta dd.Config, n int) []dd.Config

	// Log, when set, receives one line per test run, in the Debugging
	// Book's format: "Test #3 <candidate>: FAIL (detail)".
	Log io.Writer
}

func (o *Options) dd(alg dd.Algorithm) dd.Options {
	if o == nil {
		return dd.Options{Algorithm: alg}
	}
	d := dd.Options{
		Algorithm: alg,
		Variant:   o.Variant,
		Bisect:    o.Bisect,
		Parallel:  o.Parallel,
		NoCache:   o.NoCache,
		Monotone:  o.Monotone,
		Observer:  o.Observer,
		Partition: o.Partition,
	}
	if o.Predict != nil {
		d.Predict = dd.PredictorFunc(func(c dd.Config) (Outcome, bool) { return o.Predict(c) })
	}
	return d
}

// Result is what a reduction found, as elements of the input and as
// indices into it.
type Result[T any] struct {
	// Pass is the maximized passing input c'✓ (empty for Minimize).
	Pass []T
	// Fail is the minimized failing input c'✗ (the whole input for Maximize).
	Fail []T
	// Delta is Fail without Pass: the failure-inducing difference.
	Delta []T

	// Minimal reports that the algorithm ran to completion, so Fail is
	// 1-minimal (Minimize), Pass 1-maximal (Maximize) or Delta 1-minimal
	// (Isolate). It is false when the context ended first; the result is
	// then the best one found so far.
	Minimal bool

	// Changes holds the same result as indices into the input, and the
	// statistics of the run.
	Changes dd.Result
}

// Minimize returns a 1-minimal part of input on which test still fails
// (ddmin; TSE 2002 Fig. 5, Debugging Book). The test must fail on input;
// otherwise the error is a *dd.NotFailingError.
//
// If ctx ends, Minimize returns the smallest failing input found so far,
// with Minimal false, and an error wrapping ctx.Err().
func Minimize[T any](ctx context.Context, input []T, test func(context.Context, []T) Outcome, opts *Options) (Result[T], error) {
	return run(ctx, dd.Minimize, input, test, opts)
}

// Maximize returns a 1-maximal part of input on which test passes (ddmax):
// adding any one more element of input makes it fail or unresolved. The
// test must pass on the empty input.
func Maximize[T any](ctx context.Context, input []T, test func(context.Context, []T) Outcome, opts *Options) (Result[T], error) {
	return run(ctx, dd.Maximize, input, test, opts)
}

// Isolate returns a passing and a failing part of input whose difference
// is 1-minimal (dd; TSE 2002 Fig. 15): adding any one element of Delta to
// Pass does not pass, removing any one from Fail does not fail. The test
// must pass on the empty input and fail on input.
func Isolate[T any](ctx context.Context, input []T, test func(context.Context, []T) Outcome, opts *Options) (Result[T], error) {
	return run(ctx, dd.Isolate, input, test, opts)
}

func run[T any](ctx context.Context, alg dd.Algorithm, input []T, test func(context.Context, []T) Outcome, opts *Options) (Result[T], error) {
	pick := func(c dd.Config) []T {
		out := make([]T, len(c))
		for i, x := range c {
			out[i] = input[x]
		}
		return out
	}
	t := dd.TesterFunc(func(ctx context.Context, c dd.Config) Outcome { return test(ctx, pick(c)) })
	o := opts.dd(alg)
	if opts != nil && opts.Log != nil {
		o.Observer = logObserver(opts.Log, o.Observer, func(c dd.Config) string { return fmt.Sprintf("%v", pick(c)) }, nil)
	}
	res, err := dd.Run(ctx, len(input), t, o)
	return Result[T]{Pass: pick(res.Pass), Fail: pick(res.Fail), Delta: pick(res.Delta), Minimal: res.Minimal, Changes: res}, err
}

// logObserver writes the Debugging Book's test log and passes events on
// to next. detail, if set, gives the text after a non-passing outcome.
func logObserver(w io.Writer, next dd.Observer, render func(dd.Config) string, detail func(dd.TestFinished) string) dd.Observer {
	return dd.ObserverFunc(func(e dd.Event) {
		if f, ok := e.(dd.TestFinished); ok && !f.Canceled {
			line := fmt.Sprintf("Test #%d %s: %s", f.Test, render(f.Config), f.Outcome)
			if detail != nil && f.Outcome != Pass {
				if d := detail(f); d != "" {
					line += " (" + d + ")"
				}
			}
			fmt.Fprintln(w, line)
		}
		if next != nil {
			next.Observe(e)
		}
	})
}
