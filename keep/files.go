package keep

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// WriteAtomic replaces path with data: written to a temporary file in the
// same directory, synced, then renamed over path, so that path always
// holds either its old or its new content.
func WriteAtomic(path string, data []byte, mode fs.FileMode) error {
	return replace(path, data, mode, true)
}

// ReplaceFile is WriteAtomic without syncing to the disk: path holds the
// old or the new content whenever the process stops, even by SIGKILL,
// but a crash of the whole system may find the old.
func ReplaceFile(path string, data []byte, mode fs.FileMode) error {
	return replace(path, data, mode, false)
}

// FreePath returns p when nothing exists there; otherwise the first of
// p.1, p.2, ... that is free (with ext moved behind the number:
// NAME.1.pass for p = NAME.pass and ext = ".pass"). wynot never writes
// over a file it did not make in the same run.
func FreePath(p, ext string) string {
	if _, err := os.Lstat(p); os.IsNotExist(err) {
		return p
	}
	stem := strings.TrimSuffix(p, ext)
	for k := 1; ; k++ {
		q := fmt.Sprintf("%s.%d%s", stem, k, ext)
		if _, err := os.Lstat(q); os.IsNotExist(err) {
			return q
		}
	}
}

func replace(path string, data []byte, mode fs.FileMode, sync bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".wynot-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode.Perm())
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// CheckWritable fails unless a file can be created in dir.
func CheckWritable(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", Quote(dir))
	}
	f, err := os.CreateTemp(dir, ".wynot-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// Replaceable reports whether the input at p is a regular file that a
// result may replace: not a symbolic link (Lstat), not under /dev or
// /proc.
func Replaceable(p string) bool {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return !strings.HasPrefix(abs, "/dev/") && !strings.HasPrefix(abs, "/proc/")
}

// Within reports whether path p is dir or below it (both absolute).
func Within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// UnwrapPath drops the operation from a file system error: "open x:
// permission denied" reads better as "x: permission denied"; the path
// is written as Quote writes it. The error it returns still wraps the
// cause (errors.Is(err, syscall.ENOSPC)).
func UnwrapPath(err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", Quote(pe.Path), pe.Err)
	case errors.As(err, &le):
		return fmt.Errorf("%s: %w", Quote(le.New), le.Err)
	}
	return err
}

// FreeSpace is how many bytes an unprivileged user may still write to
// the file system of dir.
func FreeSpace(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}

// removeEmptyParents removes the directories above file, up to root
// (left), that are empty.
func removeEmptyParents(file, root string) {
	root = filepath.Clean(root)
	for d := filepath.Dir(file); d != root && strings.HasPrefix(d, root+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break // not empty
		}
	}
}

func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
