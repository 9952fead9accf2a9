package changes

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
)

// line is a history of n commits for span: the outcome of revision k is
// what outcome says, and hint is the prediction of which commits can
// change it.
type line struct {
	n       int
	outcome func(k int) dd.Outcome
	hint    func(k int) bool
	weight  func(k int) int
}

// monotone fails from revision culprit on; revisions in broken do not
// build.
func monotone(culprit int, broken map[int]bool) func(int) dd.Outcome {
	return func(k int) dd.Outcome {
		switch {
		case broken[k]:
			return dd.Unresolved
		case k >= culprit:
			return dd.Fail
		}
		return dd.Pass
	}
}

// search runs span to its end and returns the range, the revisions
// tested, and whether the presumed ends held.
func (h line) search(t *testing.T, presumed bool) (lo, hi int, tested map[int]bool, ok bool) {
	t.Helper()
	sp := newSpan(h.n, h.hint, !presumed)
	sp.weight = h.weight
	tested = map[int]bool{}
	if !presumed {
		tested[0], tested[h.n] = true, true
	}
	for steps := 0; ; steps++ {
		if steps > 2*h.n+4 {
			t.Fatalf("no end after %d tests", steps)
		}
		p := sp.next()
		if p < 0 {
			return sp.lo, sp.hi, tested, true
		}
		if p < sp.lo || p > sp.hi || tested[p] {
			t.Fatalf("probe %d outside %d..%d or tested again", p, sp.lo, sp.hi)
		}
		tested[p] = true
		if !sp.record(p, h.outcome(p)) {
			return sp.lo, sp.hi, tested, false
		}
	}
}

// checkAnswer: the range ends at a revision that fails, after one that
// passes, both tested, with only unresolved revisions between.
func checkAnswer(t *testing.T, h line, lo, hi int, tested map[int]bool) {
	t.Helper()
	if !tested[lo] || !tested[hi] || h.outcome(lo) != dd.Pass || h.outcome(hi) != dd.Fail {
		t.Fatalf("answer %d..%d: tested %v %v, outcomes %v %v", lo, hi, tested[lo], tested[hi], h.outcome(lo), h.outcome(hi))
	}
	for k := lo + 1; k < hi; k++ {
		if h.outcome(k) != dd.Unresolved {
			t.Fatalf("answer %d..%d holds revision %d, which gives %v", lo, hi, k, h.outcome(k))
		}
	}
}

func log2ceil(n int) int { return bits.Len(uint(n - 1)) }

func TestSpan(t *testing.T) {
	set := func(ks ...int) func(int) bool {
		m := map[int]bool{}
		for _, k := range ks {
			m[k] = true
		}
		return func(k int) bool { return m[k] }
	}
	all := func(int) bool { return true }
	weights := func(w ...int) func(int) int { return func(k int) int { return w[k-1] } }
	for _, c := range []struct {
		name     string
		n        int
		culprit  int
		hint     func(int) bool
		broken   map[int]bool
		maxTests int // beyond the ends; 0: ⌈log₂ n⌉ + 2
		weight   func(int) int
	}{
		// The first-parent line of a release of spf13/pflag: 8 merges
		// bringing 21 commits; the culprit came with the first.
		{"merges weigh as their branches", 8, 1, all, nil, 2, weights(4, 3, 2, 2, 3, 2, 3, 2)},
		{"a heavy merge last", 8, 8, all, nil, 2, weights(1, 1, 1, 1, 1, 1, 1, 20)},
		{"every commit a candidate", 25, 20, all, nil, log2ceil(25), nil},
		{"one commit", 1, 1, all, nil, 0, nil},
		{"culprit first", 16, 1, all, nil, log2ceil(16), nil},
		{"culprit last", 16, 16, all, nil, log2ceil(16), nil},
		// The shape of a release of gorilla/mux: 25 commits, 8 that change Go files.
		{"candidates among docs", 25, 20, set(2, 4, 9, 18, 20, 21, 23, 25), nil, log2ceil(8) + 1, nil},
		{"culprit after docs", 25, 25, set(3, 4, 9, 11, 25), nil, log2ceil(5) + 1, nil},
		{"culprit before docs", 30, 3, set(3, 29), nil, log2ceil(2) + 2, nil},
		{"the culprit was predicted inert", 25, 13, set(2, 4, 9, 18, 20), nil, 0, nil},
		{"nothing predicted", 20, 7, set(), nil, 0, nil},
		{"parent does not build", 8, 5, all, map[int]bool{4: true}, 0, nil},
		{"range of unbuildable", 8, 5, all, map[int]bool{3: true, 4: true}, 0, nil},
		{"predicted split does not build", 25, 20, set(2, 4, 9, 18, 20, 21, 23, 25), map[int]bool{19: true, 18: true}, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := line{n: c.n, outcome: monotone(c.culprit, c.broken), hint: c.hint, weight: c.weight}
			lo, hi, tested, ok := h.search(t, false)
			if !ok {
				t.Fatal("the ends did not hold")
			}
			checkAnswer(t, h, lo, hi, tested)
			if len(c.broken) == 0 && hi != c.culprit {
				t.Errorf("named %d, want %d", hi, c.culprit)
			}
			max := c.maxTests
			if max == 0 {
				max = log2ceil(c.n) + 2 + len(c.broken)
			}
			t.Logf("%d tests: %v", len(tested)-2, tested)
			if n := len(tested) - 2; n > max {
				t.Errorf("%d tests, want at most %d (tested %v)", n, max, tested)
			}
		})
	}
}

// TestSpanProperty: on random histories, whatever the prediction says
// and whatever does not build, the answer is a tested passing revision
// and a tested failing one with only unresolved ones between; with a
// right prediction and everything building, it takes at most ⌈log₂ m⌉
// + 2 tests for m candidates.
func TestSpanProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		n := 1 + rng.IntN(40)
		culprit := 1 + rng.IntN(n)
		cands := map[int]bool{}
		for k := 1; k <= n; k++ {
			cands[k] = rng.IntN(3) == 0
		}
		right := rng.IntN(2) == 0
		cands[culprit] = right
		broken := map[int]bool{}
		if rng.IntN(3) == 0 {
			for k := 1; k < n; k++ {
				broken[k] = rng.IntN(5) == 0
			}
		}
		h := line{n: n, outcome: monotone(culprit, broken), hint: func(k int) bool { return cands[k] }}
		if rng.IntN(2) == 0 {
			w := make([]int, n+1)
			for k := range w {
				w[k] = 1 + rng.IntN(6)
			}
			h.weight = func(k int) int { return w[k] }
		}
		lo, hi, tested, ok := h.search(t, false)
		if !ok {
			t.Fatalf("case %d: the ends did not hold", i)
		}
		checkAnswer(t, h, lo, hi, tested)
		m := 0
		for k := 1; k <= n; k++ {
			if cands[k] {
				m++
			}
		}
		if nb := len(broken); right && nb == 0 && h.weight == nil && len(tested)-2 > log2ceil(m)+2 {
			t.Errorf("case %d: %d tests for %d candidates of %d commits", i, len(tested)-2, m, n)
		}
	}
}

// TestSpanPresumed: a merged branch, whose ends are tested only when the
// answer needs them; a branch whose head passes, or whose merge base
// fails, ends the search without an answer.
func TestSpanPresumed(t *testing.T) {
	all := func(int) bool { return true }
	for _, c := range []struct {
		name    string
		n       int
		outcome func(int) dd.Outcome
		ok      bool
		tests   int
	}{
		{"culprit inside", 7, monotone(4, nil), true, log2ceil(7)},
		{"culprit first: the merge base is tested", 2, monotone(1, nil), true, 2},
		{"head passes", 4, monotone(99, nil), false, 0},
		{"merge base fails", 4, monotone(0, nil), false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := line{n: c.n, outcome: c.outcome, hint: all}
			lo, hi, tested, ok := h.search(t, true)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v (tested %v)", ok, c.ok, tested)
			}
			if !ok {
				return
			}
			checkAnswer(t, h, lo, hi, tested)
			if len(tested) > c.tests+1 {
				t.Errorf("%d tests, want at most %d: %v", len(tested), c.tests+1, tested)
			}
		})
	}
}

func TestRunsGoTest(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	builds := script("build.sh", "#!/bin/sh\ngo build ./... || exit 125\n./app\n")
	tests := script("test.sh", "#!/bin/sh\ncd \"$1\" && go test -run TestX ./pkg\n")
	for _, c := range []struct {
		name string
		test command.Test
		want bool
	}{
		{"go test", command.Test{Argv: []string{"go", "test", "./..."}}, true},
		{"go vet", command.Test{Argv: []string{"go", "vet", "./..."}}, true},
		{"sh -c", command.Test{Argv: []string{"sh", "-c", "cd {} && go test ./x"}}, true},
		{"go build", command.Test{Argv: []string{"go", "build", "./..."}}, false},
		{"a script that builds", command.Test{Argv: []string{builds, "{}"}}, false},
		{"a script that tests", command.Test{Argv: []string{tests, "{}"}}, true},
		{"--test script", command.Test{Script: tests}, true},
		{"sh with a script that tests", command.Test{Argv: []string{"sh", "-e", tests, "{}"}}, true},
		{"bash with a script that builds", command.Test{Argv: []string{"bash", builds}}, false},
		{"a word ending in go", command.Test{Argv: []string{"cargo", "test"}}, false},
	} {
		if got := runsGoTest(c.test); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
