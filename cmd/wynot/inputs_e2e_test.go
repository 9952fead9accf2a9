package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReduceDashName: an input whose name starts with "-" is given after
// a "--" of its own, which ends wynot's flags; the second "--" starts
// the test command.
func TestReduceDashName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "-n.txt")
	write(t, in, []byte(mysteryInput))
	r := wynotRun(t, dir, nil, "reduce", "-q", "--", "-n.txt", "--", prog("mystery"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, in)); got != "()" {
		t.Errorf("-n.txt holds %q, want ()", got)
	}
	if got := string(read(t, in+".orig")); got != mysteryInput {
		t.Errorf("-n.txt.orig holds %q", got)
	}
}

// TestReduceNewlineName: a file name with a newline is quoted in
// messages as Go quotes it, so that each message stays one line; a
// plain name is written as it is.
func TestReduceNewlineName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "a\nb.txt")
	write(t, in, []byte(mysteryInput))
	write(t, filepath.Join(dir, "plain name.txt"), []byte(mysteryInput))
	r := wynotRun(t, dir, nil, "reduce", "a\nb.txt", "plain name.txt", "--", prog("mystery"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
		if !strings.HasPrefix(l, "wynot: ") && !strings.HasPrefix(l, "reduce: ") {
			t.Errorf("a message spans lines: %q\n%s", l, r.stderr)
		}
	}
	for _, want := range []string{`"a\nb.txt" now holds the result; the original is in "a\nb.txt.orig"`,
		"plain name.txt now holds the result; the original is in plain name.txt.orig"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %s:\n%s", want, r.stderr)
		}
	}
	if got := string(read(t, in)); got != "()" {
		t.Errorf("the input holds %q, want ()", got)
	}
}
