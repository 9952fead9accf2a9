package schedule

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/dd/ddtest"
)

// letters is a test over text: the changes are the letters a..h, each
// at most once in the text; a text is tested as the configuration of
// the letters it holds. Everything else in it (spaces, newlines,
// brackets) is noise the reduction should remove.
type letters struct {
	o     *ddtest.Oracle
	calls atomic.Int64 // tests may run in parallel
}

func newLetters(fail, unresolved string) *letters {
	return &letters{o: ddtest.NewOracle("abcdefgh", fail, unresolved)}
}

func (l *letters) config(data []byte) dd.Config {
	var c dd.Config
	for i, n := range l.o.Names {
		if strings.Contains(string(data), n) {
			c = append(c, i)
		}
	}
	return c
}

func (l *letters) outcome(data []byte) dd.Outcome { return l.o.Outcome(l.config(data)) }

func (l *letters) test(_ context.Context, data []byte) dd.Outcome {
	l.calls.Add(1)
	return l.outcome(data)
}

// oneMinimal checks by brute force that data fails and that removing
// any single byte of it (the finest change of the ladders here) makes
// the failure go away.
func oneMinimal(t *testing.T, l *letters, data []byte) {
	t.Helper()
	if got := l.outcome(data); got != dd.Fail {
		t.Fatalf("result %q does not fail: %s", data, got)
	}
	for i := range data {
		d := slices.Delete(slices.Clone(data), i, i+1)
		if l.outcome(d) == dd.Fail {
			t.Errorf("result %q is not 1-minimal: without byte %d (%q) it still fails", data, i, data[i])
		}
	}
	// The same, as configurations of the oracle's changes.
	if err := ddtest.OneMinimal(l.o, l.config(data)); err != nil {
		t.Error(err)
	}
}

func TestReduceFormulas(t *testing.T) {
	for _, tc := range []struct {
		input, fail, unresolved string
		want                    string
	}{
		{"a b c\nd e f\ng h\n", "c & f", "", "cf"},
		{"a b c\nd e f\ng h\n", "a | h", "", "a"},
		{"(a b) (c [d e]) f\ng h\n", "d & (e | h)", "", "de"},
		{"a b c d e f g h", "b & g", "!b | !g & c", "bg"},
		// Interference: the failure needs c, and b or e, but b without
		// h is unresolved (it does not parse, say).
		{"h\nb\nc\ne\n", "c & (b | e)", "b & !h", "ce"},
	} {
		l := newLetters(tc.fail, tc.unresolved)
		ladder := Ladder{Rungs: Deletions}
		r, err := Reduce(context.Background(), []byte(tc.input), ladder.Passes, l.test, dd.Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.input, err)
		}
		if string(r.Data) != tc.want || !r.Minimal {
			t.Errorf("%q with %s: reduced to %q (minimal %v), want %q", tc.input, tc.fail, r.Data, r.Minimal, tc.want)
		}
		if r.Tests != int(l.calls.Load()) {
			t.Errorf("%q: %d tests counted, %d calls", tc.input, r.Tests, l.calls.Load())
		}
		oneMinimal(t, l, r.Data)
	}
}

// randomFormula is a random formula over the letters: a disjunction of
// conjunctions of literals, at least one of whose terms the letters all
// hold (so the input fails).
func randomFormula(rng *rand.Rand) string {
	var terms []string
	for range 1 + rng.IntN(3) {
		var lits []string
		for range 1 + rng.IntN(3) {
			lit := string(rune('a' + rng.IntN(8)))
			if rng.IntN(4) == 0 && len(terms) > 0 {
				lit = "!" + lit
			}
			lits = append(lits, lit)
		}
		terms = append(terms, "("+strings.Join(lits, " & ")+")")
	}
	return strings.Join(terms, " | ")
}

// randomText places the letters in random order among noise: spaces,
// newlines, brackets and digits.
func randomText(rng *rand.Rand) string {
	var b strings.Builder
	depth := 0
	for _, i := range rng.Perm(8) {
		for range rng.IntN(3) {
			switch rng.IntN(5) {
			case 0:
				b.WriteByte('\n')
			case 1:
				b.WriteByte('(')
				depth++
			case 2:
				if depth > 0 {
					b.WriteByte(')')
					depth--
				}
			case 3:
				b.WriteString("42")
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteByte(byte('a' + i))
	}
	b.WriteString(strings.Repeat(")", depth))
	return b.String()
}

// TestLadderNested: in nested text the whole bracket groups come
// before lines, elsewhere after them, and the groups unwrapped after the
// lines; their contents always after lines.
func TestLadderNested(t *testing.T) {
	names := func(data string) []string {
		var out []string
		for _, p := range (Ladder{Rungs: Deletions}).Passes([]byte(data)) {
			out = append(out, p.Name())
		}
		return out
	}
	want := []string{"brackets at depth 0", "brackets at depth 1", "lines", "bracket groups unwrapped", "bracket contents at depth 0", "bracket contents at depth 1", "tokens", "runes"}
	if got := names("job {\n  group {\n    x = 1\n  }\n}\n"); !slices.Equal(got, want) {
		t.Errorf("nested: %q, want %q", got, want)
	}
	want = []string{"lines", "brackets at depth 0", "bracket contents at depth 0", "tokens", "runes"}
	if got := names("[server]\nport = 80\nhosts = [a, b]\n"); !slices.Equal(got, want) {
		t.Errorf("flat: %q, want %q", got, want)
	}
	// Indented text: its outermost blocks first.
	want = []string{"indented blocks at depth 0", "lines", "tokens", "runes"}
	if got := names("a:\n  b: 1\n  c:\n    - d\n"); !slices.Equal(got, want) {
		t.Errorf("indented: %q, want %q", got, want)
	}
}

// TestReduceOneMinimalProperty: on random formulas and texts, whatever
// the variant of ddmin and the rungs of the ladder, the result fails and
// is 1-minimal at the finest granularity by brute force; the removals
// the schedule derives hold every single-byte removal (and those of the
// coarser passes), none of which fails.
func TestReduceOneMinimalProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ladders := []Ladder{{Rungs: Deletions}, {Rungs: Lines | Tokens | Chars}, {Rungs: Brackets | Bytes}, {Rungs: Chars}}
	for k := range 300 {
		fail := randomFormula(rng)
		l := newLetters(fail, "")
		input := randomText(rng)
		if l.outcome([]byte(input)) != dd.Fail {
			continue
		}
		ladder := ladders[k%len(ladders)]
		opts := dd.Options{Variant: dd.Variant(k % 2), Parallel: 1 + k%3}
		r, err := Reduce(context.Background(), []byte(input), ladder.Passes, l.test, opts)
		if err != nil {
			t.Fatalf("%q with %s: %v", input, fail, err)
		}
		if !r.Minimal {
			t.Errorf("%q with %s: not minimal", input, fail)
		}
		oneMinimal(t, l, r.Data)

		cur := r.Data
		s := &Schedule[int]{
			Phases: []Phase[int]{{Units: func() []Unit[int] { return []Unit[int]{{Name: "input"}} },
				Passes: func(Unit[int]) ([]Pass, error) { return List(ladder.Passes(cur)), nil },
				Data:   func(Unit[int]) []byte { return cur }}},
		}
		rs, ok, err := s.Removals(context.Background(), -1)
		if err != nil || !ok {
			t.Fatalf("removals: %v %v", ok, err)
		}
		want := map[string]bool{}
		for i := range cur {
			want[string(slices.Delete(slices.Clone(cur), i, i+1))] = true
		}
		got := map[string]bool{}
		for _, rm := range rs {
			if got[string(rm.Data)] {
				t.Errorf("removal %q twice", rm.Data)
			}
			got[string(rm.Data)] = true
			if l.outcome(rm.Data) == dd.Fail {
				t.Errorf("%q: removal %q (%s %d of %d) fails", cur, rm.Data, rm.Pass, rm.Index+1, rm.Of)
			}
		}
		for w := range want {
			if !got[w] {
				t.Errorf("%q: removals %v, without %q", cur, keys(got), w)
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// fake is a schedule over named units whose passes shrink them by a
// script: each call of pass p on unit u pops the next result.
type fake struct {
	script map[string][]bool // "unit/pass" → shrank, call by call
	calls  []string
}

func (f *fake) step(_ context.Context, _ int, u Unit[int], p Pass) (Ran, error) {
	key := u.Name + "/" + p.Name()
	f.calls = append(f.calls, key)
	shrank := false
	if s := f.script[key]; len(s) > 0 {
		shrank, f.script[key] = s[0], s[1:]
	}
	return Ran{Changes: 1, Minimal: true, Shrank: shrank}, nil
}

type named string

func (n named) Name() string { return string(n) }

func units(names ...string) func() []Unit[int] {
	return func() []Unit[int] {
		var us []Unit[int]
		for i, n := range names {
			us = append(us, Unit[int]{Name: n, Of: i})
		}
		return us
	}
}

func passes(names ...string) func(Unit[int]) ([]Pass, error) {
	return func(Unit[int]) ([]Pass, error) {
		var ps []Pass
		for _, n := range names {
			ps = append(ps, named(n))
		}
		return ps, nil
	}
}

// TestRunOrder pins the order of passes: rounds until one shrinks
// nothing; a settling phase repeats a unit's passes, skipping those
// found quiet with nothing above them shrinking; a restarting phase goes
// back to the first unit after a shrink.
func TestRunOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		phases []Phase[int]
		script map[string][]bool
		want   string
	}{
		{"rounds", []Phase[int]{{Units: units("x", "y"), Passes: passes("1", "2")}},
			map[string][]bool{"y/1": {true}},
			"x/1 x/2 y/1 y/2 | x/1 x/2 y/1 y/2"},
		{"settle", []Phase[int]{{Units: units("x"), Passes: passes("1", "2", "3"), Settle: true}},
			// 2 shrinks twice: 1 is quiet and skipped in the repetitions,
			// 3 runs again after 2 shrank above it, not after 2 did not.
			map[string][]bool{"x/2": {true, true}},
			"x/1 x/2 x/3 x/2 x/3 x/2 | x/1 x/2 x/3"},
		{"settle above", []Phase[int]{{Units: units("x"), Passes: passes("1", "2", "3"), Settle: true}},
			map[string][]bool{"x/1": {false, true}, "x/3": {true}},
			"x/1 x/2 x/3 x/3 | x/1 x/2 x/3 x/1 | x/1 x/2 x/3"},
		{"phases", []Phase[int]{{Units: units("t"), Passes: passes("tree"), Settle: true}, {Units: units("x", "y"), Passes: passes("text")}},
			map[string][]bool{"y/text": {true}},
			"t/tree x/text y/text | t/tree x/text y/text"},
		{"restart", []Phase[int]{{Units: units("a", "b", "c"), Passes: passes("p"), Restart: true}},
			map[string][]bool{"b/p": {true}, "c/p": {true}},
			// A phase that restarts, alone, is its own fixpoint: one round.
			"a/p b/p a/p c/p a/p b/p"},
		{"restart and settle", []Phase[int]{{Units: units("a", "b"), Passes: passes("p"), Restart: true}, {Units: units("t"), Passes: passes("q"), Settle: true}},
			map[string][]bool{"b/p": {true}, "t/q": {true}},
			"a/p b/p a/p t/q t/q | a/p b/p t/q"},
	} {
		f := &fake{script: tc.script}
		rounds := 0
		s := &Schedule[int]{Phases: tc.phases, OnRound: func(r int) {
			rounds = r
			f.calls = append(f.calls, "|")
		}}
		minimal, err := s.Run(context.Background(), f.step)
		if err != nil || !minimal {
			t.Fatalf("%s: %v %v", tc.name, minimal, err)
		}
		if got := strings.Join(f.calls, " "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
		if want := strings.Count(tc.want, "|"); rounds != want {
			t.Errorf("%s: %d rounds, want %d", tc.name, rounds, want)
		}
		if len(s.Stats) != len(strings.Fields(strings.ReplaceAll(tc.want, "|", ""))) {
			t.Errorf("%s: %d stats", tc.name, len(s.Stats))
		}
	}
}

// TestRunSkipsCompleted: a pass that completed over a unit as it still
// is, nothing having changed since, does not run again in the next
// round; one whose pieces merge when it shrinks (tokens) does.
func TestRunSkipsCompleted(t *testing.T) {
	l := newLetters("a & b", "")
	r, err := Reduce(context.Background(), []byte("a  b\nxx\n"), Ladder{Rungs: Lines | Tokens | Chars}.Passes, l.test, dd.Options{})
	if err != nil || !r.Minimal || string(r.Data) != "ab" {
		t.Fatalf("%q, minimal %v, %v", r.Data, r.Minimal, err)
	}
	var got []string
	for _, st := range r.Stats {
		got = append(got, fmt.Sprintf("%d/%s", st.Round, st.Pass))
	}
	// Round 1: lines and tokens shrink, runes finds nothing. Round 2:
	// lines on the new text; tokens again (after its shrink "a" and "b"
	// are one token); runes not, as nothing changed since it ran.
	if want := []string{"1/lines", "1/tokens", "1/runes", "2/lines", "2/tokens"}; !slices.Equal(got, want) {
		t.Errorf("passes %q, want %q", got, want)
	}

	// Characters that shrink leave characters: runes, having completed
	// over the text it left, does not run in round 2.
	r, err = Reduce(context.Background(), []byte("axb\n"), Ladder{Rungs: Lines | Chars}.Passes, l.test, dd.Options{})
	if err != nil || !r.Minimal || string(r.Data) != "ab" {
		t.Fatalf("%q, minimal %v, %v", r.Data, r.Minimal, err)
	}
	got = got[:0]
	for _, st := range r.Stats {
		got = append(got, fmt.Sprintf("%d/%s", st.Round, st.Pass))
	}
	if want := []string{"1/lines", "1/runes", "2/lines"}; !slices.Equal(got, want) {
		t.Errorf("passes %q, want %q", got, want)
	}
	oneMinimal(t, l, r.Data)
}

// TestRunNotMinimal: a pass of the last round that did not complete,
// or an error, makes the result not minimal; the error stops the run.
func TestRunNotMinimal(t *testing.T) {
	s := &Schedule[int]{Phases: []Phase[int]{{Units: units("x"), Passes: passes("1", "2")}}}
	minimal, err := s.Run(context.Background(), func(_ context.Context, _ int, u Unit[int], p Pass) (Ran, error) {
		return Ran{Changes: 3, Minimal: p.Name() == "1"}, nil
	})
	if minimal || err != nil {
		t.Errorf("incomplete pass: minimal %v, %v", minimal, err)
	}
	boom := errors.New("boom")
	calls := 0
	minimal, err = s.Run(context.Background(), func(context.Context, int, Unit[int], Pass) (Ran, error) {
		calls++
		return Ran{Changes: 1, Shrank: true}, boom
	})
	if minimal || !errors.Is(err, boom) || calls != 1 {
		t.Errorf("error: minimal %v, %v after %d calls", minimal, err, calls)
	}
	// A pass with no changes counts as done and has no statistics.
	s.Stats = nil
	minimal, _ = s.Run(context.Background(), func(context.Context, int, Unit[int], Pass) (Ran, error) { return Ran{}, nil })
	if !minimal || len(s.Stats) != 0 {
		t.Errorf("empty passes: minimal %v, %d stats", minimal, len(s.Stats))
	}
}

// TestSearchPredicts: candidates the plan rejects are predicted, not
// tested, unless admitted; the statistics count both.
func TestSearchPredicts(t *testing.T) {
	l := newLetters("a & c", "")
	// Text that must keep balanced brackets, as a parser would.
	balanced := func(b []byte) ([]byte, error) {
		if strings.Count(string(b), "(") != strings.Count(string(b), ")") {
			return b, fmt.Errorf("unbalanced")
		}
		return b, nil
	}
	for _, admit := range []bool{false, true} {
		l.calls.Store(0)
		data := []byte("(a b) (c d)")
		s := &Schedule[int]{Phases: []Phase[int]{{Units: units("in"),
			Passes: func(Unit[int]) ([]Pass, error) { return List(Ladder{Rungs: Chars, Finish: balanced}.Passes(data)), nil },
			Data:   func(Unit[int]) []byte { return data }}}}
		if admit {
			s.Admit = func(error, []byte) bool { return true }
		}
		search := &Search[int]{Schedule: s, Test: func(ctx context.Context, _ Unit[int], d []byte) dd.Outcome { return l.test(ctx, d) },
			Set: func(_ Unit[int], d []byte) { data = d }}
		minimal, err := s.Run(context.Background(), search.Step)
		if err != nil || !minimal {
			t.Fatalf("admit %v: %v %v", admit, minimal, err)
		}
		if l.outcome(data) != dd.Fail {
			t.Errorf("admit %v: %q does not fail", admit, data)
		}
		if admit && string(data) != "ac" {
			t.Errorf("admit %v: reduced to %q, want %q", admit, data, "ac")
		}
		for i := range data {
			d := slices.Delete(slices.Clone(data), i, i+1)
			if _, err := balanced(d); (admit || err == nil) && l.outcome(d) == dd.Fail {
				t.Errorf("admit %v: %q is not 1-minimal: without byte %d it still fails", admit, data, i)
			}
		}
		tests, predicted := 0, 0
		for _, st := range s.Stats {
			tests, predicted = tests+st.Tests, predicted+st.Predicted
		}
		if tests != int(l.calls.Load()) || admit && predicted != 0 || !admit && predicted == 0 {
			t.Errorf("admit %v: %d tests (%d calls), %d predicted", admit, tests, l.calls.Load(), predicted)
		}
	}
}

// TestScheduleUnitsOneMinimalProperty: the letters spread over two
// inputs (units), reduced by a settling phase of coarse passes and a
// phase of characters, the test seeing both: whatever the formula, the
// result fails and removing any single byte of either input makes the
// failure go away (brute force), and no removal the schedule derives
// fails.
func TestScheduleUnitsOneMinimalProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := range 200 {
		fail := randomFormula(rng)
		l := newLetters(fail, "")
		text := randomText(rng)
		cut := rng.IntN(len(text) + 1)
		ins := [][]byte{[]byte(text[:cut]), []byte(text[cut:])}
		joined := func(i int, data []byte) []byte {
			b := slices.Clone(ins[0])
			if i == 0 {
				b = slices.Clone(data)
			}
			b = append(b, '|')
			if i == 1 {
				return append(b, data...)
			}
			return append(b, ins[1]...)
		}
		if l.outcome(joined(0, ins[0])) != dd.Fail {
			continue
		}
		us := func() []Unit[int] { return []Unit[int]{{Name: "first", Of: 0}, {Name: "second", Of: 1}} }
		data := func(u Unit[int]) []byte { return ins[u.Of] }
		coarse := Ladder{Rungs: Lines | Brackets | Tokens}
		fine := Ladder{Rungs: Chars}
		s := &Schedule[int]{Phases: []Phase[int]{
			{Name: "coarse", Units: us, Data: data, Settle: true,
				Passes: func(u Unit[int]) ([]Pass, error) { return List(coarse.Passes(ins[u.Of])), nil }},
			{Name: "fine", Units: us, Data: data,
				Passes: func(u Unit[int]) ([]Pass, error) { return List(fine.Passes(ins[u.Of])), nil }},
		}}
		search := &Search[int]{Schedule: s, Options: dd.Options{Variant: dd.Variant(k % 2)},
			Test: func(_ context.Context, u Unit[int], d []byte) dd.Outcome { return l.outcome(joined(u.Of, d)) },
			Set:  func(u Unit[int], d []byte) { ins[u.Of] = d }}
		minimal, err := s.Run(context.Background(), search.Step)
		if err != nil || !minimal {
			t.Fatalf("%q with %s: minimal %v, %v", text, fail, minimal, err)
		}
		all := joined(0, ins[0])
		if l.outcome(all) != dd.Fail {
			t.Fatalf("%q with %s: result %q does not fail", text, fail, all)
		}
		for i := range all {
			if all[i] == '|' {
				continue
			}
			if d := slices.Delete(slices.Clone(all), i, i+1); l.outcome(d) == dd.Fail {
				t.Errorf("%q with %s: result %q is not 1-minimal: without byte %d it still fails", text, fail, all, i)
			}
		}
		rs, ok, err := s.Removals(context.Background(), -1)
		if err != nil || !ok {
			t.Fatalf("removals: %v %v", ok, err)
		}
		for _, rm := range rs {
			if l.outcome(joined(rm.Unit.Of, rm.Data)) == dd.Fail {
				t.Errorf("%q: removal %q of %s (%s) fails", all, rm.Data, rm.Unit.Name, rm.Pass)
			}
		}
	}
}

// TestScheduleFixpointAcrossUnits: a change of one unit can make
// another, already reduced, reducible again (the test is not monotone:
// b is needed while d is there); the rounds go on until none shrinks
// anything, so the result is 1-minimal across both.
func TestScheduleFixpointAcrossUnits(t *testing.T) {
	l := newLetters("a & c & (b | !d)", "")
	ins := [][]byte{[]byte("a b"), []byte("c d")}
	us := func() []Unit[int] { return []Unit[int]{{Name: "first", Of: 0}, {Name: "second", Of: 1}} }
	s := &Schedule[int]{Phases: []Phase[int]{{Units: us, Data: func(u Unit[int]) []byte { return ins[u.Of] },
		Passes: func(u Unit[int]) ([]Pass, error) { return List(Ladder{Rungs: Chars}.Passes(ins[u.Of])), nil }}}}
	shrank := 0
	s.OnRound = func(int) { shrank++ }
	search := &Search[int]{Schedule: s,
		Test: func(_ context.Context, u Unit[int], d []byte) dd.Outcome {
			both := [2][]byte{ins[0], ins[1]}
			both[u.Of] = d
			return l.outcome(append(slices.Clone(both[0]), both[1]...))
		},
		Set: func(u Unit[int], d []byte) { ins[u.Of] = d }}
	minimal, err := s.Run(context.Background(), search.Step)
	if err != nil || !minimal || string(ins[0]) != "a" || string(ins[1]) != "c" {
		t.Errorf("reduced to %q, %q (minimal %v, %v), want \"a\", \"c\"", ins[0], ins[1], minimal, err)
	}
	// A shrink in each of two rounds; the third finds every pass
	// complete over its unit as it is, nothing having changed since,
	// and runs none.
	if rounds := s.Stats[len(s.Stats)-1].Round; shrank != 2 || rounds != 2 {
		t.Errorf("%d rounds shrank, stats up to round %d, want 2 and 2", shrank, rounds)
	}
}

// TestSearchSameContent: a candidate whose content is the unit's as it
// is (its printing gives back a space the change removed) is no
// candidate: it is never tested, and never taken, so the removals the
// search tries next are those of the text as it is. Had the search
// taken the space before * away, removing * would join b and a.
func TestSearchSameContent(t *testing.T) {
	// Printed, a * always has a space before it.
	print := func(b []byte) ([]byte, error) {
		var out []byte
		for i, c := range b {
			if c == '*' && i > 0 && b[i-1] != ' ' {
				out = append(out, ' ')
			}
			out = append(out, c)
		}
		return out, nil
	}
	fails := func(d []byte) bool {
		f := strings.Fields(string(d))
		return slices.Contains(f, "b") && slices.Contains(f, "a")
	}
	for _, v := range []dd.Variant{dd.Book, dd.TSE} {
		data := []byte("b *a")
		s := &Schedule[int]{Phases: []Phase[int]{{Units: units("in"),
			Passes: func(Unit[int]) ([]Pass, error) { return List(Ladder{Rungs: Chars, Finish: print}.Passes(data)), nil },
			Data:   func(Unit[int]) []byte { return data }}}}
		search := &Search[int]{Schedule: s, Options: dd.Options{Variant: v},
			Test: func(_ context.Context, _ Unit[int], d []byte) dd.Outcome {
				if string(d) == "b *a" {
					t.Errorf("%v: tested %q, the unit as it was", v, d)
				}
				if fails(d) {
					return dd.Fail
				}
				return dd.Pass
			},
			Set: func(_ Unit[int], d []byte) { data = d }}
		minimal, err := s.Run(context.Background(), search.Step)
		if err != nil || !minimal || string(data) != "b a" {
			t.Errorf("%v: %q, minimal %v, %v", v, data, minimal, err)
		}
	}
}

// TestRejected: the removals a plan rejects are the candidates Removals
// leaves out; those pick chooses come back, max at most, and none that
// is admitted.
func TestRejected(t *testing.T) {
	balanced := func(b []byte) ([]byte, error) {
		if strings.Count(string(b), "(") != strings.Count(string(b), ")") {
			return b, fmt.Errorf("unbalanced")
		}
		return b, nil
	}
	data := []byte("(a)b")
	s := &Schedule[int]{Phases: []Phase[int]{{Units: units("in"),
		Passes: func(Unit[int]) ([]Pass, error) { return List(Ladder{Rungs: Chars, Finish: balanced}.Passes(data)), nil },
		Data:   func(Unit[int]) []byte { return data }}}}
	all := func(error, []byte) bool { return true }
	got := func(rs []Removal[int]) (out []string) {
		for _, r := range rs {
			out = append(out, string(r.Data))
		}
		return out
	}
	rs, err := s.Rejected(context.Background(), 10, nil, all)
	if want := []string{"a)b", "(ab"}; err != nil || !slices.Equal(got(rs), want) {
		t.Errorf("Rejected = %q, %v; want %q", got(rs), err, want)
	}
	if rs, _ := s.Rejected(context.Background(), 1, nil, all); len(rs) != 1 {
		t.Errorf("max 1: %q", got(rs))
	}
	if rs, _ := s.Rejected(context.Background(), 10, nil, func(error, []byte) bool { return false }); len(rs) != 0 {
		t.Errorf("none picked: %q", got(rs))
	}
	if rs, _ := s.Rejected(context.Background(), 10, func(Unit[int], string) bool { return false }, all); len(rs) != 0 {
		t.Errorf("no pass chosen: %q", got(rs))
	}
	s.Admit = all
	if rs, _ := s.Rejected(context.Background(), 10, nil, all); len(rs) != 0 {
		t.Errorf("all admitted: %q", got(rs))
	}
	removals, ok, err := s.Removals(context.Background(), -1)
	if want := []string{"a)b", "()b", "(ab", "(a)"}; err != nil || !ok || !slices.Equal(got(removals), want) {
		t.Errorf("admitted: Removals = %q, want %q", got(removals), want)
	}
}
