package filetree

import (
	"time"

	"golang.org/x/sys/unix"
)

// stamp is what lstat says of a path that changes when anything writes
// to it: a change of content, mode, times or links changes its change
// time, which no program can set; a file replaced by another has
// another inode.
type stamp struct {
	ino          uint64
	size         int64
	mode         uint32
	mtime, ctime timespec
}

// timespec is a file time as the file system keeps it.
type timespec struct{ sec, nsec int64 }

func (t timespec) before(u timespec) bool {
	return t.sec < u.sec || t.sec == u.sec && t.nsec < u.nsec
}

func (t timespec) time() time.Time { return time.Unix(t.sec, t.nsec) }

var timeNow = time.Now

func stampOf(st *unix.Stat_t) stamp {
	return stamp{
		ino: st.Ino, size: st.Size, mode: st.Mode,
		mtime: timespec{st.Mtim.Sec, st.Mtim.Nsec},
		ctime: timespec{st.Ctim.Sec, st.Ctim.Nsec},
	}
}

// lstamp stamps the path full (a symbolic link itself, not its target).
func lstamp(full string) (stamp, error) {
	var st unix.Stat_t
	if err := unix.Lstat(full, &st); err != nil {
		return stamp{}, err
	}
	return stampOf(&st), nil
}

// stampAt stamps the entry name of the directory open as dirfd (a
// symbolic link itself): cheaper than lstamp, which walks the path.
func stampAt(dirfd int, name string) (stamp, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return stamp{}, err
	}
	return stampOf(&st), nil
}

// statCtime is the change time of the file at full, if it exists.
func statCtime(full string) (timespec, bool) {
	var st unix.Stat_t
	if err := unix.Stat(full, &st); err != nil {
		return timespec{}, false
	}
	return stampOf(&st).ctime, true
}
