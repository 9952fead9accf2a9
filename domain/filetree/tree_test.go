package filetree

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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

// TestReadTreeDirs: the directories that hold nothing of the tree are
// read, and written back by WriteTree; one holding only version control
// metadata counts as empty, one holding an empty one does not.
func TestReadTreeDirs(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"out", "a/b/c", "a/d", "vcs/.git", "src"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "src", "x.go"), []byte("package x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a", "d", "y.txt"), []byte("y"), 0o644)
	tr, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/b/c", "out", "vcs"}; !slices.Equal(tr.Dirs, want) {
		t.Errorf("Dirs = %q, want %q", tr.Dirs, want)
	}
	out := t.TempDir()
	if err := WriteTree(out, tr, nil); err != nil {
		t.Fatal(err)
	}
	again, err := ReadTree(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Dirs, tr.Dirs) || !slices.Equal(again.Paths(), tr.Paths()) {
		t.Errorf("written and read again: %q %q, want %q %q", again.Dirs, again.Paths(), tr.Dirs, tr.Paths())
	}
}

// TestWorkspacesSync: a work directory synced to a content holds the
// base with that content in place, and synced again to another, only
// that one.
func TestWorkspacesSync(t *testing.T) {
	base := &Tree{Files: map[string]*File{
		"a.txt":     {Data: []byte("a\n"), Mode: 0o644},
		"sub/b.txt": {Data: []byte("b\n"), Mode: 0o755},
	}}
	ws := NewWorkspaces(base)
	dir := t.TempDir()
	var copied []string
	ws.OnCopy(func(d string, done, total int) { copied = append(copied, fmt.Sprint(d == dir, done, total)) })
	if err := ws.Sync(dir, map[string]*File{"a.txt": nil, "c.txt": {Data: []byte("c"), Mode: 0o600}}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(copied) != "[true 2 2]" {
		t.Errorf("the copy said %q", copied)
	}
	got, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ps := got.Paths(); len(ps) != 2 || ps[0] != "c.txt" || ps[1] != "sub/b.txt" || got.Files["sub/b.txt"].Mode != 0o755 {
		t.Errorf("after the first sync: %v", ps)
	}
	if err := ws.Sync(dir, map[string]*File{"sub/b.txt": {Data: []byte("B"), Mode: 0o755}}); err != nil {
		t.Fatal(err)
	}
	got, _ = ReadTree(dir)
	if ps := got.Paths(); len(ps) != 2 || string(got.Files["a.txt"].Data) != "a\n" || string(got.Files["sub/b.txt"].Data) != "B" {
		t.Errorf("after the second sync: %v", ps)
	}
}

// TestIdentity: equal contents have equal identities, and an absent
// file differs from an empty one.
func TestIdentity(t *testing.T) {
	a := Identity(map[string]*File{"x": {Data: []byte("1")}, "y": nil})
	b := Identity(map[string]*File{"y": nil, "x": {Data: []byte("1")}})
	c := Identity(map[string]*File{"x": {Data: []byte("1")}, "y": {}})
	if string(a) != string(b) || string(a) == string(c) {
		t.Errorf("identities: %q %q %q", a, b, c)
	}
}

// TestWriteTree: a tree written into an empty directory reads back as
// itself, and progress counts every file.
func TestWriteTree(t *testing.T) {
	tr := &Tree{Files: map[string]*File{
		"a.txt":       {Data: []byte("a\n"), Mode: 0o644},
		"sub/b.sh":    {Data: []byte("b\n"), Mode: 0o755},
		"sub/c/d.txt": {Data: []byte("d\n"), Mode: 0o600},
		"sub/link":    {Mode: fs.ModeSymlink | 0o777, Link: "b.sh"},
	}}
	dir := t.TempDir()
	var calls []int
	if err := WriteTree(dir, tr, func(done, total int) { calls = append(calls, done, total) }); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if string(Identity(got.Files)) != string(Identity(tr.Files)) {
		t.Errorf("read back: %v", got.Paths())
	}
	if fmt.Sprint(calls) != "[1 4 2 4 3 4 4 4]" {
		t.Errorf("progress: %v", calls)
	}
}

// TestReadTreeMany: a tree of many files, empty to 20 KB, read by
// several goroutines, reads back as written.
func TestReadTreeMany(t *testing.T) {
	tr := &Tree{Files: map[string]*File{}}
	for i := range 500 {
		tr.Files[fmt.Sprintf("d%d/f%03d", i%7, i)] = &File{Data: bytes.Repeat([]byte{byte(i)}, (i*i*37)%20000), Mode: []fs.FileMode{0o644, 0o755, 0o600}[i%3]}
	}
	dir := t.TempDir()
	if err := WriteTree(dir, tr, nil); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Identity(got.Files), Identity(tr.Files)) {
		t.Errorf("read back %d files, not what was written", len(got.Files))
	}
}

// TestWriteTreeKeepsModes: a tree written out (the copy of an original
// kept in DIR.orig) has its files' permissions, group and other write
// bits too, whatever the process's umask takes off new files.
func TestWriteTreeKeepsModes(t *testing.T) {
	dir := t.TempDir()
	tr := &Tree{Files: map[string]*File{
		"a.txt":     {Data: []byte("a"), Mode: 0o664},
		"sub/b.sh":  {Data: []byte("b"), Mode: 0o775},
		"sub/c.txt": {Data: []byte("c"), Mode: 0o600},
	}}
	if err := WriteTree(dir, tr, nil); err != nil {
		t.Fatal(err)
	}
	for p, f := range tr.Files {
		st, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != f.Mode.Perm() {
			t.Errorf("%s: mode %v, want %v (umask %v)", p, st.Mode().Perm(), f.Mode.Perm(), umask())
		}
	}
}
