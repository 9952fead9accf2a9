package dd_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/dd/ddtest"
)

func TestPreconditionErrors(t *testing.T) {
	passAll := ddtest.NewOracle("1234", "false", "")
	failAll := ddtest.NewOracle("1234", "true", "")
	unresolvedAll := ddtest.NewOracle("1234", "1", "true")
	for _, c := range []struct {
		alg    dd.Algorithm
		oracle *ddtest.Oracle
		want   string // "notfailing", "notpassing" or "" (no error)
	}{
		{dd.Minimize, passAll, "notfailing"},
		{dd.Minimize, failAll, ""}, // ∅ fails: the minimum is ∅
		{dd.Minimize, unresolvedAll, "notfailing"},
		{dd.Maximize, passAll, ""}, // everything passes: the maximum is everything
		{dd.Maximize, failAll, "notpassing"},
		{dd.Isolate, passAll, "notfailing"},
		{dd.Isolate, failAll, "notpassing"},
		{dd.Isolate, unresolvedAll, "notpassing"},
		{dd.Interference, passAll, "notfailing"},
		{dd.Plus, failAll, "notpassing"},
	} {
		res, err := dd.Run(context.Background(), 4, c.oracle, dd.Options{Algorithm: c.alg})
		var nf *dd.NotFailingError
		var np *dd.NotPassingError
		switch c.want {
		case "notfailing":
			if !errors.As(err, &nf) {
				t.Errorf("%s: err = %v, want NotFailingError", c.alg, err)
			} else if !strings.Contains(err.Error(), "c✗ (all 4 changes)") {
				t.Errorf("%s: error %q does not name the configuration", c.alg, err)
			}
		case "notpassing":
			if !errors.As(err, &np) {
				t.Errorf("%s: err = %v, want NotPassingError", c.alg, err)
			} else if !strings.Contains(err.Error(), "∅") {
				t.Errorf("%s: error %q does not name the configuration", c.alg, err)
			}
		default:
			if err != nil || !res.Minimal {
				t.Errorf("%s: err = %v, minimal = %v", c.alg, err, res.Minimal)
			}
		}
	}
	res, _ := dd.Run(context.Background(), 4, failAll, dd.Options{Algorithm: dd.Minimize})
	if len(res.Fail) != 0 {
		t.Errorf("ddmin where ∅ fails returned %v, want ∅", res.Fail)
	}
}

// TestInterrupt: when the context ends, Run returns the best result so
// far, marked not minimal, with an error wrapping the context's error, and
// no test is running any more.
func TestInterrupt(t *testing.T) {
	for _, par := range []int{1, 3} {
		for _, alg := range []dd.Algorithm{dd.Minimize, dd.Isolate, dd.Interference, dd.Plus} {
			ctx, cancel := context.WithCancel(context.Background())
			var running, tests atomic.Int32
			o := ddtest.Func(func(c dd.Config) dd.Outcome {
				if c.Contains(10) && c.Contains(500) {
					return dd.Fail
				}
				return dd.Pass
			})
			tester := dd.TesterFunc(func(ctx context.Context, c dd.Config) dd.Outcome {
				running.Add(1)
				defer running.Add(-1)
				if tests.Add(1) == 12 {
					cancel()
				}
				return o.Outcome(c)
			})
			res, err := dd.Run(ctx, 1000, tester, dd.Options{Algorithm: alg, Parallel: par})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s par=%d: err = %v, want context.Canceled", alg, par, err)
			}
			if res.Minimal {
				t.Errorf("%s: interrupted result marked minimal", alg)
			}
			if running.Load() != 0 {
				t.Errorf("%s: %d tests still running after Run returned", alg, running.Load())
			}
			if o.Outcome(res.Fail) != dd.Fail {
				t.Errorf("%s: best result so far (%d changes) does not fail", alg, len(res.Fail))
			}
			if len(res.Fail) >= 1000 {
				t.Errorf("%s par=%d: no progress kept: %d changes", alg, par, len(res.Fail))
			}
			if !strings.Contains(err.Error(), "not minimal") {
				t.Errorf("error %q does not say the result is not minimal", err)
			}
			cancel()
		}
	}
}

func TestCacheAndNoCache(t *testing.T) {
	o := ddtest.NewOracle("12345678", "1&7&8", "(1|7|8) & !(1&7&8)")
	res, err := dd.Run(context.Background(), 8, o, dd.Options{Variant: dd.TSE})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.CacheHits != 10 || res.Stats.Tests != 19 || res.Stats.Lookups != 29 {
		t.Errorf("with cache: %+v", res.Stats)
	}
	calls := o.Calls()
	seen := map[string]bool{}
	for _, c := range calls {
		k := dd.Diagram(c, 8)
		if seen[k] {
			t.Errorf("configuration %s tested twice with the cache on", k)
		}
		seen[k] = true
	}
	o2 := ddtest.NewOracle("12345678", "1&7&8", "(1|7|8) & !(1&7&8)")
	res2, err := dd.Run(context.Background(), 8, o2, dd.Options{Variant: dd.TSE, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Stats.Tests != 29 || res2.Stats.CacheHits != 0 || !slices.Equal(res2.Fail, res.Fail) {
		t.Errorf("without cache: %+v, result %v", res2.Stats, res2.Fail)
	}
}

func TestPartitionHook(t *testing.T) {
	o := ddtest.NewOracle("12345678", "3", "")
	// Reverse each difference before cutting it: same result, other tests.
	rev := func(delta dd.Config, n int) []dd.Config {
		r := slices.Clone(delta)
		slices.Reverse(r)
		out := make([]dd.Config, n)
		k, m := len(r)/n, len(r)%n
		for i := range out {
			out[i] = r[i*k+min(i, m) : (i+1)*k+min(i+1, m)]
		}
		return out
	}
	rec := &ddtest.Recorder{}
	res, err := dd.Run(context.Background(), 8, o, dd.Options{Partition: rev, Observer: rec})
	if err != nil || !slices.Equal(res.Fail, dd.Config{2}) {
		t.Fatalf("result %v, %v", res.Fail, err)
	}
	if rec.Tested[2] != ". . . . 5 6 7 8 ✓" {
		t.Errorf("first subset tested %q, want the upper half first", rec.Tested[2])
	}
	bad := func(delta dd.Config, n int) []dd.Config { return []dd.Config{delta} }
	if _, err := dd.Run(context.Background(), 8, o, dd.Options{Partition: bad}); err == nil || !strings.Contains(err.Error(), "Partition") {
		t.Errorf("bad partition: err = %v", err)
	}
}

// TestObserverEvents: a sequential run reports Start first, every test as
// started then finished with consecutive numbers, and a Lookup for each
// outcome the algorithm takes.
func TestObserverEvents(t *testing.T) {
	o := ddtest.NewOracle("12345678", "7", "")
	var events []dd.Event
	res, err := dd.Run(context.Background(), 8, o, dd.Options{Algorithm: dd.Isolate, Observer: dd.ObserverFunc(func(e dd.Event) { events = append(events, e) })})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := events[0].(dd.Start); !ok {
		t.Fatalf("first event %T", events[0])
	}
	started, finished, lookups, steps := 0, 0, 0, 0
	for i, e := range events {
		switch e := e.(type) {
		case dd.TestStarted:
			started++
			if e.Test != started {
				t.Errorf("test numbered %d, want %d", e.Test, started)
			}
			if f, ok := events[i+1].(dd.TestFinished); !ok || f.Test != e.Test {
				t.Errorf("test %d not followed by its finish", e.Test)
			}
		case dd.TestFinished:
			finished++
		case dd.Lookup:
			lookups++
		case dd.Step:
			steps++
		}
	}
	if started != res.Stats.Tests || finished != started || lookups != res.Stats.Lookups || steps != res.Stats.Steps {
		t.Errorf("events: %d started, %d finished, %d lookups, %d steps; stats %+v", started, finished, lookups, steps, res.Stats)
	}
}

func TestLargeConfiguration(t *testing.T) {
	// 10⁶ changes, one of them failure-inducing: a binary search.
	const n = 1_000_000
	tester := dd.TesterFunc(func(_ context.Context, c dd.Config) dd.Outcome {
		if c.Contains(777_777) {
			return dd.Fail
		}
		return dd.Pass
	})
	for _, alg := range []dd.Algorithm{dd.Minimize, dd.Isolate} {
		res, err := dd.Run(context.Background(), n, tester, dd.Options{Algorithm: alg, Bisect: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Delta, dd.Config{777_777}) || res.Stats.Tests > 2*20+2 {
			t.Errorf("%s: Δ = %v after %d tests", alg, res.Delta, res.Stats.Tests)
		}
	}
}
