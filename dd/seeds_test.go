package dd_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/dd/ddtest"
)

// The worked examples of the papers, step by step. Rows are drawn as the
// papers' tables draw configurations: change numbers, dots for excluded
// changes, and the outcome.

func rows(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

func diffRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		mark := "  "
		if g != w {
			mark = "!="
		}
		b.WriteString(mark + " " + g + "   |   " + w + "\n")
	}
	t.Errorf("%s differ (got | want):\n%s", what, b.String())
}

type seedCase struct {
	opts       dd.Options
	fail, unr  string
	wantRows   string // lookups after the two precondition tests
	wantTested string // tests run after the two precondition tests, if checked separately
	wantResult string
	wantTests  int // tests actually run, including the two precondition tests
	wantSteps  []string
}

func runSeedCase(t *testing.T, c seedCase) {
	o := ddtest.NewOracle("12345678", c.fail, c.unr)
	rec := &ddtest.Recorder{}
	c.opts.Observer = rec
	res, err := dd.Run(context.Background(), o.N(), o, c.opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.wantRows != "" {
		diffRows(t, "lookups", rec.Rows[2:], rows(c.wantRows))
	}
	if c.wantTested != "" {
		diffRows(t, "tests", rec.Tested[2:], rows(c.wantTested))
	}
	if got := dd.Diagram(res.Fail, 8); got != c.wantResult {
		t.Errorf("result %s, want %s", got, c.wantResult)
	}
	if res.Stats.Tests != c.wantTests {
		t.Errorf("%d tests, want %d", res.Stats.Tests, c.wantTests)
	}
	if c.wantSteps != nil && !slices.Equal(rec.Steps, c.wantSteps) {
		t.Errorf("steps %q, want %q", rec.Steps, c.wantSteps)
	}
	if !res.Minimal {
		t.Errorf("result not marked minimal")
	}
}

// TestTSEFig6 replays TSE 2002 Fig. 6: ddmin on changes 1..8 where any
// configuration holding some but not all of 1, 7, 8 is unresolved. The
// paper's 27 steps are the lookups below; steps 9-12, 14-15, 22-25 repeat
// earlier tests and come from the cache. "A total of 19 different tests"
// counts test(c✓) and test(c✗), which the engine checks first.
func TestTSEFig6(t *testing.T) {
	runSeedCase(t, seedCase{
		opts: dd.Options{Algorithm: dd.Minimize, Variant: dd.TSE},
		fail: "1&7&8", unr: "(1|7|8) & !(1&7&8)",
		wantRows: `
			1 2 3 4 . . . . ?
			. . . . 5 6 7 8 ?
			1 2 . . . . . . ?
			. . 3 4 . . . . ✓
			. . . . 5 6 . . ✓
			. . . . . . 7 8 ?
			. . 3 4 5 6 7 8 ?
			1 2 . . 5 6 7 8 ✗
			1 2 . . . . . . ? (cached)
			. . . . 5 6 . . ✓ (cached)
			. . . . . . 7 8 ? (cached)
			. . . . 5 6 7 8 ? (cached)
			1 2 . . . . 7 8 ✗
			1 2 . . . . . . ? (cached)
			. . . . . . 7 8 ? (cached)
			1 . . . . . . . ?
			. 2 . . . . . . ✓
			. . . . . . 7 . ?
			. . . . . . . 8 ?
			. 2 . . . . 7 8 ?
			1 . . . . . 7 8 ✗
			1 . . . . . . . ? (cached)
			. . . . . . 7 . ? (cached)
			. . . . . . . 8 ? (cached)
			. . . . . . 7 8 ? (cached)
			1 . . . . . . 8 ?
			1 . . . . . 7 . ?`,
		wantResult: "1 . . . . . 7 8",
		wantTests:  19,
		wantSteps: []string{
			"increase granularity", "reduce to complement", "reduce to complement",
			"increase granularity", "reduce to complement",
		},
	})
}

// TestFSETable1 is FSE 1999 Table 1: Algorithm 1 finds the single
// failure-inducing change 7 by binary search.
func TestFSETable1(t *testing.T) {
	runSeedCase(t, seedCase{
		opts: dd.Options{Algorithm: dd.Interference},
		fail: "7",
		wantRows: `
			1 2 3 4 . . . . ✓
			. . . . 5 6 7 8 ✗
			. . . . 5 6 . . ✓
			. . . . . . 7 8 ✗
			. . . . . . 7 . ✗`,
		wantResult: ". . . . . . 7 .",
		wantTests:  2 + 5,
		wantSteps:  []string{"found in subset", "found in subset", "found in subset", "found"},
	})
}

// TestFSETable2 is FSE 1999 Table 2: the failure needs changes 3 and 6
// together. The table stops at step 7 ("6 is found"); Algorithm 1 as
// defined still tests c1 ∪ r before it can recurse into c2 = {6}: after
// {5} ∪ {1,2,3,4} passes, it tests {6} ∪ {1,2,3,4}, which fails, and only
// then reaches |c| = 1. So the run takes 8 tests, not 7.
func TestFSETable2(t *testing.T) {
	runSeedCase(t, seedCase{
		opts: dd.Options{Algorithm: dd.Interference},
		fail: "3&6",
		wantRows: `
			1 2 3 4 . . . . ✓
			. . . . 5 6 7 8 ✓
			1 2 . . 5 6 7 8 ✓
			. . 3 4 5 6 7 8 ✗
			. . 3 . 5 6 7 8 ✗
			1 2 3 4 5 6 . . ✗
			1 2 3 4 5 . . . ✓
			1 2 3 4 . 6 . . ✗`,
		wantResult: ". . 3 . . 6 . .",
		wantTests:  2 + 8,
	})
}

// TestFSETable3 is FSE 1999 Table 3: only all eight changes together fail;
// Algorithm 1 needs 14 tests, less than two per change.
func TestFSETable3(t *testing.T) {
	runSeedCase(t, seedCase{
		opts: dd.Options{Algorithm: dd.Interference},
		fail: "1&2&3&4&5&6&7&8",
		wantRows: `
			1 2 3 4 . . . . ✓
			. . . . 5 6 7 8 ✓
			1 2 . . 5 6 7 8 ✓
			. . 3 4 5 6 7 8 ✓
			1 . 3 4 5 6 7 8 ✓
			. 2 3 4 5 6 7 8 ✓
			1 2 3 . 5 6 7 8 ✓
			1 2 . 4 5 6 7 8 ✓
			1 2 3 4 5 6 . . ✓
			1 2 3 4 . . 7 8 ✓
			1 2 3 4 5 . 7 8 ✓
			1 2 3 4 . 6 7 8 ✓
			1 2 3 4 5 6 7 . ✓
			1 2 3 4 5 6 . 8 ✓`,
		wantResult: "1 2 3 4 5 6 7 8",
		wantTests:  2 + 14,
	})
}

// TestFSETable4 is FSE 1999 Table 4, preference: c1 is unresolved and its
// complement c2 passes, so dd+ searches c1 with c2 applied. The paper
// shows only these steps; the oracle makes c1 fail through change 1 once
// c2 is applied.
func TestFSETable4(t *testing.T) {
	runSeedCase(t, seedCase{
		opts: dd.Options{Algorithm: dd.Plus},
		fail: "1", unr: "(1|2|3|4) & !(5&6&7&8)",
		wantTested: `
			1 2 3 4 . . . . ?
			. . . . 5 6 7 8 ✓
			1 2 . . 5 6 7 8 ✗
			1 . . . 5 6 7 8 ✗`,
		wantResult: "1 . . . . . . .",
		wantTests:  2 + 4,
		wantSteps:  []string{"preference", "found in subset", "found in subset", "found"},
	})
}

// TestFSETables5and6 is FSE 1999 Tables 5 and 6: changes 2, 3 and 7 imply
// each other (a configuration with some but not all of them is
// unresolved) and change 8 is failure-inducing. dd+ tries again with 4
// subsets, then keeps 5 and 6 applied (their subset passed and its
// complement failed) and continues with 6 subsets until 8 is found.
func TestFSETables5and6(t *testing.T) {
	runSeedCase(t, seedCase{
		opts: dd.Options{Algorithm: dd.Plus},
		fail: "8", unr: "(2|3|7) & !(2&3&7)",
		wantTested: `
			1 2 3 4 . . . . ?
			. . . . 5 6 7 8 ?
			1 2 . . . . . . ?
			. . 3 4 . . . . ?
			. . . . 5 6 . . ✓
			. . . . . . 7 8 ?
			. . 3 4 5 6 7 8 ?
			1 2 . . 5 6 7 8 ?
			1 2 3 4 . . 7 8 ✗
			1 2 3 4 5 6 . . ?
			1 . . . 5 6 . . ✓
			. 2 . . 5 6 . . ?
			. . 3 . 5 6 . . ?
			. . . 4 5 6 . . ✓
			. . . . 5 6 7 . ?
			. . . . 5 6 . 8 ✗`,
		wantResult: ". . . . . . . 8",
		wantTests:  2 + 16,
		wantSteps:  []string{"try again", "try again", "found in subset", "found"},
	})
}

// TestFSETable7 is FSE 1999 Table 7: each change implies all earlier ones.
// With the ordering predictor, steps 2 and 4 are predicted unresolved and
// only three tests run to find change 7.
func TestFSETable7(t *testing.T) {
	c := seedCase{
		opts: dd.Options{Algorithm: dd.Plus, Predict: dd.Ordered()},
		fail: "7",
		wantTested: `
			1 2 3 4 . . . . ✓
			1 2 3 4 5 6 . . ✓
			1 2 3 4 5 6 7 . ✗`,
		wantResult: ". . . . . . 7 .",
		wantTests:  2 + 3,
		wantSteps:  []string{"preference", "preference", "found in subset", "found"},
	}
	runSeedCase(t, c)
	o := ddtest.NewOracle("12345678", c.fail, "")
	rec := &ddtest.Recorder{}
	c.opts.Observer = rec
	res, err := dd.Run(context.Background(), 8, o, c.opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Predicted != 2 {
		t.Errorf("%d predicted outcomes, want 2 (steps 2 and 4)", res.Stats.Predicted)
	}
	var firstLookups []string
	for _, r := range rec.Rows[2:] {
		if !strings.HasSuffix(r, "(cached)") {
			firstLookups = append(firstLookups, r)
		}
	}
	diffRows(t, "lookups", firstLookups, rows(`
		1 2 3 4 . . . . ✓
		. . . . 5 6 7 8 ? (predicted)
		1 2 3 4 5 6 . . ✓
		1 2 3 4 . . 7 8 ? (predicted)
		1 2 3 4 5 6 7 . ✗`))
}
