package chain

import "testing"

func TestParseAt(t *testing.T) {
	for _, c := range []struct {
		in   string
		want at
		err  bool
	}{
		{"main.go:12", at{file: "main.go", line: 12, n: 1}, false},
		{"./pkg/x.go:3#4", at{file: "pkg/x.go", line: 3, n: 4}, false},
		{"C:/x.c:7", at{file: "C:/x.c", line: 7, n: 1}, false},
		{"main.go", at{}, true},
		{"main.go:0", at{}, true},
		{"main.go:x", at{}, true},
		{"main.go:3#0", at{}, true},
		{":3", at{}, true},
	} {
		got, err := parseAt(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("parseAt(%q) = %+v, %v; want %+v (error %v)", c.in, got, err, c.want, c.err)
		}
	}
}

func tr(from uint64, kind, fn string, over ...string) Transition {
	return Transition{FromStep: from, ToStep: from + 1, Kind: kind, Func: fn, Overwritten: over,
		Where: "f.go:1 → f.go:2", Before: []string{"a"}, After: []string{"b"}}
}

// TestSuggest: an overwrite first, then a divergence the cause decides,
// then a statement; the first of the kind found.
func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		trans []Transition
		want  uint64
	}{
		{[]Transition{tr(1, "statement", "f"), tr(5, "diverges", "g"), tr(9, "statement", "h", "x"), tr(12, "statement", "h", "y")}, 9},
		{[]Transition{tr(1, "statement", "f"), tr(5, "call", "g"), tr(9, "diverges", "h"), tr(12, "diverges", "h")}, 9},
		{[]Transition{tr(1, "call", "f"), tr(5, "statement", "g"), tr(9, "statement", "h")}, 5},
		{[]Transition{tr(3, "return", "f"), tr(5, "call", "g")}, 3},
	} {
		ch := &Chain{trans: c.trans}
		ch.suggest()
		var got []uint64
		for _, t := range ch.trans {
			if t.Suggested {
				got = append(got, t.FromStep)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("suggested %v, want %d", got, c.want)
		}
	}
}

// TestRows: three or more plain transitions in a row are one row; a
// suggested, overwriting or diverging one stands alone.
func TestRows(t *testing.T) {
	s := tr(20, "statement", "m")
	s.Suggested = true
	trans := []Transition{tr(1, "statement", "f"), tr(2, "call", "g"), tr(3, "return", "f"), tr(4, "statement", "f"),
		s, tr(21, "statement", "m"), tr(22, "statement", "m"), tr(30, "diverges", "m")}
	rs := rows(trans)
	var sizes []int
	for _, r := range rs {
		sizes = append(sizes, r.n)
	}
	if len(sizes) != 5 || sizes[0] != 4 || sizes[1] != 1 || sizes[2] != 1 || sizes[3] != 1 || sizes[4] != 1 {
		t.Errorf("rows of %v", sizes)
	}
	if len(rs[0].funcs) != 2 || rs[0].first.FromStep != 1 || rs[0].last.ToStep != 5 {
		t.Errorf("first row %+v", rs[0])
	}
}
