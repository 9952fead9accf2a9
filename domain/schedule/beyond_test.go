package schedule

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// TestBeyondSpan: a TOML-like crasher (t={s=[]# crashes a parser; so
// does t={#) is 1-minimal by characters, but the span s=[] can go at
// once: the check of spans finds it, and the result is 2-minimal.
func TestBeyondSpan(t *testing.T) {
	crash := regexp.MustCompile(`^[a-z0-9]=\{(s=\[\])?#$`)
	calls := 0
	test := func(_ context.Context, data []byte) dd.Outcome {
		calls++
		if crash.Match(data) {
			return dd.Fail
		}
		return dd.Pass
	}
	ladder := Ladder{Rungs: Deletions}
	r, err := Reduce(context.Background(), []byte("t={s=[]#"), ladder.Passes, test, dd.Options{})
	if err != nil || string(r.Data) != "t={s=[]#" || !r.Minimal {
		t.Fatalf("1-minimal: %q %v %v", r.Data, r.Minimal, err)
	}
	r, err = ReduceBeyond(context.Background(), []byte("t={s=[]#"), ladder.Passes, test, dd.Options{}, DefaultBeyond(500))
	if err != nil || string(r.Data) != "t={#" {
		t.Fatalf("beyond: %q %v", r.Data, err)
	}
	if r.Guarantee.N != 3 || r.Guarantee.Span != 4 || !slices.Equal(r.Guarantee.Finest, []string{"runes"}) ||
		!slices.Equal(r.Guarantee.Spanned, []string{"tokens", "characters"}) {
		t.Errorf("guarantee %+v", r.Guarantee)
	}
}

// TestBeyondTokenSpanFirst: a rule of antonmedv/expr whose 1-minimal
// reduction is 28 bytes, of which a run of five tokens (Now in[]&&)
// can go at once. Within a budget that does not reach every pair of
// characters, the spans of tokens are checked before the pairs, and
// the run goes.
func TestBeyondTokenSpanFirst(t *testing.T) {
	crash := regexp.MustCompile(`^(Now in\[\]&&)?one\(9\.\.7,\{#==Now\}\)$`)
	test := func(_ context.Context, data []byte) dd.Outcome {
		if crash.Match(data) {
			return dd.Fail
		}
		return dd.Pass
	}
	in := []byte("Now in[]&&one(9..7,{#==Now})")
	ladder := Ladder{Rungs: Deletions}
	r, err := Reduce(context.Background(), in, ladder.Passes, test, dd.Options{})
	if err != nil || string(r.Data) != string(in) || !r.Minimal {
		t.Fatalf("1-minimal: %q %v %v", r.Data, r.Minimal, err)
	}
	r, err = ReduceBeyond(context.Background(), in, ladder.Passes, test, dd.Options{}, DefaultBeyond(300))
	if err != nil || string(r.Data) != "one(9..7,{#==Now})" {
		t.Fatalf("beyond, within 300 tests: %q %v", r.Data, err)
	}
}

// TestBeyondCost: on a result that no removal of several changes makes
// fail, the checks test each candidate once, no more than the budget,
// and a budget too small for triples leaves the guarantee at pairs.
func TestBeyondCost(t *testing.T) {
	in := []byte("abcdef")
	calls := 0
	test := func(_ context.Context, data []byte) dd.Outcome {
		calls++
		if string(data) == "abcdef" {
			return dd.Fail
		}
		return dd.Pass
	}
	ladder := Ladder{Rungs: Chars}
	cur := in
	s := &Schedule[int]{Phases: []Phase[int]{{Units: func() []Unit[int] { return []Unit[int]{{Name: "input"}} },
		Passes: func(Unit[int]) ([]Pass, error) { return List(ladder.Passes(cur)), nil },
		Data:   func(Unit[int]) []byte { return cur }}}}
	rs, g, err := s.BeyondRemovals(context.Background(), DefaultBeyond(1000))
	// Spans of 2..6 of 6 characters: 5+4+3+2+1; pairs not next to each
	// other: 15-5; triples not contiguous: 20-4.
	if err != nil || len(rs) != 15+10+16 || g.N != 3 || g.Span != 6 {
		t.Fatalf("%d removals, %+v, %v", len(rs), g, err)
	}
	_, g, err = s.BeyondRemovals(context.Background(), DefaultBeyond(30))
	if err != nil || g.N != 2 {
		t.Fatalf("a budget of 30: %+v %v", g, err)
	}
	_, g, _ = s.BeyondRemovals(context.Background(), DefaultBeyond(10))
	if g.N != 1 || g.Span != 0 {
		t.Fatalf("a budget of 10: %+v", g)
	}
	r0, err := Reduce(context.Background(), in, ladder.Passes, test, dd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls = 0
	r, err := ReduceBeyond(context.Background(), in, ladder.Passes, test, dd.Options{}, DefaultBeyond(1000))
	if err != nil || string(r.Data) != "abcdef" || r.Guarantee.N != 3 {
		t.Fatalf("%q %+v %v", r.Data, r.Guarantee, err)
	}
	if want := r0.Tests + 41; calls != want || r.Tests != want {
		t.Errorf("%d calls, %d tests counted, want %d (%d of the 1-minimal search, 41 beyond)", calls, r.Tests, want, r0.Tests)
	}
	// A budget granted after the search, from what it cost: asked once,
	// when the search is done.
	calls = 0
	asked := -1
	b := Beyond{Budget: 1000, MaxSpan: 8, MaxN: 3, Grant: func() int { asked = calls; return 12 }}
	r, err = ReduceBeyond(context.Background(), in, ladder.Passes, test, dd.Options{}, b)
	if err != nil || asked != r0.Tests || calls != r0.Tests+12 || r.Guarantee.N != 1 || r.Guarantee.Span != 0 {
		t.Errorf("granted 12 after %d tests: %d calls, %+v, %v (the search: %d)", asked, calls, r.Guarantee, err, r0.Tests)
	}
}

// TestBeyondNoDeletingPass: a unit whose passes only transform (a
// syntax tree's, or replacements) gets its spans checked but no claim
// about pairs or triples, which were never tried.
func TestBeyondNoDeletingPass(t *testing.T) {
	cur := []byte("abcdef")
	s := &Schedule[int]{Phases: []Phase[int]{{Units: func() []Unit[int] { return []Unit[int]{{Name: "input"}} },
		Passes: func(Unit[int]) ([]Pass, error) {
			var chs []decomp.Change
			for i := range cur {
				chs = append(chs, decomp.Change{Kind: "delete", Edits: []decomp.Splice{{From: i, To: i + 1}}})
			}
			return []Pass{rewritePass{&decomp.Rewrite{Src: cur, Changes: chs}}}, nil
		},
		Data: func(Unit[int]) []byte { return cur }}}}
	rs, g, err := s.BeyondRemovals(context.Background(), DefaultBeyond(1000))
	if err != nil || len(rs) != 15 || g.N != 1 || g.Span != 6 || len(g.Finest) != 0 || !slices.Equal(g.Spanned, []string{"syntax tree transformations"}) {
		t.Fatalf("%d removals, %+v, %v", len(rs), g, err)
	}
}

// rewritePass is a pass of a fixed plan of transformations.
type rewritePass struct{ plan *decomp.Rewrite }

func (rewritePass) Name() string                       { return "transformations" }
func (p rewritePass) Plan([]byte) (decomp.Plan, error) { return p.plan, nil }

// TestFirstFailing: in batches, the first failing candidate in order,
// whatever fails later in its batch.
func TestFirstFailing(t *testing.T) {
	outs := []dd.Outcome{dd.Pass, dd.Unresolved, dd.Pass, dd.Fail, dd.Fail, dd.Pass}
	for _, par := range []int{1, 2, 3, 8} {
		first, tested, err := FirstFailing(context.Background(), len(outs), par, func(_ context.Context, i int) (dd.Outcome, error) { return outs[i], nil })
		if err != nil || first != 3 || tested < 4 || tested > 4+par-1 {
			t.Errorf("parallel %d: first %d, tested %d, %v", par, first, tested, err)
		}
	}
	if first, tested, _ := FirstFailing(context.Background(), 3, 2, func(context.Context, int) (dd.Outcome, error) { return dd.Pass, nil }); first != -1 || tested != 3 {
		t.Errorf("none fails: %d %d", first, tested)
	}
}

// TestBeyondProperty: on random small inputs and random oracles that are
// not monotone (a random set of the input's subsequences fails), every
// guarantee reported holds by brute force: no set of up to N characters
// of the result, and no span of up to Span characters, can be removed
// with the failure still there.
func TestBeyondProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	guaranteed, beyond := 0, 0
	for k := range 200 {
		n := 6 + rng.IntN(5)
		in := make([]byte, n)
		for i := range in {
			in[i] = "ab(){}=#"[rng.IntN(8)]
		}
		fails := map[string]bool{string(in): true}
		p := 0.005 + rng.Float64()*0.05
		for mask := 0; mask < 1<<n; mask++ {
			if rng.Float64() < p {
				var sub []byte
				for i := range n {
					if mask&(1<<i) != 0 {
						sub = append(sub, in[i])
					}
				}
				fails[string(sub)] = true
			}
		}
		test := func(_ context.Context, data []byte) dd.Outcome {
			if fails[string(data)] {
				return dd.Fail
			}
			return dd.Pass
		}
		ladder := Ladder{Rungs: Deletions}
		r, err := ReduceBeyond(context.Background(), in, ladder.Passes, test, dd.Options{Parallel: 1 + k%3}, DefaultBeyond(50+rng.IntN(300)))
		if err != nil {
			t.Fatal(err)
		}
		res, g := r.Data, r.Guarantee
		if g.N >= 3 {
			guaranteed++
		}
		if r0, _ := Reduce(context.Background(), in, ladder.Passes, test, dd.Options{}); len(r0.Data) > len(res) {
			beyond++
		}
		if !fails[string(res)] {
			t.Fatalf("%q: result %q does not fail", in, res)
		}
		m := len(res)
		for size := 1; size <= max(g.N, 1); size++ {
			subsets(m, size, func(gone []int) bool {
				if d := without(res, gone); fails[string(d)] {
					t.Errorf("%q → %q, %+v: without %v (%q) it still fails", in, res, g, gone, d)
				}
				return true
			})
		}
		for size := 2; size <= min(g.Span, m); size++ {
			for at := 0; at+size <= m; at++ {
				gone := make([]int, size)
				for j := range gone {
					gone[j] = at + j
				}
				if d := without(res, gone); fails[string(d)] {
					t.Errorf("%q → %q, %+v: without the span %v (%q) it still fails", in, res, g, gone, d)
				}
			}
		}
	}
	// Not vacuous: checked on results the checks made smaller, and on
	// results they call 3-minimal.
	if guaranteed < 50 || beyond < 10 {
		t.Errorf("%d results called 3-minimal, %d made smaller by the checks: too few to show the property", guaranteed, beyond)
	}
	t.Logf("%d results called 3-minimal, %d made smaller by the checks", guaranteed, beyond)
}

func without(data []byte, gone []int) []byte {
	var out []byte
	for i, b := range data {
		if !slices.Contains(gone, i) {
			out = append(out, b)
		}
	}
	return out
}
