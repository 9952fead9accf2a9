package filetree

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// Workspace is a copy of a base tree into which other contents are
// written. It remembers what each path it changed holds, so that
// bringing it to another content rewrites only the files whose content differs from what they hold now: the cost
// is proportional to the changed files, not to the tree, and the other
// files keep their timestamps, so incremental builds stay warm.
type Workspace struct {
	Dir  string
	base *Tree
	cur  map[string][32]byte // what each path changed since the copy holds now
}

// NewWorkspace copies base into dir, which must exist and be empty.
func NewWorkspace(dir string, base *Tree) (*Workspace, error) {
	w := &Workspace{Dir: dir, base: base, cur: map[string][32]byte{}}
	made := map[string]bool{}
	for _, p := range base.Paths() {
		f := base.Files[p]
		full := filepath.Join(dir, filepath.FromSlash(p))
		if d := filepath.Dir(full); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return nil, err
			}
			made[d] = true
		}
		var err error
		if f.Link != "" {
			err = os.Symlink(f.Link, full)
		} else {
			err = os.WriteFile(full, f.Data, f.Mode.Perm())
		}
		if err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Sync brings the workspace to the base tree with the files of content
// in place of the base's (nil: the path does not exist); every other path
// it changed before returns to the base. It returns how many files it
// wrote or removed.
func (w *Workspace) Sync(content map[string]*File) (int, error) {
	n := 0
	put := func(p string, f *File) error {
		h := Hash(f)
		now, changed := w.cur[p]
		if !changed {
			now = Hash(w.base.Files[p])
		}
		if h == now {
			return nil
		}
		if err := w.write(p, f); err != nil {
			return err
		}
		w.cur[p] = h
		n++
		return nil
	}
	for p, f := range content {
		if err := put(p, f); err != nil {
			return n, err
		}
	}
	for p := range w.cur {
		if _, ok := content[p]; !ok {
			if err := put(p, w.base.Files[p]); err != nil {
				return n, err
			}
			delete(w.cur, p)
		}
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

// Workspaces are copies of one base tree, one per work directory, each
// made the first time its directory is synced. Each directory is used by
// one caller at a time; different directories may be synced at once.
type Workspaces struct {
	base *Tree
	mu   sync.Mutex
	ws   map[string]*Workspace
}

// NewWorkspaces prepares copies of base.
func NewWorkspaces(base *Tree) *Workspaces {
	return &Workspaces{base: base, ws: map[string]*Workspace{}}
}

// Base is the tree the copies are of.
func (w *Workspaces) Base() *Tree { return w.base }

// Sync brings the work directory dir (empty the first time) to the base
// with the files of content in place of the base's (Workspace.Sync).
func (w *Workspaces) Sync(dir string, content map[string]*File) error {
	w.mu.Lock()
	ws, ok := w.ws[dir]
	w.mu.Unlock()
	if !ok {
		var err error
		if ws, err = NewWorkspace(dir, w.base); err != nil {
			return fmt.Errorf("copying the tree into a work directory: %w", err)
		}
		w.mu.Lock()
		w.ws[dir] = ws
		w.mu.Unlock()
	}
	if _, err := ws.Sync(content); err != nil {
		return fmt.Errorf("writing a candidate tree: %w", err)
	}
	return nil
}

// Identity is the content in place of a base's, as bytes that are equal
// exactly when two contents are: sorted paths, each with its mode, link
// and data, or "absent". Paths that hold what the base holds must have
// been left out, so that the same tree always has the same identity.
func Identity(content map[string]*File) []byte {
	paths := make([]string, 0, len(content))
	for p := range content {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var id bytes.Buffer
	for _, p := range paths {
		id.WriteString(p)
		id.WriteByte(0)
		if f := content[p]; f != nil {
			fmt.Fprintf(&id, "%o %q %d:", f.Mode, f.Link, len(f.Data))
			id.Write(f.Data)
		} else {
			id.WriteString("absent")
		}
		id.WriteByte(0)
	}
	return id.Bytes()
}
