package report

import (
	"strings"
	"testing"
)

func TestDraw(t *testing.T) {
	for _, c := range []struct {
		c    []int
		n    int
		want string
	}{
		{nil, 4, "...."},
		{[]int{0, 2}, 4, "1.3."},
		{[]int{9, 10}, 12, ".........01."},
	} {
		if got := Draw(c.c, c.n); got != c.want {
			t.Errorf("Draw(%v, %d) = %q, want %q", c.c, c.n, got, c.want)
		}
	}
	// Over 100 changes, a mark per run: all, some, none.
	c := make([]int, 0, 300)
	for i := range 150 {
		c = append(c, i)
	}
	c = append(c, 151)
	got := Draw(c, 300)
	if !strings.HasPrefix(got, strings.Repeat("#", 50)+"+"+strings.Repeat(".", 49)+" (151 of 300)") {
		t.Errorf("drawConfig over 300 = %q", got)
	}
}
