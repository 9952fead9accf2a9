package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Refusals and causes: what wynot says, with which exit status, when it
// must not or cannot go on, and that it then changes nothing.

// TestCacheRefusesOtherFiles: --cache names a file that is not a cache
// (a text, another program's JSON): wynot says so in one line, exits 1,
// and the file keeps every byte. A cache wynot made is used again.
func TestCacheRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	for name, content := range map[string]string{
		"notes.txt":   strings.Repeat("A line of someone's notes, not a cache.\n", 500),
		"config.json": `{"key":"value","outcome":"yes"}` + "\n",
	} {
		path := filepath.Join(dir, name)
		write(t, path, []byte(content))
		r := wynotRun(t, dir, nil, "reduce", "--cache", name, "-o", "out", "in", "--", prog("mystery"), "{}")
		if r.code != 1 || !strings.Contains(r.stderr, name+": not a wynot cache") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("--cache %s: exit %d, stderr:\n%s\nwant exit 1 and one line saying it is not a wynot cache", name, r.code, r.stderr)
		}
		if got := read(t, path); !bytes.Equal(got, []byte(content)) {
			t.Errorf("--cache %s: the file changed from %d to %d bytes", name, len(content), len(got))
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("--cache %s: a result was written", name)
		}
	}
	// An empty file becomes a cache, and the next run reads it. (A
	// calibrated timeout is part of what a cached outcome answers: it is
	// given, so that the two runs ask the same question however long the
	// original takes on a busy machine.)
	write(t, filepath.Join(dir, "empty"), nil)
	for i := range 2 {
		r := wynotRun(t, dir, nil, "reduce", "--json", "-q", "--timeout", "20s", "--cache", "empty", "-o", "out", "in", "--", prog("mystery"), "{}")
		if r.code != 0 {
			t.Fatalf("run %d with an empty --cache file: exit %d\n%s", i+1, r.code, r.stderr)
		}
		if s := r.summary(t); i == 1 && s.Tests != s.Checks {
			t.Errorf("the second run made %d tests besides its %d checks: the cache was not read", s.Tests-s.Checks, s.Checks)
		}
	}
}
