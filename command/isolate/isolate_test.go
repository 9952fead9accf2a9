package isolate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// TestSplitters checks that each --split gives the passes it names, from
// coarse to fine.
func TestSplitters(t *testing.T) {
	for _, c := range []struct {
		split string
		args  bool
		want  []string
	}{
		{"auto", false, []string{"lines", "tokens", "runes"}},
		{"lines", false, []string{"lines"}},
		{"bytes", false, []string{"runes"}}, // text that is UTF-8 is cut into runes either way
		{"auto", true, []string{"lines"}},   // argument lists are cut into arguments
	} {
		var sp Split
		if err := sp.UnmarshalText([]byte(c.split)); err != nil {
			t.Fatal(err)
		}
		iso := &isolator{Isolation: &Isolation{Split: sp, Args: c.args}, pass: []byte("a b"), fail: []byte("a c")}
		var got []string
		for _, s := range iso.splitters() {
			got = append(got, s.Name())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("--split %s (argv %v): %v, want %v", c.split, c.args, got, c.want)
		}
	}
	var sp Split
	if err := sp.UnmarshalText([]byte("words")); err == nil {
		t.Error("--split words accepted")
	}
}

// isSubsequence reports whether a is a subsequence of b.
func isSubsequence(a, b []byte) bool {
	for _, c := range b {
		if len(a) > 0 && a[0] == c {
			a = a[1:]
		}
	}
	return len(a) == 0
}

// TestMaximizePassesStayParts runs the passes of wynot maximize --split
// auto (lines, tokens, characters) with the outcomes of ddmax drawn at
// random: whatever each pass keeps, every candidate of the next is a
// part (a subsequence) of the failing input that holds the passing part
// so far, and so is the result. Where the tokens of the passing part are
// not those of the input (a `...` string that a missing line cuts
// differently), an edit script between the two would test bytes twice.
func TestMaximizePassesStayParts(t *testing.T) {
	inputs := []string{
		"\n```\n(0)\n```\n{\n-\n", // a markdown renderer's panic, found by a user
		"a \"b\nc\" d\n'e\nf'\n",
		"x  \n\n  y\n`z`\n",
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "ab (){}`\"'\n\n  -_,"
	for range 300 {
		in := make([]byte, 1+rng.IntN(40))
		for i := range in {
			in[i] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(in))
	}
	for _, in := range inputs {
		fail := []byte(in)
		iso := &isolator{Isolation: &Isolation{Maximize: true}, fail: fail, fail0: fail}
		for _, sp := range iso.splitters() {
			script, err := iso.script(sp)
			if err != nil {
				t.Fatal(err)
			}
			all := make(dd.Config, script.Len())
			for k := range all {
				all[k] = k
			}
			check := func(c dd.Config) {
				got := script.Apply(c)
				if !isSubsequence(got, fail) || !isSubsequence(iso.pass, got) {
					t.Fatalf("%q, pass %s from %q: changes %v give %q, not a part of the input that holds the passing part", in, sp.Name(), iso.pass, c, got)
				}
			}
			for k := range all {
				check(dd.Config{k})
				check(slices.Delete(slices.Clone(all), k, k+1))
			}
			// ddmax found a passing part: a random one, and the failing
			// input as it was.
			var pass dd.Config
			for k := range all {
				if rng.IntN(3) > 0 {
					pass = append(pass, k)
				}
			}
			check(pass)
			iso.take(script, pass, all)
			if string(iso.fail) != in {
				t.Fatalf("%q, pass %s: the failing input became %q", in, sp.Name(), iso.fail)
			}
		}
	}
}

// TestMaximizeProgress: the progress line of wynot maximize shows the
// bytes of the passing part as it grows, out of the failing input's,
// not the changes left out of bytes; that of wynot isolate shows the
// changes left.
func TestMaximizeProgress(t *testing.T) {
	fail := []byte("one\ntwo\nthree\n")
	iso := &isolator{Isolation: &Isolation{Maximize: true}, fail: fail, fail0: fail}
	if b := iso.Begin(); b.Size != len(fail) {
		t.Errorf("the line starts from %d bytes, want the failing input's %d", b.Size, len(fail))
	}
	script, err := iso.script(decomp.Lines{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		st   dd.Step
		n    int
		show bool
	}{
		{dd.Step{Rule: dd.IncreaseToComplement, Pass: 2, Fail: 3, Config: dd.Config{0, 2}}, len("one\nthree\n"), true},
		{dd.Step{Rule: dd.IncreaseToSubset, Pass: 1, Fail: 3, Config: dd.Config{1}}, len("two\n"), true},
		{dd.Step{Rule: dd.IncreaseGranularity, Pass: 1, Fail: 3}, 0, false},
	} {
		if n, show := iso.shown(script, c.st); n != c.n || show != c.show {
			t.Errorf("after %s to %v: %d bytes (shown %v), want %d (%v)", c.st.Rule, c.st.Config, n, show, c.n, c.show)
		}
	}
	iso.Maximize = false
	if n, show := iso.shown(script, dd.Step{Rule: dd.ReduceToSubset, Pass: 1, Fail: 3, Config: dd.Config{0, 1}}); n != 2 || !show {
		t.Errorf("isolate: %d (shown %v), want the 2 changes left", n, show)
	}
}
