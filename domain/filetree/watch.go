package filetree

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// watcher tells which entries of a workspace's directories were
// created, changed or removed since it was last read: an inotify watch
// on each directory of the tree, so that undoing what a test did costs
// what the test changed, not a stat of every file. The kernel reports
// every change made through the file system's calls (write, truncate,
// chmod, utimes, link, unlink, rename, mkdir); not a change made only
// through a shared memory mapping of a file, and not one made on
// another machine (a work directory on NFS), which is why it is used
// only on local file systems (localFS).
type watcher struct {
	fd   int
	dirs map[int32]string // watch descriptor → directory ("." for the top)
	wds  map[string]int32
	buf  []byte
}

// watchMask is what a directory's watch reports: its entries created,
// removed, renamed, written or changed in their attributes, and the
// directory itself removed or renamed.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// newWatcher starts watching the directories dirs (slash-separated,
// relative to root; "." is root itself). It fails where the file system
// is not local or inotify is out of instances or watches.
func newWatcher(root string, dirs []string) (*watcher, error) {
	if !localFS(root) {
		return nil, errors.New("not a local file system")
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	x := &watcher{fd: fd, dirs: map[int32]string{}, wds: map[string]int32{}, buf: make([]byte, 64<<10)}
	for _, d := range dirs {
		if err := x.add(root, d); err != nil {
			x.close()
			return nil, err
		}
	}
	return x, nil
}

// add watches the directory d of root.
func (x *watcher) add(root, d string) error {
	wd, err := unix.InotifyAddWatch(x.fd, filepath.Join(root, filepath.FromSlash(d)), watchMask)
	if err != nil {
		return err
	}
	x.dirs[int32(wd)] = d
	x.wds[d] = int32(wd)
	return nil
}

// close ends the watches (again: nothing).
func (x *watcher) close() {
	if x.fd >= 0 {
		unix.Close(x.fd)
		x.fd = -1
	}
}

// read returns the paths whose entries changed since the last read
// (the entries of watched directories: files, links, and directories
// that are not the tree's, which tree says), and whether they are all
// that changed: not when events were lost (the queue overflowed) or a
// directory of the tree itself was changed (created, removed, renamed,
// its mode changed), which only a walk of the tree puts right.
func (x *watcher) read(tree func(dir string) bool) (map[string]bool, bool) {
	changed := map[string]bool{}
	complete := true
	for {
		n, err := unix.Read(x.fd, x.buf)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			return changed, complete
		}
		if err != nil || n <= 0 {
			return changed, false
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			// struct inotify_event: wd, mask, cookie, len, then the name.
			wd := int32(binary.NativeEndian.Uint32(x.buf[off:]))
			mask := binary.NativeEndian.Uint32(x.buf[off+4:])
			size := int(binary.NativeEndian.Uint32(x.buf[off+12:]))
			name := strings.TrimRight(string(x.buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+size]), "\x00")
			off += unix.SizeofInotifyEvent + size
			dir, known := x.dirs[wd]
			switch {
			case mask&unix.IN_Q_OVERFLOW != 0:
				complete = false
			case mask&unix.IN_IGNORED != 0:
				// The directory went (or its watch): whoever removed it
				// said so in its parent's events.
				if known {
					delete(x.dirs, wd)
					if x.wds[dir] == wd {
						delete(x.wds, dir)
					}
				}
			case !known:
			case name == "":
				// The directory itself: removed, renamed, chmod.
				complete = false
			default:
				p := name
				if dir != "." {
					p = dir + "/" + name
				}
				if mask&unix.IN_ISDIR != 0 && tree(p) {
					complete = false
				} else {
					changed[p] = true
				}
			}
		}
	}
}

// localFS says whether the file system of dir is one where every change
// is made by this machine's kernel, which inotify then reports.
func localFS(dir string) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.TMPFS_MAGIC, unix.RAMFS_MAGIC, unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC,
		unix.BTRFS_SUPER_MAGIC, unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC:
		return true
	}
	return false
}
