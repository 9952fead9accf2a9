package runner

import (
	"io/fs"
	"path/filepath"
	"slices"
	"time"
)

// A Footprint is what a directory holds, as far as a test run in it can
// change it: each entry's size, modification time and mode, by path
// relative to the directory. Comparing the footprints taken before and
// after a test tells whether the test writes where it runs, so that two
// tests running there at once could step on each other.
type Footprint struct {
	entries map[string]stamp
	// Partial says that the directory held more entries than
	// MaxFootprint: entries beyond those were not looked at.
	Partial bool
}

type stamp struct {
	size  int64
	mtime time.Time
	mode  fs.FileMode
}

// MaxFootprint bounds the entries a footprint looks at, so that taking
// one in a large tree (a home directory) stays cheap.
const MaxFootprint = 50000

// footprintSkips are the directories a footprint does not enter: a
// repository's own data, and the caches that tools write safely however
// many of them run at once (Python's bytecode, pytest's, cargo's build
// directory, which cargo locks).
var footprintSkips = []string{".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "target", "node_modules"}

// TakeFootprint records dir's entries (following no symbolic link).
func TakeFootprint(dir string) Footprint {
	f := Footprint{entries: map[string]stamp{}}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if len(f.entries) >= MaxFootprint {
			f.Partial = true
			return filepath.SkipAll
		}
		if d.IsDir() && p != dir && slices.Contains(footprintSkips, d.Name()) {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		st := stamp{size: info.Size(), mtime: info.ModTime(), mode: info.Mode()}
		if d.IsDir() {
			st.size = 0 // a directory's size says nothing of what a test did
		}
		f.entries[rel] = st
		return nil
	})
	return f
}

// Changed returns the paths that differ between f and a later footprint
// of the same directory: made, changed or removed, sorted. Directories
// count only when made or removed.
func (f Footprint) Changed(later Footprint) []string {
	var out []string
	for p, s := range later.entries {
		old, ok := f.entries[p]
		switch {
		case !ok:
			if !f.Partial {
				out = append(out, p)
			}
		case s.mode.IsDir() && old.mode.IsDir():
		case s != old:
			out = append(out, p)
		}
	}
	for p := range f.entries {
		if _, ok := later.entries[p]; !ok && !later.Partial {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
