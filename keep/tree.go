package keep

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/domain/filetree"
)

// Tree is a directory whose result tree replaces it, the original kept
// in Backup (DIR.orig), or goes elsewhere (-o). Its files are Files
// whose Dest is in the result tree.
type Tree struct {
	Path string // DIR as given
	Dest string // where the result tree goes: DIR itself, or -o
	// Backup is DIR.orig (or DIR.orig.N), the copy of the original kept
	// when DIR is replaced in place.
	Backup string

	base       *filetree.Tree // what DIR held
	madeBackup bool
	// origRoot is the tree that holds the original once it is kept:
	// the backup, or DIR when the result goes elsewhere.
	origRoot string
	origSum  string // the digest of the tree in Backup, once known
	// made says the result tree at Dest was written (a copy of the
	// original, before the first change).
	made bool
	// continued says that Backup holds the original of an interrupted
	// reduction of this tree, which this run goes on with: it is kept
	// whatever happens.
	continued bool
	// of names the file system of Dest, for a write that finds it full
	// (NoRoomError.Of): "the input tree DIR", "-o OUT".
	of string
	// sum is the digest of what DIR holds (Sum), and sums each file's
	// part of it, kept up to date file by file as changes are written
	// (tracked), once DIR is replaced in place.
	sum     filetree.Digest
	sums    map[string][32]byte
	tracked bool

	// Progress, when set, is told how far a write of many files has
	// got: what is being written, and done of total files. It is called
	// for every file; the caller decides how often to show it.
	Progress func(what string, done, total int)
}

// PlaceTree decides where the result tree of the directory p (absolute:
// abs), which held base, goes: into output (-o), a new or empty
// directory outside it, or in place with DIR.orig kept. It checks that
// the copies fit, and returns what to tell the user.
func PlaceTree(p, abs string, base *filetree.Tree, output string) (*Tree, []string, error) {
	t := &Tree{Path: p, base: base}
	size := 0
	for _, f := range base.Files {
		size += len(f.Data)
	}
	if output != "" {
		out, err := filepath.Abs(output)
		if err != nil {
			return nil, nil, fmt.Errorf("-o %s: %v", Quote(output), err)
		}
		if Within(out, abs) || Within(abs, out) {
			return nil, nil, fmt.Errorf("-o %s: the result tree must go outside the input tree %s", Quote(output), Quote(p))
		}
		if names, err := os.ReadDir(out); err == nil && len(names) > 0 {
			return nil, nil, fmt.Errorf("-o %s is a directory that is not empty: give a new one for the result tree", Quote(output))
		} else if err != nil && !os.IsNotExist(err) {
			return nil, nil, fmt.Errorf("-o %s: %v", Quote(output), UnwrapPath(err))
		}
		if err := CheckWritable(filepath.Dir(out)); err != nil {
			return nil, nil, fmt.Errorf("cannot write the result tree to %s: %v", Quote(output), UnwrapPath(err))
		}
		t.Dest, t.origRoot, t.of = output, p, "-o "+Quote(output)
		return t, nil, room(filepath.Dir(out), size, "-o "+Quote(output), "the result tree")
	}
	if err := CheckWritable(filepath.Dir(abs)); err != nil {
		return nil, nil, fmt.Errorf("cannot keep the original beside %s: %v; give -o", Quote(p), UnwrapPath(err))
	}
	t.Dest, t.of = p, "the input tree "+Quote(p)
	note := t.backupFor()
	t.origRoot = t.Backup
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	return t, notes, room(filepath.Dir(abs), size, Quote(filepath.Dir(abs)), "the copy of the original")
}

// backupFor chooses where the original of a tree replaced in place is
// kept: DIR.orig, unless that exists. An existing DIR.orig is kept as
// the original when it belongs to an interrupted reduction of this very
// tree (the lineage of DIR says that DIR.orig holds what that run began
// from and DIR what it wrote last, as for a file); otherwise it belongs
// to something else, and the original goes to the first free
// DIR.orig.N. It returns what to tell the user.
func (t *Tree) backupFor() string {
	dir := strings.TrimSuffix(t.Path, "/")
	base := dir + ".orig"
	t.Backup = base
	if _, err := os.Lstat(base); err != nil {
		return ""
	}
	if old, err := filetree.ReadTree(base); err == nil {
		if lin, ok := readLineage(dir); ok && lin.holds(old.Files, t.base.Files) {
			t.continued, t.origSum = true, Sum(old.Files)
			return fmt.Sprintf("%s holds the original of an interrupted reduction of %s; keeping it, and reducing %s as it is now", Quote(base), Quote(t.Path), Quote(t.Path))
		}
	}
	t.Backup = FreePath(base, "")
	return fmt.Sprintf("%s exists and is not the original of %s; the original will be kept in %s", Quote(base), Quote(t.Path), Quote(t.Backup))
}

// room checks that size bytes fit into dir.
func room(dir string, size int, where, what string) error {
	if free, ok := FreeSpace(dir); ok && free < uint64(size)+1<<20 {
		return fmt.Errorf("%s (%s) does not fit into %s (%s free)", what, bytesOf(uint64(size)), where, bytesOf(free))
	}
	return nil
}

func bytesOf(n uint64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// KeepOriginal writes the copy of the original tree (DIR.orig) before
// DIR is changed, or the result tree (-o) as a copy of the original; now
// is the tree as the reduction has it, for the lineage. From then on the
// files' originals are read from that copy when needed.
func (t *Tree) KeepOriginal(files []*File, now map[string]*filetree.File) error {
	if t.Backup != "" && !t.madeBackup && !t.continued {
		parent := filepath.Dir(strings.TrimSuffix(t.Backup, "/"))
		tmp, err := os.MkdirTemp(parent, "."+filepath.Base(t.Backup)+".")
		if err != nil {
			if Full(err) {
				return noRoom(err, t.of, parent, "the copy of the original to "+Quote(t.Backup), true)
			}
			return fmt.Errorf("cannot keep the original in %s: %w; give -o", Quote(t.Backup), UnwrapPath(err))
		}
		if st, err := os.Stat(t.Path); err == nil {
			os.Chmod(tmp, st.Mode().Perm())
		}
		if err := filetree.WriteTree(tmp, t.base, t.progress("copying the original to "+t.Backup)); err != nil {
			os.RemoveAll(tmp)
			if Full(err) {
				return noRoom(err, t.of, parent, "the copy of the original to "+Quote(t.Backup), true)
			}
			return fmt.Errorf("cannot keep the original in %s: %w; give -o", Quote(t.Backup), UnwrapPath(err))
		}
		if err := os.Rename(tmp, t.Backup); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("cannot keep the original in %s: %w; give -o", Quote(t.Backup), UnwrapPath(err))
		}
		t.madeBackup = true
	}
	t.track(now)
	t.Record("")
	if t.Backup == "" && !t.made {
		if err := os.MkdirAll(t.Dest, 0o755); err != nil {
			if Full(err) {
				return noRoom(err, t.of, t.Dest, "the result tree", false)
			}
			return fmt.Errorf("-o %s: %w", Quote(t.Dest), UnwrapPath(err))
		}
		if err := filetree.WriteTree(t.Dest, t.base, t.progress("copying the original to "+t.Dest)); err != nil {
			if Full(err) {
				return noRoom(err, t.of, t.Dest, "the result tree", false)
			}
			return fmt.Errorf("writing the result tree to %s: %w", Quote(t.Dest), UnwrapPath(err))
		}
		t.made = true
		for _, f := range files {
			if data, err := f.Original(); err == nil {
				f.written = append([]byte{}, data...)
			}
		}
	}
	if t.continued {
		return nil // the backup holds an older original: this run's stays in memory
	}
	for _, f := range files {
		f.orig, f.origAt = nil, filepath.Join(t.origRoot, filepath.FromSlash(f.Name))
	}
	return nil
}

// progress is what tells Progress how a write of what goes (nil when
// nothing is told).
func (t *Tree) progress(what string) func(done, total int) {
	if t.Progress == nil {
		return nil
	}
	return func(done, total int) { t.Progress(what, done, total) }
}

// recording says the lineage of the tree is kept: it is replaced in
// place, and its backup holds the original.
func (t *Tree) recording() bool {
	return t.Backup != "" && (t.madeBackup || t.continued)
}

// track starts keeping the digest of what DIR holds, now, up to date,
// when the tree's lineage is recorded: each file is hashed once here,
// and from then on only the files a change writes (set).
func (t *Tree) track(now map[string]*filetree.File) {
	if !t.recording() {
		return
	}
	t.sum, t.sums, t.tracked = filetree.Digest{}, make(map[string][32]byte, len(now)), true
	for name, f := range now {
		k := fileSum(name, f)
		t.sums[name] = k
		t.sum.Add(k)
	}
}

// set records that DIR holds f at name (nil: nothing), in the digest of
// what it holds; it costs the file, not the tree.
func (t *Tree) set(name string, f *filetree.File) {
	if !t.tracked {
		return
	}
	if k, ok := t.sums[name]; ok {
		t.sum.Sub(k)
		delete(t.sums, name)
	}
	if f != nil {
		k := fileSum(name, f)
		t.sums[name] = k
		t.sum.Add(k)
	}
}

// Record records, for a tree replaced in place, that its backup holds
// the original and DIR now what was written last; next, when not "",
// is the digest of a change about to be written: DIR may then hold
// either, so that a run killed while writing it is still recognized by
// the next (with what DIR.wynot-pending finishes, DIR holds the change).
func (t *Tree) Record(next string) {
	if !t.recording() || !t.tracked {
		return
	}
	if t.origSum == "" {
		if t.continued {
			if old, err := filetree.ReadTree(t.Backup); err == nil {
				t.origSum = Sum(old.Files)
			}
		} else {
			t.origSum = Sum(t.base.Files)
		}
	}
	writeLineage(strings.TrimSuffix(t.Path, "/"), lineage{Orig: t.origSum, Last: t.sum.String(), Next: next})
}

// DropBackup removes the copy of the original when DIR was left as it
// was (changed is false): nothing smaller fails.
func (t *Tree) DropBackup(changed bool, files []*File) {
	if !t.madeBackup || changed {
		return
	}
	os.RemoveAll(t.Backup)
	removeLineage(strings.TrimSuffix(t.Path, "/"))
	t.madeBackup = false
	for _, f := range files {
		f.origAt = f.Path
	}
}

// Link makes the result tree hold f as a symbolic link to target.
func (t *Tree) Link(f *File, target string) error {
	os.Remove(f.Dest)
	if err := os.MkdirAll(filepath.Dir(f.Dest), 0o755); err != nil {
		return err
	}
	if err := os.Symlink(target, f.Dest); err != nil {
		return err
	}
	f.written = []byte{}
	return nil
}

// Remove takes f out of the result tree, and the directories it leaves
// empty (the tree's directory synced to the disk when sync is set).
func (t *Tree) Remove(f *File, sync bool) error {
	if err := os.Remove(f.Dest); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("removing %s from the result tree: %w", Quote(f.Dest), UnwrapPath(err))
	}
	root := filepath.Clean(t.Dest)
	removeEmptyParents(f.Dest, root)
	if sync {
		if d, err := os.Open(root); err == nil {
			d.Sync()
			d.Close()
		}
	}
	f.written = []byte{}
	return nil
}

// Change is one file of a change to a tree being written: its new
// content, or its removal.
type Change struct {
	Name    string      `json:"name"` // slash-separated, in the tree
	Data    []byte      `json:"data,omitempty"`
	Mode    fs.FileMode `json:"mode,omitempty"`
	Removed bool        `json:"removed,omitempty"`
}

// PendingPath is where a change being written to the tree replaced in
// place at dir is kept while it is written: DIR.wynot-pending.
func PendingPath(dir string) string { return strings.TrimSuffix(dir, "/") + ".wynot-pending" }

// Journal writes a change of several files at once (a change across a
// package's files, files removed together) to a tree replaced in place
// as one change: the change is first written beside the tree
// (DIR.wynot-pending, atomically), then write writes its files, then
// the record goes. A run killed in between leaves it, and the next run
// on the tree finishes the writing before anything else (FinishPending),
// so the tree never stays half changed, a state that may not even fail.
func (t *Tree) Journal(cs []Change, write func() error) error {
	journal := t.Backup != "" && len(cs) > 1
	if journal {
		data, err := json.Marshal(cs)
		if err == nil {
			err = WriteAtomic(PendingPath(t.Dest), data, 0o600)
		}
		if Full(err) {
			return noRoom(err, t.of, filepath.Dir(PendingPath(t.Dest)), "the record of a change to the tree, "+Quote(PendingPath(t.Dest)), true)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", Quote(PendingPath(t.Dest)), UnwrapPath(err))
		}
	}
	if err := write(); err != nil {
		return err
	}
	if journal {
		os.Remove(PendingPath(t.Dest))
	}
	return nil
}

// FinishPending finishes writing the change an interrupted reduction of
// the tree at dir left in DIR.wynot-pending, if any; it returns what to
// tell the user when it did.
func FinishPending(dir string) (string, error) {
	p := PendingPath(dir)
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "", nil
	}
	var cs []Change
	if err == nil {
		err = json.Unmarshal(data, &cs)
	}
	if err != nil {
		return "", fmt.Errorf("%s holds the last change of an interrupted reduction of %s, which cannot be read (%v): remove it, or restore %s from %s", Quote(p), Quote(dir), err, Quote(dir), Quote(strings.TrimSuffix(dir, "/")+".orig"))
	}
	for _, c := range cs {
		dest := filepath.Join(dir, filepath.FromSlash(c.Name))
		if !filepath.IsLocal(filepath.FromSlash(c.Name)) {
			return "", fmt.Errorf("%s names %s, outside %s: remove it", Quote(p), Quote(c.Name), Quote(dir))
		}
		if c.Removed {
			if err := os.Remove(dest); err != nil && !os.IsNotExist(err) {
				return "", fmt.Errorf("finishing the change in %s: %v", Quote(p), UnwrapPath(err))
			}
			removeEmptyParents(dest, dir)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return "", fmt.Errorf("finishing the change in %s: %v", Quote(p), UnwrapPath(err))
		}
		if err := WriteAtomic(dest, c.Data, c.Mode); err != nil {
			return "", fmt.Errorf("finishing the change in %s: %v", Quote(p), UnwrapPath(err))
		}
	}
	if err := os.Remove(p); err != nil {
		return "", fmt.Errorf("removing %s: %v", Quote(p), UnwrapPath(err))
	}
	return fmt.Sprintf("%s held the last change of an interrupted reduction of %s, which was killed while writing it: the change is now written", Quote(p), Quote(dir)), nil
}
