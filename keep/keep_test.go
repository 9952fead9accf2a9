package keep

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wynot/wynot/domain/filetree"
)

// inDir runs the test in a new directory, with a cache directory of its
// own for the lineages.
func inDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache"))
	return dir
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func open(t *testing.T, p string) *File {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return NewFile(p, filepath.Base(p), data, 0o644)
}

// A file replaced in place keeps its original in FILE.orig; a run that
// wrote nothing removes the backup it made; a later run takes FILE.orig
// for its original only when the lineage says it is the original of an
// interrupted run on that very file.
func TestFileInPlace(t *testing.T) {
	inDir(t)
	write(t, "in.txt", "original\n")
	f := open(t, "in.txt")
	if notes, err := Place([]*File{f}, ""); err != nil || len(notes) > 0 {
		t.Fatalf("Place: %v %q", err, notes)
	}
	if f.Dest != "in.txt" || f.Backup != "in.txt.orig" {
		t.Fatalf("dest %q backup %q", f.Dest, f.Backup)
	}
	if err := f.KeepOriginal(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, "in.txt.orig"); got != "original\n" {
		t.Fatalf("in.txt.orig holds %q", got)
	}
	if err := f.Write([]byte("smaller\n"), true); err != nil {
		t.Fatal(err)
	}
	if got := read(t, "in.txt"); got != "smaller\n" {
		t.Fatalf("in.txt holds %q", got)
	}
	if orig, err := f.Original(); err != nil || string(orig) != "original\n" {
		t.Fatalf("Original: %q %v", orig, err)
	}
	f.DropBackup() // it wrote a result: the backup stays
	if _, err := os.Stat("in.txt.orig"); err != nil {
		t.Fatalf("the backup of a changed file went: %v", err)
	}

	// Interrupted there: the next run continues from in.txt, and keeps
	// in.txt.orig as the original.
	g := open(t, "in.txt")
	notes, err := Place([]*File{g}, "")
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "holds the original of an interrupted reduction of in.txt") {
		t.Fatalf("second run: %v %q", err, notes)
	}
	if g.Backup != "in.txt.orig" {
		t.Fatalf("second run keeps the original in %q", g.Backup)
	}

	// Changed by hand since: in.txt.orig is someone else's.
	write(t, "in.txt", "edited\n")
	h := open(t, "in.txt")
	notes, err = Place([]*File{h}, "")
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "is not the original of in.txt; the original will be kept in in.txt.orig.1") {
		t.Fatalf("third run: %v %q", err, notes)
	}
	if err := h.KeepOriginal(); err != nil {
		t.Fatal(err)
	}
	h.DropBackup() // nothing written: the backup it made goes
	if _, err := os.Stat("in.txt.orig.1"); !os.IsNotExist(err) {
		t.Fatalf("the backup of an unchanged file stays: %v", err)
	}
	if got := read(t, "in.txt.orig"); got != "original\n" {
		t.Fatalf("in.txt.orig changed: %q", got)
	}
}

// Results go into -o: a file for one input, a directory (made) for
// several; an input that is not a regular file gets NAME.reduced.
func TestPlace(t *testing.T) {
	dir := inDir(t)
	write(t, "a.txt", "a")
	write(t, "b.txt", "b")
	a, b := open(t, "a.txt"), open(t, "b.txt")
	if _, err := Place([]*File{a, b}, "out"); err != nil {
		t.Fatal(err)
	}
	if a.Dest != filepath.Join("out", "a.txt") || b.Dest != filepath.Join("out", "b.txt") || a.Backup != "" {
		t.Fatalf("dests %q %q, backup %q", a.Dest, b.Dest, a.Backup)
	}
	if st, err := os.Stat("out"); err != nil || !st.IsDir() {
		t.Fatalf("-o for several inputs made no directory: %v", err)
	}
	write(t, "file", "x")
	if _, err := Place([]*File{a, b}, "file"); err == nil || !strings.Contains(err.Error(), "with several inputs, -o names a directory") {
		t.Fatalf("-o naming a file for two inputs: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "a.txt"), "link.txt"); err != nil {
		t.Fatal(err)
	}
	l := NewFile("link.txt", "link.txt", []byte("a"), 0o644)
	notes, err := Place([]*File{l}, "")
	if err != nil || l.Dest != "link.txt.reduced" || l.Backup != "" || len(notes) != 1 {
		t.Fatalf("a symbolic link: %v dest %q backup %q notes %q", err, l.Dest, l.Backup, notes)
	}
}

// A change to several files of a tree replaced in place is journaled:
// a run killed while writing leaves DIR.wynot-pending, which the next
// run finishes before reading the tree; an unreadable or escaping
// journal is refused.
func TestJournal(t *testing.T) {
	inDir(t)
	write(t, "tree/a/one.txt", "one\n")
	write(t, "tree/a/two.txt", "two\n")
	tr, _, _, err := OpenTree("tree", "")
	if err != nil {
		t.Fatal(err)
	}
	cs := []Change{{Name: "a/one.txt", Data: []byte("1\n"), Mode: 0o644}, {Name: "a/two.txt", Removed: true}}
	var during bool
	err = tr.Journal(cs, func() error {
		_, err := os.Stat(PendingPath("tree"))
		during = err == nil
		return os.ErrClosed // killed while writing, as far as the journal knows
	})
	if err == nil || !during {
		t.Fatalf("journal: %v, pending while writing: %v", err, during)
	}
	note, err := FinishPending("tree")
	if err != nil || !strings.Contains(note, "the change is now written") {
		t.Fatalf("FinishPending: %v %q", err, note)
	}
	if got := read(t, "tree/a/one.txt"); got != "1\n" {
		t.Errorf("one.txt holds %q", got)
	}
	if _, err := os.Stat("tree/a/two.txt"); !os.IsNotExist(err) {
		t.Errorf("two.txt not removed: %v", err)
	}
	if _, err := os.Stat(PendingPath("tree")); !os.IsNotExist(err) {
		t.Errorf("the journal stays: %v", err)
	}
	if note, err := FinishPending("tree"); note != "" || err != nil {
		t.Errorf("nothing pending: %q %v", note, err)
	}
	write(t, PendingPath("tree"), "{")
	if _, err := FinishPending("tree"); err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("an unreadable journal: %v", err)
	}
	data, _ := json.Marshal([]Change{{Name: "../outside.txt", Data: []byte("x")}})
	write(t, PendingPath("tree"), string(data))
	if _, err := FinishPending("tree"); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("a journal naming a file outside the tree: %v", err)
	}
	if _, err := os.Stat("outside.txt"); !os.IsNotExist(err) {
		t.Errorf("outside.txt written: %v", err)
	}
}

// A tree replaced in place keeps its original in DIR.orig, whose
// lineage lets an interrupted run go on; -o must be outside the tree
// and empty.
func TestTreeInPlace(t *testing.T) {
	inDir(t)
	write(t, "tree/x.txt", "x\n")
	abs, _ := filepath.Abs("tree")
	base, _ := filetree.ReadTree(abs)
	if _, _, err := PlaceTree("tree", abs, base, "tree/out"); err == nil || !strings.Contains(err.Error(), "outside the input tree") {
		t.Fatalf("-o inside the tree: %v", err)
	}
	write(t, "full/f", "f")
	if _, _, err := PlaceTree("tree", abs, base, "full"); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("-o not empty: %v", err)
	}
	tr, _, err := PlaceTree("tree", abs, base, "")
	if err != nil || tr.Backup != "tree.orig" {
		t.Fatalf("PlaceTree: %v backup %q", err, tr.Backup)
	}
	f := NewFile(filepath.Join("tree", "x.txt"), "x.txt", []byte("x\n"), 0o644)
	f.Dest = f.Path
	now := map[string]*filetree.File{"x.txt": {Data: []byte("\n"), Mode: 0o644}}
	if err := tr.KeepOriginal([]*File{f}, now); err != nil {
		t.Fatal(err)
	}
	if got := read(t, "tree.orig/x.txt"); got != "x\n" {
		t.Fatalf("tree.orig/x.txt holds %q", got)
	}
	if err := f.Write([]byte("\n"), true); err != nil {
		t.Fatal(err)
	}
	if orig, err := f.Original(); err != nil || string(orig) != "x\n" {
		t.Fatalf("Original: %q %v", orig, err)
	}
	base2, _ := filetree.ReadTree(abs)
	again, notes, err := PlaceTree("tree", abs, base2, "")
	if err != nil || again.Backup != "tree.orig" || len(notes) != 1 || !strings.Contains(notes[0], "interrupted reduction of tree") {
		t.Fatalf("the next run: %v backup %q notes %q", err, again.Backup, notes)
	}
}

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"in.txt", "in.txt"},
		{"dir/my file.txt", "dir/my file.txt"},
		{"-n.txt", "-n.txt"},
		{"données/été.txt", "données/été.txt"},
		{`say "hi".txt`, `say "hi".txt`},
		{"a\nb.txt", `"a\nb.txt"`},
		{"tab\there", `"tab\there"`},
		{"esc\x1b[31m", `"esc\x1b[31m"`},
		{"bad\xff", `"bad\xff"`},
		{" lead", `" lead"`},
		{"trail ", `"trail "`},
		{"nbsp\u00a0x", `"nbsp\u00a0x"`},
		{"", `""`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A write that finds its file system full names that file system (whose
// it is, where, its size) and what to do; other errors stay as they are.
func TestNoRoom(t *testing.T) {
	dir := t.TempDir()
	full := &os.PathError{Op: "write", Path: filepath.Join(dir, ".in.txt.wynot-1"), Err: syscall.ENOSPC}
	err := noRoom(full, "the input in.txt", dir, "the result to in.txt", true)
	var nr *NoRoomError
	if !errors.As(err, &nr) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("noRoom = %#v", err)
	}
	want := "no space left on device on the file system of the input in.txt (in " + dir + ", a file system of "
	if msg := err.Error(); !strings.HasPrefix(msg, want) ||
		!strings.HasSuffix(msg, " free), writing the result to in.txt: make room there, or give -o a path on a file system with more room, which leaves the input as it is") {
		t.Errorf("message %q", msg)
	}
	if again := noRoom(err, "x", dir, "y", false); again != err {
		t.Errorf("noRoom twice: %v", again)
	}
	quota := NoRoom(fmt.Errorf("write: %w", syscall.EDQUOT), "-o out.diff", filepath.Join(dir, "out.diff"), "the patch")
	if msg := quota.Error(); !strings.HasPrefix(msg, "disk quota exceeded on the file system of -o out.diff (in ") ||
		!strings.Contains(msg, "writing the patch to "+filepath.Join(dir, "out.diff")+": make room there") || strings.Contains(msg, "leaves the input") {
		t.Errorf("message %q", msg)
	}
	other := errors.New("permission denied")
	if got := NoRoom(other, "-o x", "x", "y"); got != other {
		t.Errorf("NoRoom(other) = %v", got)
	}
}
