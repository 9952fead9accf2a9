package filetree

import (
	"fmt"
	"testing"
)

func TestEntries(t *testing.T) {
	paths := []string{"b/x/1", "a", "", "b/y", "b/x/2", "c/z"}
	if n := Levels(paths); n != 3 {
		t.Errorf("Levels %d, want 3", n)
	}
	for d, want := range []string{
		"[a b c] map[a:[1] b:[0 3 4] c:[5]]",
		"[b/x b/y c/z] map[b/x:[0 4] b/y:[3] c/z:[5]]",
		"[b/x/1 b/x/2] map[b/x/1:[0] b/x/2:[4]]",
		"[] map[]",
	} {
		names, members := Entries(paths, d)
		if got := fmt.Sprint(names, members); got != want && !(len(names) == 0 && want == "[] map[]") {
			t.Errorf("level %d: %s, want %s", d, got, want)
		}
	}
	for _, c := range []struct {
		rel, target string
		want        bool
	}{
		{"a/l", "../b", false}, {"a/l", "../../b", true}, {"l", "..", true}, {"l", "/etc", true}, {"a/b/l", "../c/../d", false},
	} {
		if got := Escapes(c.rel, c.target); got != c.want {
			t.Errorf("Escapes(%s, %s) = %v", c.rel, c.target, got)
		}
	}
}
