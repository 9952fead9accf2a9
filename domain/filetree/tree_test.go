package filetree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadTreeSkipsGit(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o755)
	os.Symlink("a.go", filepath.Join(dir, "link"))
	tr, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Files) != 2 || tr.Files["a.go"].Mode.Perm() != 0o755 || tr.Files["link"].Link != "a.go" {
		t.Errorf("tree %v", tr.Paths())
	}
}
