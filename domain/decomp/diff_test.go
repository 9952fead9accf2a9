package decomp

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
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
		{At: 2, Del: 1}, // the third "}"
		{At: 3, Del: 3, Ins: [][]byte{[]byte("x\n"), []byte("Y\n"), []byte("z\n")}}, // y by Y, x and z kept
	})
	want := "--- a\n+++ b\n@@ -1,6 +1,5 @@\n }\n }\n-}\n x\n-y\n+Y\n z\n"
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
	f, _ := Lines{}.Cut([]byte("}\n}\nx\nY\nz\n"))
	if d := Diff(p, f).Unified("a", "b", 3); d == want {
		t.Errorf("a shortest script of the texts shows the same diff; the test shows nothing:\n%s", d)
	}
}
