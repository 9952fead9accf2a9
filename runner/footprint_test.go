package runner

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestFootprint: files made, changed and removed are seen; a repository's
// data and Python's bytecode cache are not looked at.
func TestFootprint(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("keep.txt", "a")
	write("change.txt", "a")
	write("gone.txt", "a")
	write("sub/keep.go", "package sub")
	before := TakeFootprint(dir)
	if got := before.Changed(TakeFootprint(dir)); len(got) != 0 {
		t.Fatalf("nothing written, changed: %q", got)
	}
	past := time.Now().Add(-time.Hour)
	write("change.txt", "b")
	os.Chtimes(filepath.Join(dir, "change.txt"), past, past) // a change of content shows in the size too
	write("change.txt", "bb")
	os.Remove(filepath.Join(dir, "gone.txt"))
	write("sub/a.out", "elf")
	write(".git/index", "x")
	write("__pycache__/m.pyc", "x")
	got := before.Changed(TakeFootprint(dir))
	if want := []string{"change.txt", "gone.txt", "sub/a.out"}; !slices.Equal(got, want) {
		t.Errorf("changed %q, want %q", got, want)
	}
}
