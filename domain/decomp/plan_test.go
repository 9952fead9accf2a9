package decomp

import (
	"errors"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
)

// src is "if c { a(); b() } else { d() }" with offsets:
//
//	0  if, 3 c, 5 {, 7 a(), 12 b(), 18 }, 20 else, 25 {, 27 d(), 31 }
const src = "if c { a(); b() } else { d() }"

func span(s string) (int, int) {
	i := strings.Index(src, s)
	return i, i + len(s)
}

func TestRewriteApply(t *testing.T) {
	aFrom, aTo := span("a(); ")
	bFrom, bTo := span("b()")
	thenFrom, thenTo := span("{ a(); b() }")
	innerFrom, innerTo := thenFrom+2, thenTo-2 // "a(); b()"
	r := &Rewrite{Src: []byte(src), Changes: []Change{
		{Kind: "if → then", Edits: []Splice{{From: 0, To: len(src), Parts: []Part{Ref(innerFrom, innerTo)}}}},
		{Kind: "a → nothing", Edits: []Splice{{From: aFrom, To: aTo}}},
		{Kind: "b → x", Edits: []Splice{{From: bFrom, To: bTo, Parts: []Part{Lit("x")}}}},
		{Kind: "if → nothing", Edits: []Splice{{From: 0, To: len(src)}}},
	}}
	cases := []struct {
		apply []int // the changes made
		want  string
	}{
		{nil, src},
		{[]int{1}, "if c { b() } else { d() }"},
		{[]int{1, 2}, "if c { x } else { d() }"},
		// The kept subtree keeps the transformations inside it.
		{[]int{0}, "a(); b()"},
		{[]int{0, 2}, "a(); x"},
		{[]int{0, 1, 2}, "x"},
		// An edit that does not keep the inner range wins over it.
		{[]int{3, 1}, ""},
		// Of two edits of one range the first change wins.
		{[]int{0, 3}, "a(); b()"},
	}
	for _, c := range cases {
		got, err := r.Apply(dd.AllBut(r.Len(), c.apply...))
		if err != nil {
			t.Errorf("apply %v: %v", c.apply, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("apply %v = %q, want %q", c.apply, got, c.want)
		}
	}
}

func TestRewriteMergesOverlappingDeletions(t *testing.T) {
	// Deleting two list elements, each with its adjacent comma, deletes
	// both and both commas between them.
	s := "f(a, b, c)"
	r := &Rewrite{Src: []byte(s), Changes: []Change{
		{Kind: "a", Edits: []Splice{{From: 2, To: 5}}}, // "a, "
		{Kind: "b", Edits: []Splice{{From: 4, To: 8}}}, // " b, " would be ", b" in practice; shares bytes with a's
	}}
	got, err := r.Apply(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "f(c)" {
		t.Errorf("got %q, want f(c)", got)
	}
}

func TestRewriteOverlap(t *testing.T) {
	s := "abcdefgh"
	r := &Rewrite{Src: []byte(s), Changes: []Change{
		{Kind: "outer", Edits: []Splice{{From: 0, To: 6, Parts: []Part{Ref(2, 4)}}}},
		{Kind: "crossing", Edits: []Splice{{From: 3, To: 7, Parts: []Part{Lit("X")}}}},
	}}
	if _, err := r.Apply(nil); !errors.Is(err, ErrOverlap) {
		t.Errorf("crossing edits: err = %v, want ErrOverlap", err)
	}
	// Either alone is fine.
	if got, err := r.Apply([]int{1}); err != nil || string(got) != "cdgh" {
		t.Errorf("outer alone = %q, %v", got, err)
	}
	if got, err := r.Apply([]int{0}); err != nil || string(got) != "abcXh" {
		t.Errorf("crossing alone = %q, %v", got, err)
	}
}

func TestRewriteChangeAllOrNothing(t *testing.T) {
	// A parameter and its arguments go together.
	s := "func f(a, b int) {}; f(1, 2); f(3, 4)"
	i := strings.Index
	r := &Rewrite{Src: []byte(s), Changes: []Change{{Kind: "drop b", Edits: []Splice{
		{From: i(s, ", b"), To: i(s, ", b") + 3},
		{From: i(s, ", 2"), To: i(s, ", 2") + 3},
		{From: i(s, ", 4"), To: i(s, ", 4") + 3},
	}}}}
	got, err := r.Apply(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "func f(a int) {}; f(1); f(3)"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRewriteFinishRejects(t *testing.T) {
	bad := errors.New("does not parse")
	r := &Rewrite{Src: []byte("(a)"), Changes: []Change{{Kind: "drop (", Edits: []Splice{{From: 0, To: 1}}}},
		Finish: func(b []byte) ([]byte, error) {
			if strings.Count(string(b), "(") != strings.Count(string(b), ")") {
				return nil, bad
			}
			return b, nil
		}}
	if _, err := r.Apply(nil); !errors.Is(err, bad) {
		t.Errorf("err = %v, want the Finish error", err)
	}
	if got, err := r.Apply([]int{0}); err != nil || string(got) != "(a)" {
		t.Errorf("nothing applied = %q, %v", got, err)
	}
}

func TestSplitCheck(t *testing.T) {
	p, err := Split(Chars([]byte("(a)")), func(b []byte) ([]byte, error) {
		if strings.Count(string(b), "(") != strings.Count(string(b), ")") {
			return nil, errors.New("unbalanced")
		}
		return []byte(strings.ToUpper(string(b))), nil
	}).Plan([]byte("(a)"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 3 {
		t.Fatalf("%d pieces", p.Len())
	}
	if _, err := p.Apply([]int{1, 2}); err == nil {
		t.Error("unbalanced candidate accepted")
	}
	if got, err := p.Apply([]int{0, 2}); err != nil || string(got) != "()" {
		t.Errorf("balanced candidate = %q, %v", got, err)
	}
	// The candidate is what finish makes of it.
	if got, err := p.Apply([]int{0, 1, 2}); err != nil || string(got) != "(A)" {
		t.Errorf("finished candidate = %q, %v", got, err)
	}
}
