package dd

import (
	"slices"
	"testing"
)

func TestAllBut(t *testing.T) {
	cases := []struct {
		n    int
		skip []int
		want Config
	}{
		{4, nil, Config{0, 1, 2, 3}},
		{4, []int{2}, Config{0, 1, 3}},
		{4, []int{3, 0}, Config{1, 2}},
		{2, []int{0, 1}, Config{}},
		{0, nil, Config{}},
	}
	for _, c := range cases {
		if got := AllBut(c.n, c.skip...); !slices.Equal(got, c.want) {
			t.Errorf("AllBut(%d, %v) = %v, want %v", c.n, c.skip, got, c.want)
		}
	}
}
