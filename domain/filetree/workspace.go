package filetree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/wynot/wynot/internal/rmtree"
	"golang.org/x/sys/unix"
)

// Workspace is a copy of a base tree into which other contents are
// written, and in which a test runs between two contents. It remembers
// what each path holds, so that bringing it to another content rewrites
// only the files whose content differs from what they hold now: the cost
// is proportional to the changed files, not to the tree, and the other
// files keep their timestamps, so incremental builds stay warm.
//
// Whatever the test did to the tree is undone first (Restore): files it
// created are removed, files it changed or removed are written again,
// so that every test sees exactly its candidate.
type Workspace struct {
	Dir  string
	base *Tree
	cur  map[string]*File // paths whose content differs from the base's: what they hold (nil: absent)
	// stamps are what each file or link of the workspace looked like
	// when it was last written or found right; dirs are the directories
	// that hold them, with the number of files they hold.
	stamps map[string]stamp
	dirs   map[string]int
	// mark is a file beside Dir touched after every Sync, just before the
	// test runs: its change time is on the file system's own clock, so a
	// stamp taken in an earlier tick cannot be matched by a change the
	// test made (stamp.trusted).
	mark string
	// restored counts the paths Restore found changed, by path; last is
	// what the last Sync's Restore found.
	restored map[string]int
	last     []string
	// noRestore skips Restore (for measuring what it costs); fresh says
	// no test ran yet.
	noRestore, fresh bool
	// watch reports the entries of the tree's directories that changed
	// since the last Sync, so that Restore looks at those only; nil
	// before the first Sync, or where it cannot (noWatch: not a local
	// file system, inotify out of instances or watches), and then
	// Restore walks the tree.
	watch   *watcher
	noWatch bool
	// walks counts the Restores that walked the whole tree, looked the
	// entries they all looked at.
	walks, looked int
	// layer and delta are the content of the last SyncOver; examined
	// counts the paths Syncs looked at.
	layer    *Layer
	delta    map[string]*File
	examined int
}

// NewWorkspace copies base into dir, which must exist and be empty.
func NewWorkspace(dir string, base *Tree) (*Workspace, error) {
	return newWorkspace(dir, base, nil)
}

// copyEvery is how many files a copy of a tree writes between two calls
// of its progress function.
const copyEvery = 1024

// newWorkspace is NewWorkspace, calling progress (when not nil) every
// copyEvery files and at the end with how many of how many it wrote.
func newWorkspace(dir string, base *Tree, progress func(done, total int)) (*Workspace, error) {
	w := &Workspace{Dir: dir, base: base, cur: map[string]*File{}, stamps: make(map[string]stamp, len(base.Files)),
		dirs: map[string]int{".": 0}, mark: filepath.Clean(dir) + ".wynot-mark", restored: map[string]int{}, fresh: true}
	if err := base.MakeDirs(dir); err != nil {
		return nil, err
	}
	for _, d := range base.Dirs {
		// Held by the tree for good: never removed as a directory left
		// empty, watched, and walked like those holding its files.
		for ; d != "."; d = path.Dir(d) {
			w.dirs[d]++
		}
	}
	made := map[string]bool{".": true}
	paths := base.Paths()
	for i, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := mkdirFor(full, p, made); err != nil {
			return nil, err
		}
		if err := w.put(p, full, base.Files[p]); err != nil {
			return nil, err
		}
		if progress != nil && ((i+1)%copyEvery == 0 || i+1 == len(paths)) {
			progress(i+1, len(paths))
		}
	}
	return w, nil
}

// want is what path p should hold (nil: nothing).
func (w *Workspace) want(p string) *File {
	if f, ok := w.cur[p]; ok {
		return f
	}
	return w.base.Files[p]
}

// Sync brings the workspace to the base tree with the files of content
// in place of the base's (nil: the path does not exist); every other path
// it changed before returns to the base. What a test run in it since the
// last Sync changed is undone first (Restore). It returns how many files
// it wrote or removed for the new content.
func (w *Workspace) Sync(content map[string]*File) (int, error) {
	return w.SyncOver(nil, content)
}

// SyncOver is Sync to the content of the layer l (nil: none) with delta
// in place of its files. From one content to another of the same layer
// it costs the two deltas, not the layer.
func (w *Workspace) SyncOver(l *Layer, delta map[string]*File) (int, error) {
	w.last = nil
	if !w.noRestore && !w.fresh {
		changed, err := w.Restore()
		if err != nil {
			return 0, fmt.Errorf("undoing what the last test changed in its tree: %w", err)
		}
		w.last = changed
	}
	target := func(p string) *File {
		if f, ok := delta[p]; ok {
			return f
		}
		if l != nil {
			return l.file(nil, p)
		}
		return w.base.Files[p]
	}
	n := 0
	put := func(p string) error {
		w.examined++
		f := target(p)
		if Same(f, w.want(p)) {
			return nil
		}
		if err := w.write(p, f); err != nil {
			return err
		}
		if Same(f, w.base.Files[p]) {
			delete(w.cur, p)
		} else {
			w.cur[p] = f
		}
		n++
		return nil
	}
	var err error
	each := func(paths map[string]*File) {
		for p := range paths {
			if err == nil {
				err = put(p)
			}
		}
	}
	each(delta)
	var steps []string
	near := l != nil && w.layer != nil
	if near && l != w.layer {
		steps, near = between(l, w.layer)
	}
	if near {
		// The same layer, or one of its line a few improvements away:
		// what differs is in the deltas and those improvements.
		each(w.delta)
		for _, p := range steps {
			if err == nil {
				err = put(p)
			}
		}
	} else {
		if l != nil {
			for p := range l.files() {
				if err == nil {
					err = put(p)
				}
			}
		}
		each(w.cur)
	}
	if err != nil {
		w.layer, w.delta = nil, nil // half there: the next Sync looks at every path it changed
		return n, err
	}
	w.layer, w.delta = l, delta
	w.watchTest()
	w.touchMark()
	w.fresh = false
	return n, nil
}

// watchTest starts watching the tree's directories for what the next
// test changes, or forgets what the watch reported of this Sync's own
// writes.
func (w *Workspace) watchTest() {
	switch {
	case w.noRestore || w.noWatch:
	case w.watch == nil:
		w.rewatch()
	default:
		w.watch.read(w.isDir)
	}
}

// rewatch watches the tree's directories afresh.
func (w *Workspace) rewatch() {
	if w.watch != nil {
		w.watch.close()
		w.watch = nil
	}
	dirs := make([]string, 0, len(w.dirs))
	for d := range w.dirs {
		dirs = append(dirs, d)
	}
	x, err := newWatcher(w.Dir, dirs)
	if err != nil {
		w.noWatch = true
		return
	}
	w.watch = x
	runtime.AddCleanup(w, func(x *watcher) { x.close() }, x)
}

// isDir says p is a directory of the tree.
func (w *Workspace) isDir(p string) bool {
	_, ok := w.dirs[p]
	return ok
}

// write makes path p hold f, or not exist if f is nil, and records it.
func (w *Workspace) write(p string, f *File) error {
	full := filepath.Join(w.Dir, filepath.FromSlash(p))
	if err := rmtree.RemoveAll(full); err != nil {
		return err
	}
	if _, ok := w.stamps[p]; ok {
		delete(w.stamps, p)
		w.dropDirs(p)
	}
	if f == nil {
		// Directories left holding none of the tree's files go too.
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if _, ok := w.dirs[d]; ok || os.Remove(filepath.Join(w.Dir, filepath.FromSlash(d))) != nil {
				break
			}
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return w.put(p, full, f)
}

// put writes f at full (path p), where nothing is, in a directory that
// exists, and records it; a directory that now holds a file of the tree
// for the first time is watched.
func (w *Workspace) put(p, full string, f *File) error {
	if err := f.create(full); err != nil {
		return err
	}
	st, err := lstamp(full)
	if err != nil {
		return err
	}
	w.stamps[p] = st
	for d := path.Dir(p); ; d = path.Dir(d) {
		if w.dirs[d]++; w.dirs[d] == 1 && w.watch != nil {
			if w.watch.add(w.Dir, d) != nil {
				// Out of watches: walk the tree from the next test on.
				w.watch.close()
				w.watch, w.noWatch = nil, true
			}
		}
		if d == "." {
			break
		}
	}
	return nil
}

// mkdirFor makes the directory of the file at full (path p), unless
// made says it is there, and notes it and the directories above it.
func mkdirFor(full, p string, made map[string]bool) error {
	d := path.Dir(p)
	if made[d] {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	for ; !made[d]; d = path.Dir(d) {
		made[d] = true
	}
	return nil
}

// dropDirs forgets p in the count of its directories.
func (w *Workspace) dropDirs(p string) {
	for d := path.Dir(p); ; d = path.Dir(d) {
		if w.dirs[d]--; w.dirs[d] <= 0 && d != "." {
			delete(w.dirs, d)
		}
		if d == "." {
			break
		}
	}
}

// touchMark sets the mark's times to now; where it cannot, no stamp is
// trusted and Restore compares every file's content.
func (w *Workspace) touchMark() {
	if err := os.Chtimes(w.mark, timeNow(), timeNow()); err != nil {
		if f, err := os.OpenFile(w.mark, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			f.Close()
		}
	}
}

// Restore brings the directory back to what the workspace last wrote:
// every path a test created is removed, and every file or link it
// changed (content, mode, type) or removed is written again; a file whose
// content is right but whose times a test changed gets its times back,
// so that tools that compare times see no change. Directories that hold
// none of the tree's files are removed too, and the tree's own get mode
// 0755 back. It returns the paths it found changed (sorted).
//
// A file is taken as unchanged when its inode, size, mode, modification
// and change times are what they were when it was written, and that was
// in an earlier tick of the file system's clock than the mark touched
// just before the test; otherwise its content is compared.
func (w *Workspace) Restore() ([]string, error) {
	markTime, haveMark := statCtime(w.mark)
	if w.watch != nil {
		if paths, complete := w.watch.read(w.isDir); complete {
			return w.restorePaths(paths, markTime, haveMark)
		}
		// Events were lost, or a directory of the tree changed: walk,
		// and watch the directories as they are then.
		defer w.rewatch()
	}
	w.walks++
	var changed []string
	seen := 0 // files of the tree found
	var walk func(rel string) error
	walk = func(rel string) error {
		full := filepath.Join(w.Dir, filepath.FromSlash(rel))
		fd, err := unix.Open(full, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return &fs.PathError{Op: "open", Path: full, Err: err}
		}
		d := os.NewFile(uintptr(fd), full)
		defer d.Close()
		entries, err := d.ReadDir(-1)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := e.Name()
			if rel != "." {
				p = rel + "/" + p
			}
			fp := full + string(filepath.Separator) + e.Name()
			if _, isDir := w.dirs[p]; isDir && e.IsDir() {
				st, err := stampAt(fd, e.Name())
				if err != nil {
					return &fs.PathError{Op: "lstat", Path: fp, Err: err}
				}
				if st.mode&0o777 != 0o755 {
					if err := os.Chmod(fp, 0o755); err != nil {
						return err
					}
					changed = append(changed, p+"/")
				}
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			f := w.want(p)
			if f == nil {
				// Made by the test (or a directory no longer holding
				// any of the tree's files).
				if err := rmtree.RemoveAll(fp); err != nil {
					return err
				}
				changed = append(changed, p)
				continue
			}
			seen++
			w.looked++
			now, err := stampAt(fd, e.Name())
			if err != nil {
				return &fs.PathError{Op: "lstat", Path: fp, Err: err}
			}
			ok, err := w.check(p, fp, f, now, markTime, haveMark)
			if err != nil {
				return err
			}
			if !ok {
				changed = append(changed, p)
			}
		}
		return nil
	}
	if err := walk("."); err != nil {
		return changed, err
	}
	changed, err := w.remakeDirs(changed)
	if err != nil {
		return changed, err
	}
	if seen < len(w.stamps) {
		// Files removed by the test, or whose directory was.
		var gone []string
		for p := range w.stamps {
			if _, err := os.Lstat(filepath.Join(w.Dir, filepath.FromSlash(p))); err != nil {
				gone = append(gone, p)
			}
		}
		for _, p := range gone {
			if err := w.write(p, w.want(p)); err != nil {
				return changed, err
			}
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	for _, p := range changed {
		w.restored[p]++
	}
	return changed, nil
}

// restorePaths is Restore where a watch of the tree's directories
// (watcher) reported every entry that changed since the last Sync: only
// those are looked at, each as Restore's walk looks at an entry.
func (w *Workspace) restorePaths(paths map[string]bool, markTime timespec, haveMark bool) ([]string, error) {
	var changed []string
	for p := range paths {
		full := filepath.Join(w.Dir, filepath.FromSlash(p))
		f := w.want(p)
		w.looked++
		now, err := lstamp(full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if f == nil {
				continue // made and removed again by the test
			}
			// Removed by the test.
			if err := w.write(p, f); err != nil {
				return changed, err
			}
			changed = append(changed, p)
		case err != nil:
			return changed, &fs.PathError{Op: "lstat", Path: full, Err: err}
		case f == nil:
			// Made by the test.
			if err := rmtree.RemoveAll(full); err != nil {
				return changed, err
			}
			changed = append(changed, p)
		default:
			ok, err := w.check(p, full, f, now, markTime, haveMark)
			if err != nil {
				return changed, err
			}
			if !ok {
				changed = append(changed, p)
			}
		}
	}
	changed, err := w.remakeDirs(changed)
	if err != nil {
		return changed, err
	}
	sort.Strings(changed)
	for _, p := range changed {
		w.restored[p]++
	}
	return changed, nil
}

// remakeDirs makes the base tree's empty directories (Tree.Dirs) that a
// test removed (or replaced) again, adding them to changed ("DIR/").
func (w *Workspace) remakeDirs(changed []string) ([]string, error) {
	for _, d := range w.base.Dirs {
		full := filepath.Join(w.Dir, filepath.FromSlash(d))
		st, err := os.Lstat(full)
		if err == nil && st.IsDir() {
			continue
		}
		if err == nil {
			if err := rmtree.RemoveAll(full); err != nil {
				return changed, err
			}
		}
		if err := os.MkdirAll(full, 0o755); err != nil {
			return changed, err
		}
		changed = append(changed, d+"/")
	}
	return changed, nil
}

// check makes the file at full (path p) hold f again if it does not, and
// says whether it did.
func (w *Workspace) check(p, full string, f *File, now stamp, markTime timespec, haveMark bool) (bool, error) {
	rec, known := w.stamps[p]
	if known && now == rec && haveMark && rec.ctime.before(markTime) {
		return true, nil
	}
	same := false
	switch {
	case !known || now.mode != rec.mode:
	case f.Link != "":
		target, err := os.Readlink(full)
		same = err == nil && target == f.Link
	case now.size == int64(len(f.Data)):
		data, err := os.ReadFile(full)
		same = err == nil && bytes.Equal(data, f.Data)
	}
	if !same {
		if err := w.write(p, f); err != nil {
			return false, err
		}
		return false, nil
	}
	ok := true
	if f.Link == "" && now.mtime != rec.mtime {
		// Touched: the old times back.
		if err := os.Chtimes(full, rec.mtime.time(), rec.mtime.time()); err != nil {
			return false, err
		}
		ok = false
		var err error
		if now, err = lstamp(full); err != nil {
			return false, err
		}
	}
	w.stamps[p] = now
	return ok, nil
}

// Restored is how many times Restore found each path changed.
func (w *Workspace) Restored() map[string]int { return w.restored }

// Workspaces are copies of one base tree, one per work directory, each
// made the first time its directory is synced. Each directory is used by
// one caller at a time; different directories may be synced at once.
type Workspaces struct {
	base *Tree
	mu   sync.Mutex
	ws   map[string]*Workspace
	// NoRestore, set before the first Sync, leaves what tests change in
	// their trees (for measuring what undoing it costs).
	NoRestore bool
	onRestore func(changed []string)
	onCopy    func(dir string, done, total int)
}

// OnCopy makes f be called while a work directory dir gets its copy of
// the tree, every thousand files or so and at the end, with how many of
// how many files are written: a copy of a large tree takes seconds.
// Calls may come from several goroutines at once.
func (w *Workspaces) OnCopy(f func(dir string, done, total int)) {
	w.mu.Lock()
	w.onCopy = f
	w.mu.Unlock()
}

// OnRestore makes f be called after every Sync that undid what a test
// changed in its tree, with the paths (sorted; directories end in a
// slash). Calls may come from several goroutines at once.
func (w *Workspaces) OnRestore(f func(changed []string)) {
	w.mu.Lock()
	w.onRestore = f
	w.mu.Unlock()
}

// NewWorkspaces prepares copies of base.
func NewWorkspaces(base *Tree) *Workspaces {
	return &Workspaces{base: base, ws: map[string]*Workspace{}}
}

// Base is the tree the copies are of.
func (w *Workspaces) Base() *Tree { return w.base }

// Sync brings the work directory dir (empty the first time) to the base
// with the files of content in place of the base's (Workspace.Sync),
// after undoing what the last test in it changed.
func (w *Workspaces) Sync(dir string, content map[string]*File) error {
	return w.SyncOver(dir, nil, content)
}

// SyncOver is Sync to the content of the layer l with delta in place of
// its files (Workspace.SyncOver).
func (w *Workspaces) SyncOver(dir string, l *Layer, delta map[string]*File) error {
	w.mu.Lock()
	ws, ok := w.ws[dir]
	w.mu.Unlock()
	if !ok {
		w.mu.Lock()
		onCopy := w.onCopy
		w.mu.Unlock()
		var progress func(done, total int)
		if onCopy != nil {
			progress = func(done, total int) { onCopy(dir, done, total) }
		}
		var err error
		if ws, err = newWorkspace(dir, w.base, progress); err != nil {
			return fmt.Errorf("copying the tree into a work directory: %w", err)
		}
		ws.noRestore = w.NoRestore
		w.mu.Lock()
		w.ws[dir] = ws
		w.mu.Unlock()
	}
	if _, err := ws.SyncOver(l, delta); err != nil {
		return fmt.Errorf("writing a candidate tree: %w", err)
	}
	if len(ws.last) > 0 {
		w.mu.Lock()
		f := w.onRestore
		w.mu.Unlock()
		if f != nil {
			f(ws.last)
		}
	}
	return nil
}

// Restored is, over all work directories, how many times a test was
// found to have changed each path of its tree (created, changed or
// removed it), which was undone before the next test. It must not be
// called while a Sync runs.
func (w *Workspaces) Restored() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	all := map[string]int{}
	for _, ws := range w.ws {
		for p, n := range ws.restored {
			all[p] += n
		}
	}
	return all
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
