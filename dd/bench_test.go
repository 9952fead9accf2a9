package dd_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wynot/wynot/dd"
)

// Benchmarks of the engine with in-process oracles, so that the time is
// the engine's own: (a) one failure-inducing element; (b) the flex case of
// TSE 2002 §4.3, where the input fails iff it holds a run of at least L
// consecutive original elements (L = 2121, or n/2 when n is smaller than
// 2·2121). Each benchmark reports tests per run and the engine's time per
// test (total time less the oracle's). BenchmarkMinimizeNaive runs the
// same cases through a straightforward port of the Debugging Book's ddmin
// (sets as maps, complements rebuilt, cache keyed by the configuration's
// text), so the two can be compared side by side in one run:
//
//	go test ./dd -run XXX -bench 'Minimize' -benchtime 3x

type benchCase struct {
	name   string
	n      int
	oracle func(c []int) bool // true: fails
}

func benchCases(sizes ...int) []benchCase {
	var cs []benchCase
	for _, n := range sizes {
		k := n * 2 / 3
		cs = append(cs, benchCase{fmt.Sprintf("single/n=%d", n), n, func(c []int) bool {
			_, ok := slices.BinarySearch(c, k)
			return ok
		}})
		run := 2121
		if n < 2*run {
			run = n / 2
		}
		cs = append(cs, benchCase{fmt.Sprintf("flex/n=%d", n), n, func(c []int) bool {
			length := 0
			for i, x := range c {
				if i > 0 && x == c[i-1]+1 {
					length++
				} else {
					length = 1
				}
				if length >= run {
					return true
				}
			}
			return false
		}})
	}
	return cs
}

func BenchmarkMinimize(b *testing.B) {
	for _, bc := range benchCases(1e3, 1e4, 1e5, 1e6) {
		b.Run(bc.name, func(b *testing.B) {
			var tests int
			var oracle, total time.Duration
			for b.Loop() {
				t0 := time.Now()
				res, err := dd.Run(context.Background(), bc.n, dd.TesterFunc(func(_ context.Context, c dd.Config) dd.Outcome {
					t1 := time.Now()
					fails := bc.oracle(c)
					oracle += time.Since(t1)
					if fails {
						return dd.Fail
					}
					return dd.Pass
				}), dd.Options{})
				total += time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				tests = res.Stats.Tests
			}
			b.ReportMetric(float64(tests), "tests")
			b.ReportMetric(float64((total-oracle).Nanoseconds())/float64(tests*b.N), "engine-ns/test")
		})
	}
}

func BenchmarkMinimizeNaive(b *testing.B) {
	for _, bc := range benchCases(1e3, 1e4, 1e5, 1e6) {
		b.Run(bc.name, func(b *testing.B) {
			var tests int
			var oracle, total time.Duration
			for b.Loop() {
				t0 := time.Now()
				var res []int
				res, tests = naiveDDMin(bc.n, func(c []int) bool {
					t1 := time.Now()
					defer func() { oracle += time.Since(t1) }()
					return bc.oracle(c)
				})
				total += time.Since(t0)
				if len(res) == 0 {
					b.Fatal("no result")
				}
			}
			b.ReportMetric(float64(tests), "tests")
			b.ReportMetric(float64((total-oracle).Nanoseconds())/float64(tests*b.N), "engine-ns/test")
		})
	}
}

// naiveDDMin is the Debugging Book's dd in mode "-" written the obvious
// way: configurations as maps, the difference listed and sorted each
// step, every complement built as a new map, a cache keyed by the sorted
// configuration as text. It exists only as a baseline for the benchmark.
func naiveDDMin(n int, fails func([]int) bool) ([]int, int) {
	tests := 0
	cache := map[string]bool{}
	sortedKeys := func(s map[int]bool) []int {
		out := make([]int, 0, len(s))
		for x := range s {
			out = append(out, x)
		}
		sort.Ints(out)
		return out
	}
	test := func(s map[int]bool) bool {
		c := sortedKeys(s)
		var b strings.Builder
		for _, x := range c {
			b.WriteString(strconv.Itoa(x))
			b.WriteByte(',')
		}
		k := b.String()
		if r, ok := cache[k]; ok {
			return r
		}
		tests++
		r := fails(c)
		cache[k] = r
		return r
	}
	cFail := map[int]bool{}
	for i := range n {
		cFail[i] = true
	}
	test(map[int]bool{})
	test(cFail)
	gran, offset := 2, 0
	for {
		delta := sortedKeys(cFail)
		if len(delta) < gran {
			return delta, tests
		}
		k, m := len(delta)/gran, len(delta)%gran
		subsets := make([][]int, gran)
		for i := range subsets {
			subsets[i] = delta[i*k+min(i, m) : (i+1)*k+min(i+1, m)]
		}
		found := false
		for j := range gran {
			i := (j + offset) % gran
			sub := map[int]bool{}
			for _, x := range subsets[i] {
				sub[x] = true
			}
			if gran == 2 && test(sub) {
				cFail, offset, found = sub, i, true
				break
			}
			comp := map[int]bool{}
			for x := range cFail {
				if !sub[x] {
					comp[x] = true
				}
			}
			if test(comp) {
				cFail, gran, offset, found = comp, max(gran-1, 2), i, true
				break
			}
		}
		if !found {
			if gran >= len(delta) {
				return delta, tests
			}
			gran = min(2*gran, len(delta))
		}
	}
}

// TestNaiveMatchesEngine keeps the baseline honest: on the benchmark
// cases it must take the same number of tests and give the same result
// as the engine (under -short at n = 10³ only).
func TestNaiveMatchesEngine(t *testing.T) {
	sizes := []int{1e3, 1e4}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, bc := range benchCases(sizes...) {
		want, err := dd.Run(context.Background(), bc.n, dd.TesterFunc(func(_ context.Context, c dd.Config) dd.Outcome {
			if bc.oracle(c) {
				return dd.Fail
			}
			return dd.Pass
		}), dd.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, tests := naiveDDMin(bc.n, bc.oracle)
		if !slices.Equal(got, want.Fail) || tests != want.Stats.Tests {
			t.Errorf("%s: naive %d elements in %d tests, engine %d in %d", bc.name, len(got), tests, len(want.Fail), want.Stats.Tests)
		}
	}
}
