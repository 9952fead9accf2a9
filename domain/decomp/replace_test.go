package decomp

import (
	"bytes"
	"errors"
	"testing"
)

// TestReplacements applies each proposed replacement alone, and all of
// them at once.
func TestReplacements(t *testing.T) {
	src := []byte(`total = compute(12, "label", [a, b]) + total; b = 7`)
	p, err := Replacements{}.Plan(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range p.Len() {
		keep := []int{}
		for j := range p.Len() {
			if j != i {
				keep = append(keep, j)
			}
		}
		out, err := p.Apply(keep)
		if err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
		if len(out) >= len(src) {
			t.Errorf("change %d does not shrink: %s", i, out)
		}
		got = append(got, string(out))
	}
	want := []string{
		// words, in order, to fresh names (a and b are used)
		`c = compute(12, "label", [a, b]) + c; b = 7`,
		`total = d(12, "label", [a, b]) + total; b = 7`,
		// numbers of two digits or more; strings
		`total = compute(0, "label", [a, b]) + total; b = 7`,
		`total = compute(1, "label", [a, b]) + total; b = 7`,
		`total = compute(12, "", [a, b]) + total; b = 7`,
		// groups by their first element
		`total = compute(12, "label", a) + total; b = 7`,
		`total = compute12 + total; b = 7`,
		// a call by its first argument
		`total = 12 + total; b = 7`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d changes, want %d:\n%q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d: got  %s\n          want %s", i, got[i], want[i])
		}
	}
	all, err := p.Apply(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The renames inside the kept first argument still apply.
	if string(all) != `c = 0 + c; b = 7` {
		t.Errorf("all at once: %s", all)
	}
}

func TestShortNames(t *testing.T) {
	s := shortNames(map[string]bool{"a": true, "c": true})
	for _, want := range []string{"b", "d", "e"} {
		if got := s.next(5); got != want {
			t.Errorf("next = %q, want %q", got, want)
		}
	}
	if got := s.next(1); got != "" {
		t.Errorf("a name shorter than 1: %q", got)
	}
	s = shortNames(map[string]bool{})
	for range 26 {
		s.next(3)
	}
	if got := s.next(3); got != "aa" {
		t.Errorf("27th name = %q, want aa", got)
	}
}

// TestReplacementsFinish: with Finish, a candidate it rejects (source
// that no longer parses) is an error of Apply, as in the syntax passes.
func TestReplacementsFinish(t *testing.T) {
	src := []byte(`f(alpha, "text") + g(beta)`)
	reject := errors.New("does not parse")
	p, err := Replacements{Finish: func(b []byte) ([]byte, error) {
		if bytes.Contains(b, []byte(`""`)) {
			return nil, reject
		}
		return b, nil
	}}.Plan(src)
	if err != nil {
		t.Fatal(err)
	}
	rejected, accepted := 0, 0
	for i := range p.Len() {
		var keep []int
		for j := range p.Len() {
			if j != i {
				keep = append(keep, j)
			}
		}
		if _, err := p.Apply(keep); errors.Is(err, reject) {
			rejected++
		} else if err == nil {
			accepted++
		}
	}
	if rejected == 0 || accepted == 0 {
		t.Errorf("%d candidates rejected, %d accepted: Finish not applied", rejected, accepted)
	}
}

func TestUnwrap(t *testing.T) {
	src := "job \"x\" {\n  group \"y\" {\n    a = [1, 2]\n  }\n  b = {}\n}\n"
	p, err := Unwrap{}.Plan([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// job, group, the list; not the empty group.
	if p.Len() != 3 {
		t.Fatalf("%d changes, want 3", p.Len())
	}
	for _, tc := range []struct {
		keep []int
		want string
	}{
		{[]int{1, 2}, "\n  group \"y\" {\n    a = [1, 2]\n  }\n  b = {}\n\n"},
		{[]int{0, 2}, "job \"x\" {\n  \n    a = [1, 2]\n  \n  b = {}\n}\n"},
		{[]int{0, 1}, "job \"x\" {\n  group \"y\" {\n    1, 2\n  }\n  b = {}\n}\n"}, // a header to the line's start
		{nil, "\n  \n    1, 2\n  \n  b = {}\n\n"},
	} {
		got, err := p.Apply(tc.keep)
		if err != nil || string(got) != tc.want {
			t.Errorf("keep %v: %q, %v; want %q", tc.keep, got, err, tc.want)
		}
	}
}
