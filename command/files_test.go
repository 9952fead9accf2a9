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

func TestEndOfFlags(t *testing.T) {
	for _, c := range []struct {
		pos, argv       []string
		inputs, command []string
	}{
		// One "--": it starts the command, as always.
		{[]string{"a.txt"}, []string{"prog", "{}"}, []string{"a.txt"}, []string{"prog", "{}"}},
		{nil, []string{"prog", "{}"}, nil, []string{"prog", "{}"}},
		// No input before the first "--" of two: it ends the flags.
		{nil, []string{"-n.txt", "--", "prog", "{}"}, []string{"-n.txt"}, []string{"prog", "{}"}},
		{nil, []string{"b.txt", "-n.txt", "--", "prog"}, []string{"b.txt", "-n.txt"}, []string{"prog"}},
		// An input before it: the first "--" starts the command, which
		// has one of its own ...
		{[]string{"main.rs"}, []string{"cargo", "run", "--", "{}"}, []string{"main.rs"}, []string{"cargo", "run", "--", "{}"}},
		// ... unless the word after it starts with "-", which no
		// command does.
		{[]string{"a.txt"}, []string{"-n.txt", "--", "prog"}, []string{"a.txt", "-n.txt"}, []string{"prog"}},
		{[]string{"a.txt"}, []string{"--", "prog"}, []string{"a.txt"}, []string{"prog"}},
	} {
		inputs, command := endOfFlags(c.pos, c.argv)
		if !slices.Equal(inputs, c.inputs) || !slices.Equal(command, c.command) {
			t.Errorf("endOfFlags(%q, %q) = %q, %q; want %q, %q", c.pos, c.argv, inputs, command, c.inputs, c.command)
		}
	}
}
