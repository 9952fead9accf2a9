package command

import (
	"slices"
	"testing"
)

func TestShellSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"  a  b ", []string{"a", "b"}, false},
		{`alice=90 'bob smith=50' "carol \"c\"=60"`, []string{"alice=90", "bob smith=50", `carol "c"=60`}, false},
		{`a\ b '' "x\y"`, []string{"a b", "", `x\y`}, false},
		{`'$HOME' "$HOME"`, []string{"$HOME", "$HOME"}, false},
		{`'open`, nil, true},
		{`"open`, nil, true},
		{`end\`, nil, true},
	} {
		got, err := ShellSplit(c.in)
		if (err != nil) != c.err || !slices.Equal(got, c.want) {
			t.Errorf("ShellSplit(%q) = %q, %v; want %q (error %v)", c.in, got, err, c.want, c.err)
		}
	}
}
