package dd

import (
	"context"
	"math/rand"
	"slices"
	"testing"
)

// transitionsOf runs Transitions over the moments 0..len(vars)-1 with
// the midpoint as the moment between, counting the comparisons.
func transitionsOf(t *testing.T, vars []string) ([][2]int, int) {
	t.Helper()
	n := 0
	got, err := Transitions(context.Background(), 0, len(vars)-1,
		func(_ context.Context, a, b int) (int, bool, error) { return (a + b) / 2, b-a > 1, nil },
		func(_ context.Context, a, b int) (bool, error) { n++; return vars[a] == vars[b], nil })
	if err != nil {
		t.Fatal(err)
	}
	return got, n
}

// TestTransitions: the appendix's definition on a sequence of moments
// whose causes are argc, then a[2], then a[0] (the sample program's
// chain): the direct transitions are the two moments where they change.
func TestTransitions(t *testing.T) {
	vars := []string{"argc", "argc", "argc", "a[2]", "a[2]", "a[2]", "a[2]", "a[0]"}
	got, _ := transitionsOf(t, vars)
	if want := [][2]int{{2, 3}, {6, 7}}; !slices.Equal(got, want) {
		t.Errorf("transitions %v, want %v", got, want)
	}
	if got, n := transitionsOf(t, []string{"x", "x", "x", "x"}); len(got) != 0 || n != 1 {
		t.Errorf("no change: %v in %d comparisons", got, n)
	}
}

// TestTransitionsProperty: where each cause holds for one stretch of
// moments (it does not come back), cts finds every change and nothing
// else, with O(k log n) comparisons for k changes; on any sequence,
// what it returns are adjacent moments whose causes differ.
func TestTransitionsProperty(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 500; i++ {
		n := 2 + r.Intn(200)
		vars := make([]string, n)
		v := 0
		var want [][2]int
		for j := range vars {
			if j > 0 && r.Intn(20) == 0 {
				v++
				want = append(want, [2]int{j - 1, j})
			}
			vars[j] = string(rune('a'+v%26)) + string(rune('A'+v/26))
		}
		got, cmp := transitionsOf(t, vars)
		if !slices.Equal(got, want) {
			t.Fatalf("blocks %v: transitions %v, want %v", vars, got, want)
		}
		if bound := 1 + 2*len(want)*(1+bitsLen(n)); cmp > bound {
			t.Errorf("%d comparisons for %d changes in %d moments (bound %d)", cmp, len(want), n, bound)
		}
		// Any sequence: only true, direct transitions.
		for j := range vars {
			vars[j] = string(rune('a' + r.Intn(3)))
		}
		got, _ = transitionsOf(t, vars)
		for _, p := range got {
			if p[1] != p[0]+1 || vars[p[0]] == vars[p[1]] {
				t.Fatalf("%v: %v is no direct transition", vars, p)
			}
		}
	}
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}
