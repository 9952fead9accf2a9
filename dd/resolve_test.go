package dd_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/wynot/wynot/dd"
)

// buildModel is a program whose changes depend on each other, like code
// changes do: change i builds only together with the changes deps[i]
// (a new function and its callers, a renamed field and its uses). A
// configuration that does not build is Unresolved; one that builds
// fails when it holds all of cause (one cause) or all of some set in
// causes (several).
type buildModel struct {
	n      int
	deps   [][]int
	causes [][]int
	// noise adds, with every resolution, these changes too, as build
	// messages that name a common identifier do: resolution finds what a
	// configuration needs and more.
	noise []int

	mu     sync.Mutex
	failed map[string]bool // configurations that failed in a test
}

func (m *buildModel) builds(c dd.Config) bool {
	for _, i := range c {
		for _, d := range m.deps[i] {
			if !c.Contains(d) {
				return false
			}
		}
	}
	return true
}

// Outcome is the outcome of c as it is, without resolution.
func (m *buildModel) Outcome(c dd.Config) dd.Outcome {
	if !m.builds(c) {
		return dd.Unresolved
	}
	for _, cause := range m.causes {
		if isSubset(cause, c) {
			return dd.Fail
		}
	}
	return dd.Pass
}

func (m *buildModel) Test(ctx context.Context, c dd.Config) dd.Outcome {
	o, _ := m.TestResolved(ctx, c)
	return o
}

// TestResolved is the failure-resolution loop: while c does not build,
// add the changes its present changes need (and the noise), and test
// again.
func (m *buildModel) TestResolved(_ context.Context, c dd.Config) (dd.Outcome, dd.Config) {
	cur := slices.Clone(c)
	for !m.builds(cur) {
		add := slices.Clone(m.noise)
		for _, i := range cur {
			add = append(add, m.deps[i]...)
		}
		cur = append(cur, add...)
		slices.Sort(cur)
		cur = slices.Compact(cur)
	}
	o := m.Outcome(cur)
	if o == dd.Fail {
		m.mu.Lock()
		m.failed[fmt.Sprint(cur)] = true
		m.mu.Unlock()
	}
	if slices.Equal(cur, c) {
		return o, nil
	}
	return o, cur
}

// closure is c with everything it needs.
func (m *buildModel) closure(c []int) dd.Config {
	in := map[int]bool{}
	var visit func(i int)
	visit = func(i int) {
		if in[i] {
			return
		}
		in[i] = true
		for _, d := range m.deps[i] {
			visit(d)
		}
	}
	for _, i := range c {
		visit(i)
	}
	var out dd.Config
	for i := range m.n {
		if in[i] {
			out = append(out, i)
		}
	}
	return out
}

// heldChecker checks the invariant of every algorithm: each
// configuration a step makes the one held as failing failed in a test.
func heldChecker(t *testing.T, m *buildModel, alg dd.Algorithm) dd.Observer {
	return dd.ObserverFunc(func(e dd.Event) {
		st, ok := e.(dd.Step)
		if !ok || st.Config == nil {
			return
		}
		if st.Rule != dd.ReduceToSubset && st.Rule != dd.ReduceToComplement && st.Rule != dd.FoundIn &&
			st.Rule != dd.TryAgain && st.Rule != dd.NothingLeft {
			return
		}
		if len(st.Config) == m.n {
			return // all changes: failed in the precondition check
		}
		m.mu.Lock()
		ok = m.failed[fmt.Sprint(st.Config)]
		m.mu.Unlock()
		if !ok {
			t.Errorf("%s: step %s holds %v as failing, which never failed in a test", alg, st.Rule, st.Config)
		}
	})
}

var resolvingAlgorithms = []dd.Algorithm{dd.Minimize, dd.Interference, dd.Plus}

// TestResolutionFindsCulpritItAdded is the case of a culprit reachable
// only through resolution: change 9 fails, and needs change 2 to build,
// which needs 3; every configuration with 9 but not 2 is unresolved, and
// resolution adds 2 and 3 (and, as noise, 5). ddmin's result is the
// culprit with what it needs, a configuration that failed as it is; the
// FSE algorithms name the failure-inducing change 9, whose test, with
// what resolution adds, fails (2 and 3 may stay applied as "safe"
// changes, or be named too, when interference splits them from 9).
// The noise is removed again, and no configuration is ever held as
// failing that did not fail in a test.
func TestResolutionFindsCulpritItAdded(t *testing.T) {
	for _, alg := range resolvingAlgorithms {
		m := &buildModel{n: 12, deps: make([][]int, 12), causes: [][]int{{9}}, noise: []int{5}, failed: map[string]bool{}}
		m.deps[9] = []int{2}
		m.deps[2] = []int{3}
		res, err := dd.Run(context.Background(), m.n, m, dd.Options{Algorithm: alg, Observer: heldChecker(t, m, alg)})
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		want := dd.Config{2, 3, 9}
		got := res.Fail
		if alg != dd.Minimize {
			got = m.closure(got)
		}
		if !slices.Equal(got, want) || !res.Fail.Contains(9) {
			t.Errorf("%s: found %v, want %v", alg, res.Fail, want)
		}
		if res.Stats.Resolved == 0 {
			t.Errorf("%s: no test was resolved", alg)
		}
	}
}

// TestResolutionCulpritOnlyInResolution reproduces the defect of
// crediting an outcome to a configuration that never ran: the left half
// {0..5} holds the changes 0 and 1, which need 7 (in the right half);
// resolution adds 7, and {0..5, 7} fails because of 7, not because of
// anything in the left half. Credited to {0..5}, the search would go on
// in the left half and report a change there; the culprit is 7.
func TestResolutionCulpritOnlyInResolution(t *testing.T) {
	for _, alg := range resolvingAlgorithms {
		m := &buildModel{n: 12, deps: make([][]int, 12), causes: [][]int{{7}}, failed: map[string]bool{}}
		m.deps[0] = []int{7}
		m.deps[1] = []int{7}
		res, err := dd.Run(context.Background(), m.n, m, dd.Options{Algorithm: alg, Observer: heldChecker(t, m, alg)})
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if want := (dd.Config{7}); !slices.Equal(res.Fail, want) {
			t.Errorf("%s: found %v, want %v", alg, res.Fail, want)
		}
	}
}

// TestResolutionRandomBuilds runs the three algorithms for changes on
// random dependency graphs and one random culprit. The invariant holds
// throughout; the result holds the culprit and fails when tested with
// what it needs. When the dependencies have no cycle and resolution adds
// only what is needed, ddmin's result is exactly the culprit's closure,
// the only 1-minimal failing configuration that builds. With cycles (a
// renamed field and its uses need each other) or noise, changes that
// resolution keeps adding back can stay: ddmin's result is then
// 1-minimal under resolution, since removing any one change either
// passes or is undone.
func TestResolutionRandomBuilds(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for k := range 1500 {
		n := 2 + rng.IntN(40)
		m := &buildModel{n: n, deps: make([][]int, n), failed: map[string]bool{}}
		acyclic := k%2 == 0
		for i := range n {
			for range rng.IntN(3) {
				if rng.IntN(3) == 0 {
					if !acyclic {
						m.deps[i] = append(m.deps[i], rng.IntN(n))
					} else if i > 0 {
						m.deps[i] = append(m.deps[i], rng.IntN(i))
					}
				}
			}
		}
		culprit := rng.IntN(n)
		m.causes = [][]int{{culprit}}
		if !acyclic && rng.IntN(2) == 0 {
			m.noise = []int{rng.IntN(n)}
		}
		for _, alg := range resolvingAlgorithms {
			res, err := dd.Run(context.Background(), n, m, dd.Options{Algorithm: alg, Parallel: 1 + rng.IntN(3), Observer: heldChecker(t, m, alg)})
			if err != nil {
				t.Fatalf("%s deps %v culprit %d: %v", alg, m.deps, culprit, err)
			}
			if !res.Fail.Contains(culprit) {
				t.Fatalf("%s deps %v noise %v culprit %d: found %v without the culprit", alg, m.deps, m.noise, culprit, res.Fail)
			}
			if o, _ := m.TestResolved(context.Background(), res.Fail); o != dd.Fail {
				t.Fatalf("%s deps %v culprit %d: result %v gives %s", alg, m.deps, culprit, res.Fail, o)
			}
			if alg != dd.Minimize {
				continue
			}
			if o := m.Outcome(res.Fail); o != dd.Fail {
				t.Fatalf("%s deps %v culprit %d: result %v is %s as it is", alg, m.deps, culprit, res.Fail, o)
			}
			if want := m.closure([]int{culprit}); acyclic && !slices.Equal(res.Fail, want) {
				t.Fatalf("%s deps %v culprit %d: found %v, want %v", alg, m.deps, culprit, res.Fail, want)
			}
			for k := range res.Fail {
				less := slices.Delete(slices.Clone(res.Fail), k, k+1)
				if o, tested := m.TestResolved(context.Background(), less); o == dd.Fail && (tested == nil || len(tested) < len(res.Fail)) {
					t.Fatalf("%s deps %v noise %v culprit %d: result %v is not 1-minimal: %v fails", alg, m.deps, m.noise, culprit, res.Fail, less)
				}
			}
		}
	}
}

// TestResolvingTesterContract: a ResolvingTester that reports a tested
// configuration that is not a superset of the one asked breaks the
// contract; its outcome cannot be credited and counts as Unresolved.
func TestResolvingTesterContract(t *testing.T) {
	bad := badResolver{}
	res, err := dd.Run(context.Background(), 8, bad, dd.Options{Algorithm: dd.Minimize})
	if err != nil {
		t.Fatal(err)
	}
	// Every candidate but the two checked at the start is unresolved:
	// nothing can be removed.
	if len(res.Fail) != 8 || res.Stats.Resolved != 0 || res.Stats.Unresolved == 0 {
		t.Fatalf("result %v, stats %+v", res.Fail, res.Stats)
	}
}

type badResolver struct{}

func (badResolver) Test(ctx context.Context, c dd.Config) dd.Outcome {
	o, _ := badResolver{}.TestResolved(ctx, c)
	return o
}

func (badResolver) TestResolved(_ context.Context, c dd.Config) (dd.Outcome, dd.Config) {
	switch len(c) {
	case 0:
		return dd.Pass, nil
	case 8:
		return dd.Fail, nil
	}
	return dd.Fail, dd.Config{0} // not a superset of c
}
