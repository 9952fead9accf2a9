package decomp

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func lcs(a, b []byte) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func all(n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = i
	}
	return c
}

// TestDiffShortest checks the edit scripts of random byte strings: no
// changes give the passing input, all changes the failing one, and the
// number of changes is the least possible, N + M - 2·LCS.
func TestDiffShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 3000 {
		a := make([]byte, rng.IntN(40))
		b := make([]byte, rng.IntN(40))
		k := 1 + rng.IntN(4)
		for i := range a {
			a[i] = byte('a' + rng.IntN(k))
		}
		for i := range b {
			b[i] = byte('a' + rng.IntN(k))
		}
		if rng.IntN(3) == 0 && len(a) > 0 {
			b = append(append([]byte{}, a...), b...)
		}
		p, _ := Bytes{}.Cut(a)
		f, _ := Bytes{}.Cut(b)
		s := Diff(p, f)
		if got := string(s.Apply(nil)); got != string(a) {
			t.Fatalf("%q -> %q: no changes give %q", a, b, got)
		}
		if got := string(s.Apply(all(s.Len()))); got != string(b) {
			t.Fatalf("%q -> %q: all changes give %q", a, b, got)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); s.Len() != want || !s.Minimal {
			t.Fatalf("%q -> %q: %d changes, shortest is %d", a, b, s.Len(), want)
		}
		// Any subset applies to something between the two.
		var c []int
		for i := range s.Len() {
			if rng.IntN(2) == 0 {
				c = append(c, i)
			}
		}
		got := s.Apply(c)
		if len(got) > len(a)+len(b) {
			t.Fatalf("subset gives %q", got)
		}
	}
}

func TestDiffLines(t *testing.T) {
	a := []byte("one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n")
	b := []byte("one\ntwo\n3\nfour\nfive\nsix\nseven\neight\nnine")
	p, _ := Lines{}.Cut(a)
	f, _ := Lines{}.Cut(b)
	s := Diff(p, f)
	if s.Len() != 3 {
		t.Errorf("%d changes, want 3", s.Len())
	}
	got := s.Unified("a", "b", 1)
	want := "--- a\n+++ b\n@@ -2,3 +2,3 @@\n two\n-three\n+3\n four\n@@ -8,1 +8,2 @@\n eight\n+nine\n\\ No newline at end of file\n"
	if got != want {
		t.Errorf("unified diff:\n%s\nwant\n%s", got, want)
	}
	// patch(1) applies it.
	if _, err := exec.LookPath("patch"); err == nil {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "x"), a, 0o644)
		cmd := exec.Command("patch", "x")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(strings.Replace(got, "--- a\n+++ b\n", "--- x\n+++ x\n", 1))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch: %v\n%s", err, out)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "x")); string(got) != string(b) {
			t.Errorf("patched file %q", got)
		}
	}
}

// TestUnifiedOrder: in every run of changed lines of a unified diff,
// the lines that go come before the lines that come, as diff writes
// them, on random texts of few distinct lines; and patch(1) makes the
// new text of the old.
func TestUnifiedOrder(t *testing.T) {
	_, patchErr := exec.LookPath("patch")
	rng := rand.New(rand.NewPCG(7, 45))
	text := func() []byte {
		var b []byte
		for range rng.IntN(12) {
			b = append(b, "abc:"[rng.IntN(4)])
			if rng.IntN(3) > 0 {
				b = append(b, '\n')
			}
		}
		return b
	}
	for i := range 300 {
		a, b := text(), text()
		got := UnifiedLines(a, b, "x", "x", 1)
		plus := false
		for _, l := range strings.Split(got, "\n")[2:] {
			switch {
			case strings.HasPrefix(l, "+"):
				plus = true
			case strings.HasPrefix(l, "-") && plus:
				t.Fatalf("%q → %q: a line that goes after one that comes:\n%s", a, b, got)
			case strings.HasPrefix(l, " "), strings.HasPrefix(l, "@@"):
				plus = false
			}
		}
		if patchErr != nil || i%10 != 0 || string(a) == string(b) {
			continue
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "x"), a, 0o644)
		cmd := exec.Command("patch", "x")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(got)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%q → %q: patch: %v\n%s\n%s", a, b, err, out, got)
		}
		if p, _ := os.ReadFile(filepath.Join(dir, "x")); string(p) != string(b) {
			t.Errorf("%q → %q: patched %q", a, b, p)
		}
	}
}

func TestDiffTooDifferent(t *testing.T) {
	if testing.Short() {
		// -short: the same past a budget of 200 edits, not 20,000.
		defer func(m int) { maxEdits = m }(maxEdits)
		maxEdits = 200
	}
	rng := rand.New(rand.NewPCG(1, 1))
	a := make([]byte, 3*maxEdits)
	b := make([]byte, 3*maxEdits)
	for i := range a {
		a[i], b[i] = byte(rng.IntN(200)), byte(rng.IntN(200))
	}
	p, _ := Bytes{}.Cut(a)
	f, _ := Bytes{}.Cut(b)
	s := Diff(p, f)
	if s.Minimal {
		t.Error("script of unrelated inputs claims to be shortest")
	}
	if string(s.Apply(all(s.Len()))) != string(b) || string(s.Apply(nil)) != string(a) {
		t.Error("fallback script does not apply")
	}
}

// TestReplace: the script of given replacements shows each where it was
// made, where a shortest script of the two texts would choose another
// of equal lines, and its edits are the replacements' own.
func TestReplace(t *testing.T) {
	p, _ := Lines{}.Cut([]byte("}\n}\n}\nx\ny\nz\n"))
	s := Replace(p, []Replacement{
		{At: 0, Del: 1}, // the first "}"
		{At: 3, Del: 3, Ins: [][]byte{[]byte("x\n"), []byte("Y\n"), []byte("z\n")}}, // y by Y, x and z kept
	})
	want := "--- a\n+++ b\n@@ -1,6 +1,5 @@\n-}\n }\n }\n x\n-y\n+Y\n z\n"
	if got := s.Unified("a", "b", 3); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(s.Apply([]int{0, 1, 2})); got != "}\n}\nx\nY\nz\n" {
		t.Errorf("applied: %q", got)
	}
	if got := string(s.Apply(nil)); got != string(p.Data) {
		t.Errorf("nothing applied: %q", got)
	}
	if s.Len() != 3 {
		t.Errorf("%d changes, want 3", s.Len())
	}
	// A shortest script deletes another "}".
	f, _ := Lines{}.Cut([]byte("}\n}\nx\nY\nz\n"))
	if d, r := deleted(Diff(p, f)), deleted(s); slices.Equal(d, r) || !slices.Equal(r, []int{0, 4}) {
		t.Errorf("pieces deleted: %v by a shortest script, %v by the replacements (want [0 4]); the test shows nothing", d, r)
	}
}

// deleted lists the pieces of P a script deletes.
func deleted(s *Script) []int {
	var out []int
	for _, o := range s.ops {
		if o.kind == del {
			out = append(out, o.i)
		}
	}
	return out
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

// at returns the bytes of data at the spans.
func at(data []byte, spans [][2]int) []byte {
	var out []byte
	for _, sp := range spans {
		out = append(out, data[sp[0]:sp[1]]...)
	}
	return out
}

// TestGrow checks the scripts that grow a part of a text into the text,
// as maximization composes its passes: on a part kept by lines, cut by
// tokens, a shortest script of the part and the text deletes, and a set
// of its changes gives bytes twice; Grow's changes only insert, and every
// set of them gives a subsequence of the text that holds the part, at the
// spans Spans says.
func TestGrow(t *testing.T) {
	whole := []byte("\n```\n(0)\n```\n{\n-\n")
	part := [][2]int{{0, 1}, {5, 9}, {13, 17}} // "\n", "(0)\n", "{\n-\n": whole lines
	wp, _ := Tokens{}.Cut(whole)
	pp, _ := Tokens{}.Cut(at(whole, part))
	d := Diff(pp, wp)
	garbled := false
	for k := range d.Len() {
		if got := d.Apply([]int{k}); !isSubsequence(got, whole) {
			garbled = true
		}
	}
	if !garbled {
		t.Error("every change of Diff of the part and the whole gives a subsequence; the test shows nothing")
	}

	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "ab (){}`\"'\n\n  -_,"
	for range 500 {
		whole := make([]byte, rng.IntN(30))
		for i := range whole {
			whole[i] = alphabet[rng.IntN(len(alphabet))]
		}
		// A part: random spans, some empty or touching.
		var part [][2]int
		for lo := 0; lo < len(whole); {
			hi := lo + rng.IntN(5)
			hi = min(hi, len(whole))
			if rng.IntN(2) == 0 && hi > lo {
				if m := len(part); m > 0 && part[m-1][1] == lo {
					part[m-1][1] = hi
				} else {
					part = append(part, [2]int{lo, hi})
				}
			}
			lo = max(hi, lo+1)
		}
		for _, sp := range []Splitter{Lines{}, Tokens{}, Runes{}} {
			wp, _ := sp.Cut(whole)
			s := Grow(wp, part)
			if got, want := string(s.Apply(nil)), string(at(whole, part)); got != want {
				t.Fatalf("%s %q %v: nothing applied gives %q, want the part %q", sp.Name(), whole, part, got, want)
			}
			if got := s.Apply(all(s.Len())); string(got) != string(whole) {
				t.Fatalf("%s %q %v: all applied gives %q", sp.Name(), whole, part, got)
			}
			if got := s.Spans(nil); !slices.Equal(got, part) {
				t.Fatalf("%s %q %v: spans of nothing applied %v", sp.Name(), whole, part, got)
			}
			for range 10 {
				var c []int
				for k := range s.Len() {
					if rng.IntN(2) == 0 {
						c = append(c, k)
					}
				}
				got, spans := s.Apply(c), s.Spans(c)
				if string(got) != string(at(whole, spans)) {
					t.Fatalf("%s %q %v: %v applied gives %q, not the text at its spans %v", sp.Name(), whole, part, c, got, spans)
				}
				for i, sp := range spans {
					if sp[0] >= sp[1] || i > 0 && spans[i-1][1] >= sp[0] {
						t.Fatalf("spans %v not sorted, disjoint and non-empty", spans)
					}
				}
				if !contains(spans, part) {
					t.Fatalf("%s %q: spans %v do not hold the part %v", sp.Name(), whole, spans, part)
				}
			}
		}
	}
}

// contains reports whether the spans outer cover every span of inner.
func contains(outer, inner [][2]int) bool {
	for _, in := range inner {
		ok := false
		for _, o := range outer {
			ok = ok || o[0] <= in[0] && in[1] <= o[1]
		}
		if !ok {
			return false
		}
	}
	return true
}
