package dd_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/dd/ddtest"
)

// exact adapts an Outcomer to OneMinimal's test.
func exact(o ddtest.Outcomer) func(context.Context, dd.Config) (dd.Outcome, error) {
	return func(_ context.Context, c dd.Config) (dd.Outcome, error) { return o.Outcome(c), nil }
}

// oneMinimalUpToUnresolved checks by brute force that c fails and that
// each of its single removals passes or is unresolved.
func oneMinimalUpToUnresolved(o ddtest.Outcomer, c dd.Config) error {
	if got := o.Outcome(c); got != dd.Fail {
		return fmt.Errorf("%v does not fail: %s", c, got)
	}
	for k := range c {
		if o.Outcome(slices.Delete(slices.Clone(c), k, k+1)) == dd.Fail {
			return fmt.Errorf("%v is not 1-minimal: without %d it still fails", c, c[k])
		}
	}
	return nil
}

// TestOneMinimalFormulas: formula oracles over named changes; the
// result, whatever the parallelism, is the one of testing the removals
// one at a time, and it is 1-minimal up to unresolved removals.
func TestOneMinimalFormulas(t *testing.T) {
	for _, c := range []struct {
		names, fail, unresolved string
		start                   string // the failing configuration to start from
		want                    string
		passed                  int
	}{
		// The culprit b with two changes nobody needs.
		{"abc", "b", "", "abc", "b", 1},
		// Two changes that fail together.
		{"abcd", "a & d", "", "abcd", "ad", 2},
		// d needs c to build: removing c alone does not build, which
		// does not count against the result.
		{"abcd", "d", "d & !c", "abcd", "cd", 1},
		// Two causes: the first removal that still fails is taken.
		{"abcd", "a | c", "", "abcd", "c", 1},
		// Already 1-minimal.
		{"abc", "a & c", "", "ac", "ac", 2},
	} {
		o := ddtest.NewOracle(c.names, c.fail, c.unresolved)
		var start dd.Config
		for _, r := range c.start {
			start = append(start, slices.Index(o.Names, string(r)))
		}
		for parallel := 1; parallel <= 4; parallel++ {
			r, err := dd.OneMinimal(context.Background(), start, exact(o), parallel)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, i := range r.Config {
				got += o.Names[i]
			}
			if got != c.want || !r.Done || r.Passed() != c.passed || len(r.Config)+len(r.Removed) != len(start) {
				t.Errorf("%s fail %q unresolved %q, -j%d: %q (done %v, %d passed, removed %v), want %q with %d passed",
					c.names, c.fail, c.unresolved, parallel, got, r.Done, r.Passed(), r.Removed, c.want, c.passed)
			}
			if err := oneMinimalUpToUnresolved(o, r.Config); err != nil {
				t.Errorf("%s fail %q: %v", c.names, c.fail, err)
			}
		}
	}
}

// TestOneMinimalStops: an error of the test ends the check, not Done.
func TestOneMinimalStops(t *testing.T) {
	boom := errors.New("boom")
	r, err := dd.OneMinimal(context.Background(), dd.Config{1, 2, 3}, func(context.Context, dd.Config) (dd.Outcome, error) {
		return dd.Unresolved, boom
	}, 2)
	if !errors.Is(err, boom) || r.Done || !slices.Equal(r.Config, dd.Config{1, 2, 3}) {
		t.Errorf("got %+v, %v", r, err)
	}
}

// staticResolver is the search's view of a build model: each
// configuration is completed with what a static analysis says its
// changes need (needs: the model's real dependencies and more, as an
// analysis that joins changes by name or by group joins some that do
// not need each other), then tested as it is.
type staticResolver struct {
	m     *buildModel
	needs [][]int
}

func (s staticResolver) closure(c dd.Config) dd.Config {
	in := map[int]bool{}
	stack := slices.Clone(c)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !in[i] {
			in[i] = true
			stack = append(stack, s.needs[i]...)
		}
	}
	out := dd.Config{}
	for i := range in {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

func (s staticResolver) Test(ctx context.Context, c dd.Config) dd.Outcome {
	o, _ := s.TestResolved(ctx, c)
	return o
}

func (s staticResolver) TestResolved(_ context.Context, c dd.Config) (dd.Outcome, dd.Config) {
	cur := s.closure(c)
	if len(cur) == len(c) {
		return s.m.Outcome(c), nil
	}
	return s.m.Outcome(cur), cur
}

// groupPartition partitions by a random grouping: changes are ordered by
// their group, then cut into n runs.
func groupPartition(group []int) func(dd.Config, int) []dd.Config {
	return func(delta dd.Config, n int) []dd.Config {
		order := slices.Clone(delta)
		sort.SliceStable(order, func(a, b int) bool { return group[order[a]] < group[order[b]] })
		var out []dd.Config
		for k := range n {
			part := slices.Clone(order[k*len(order)/n : (k+1)*len(order)/n])
			sort.Ints(part)
			out = append(out, part)
		}
		return out
	}
}

// TestOneMinimalAfterGroupedResolvedSearch: random dependency graphs,
// random static needs (the real ones and more) and random groupings.
// The search's result, completed with what it needs as the search tested
// it, is what a patch would be without the final check: often not
// 1-minimal. OneMinimal with exact tests makes every one 1-minimal up to
// unresolved removals, checked by brute force.
func TestOneMinimalAfterGroupedResolvedSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	notMinimal, cases := 0, 0
	for range 600 {
		n := 2 + rng.IntN(24)
		m := &buildModel{n: n, deps: make([][]int, n), failed: map[string]bool{}}
		needs := make([][]int, n)
		for i := range n {
			if rng.IntN(3) == 0 {
				d := rng.IntN(n)
				if d != i {
					m.deps[i] = append(m.deps[i], d)
				}
			}
			needs[i] = slices.Clone(m.deps[i])
			if rng.IntN(4) == 0 {
				needs[i] = append(needs[i], rng.IntN(n))
			}
		}
		cause := []int{rng.IntN(n)}
		if rng.IntN(2) == 0 {
			cause = append(cause, rng.IntN(n))
		}
		m.causes = [][]int{cause}
		group := make([]int, n)
		for i := range group {
			group[i] = rng.IntN(1 + n/3)
		}
		sr := staticResolver{m: m, needs: needs}
		if sr.Outcome(dd.All(n)) != dd.Fail || m.Outcome(dd.Config{}) != dd.Pass {
			continue
		}
		for _, alg := range resolvingAlgorithms {
			res, err := dd.Run(context.Background(), n, sr, dd.Options{Algorithm: alg, Partition: groupPartition(group), Parallel: 1 + rng.IntN(3)})
			if err != nil {
				t.Fatalf("%s: %v", alg, err)
			}
			// The patch as the search's result is confirmed: the result
			// tested with what it needs, if that fails.
			o, tested := sr.TestResolved(context.Background(), res.Fail)
			if o != dd.Fail {
				continue
			}
			patch := res.Fail
			if tested != nil {
				patch = tested
			}
			cases++
			if oneMinimalUpToUnresolved(m, patch) != nil {
				notMinimal++
			}
			r, err := dd.OneMinimal(context.Background(), patch, exact(m), 1+rng.IntN(3))
			if err != nil || !r.Done {
				t.Fatalf("%s: %v", alg, err)
			}
			if err := oneMinimalUpToUnresolved(m, r.Config); err != nil {
				t.Fatalf("%s deps %v needs %v cause %v groups %v: patch %v, then %v: %v", alg, m.deps, needs, cause, group, patch, r.Config, err)
			}
			if !isSubset(r.Config, patch) {
				t.Fatalf("%s: %v is not within %v", alg, r.Config, patch)
			}
		}
	}
	t.Logf("%d patches, %d of them not 1-minimal before the check", cases, notMinimal)
	if cases == 0 || notMinimal == 0 {
		t.Errorf("%d patches, %d not 1-minimal before the check: the models do not show the defect the check is for", cases, notMinimal)
	}
}

func (s staticResolver) Outcome(c dd.Config) dd.Outcome {
	o, _ := s.TestResolved(context.Background(), c)
	return o
}
