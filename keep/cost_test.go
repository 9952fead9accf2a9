package keep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTreeChangeCost: writing a change to a tree of 10,000 files
// replaced in place hashes the files it changes, not the tree: the
// digest its lineage records is kept up to date file by file, and is
// still the digest of what the tree holds.
func TestTreeChangeCost(t *testing.T) {
	// In memory where there is a file system there (/dev/shm): the
	// test counts bytes hashed, and 20,000 files on a busy disk take
	// seconds to write.
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		t.Setenv("TMPDIR", "/dev/shm")
	}
	inDir(t)
	for d := range 100 {
		dir := fmt.Sprintf("tree/d%02d", d)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(fmt.Sprintf("%s/f%02d.txt", dir, f), fmt.Appendf(nil, "file %d of directory %d\n", f, d), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	r := treeResult(t)
	if err := r.KeepOriginals(); err != nil {
		t.Fatal(err)
	}
	size := r.Size()
	lineageHolds := func(what string) {
		t.Helper()
		lin, ok := readLineage("tree")
		if now := Sum(r.Now()); !ok || lin.Last != now || lin.Next != "" {
			t.Errorf("%s: the lineage %+v does not say what the tree holds (%s)", what, lin, now)
		}
	}

	// One file changed.
	hashed.Store(0)
	e := r.Entries[4321]
	e.Data, e.Dirty = []byte(strings.Repeat("x", 100)), true
	if err := r.SaveTogether([]*Entry{e}); err != nil {
		t.Fatal(err)
	}
	if n := hashed.Load(); n > 2*100 {
		t.Errorf("a change of one file of 100 bytes hashed %d bytes of the tree's %d", n, size)
	}
	lineageHolds("one file changed")

	// Ten files removed at once, and one of them written back.
	hashed.Store(0)
	var gone []*Entry
	for i := range 10 {
		e := r.Entries[100*i+7]
		e.Removed, e.Dirty = true, true
		gone = append(gone, e)
	}
	if err := r.SaveTogether(gone); err != nil {
		t.Fatal(err)
	}
	gone[3].Removed, gone[3].Dirty = false, true
	if err := r.Save(gone[3], false); err != nil {
		t.Fatal(err)
	}
	if n := hashed.Load(); n > 2*int64(len(gone[3].Data)) {
		t.Errorf("removing ten files and writing one back hashed %d bytes of the tree's %d", n, size)
	}
	lineageHolds("ten files removed")
	if _, err := os.Stat(filepath.Join("tree", "d00", "f07.txt")); !os.IsNotExist(err) {
		t.Errorf("a removed file stays: %v", err)
	}
}
