package keep

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
)

// NoRoomError is a write of wynot's that found its file system full
// where the user's files are: beside an input (its result written in
// place, the copy of its original, the record of a change to a tree),
// at -o, or in the current directory. It names that file system, not
// the one of the work directories (WYNOT_TMPDIR), and says what to do.
type NoRoomError struct {
	// Of says whose file system it is: "the input m3.txt", "the input
	// tree src", "-o out.txt", "the current directory".
	Of   string
	Dir  string // the directory written to
	What string // what was written: "the result to m3.txt"
	// InPlace says the write was beside the input, which -o elsewhere
	// leaves as it is.
	InPlace bool
	Err     error
}

func (e *NoRoomError) Error() string {
	why := "no space left on device"
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		why = errno.Error()
	}
	dir := e.Dir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	where := "in " + Quote(dir)
	var st syscall.Statfs_t
	if syscall.Statfs(e.Dir, &st) == nil {
		where += fmt.Sprintf(", a file system of %s, %s free", HumanSize(st.Blocks*uint64(st.Bsize)), HumanSize(st.Bavail*uint64(st.Bsize)))
	}
	do := "make room there, or give -o a path on a file system with more room"
	if e.InPlace {
		do += ", which leaves the input as it is"
	}
	return fmt.Sprintf("%s on the file system of %s (%s), writing %s: %s", why, e.Of, where, e.What, do)
}

func (e *NoRoomError) Unwrap() error { return e.Err }

// Full says err is a file system's being full: no space left on the
// device, or the user's disk quota used up.
func Full(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// NoRoom returns the error of writing what (a result, a patch) to path
// as a NoRoomError when it says the file system is full, naming whose
// file system it is (of: "-o out.diff", "the input bug.txt"), and as it
// is otherwise.
func NoRoom(err error, of, path, what string) error {
	return noRoom(err, of, filepath.Dir(path), what+" to "+Quote(path), false)
}

// noRoom returns err as a NoRoomError when it says the file system is
// full, and as it is otherwise.
func noRoom(err error, of, dir, what string, inPlace bool) error {
	var nr *NoRoomError
	if err == nil || !Full(err) || errors.As(err, &nr) {
		return err
	}
	return &NoRoomError{Of: of, Dir: dir, What: what, InPlace: inPlace, Err: err}
}

// HumanSize writes a number of bytes for people: 512 bytes, 2.0 MiB.
func HumanSize(n uint64) string {
	const unit = 1 << 10
	if n < unit {
		return bytesOf(n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
