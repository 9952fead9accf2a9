package isolate

import (
	"slices"
	"testing"
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
