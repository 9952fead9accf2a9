package command

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
)

// A test that fills the file system of its work directory fails for
// that, not for its candidate: to wynot it looks like a flaky test, or a
// candidate that cannot be written. wynot names the cause instead, with
// where the work directories are and how to put them elsewhere.

// NoRoomError is an error whose cause is that the file system of the
// work directories is full.
type NoRoomError struct {
	Parent string // the directory the work directories are in
	Runs   int64  // runs of the test that ran out of room there, if any
	Err    error  // what failed, or what wynot would have said otherwise
}

func (e *NoRoomError) Error() string {
	if e.Runs > 0 {
		return fmt.Sprintf("%s; %s ran out of room there, and wynot would otherwise have said: %v", noRoom(e.Parent), report.Plural(int(e.Runs), "run")+" of the test", e.Err)
	}
	return fmt.Sprintf("%s (%v)", noRoom(e.Parent), e.Err)
}

func (e *NoRoomError) Unwrap() error { return e.Err }

// noRoom says that the file system of parent, where the work directories
// are, is full, and what to do.
func noRoom(parent string) string {
	where := parent + ", where the work directories are"
	if d := os.Getenv("WYNOT_TMPDIR"); d != "" && filepath.Clean(d) == filepath.Clean(parent) {
		where = "WYNOT_TMPDIR " + parent
	}
	var st syscall.Statfs_t
	if syscall.Statfs(parent, &st) == nil {
		where += fmt.Sprintf(" (a file system of %s)", size(st.Blocks*uint64(st.Bsize)))
	}
	return fmt.Sprintf("no space left on device in %s: set WYNOT_TMPDIR to a directory on a file system with more room", where)
}

// size writes a number of bytes for people: 512 bytes, 2.0 MiB.
func size(n uint64) string { return keep.HumanSize(n) }

// RoomHint names a full file system as the cause of err, an error of
// preparing the work directory dir (a slot in the directory of a run's
// work directories). It returns other errors (and nil) as they are.
func RoomHint(err error, dir string) error {
	var nr *NoRoomError
	if err == nil || !errors.Is(err, syscall.ENOSPC) || errors.As(err, &nr) {
		return err
	}
	return &NoRoomError{Parent: filepath.Dir(filepath.Dir(dir)), Err: err}
}

// roomCause names a full file system as the cause of err when runs of
// the test ran out of room (runner.Tester.OutOfRoom) or err is ENOSPC
// (writing a candidate), keeping err's exit status; it returns err as it
// is otherwise, and when a write beside the inputs or at -o found its
// own file system full (keep.NoRoomError): that one is named already.
func (s *Session) roomCause(err error) error {
	var nr *NoRoomError
	var kr *keep.NoRoomError
	if err == nil || s.tester == nil || errors.As(err, &nr) || errors.As(err, &kr) || s.tester.OutOfRoom() == 0 && !errors.Is(err, syscall.ENOSPC) {
		return err
	}
	e := &NoRoomError{Parent: filepath.Dir(s.tester.Root()), Runs: s.tester.OutOfRoom(), Err: err}
	if code := ExitCode(err); code != ExitInput {
		return &ExitError{code, e}
	}
	return e
}
