package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReduceReplacements: on text in no known language, replacing a
// word consistently at each occurrence reaches a smaller result than
// deletion alone (--split text), which cannot shorten both occurrences
// of a name at once.
func TestReduceReplacements(t *testing.T) {
	e2e(t)
	t.Parallel()
	const input = "# settings\nconfiguration_value = 1234;\nother_setting = 5;\nprint(configuration_value);\n"
	// The failure: a name is set to a number of two digits or more and
	// printed later.
	script := "#!/bin/sh\ntr '\\n' ' ' < in.txt | grep -Eq '(^|[^A-Za-z_])([A-Za-z_]+) = [1-9][0-9]+;.*print\\(\\2\\)'\n"
	run := func(split string) string {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "in.txt"), []byte(input))
		write(t, filepath.Join(dir, "test.sh"), []byte(script))
		os.Chmod(filepath.Join(dir, "test.sh"), 0o755)
		r := wynotRun(t, dir, nil, "reduce", "--json", "--split", split, "--test", "./test.sh", "in.txt")
		if r.code != 0 {
			t.Fatalf("--split %s: exit %d:\n%s", split, r.code, r.stderr)
		}
		if s := r.summary(t); !s.Minimal || !s.Confirmed {
			t.Errorf("--split %s: minimal %v, confirmed %v", split, s.Minimal, s.Confirmed)
		}
		return string(read(t, filepath.Join(dir, "in.txt")))
	}
	deletion, replaced := run("text"), run("auto")
	t.Logf("deletion alone: %q; with replacements: %q", deletion, replaced)
	if replaced != "a = 10;print(a)" {
		t.Errorf("with replacements: %q, want %q", replaced, "a = 10;print(a)")
	}
	if len(replaced) >= len(deletion) {
		t.Errorf("replacements (%q) are not smaller than deletion alone (%q)", replaced, deletion)
	}
}
