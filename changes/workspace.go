package changes

import (
	"os"
	"path/filepath"
)

// Workspace is a copy of the old tree into which configurations of
// changes are written. It remembers what each path touched by the changes
// holds, so that applying a configuration rewrites only the files whose
// content differs from the previous one: the cost is proportional to the
// changed files, not to the tree, and the other files keep their
// timestamps, so incremental builds stay warm.
type Workspace struct {
	Dir string
	set *Set
	cur map[string][32]byte // what each touched path holds now
}

// NewWorkspace copies the old tree of set into dir, which must exist and
// be empty.
func NewWorkspace(dir string, set *Set) (*Workspace, error) {
	w := &Workspace{Dir: dir, set: set, cur: map[string][32]byte{}}
	for p, f := range set.Old.Files {
		if err := w.write(p, f); err != nil {
			return nil, err
		}
	}
	for _, p := range set.Paths() {
		w.cur[p] = hashOf(set.Old.Files[p])
	}
	return w, nil
}

// Apply brings the workspace to the configuration c (sorted change
// indices). It returns how many files it wrote or removed.
func (w *Workspace) Apply(c []int) (int, error) {
	n := 0
	for p, f := range w.set.Content(c) {
		h := hashOf(f)
		if h == w.cur[p] {
			continue
		}
		if err := w.write(p, f); err != nil {
			return n, err
		}
		w.cur[p] = h
		n++
	}
	return n, nil
}

// write makes path p hold f, or not exist if f is nil.
func (w *Workspace) write(p string, f *File) error {
	full := filepath.Join(w.Dir, filepath.FromSlash(p))
	if err := os.Remove(full); err != nil && !os.IsNotExist(err) {
		return err
	}
	if f == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if f.Link != "" {
		return os.Symlink(f.Link, full)
	}
	return os.WriteFile(full, f.Data, f.Mode.Perm())
}
