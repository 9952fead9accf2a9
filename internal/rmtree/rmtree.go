// Package rmtree removes directory trees that a test may have left
// without write permission (a Go module cache's read-only directories).
package rmtree

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// RemoveAll removes path and what it holds, as os.RemoveAll does; where
// that is refused for want of permission, it makes path's directory and
// every directory under path writable first, and tries again.
func RemoveAll(path string) error {
	err := os.RemoveAll(path)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	os.Chmod(filepath.Dir(path), 0o755)
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(path)
}
