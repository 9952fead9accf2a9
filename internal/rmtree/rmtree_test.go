package rmtree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveAllReadOnly: a tree with a read-only directory holding a
// file, as a module cache leaves, is removed.
func TestRemoveAllReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tree")
	ro := filepath.Join(dir, "mod", "ro")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ro, "f"), []byte("x"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	if err := RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", dir, err)
	}
}
