package main

import (
	"path/filepath"
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
