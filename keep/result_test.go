package keep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeResult is the Result of the directory tree replaced in place, as
// OpenTree reads it.
func treeResult(t *testing.T) *Result {
	t.Helper()
	tr, es, _, err := OpenTree("tree", "")
	if err != nil {
		t.Fatal(err)
	}
	return &Result{Tree: tr, Entries: es}
}

// A tree's result is written as it shrinks, a change of several files
// at once as one; Restart brings back every original, removed files
// too; a result left as the original drops the backup it made.
func TestResultTree(t *testing.T) {
	inDir(t)
	write(t, "tree/a.txt", "aaa\n")
	write(t, "tree/d/b.txt", "bbb\n")
	r := treeResult(t)
	if err := r.KeepOriginals(); err != nil {
		t.Fatal(err)
	}
	if r.Changed() || r.Size() != 8 {
		t.Fatalf("before any change: changed %v, size %d", r.Changed(), r.Size())
	}
	a, b := r.Entries[0], r.Entries[1]
	a.Data, a.Dirty = []byte("a\n"), true
	b.Removed, b.Dirty = true, true
	if err := r.SaveTogether([]*Entry{a, b}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, "tree/a.txt"); got != "a\n" {
		t.Errorf("a.txt holds %q", got)
	}
	if _, err := os.Stat("tree/d"); !os.IsNotExist(err) {
		t.Errorf("the directory b.txt left empty stays: %v", err)
	}
	if _, err := os.Stat(PendingPath("tree")); !os.IsNotExist(err) {
		t.Errorf("the journal stays: %v", err)
	}
	if !r.Changed() || r.Size() != 2 || a.Dirty || b.Dirty {
		t.Errorf("after the change: changed %v, size %d, dirty %v %v", r.Changed(), r.Size(), a.Dirty, b.Dirty)
	}
	if got := fmt.Sprint(r.Where()); got != "[tree now holds the result (a.txt); the original is in tree.orig]" {
		t.Errorf("Where: %s", got)
	}
	if got := read(t, "tree.orig/d/b.txt"); got != "bbb\n" {
		t.Errorf("tree.orig/d/b.txt holds %q", got)
	}
	if err := r.Restart(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, "tree/a.txt") + read(t, "tree/d/b.txt"); got != "aaa\nbbb\n" || r.Changed() {
		t.Errorf("after Restart the tree holds %q, changed %v", got, r.Changed())
	}
	if got := fmt.Sprint(r.Where()); got != "[tree is unchanged: nothing smaller fails]" {
		t.Errorf("Where after Restart: %s", got)
	}
	r.DropBackups()
	if _, err := os.Stat("tree.orig"); !os.IsNotExist(err) {
		t.Errorf("tree.orig stays although the tree is the original: %v", err)
	}
}

// Files on their own: a result that goes elsewhere (-o) is written by
// Flush even when it is the original; one replaced in place is not
// written when unchanged, and its backup goes.
func TestResultFiles(t *testing.T) {
	inDir(t)
	write(t, "in.txt", "xyz\n")
	write(t, "other.txt", "123\n")
	in, other := open(t, "in.txt"), open(t, "other.txt")
	if _, err := Place([]*File{in}, "out.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := Place([]*File{other}, ""); err != nil {
		t.Fatal(err)
	}
	r := &Result{Entries: []*Entry{{File: in, Data: []byte("xyz\n")}, {File: other, Data: []byte("123\n")}}}
	if err := r.KeepOriginals(); err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Entries {
		if err := r.Flush(e); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, "out.txt"); got != "xyz\n" {
		t.Errorf("out.txt holds %q", got)
	}
	if other.Written() {
		t.Errorf("other.txt, unchanged, was written")
	}
	r.DropBackups()
	if got := fmt.Sprint(r.Where()); got != "[result written to out.txt other.txt is unchanged: nothing smaller fails]" {
		t.Errorf("Where: %s", got)
	}
	if _, err := os.Stat("other.txt.orig"); !os.IsNotExist(err) {
		t.Errorf("other.txt.orig stays: %v", err)
	}
	r.Entries[1].Data, r.Entries[1].Dirty = []byte("1\n"), true
	if err := r.Save(r.Entries[1], true); err != nil || read(t, "other.txt") != "1\n" {
		t.Errorf("Save: %v, other.txt holds %q", err, read(t, "other.txt"))
	}
}

// Read and OpenTree refuse what cannot be reduced, with the reason.
func TestOpenRefusals(t *testing.T) {
	dir := inDir(t)
	write(t, "a/x.txt", "x")
	write(t, "b/x.txt", "y")
	write(t, "empty.txt", "")
	if err := os.Mkdir("none", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{"a"}, "input a is a directory; give files"},
		{[]string{"empty.txt"}, "input empty.txt is empty: nothing to reduce"},
		{[]string{"a/x.txt", "b/x.txt"}, "inputs a/x.txt and b/x.txt have the same name"},
		{[]string{"missing.txt"}, "input missing.txt: no such file or directory"},
	} {
		if _, err := Read(c.paths); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Read(%q): %v, want %q", c.paths, err, c.want)
		}
	}
	if es, err := Read([]string{"a/x.txt"}); err != nil || len(es) != 1 || es[0].Name != "x.txt" || string(es[0].Data) != "x" {
		t.Errorf("Read(a/x.txt): %v", err)
	}
	for _, c := range []struct {
		dir, output, want string
	}{
		{"none", "", "input none holds no files: nothing to reduce"},
		{".", "", "is the current directory, or holds it"},
		{dir, "", "is the current directory, or holds it"},
	} {
		if _, _, _, err := OpenTree(c.dir, c.output); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenTree(%s, %q): %v, want %q", c.dir, c.output, err, c.want)
		}
	}
	write(t, "a/.git/HEAD", "ref")
	tr, es, notes, err := OpenTree("a", "")
	if err != nil || tr.Dest != "a" || len(es) != 1 || es[0].Dest != filepath.Join("a", "x.txt") || len(notes) != 1 || !strings.Contains(notes[0], ".git is left out") {
		t.Errorf("OpenTree(a): %v, %d entries, notes %q", err, len(es), notes)
	}
}

// A run killed while it wrote a change of several files to a tree
// replaced in place, after its journal and before its last file: the
// next run finishes the change, and takes DIR.orig for the original
// still, since the lineage named the change being written.
func TestTreeKilledWriting(t *testing.T) {
	inDir(t)
	write(t, "tree/a.txt", "aaa\n")
	write(t, "tree/b.txt", "bbb\n")
	write(t, "tree/d/c.txt", "ccc\n")
	r := treeResult(t)
	if err := r.KeepOriginals(); err != nil {
		t.Fatal(err)
	}
	a, c := r.Entries[0], r.Entries[2]
	a.Data, a.Dirty = []byte("a\n"), true
	c.Removed, c.Dirty = true, true
	changed := []*Entry{a, c}
	// What saveTree does, killed after the first file.
	r.Tree.Record(r.Tree.next(changed).String())
	cs := []Change{{Name: a.Name, Data: a.Data, Mode: a.Mode}, {Name: c.Name, Removed: true}}
	err := r.Tree.Journal(cs, func() error {
		if err := r.write(a, false); err != nil {
			return err
		}
		return os.ErrClosed // killed
	})
	if err == nil {
		t.Fatal("the journal finished")
	}
	if got := read(t, "tree/a.txt"); got != "a\n" {
		t.Fatalf("a.txt holds %q", got)
	}
	tr, es, notes, err := OpenTree("tree", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "the change is now written") || !strings.Contains(notes[1], "tree.orig holds the original of an interrupted reduction of tree") {
		t.Errorf("the next run says %q", notes)
	}
	if tr.Backup != "tree.orig" || len(es) != 2 {
		t.Errorf("the next run keeps the original in %q and reduces %d files", tr.Backup, len(es))
	}
	if _, err := os.Stat("tree/d"); !os.IsNotExist(err) {
		t.Errorf("the removal was not finished: %v", err)
	}
}
