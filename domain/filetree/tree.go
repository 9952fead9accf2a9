// Package filetree holds directory trees in memory (the files under a
// root, by relative path) and writes them into work directories: a
// Workspace is a copy of a base tree that is brought to another content
// by touching only the files whose content differs from what the copy
// holds, so that a test on a tree costs what changed, not the tree, and
// incremental builds stay warm. Both the changes between two versions
// (package codediff) and the reduction of a whole directory use it.
package filetree

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// File is one file of a tree.
type File struct {
	Data []byte
	Mode fs.FileMode // permission bits and type (regular or symlink)
	Link string      // the target, for a symbolic link
}

// Same reports whether two files (nil for none) are the same: content,
// mode and link target.
func Same(f, g *File) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.Mode == g.Mode && f.Link == g.Link && bytes.Equal(f.Data, g.Data)
}

// Tree is the files of a directory, by slash-separated relative path.
type Tree struct {
	Files map[string]*File
	// Dirs are the directories that hold nothing of the tree (no file,
	// link or directory), sorted: a test may need one to be there (an
	// output directory), so every copy of the tree has them. They are
	// not elements of a reduction.
	Dirs []string
}

// Paths returns the tree's paths, sorted.
func (t *Tree) Paths() []string {
	ps := make([]string, 0, len(t.Files))
	for p := range t.Files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// Skip says whether a path of a tree is left out: version control
// metadata (.git, .hg, .svn) is.
func Skip(rel string) bool {
	switch path.Base(rel) {
	case ".git", ".hg", ".svn":
		return true
	}
	return false
}

// ReadTree reads the files under root (regular files and symbolic links;
// directories that Skip names are left out), and the directories that
// hold none of them (Tree.Dirs). Files are read by several
// goroutines at once: a large tree not in the page cache is read as
// fast as the disk answers several requests at a time, not one.
func ReadTree(root string) (*Tree, error) {
	t := &Tree{Files: map[string]*File{}}
	type regular struct{ rel, full string }
	var files []regular
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if Skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			dirs = append(dirs, rel)
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			t.Files[rel] = &File{Mode: fs.ModeSymlink | 0o777, Link: target}
		case d.Type().IsRegular():
			files = append(files, regular{rel, p})
		default:
			return fmt.Errorf("%s: not a regular file, directory or symbolic link", p)
		}
		return nil
	})
	if err != nil {
		return t, err
	}
	read := make([]*File, len(files))
	errs := make([]error, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(readers, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				read[i], errs[i] = readFile(files[i].full)
			}
		}()
	}
	wg.Wait()
	for i, f := range files {
		if errs[i] != nil {
			return t, errs[i]
		}
		t.Files[f.rel] = read[i]
	}
	t.Dirs = leaves(dirs, t.Files)
	return t, nil
}

// leaves are the directories of dirs (in the order a walk meets them:
// a directory before what it holds) under which neither another of them
// nor a file is.
func leaves(dirs []string, files map[string]*File) []string {
	full := map[string]bool{}
	for p := range files {
		for d := path.Dir(p); d != "." && !full[d]; d = path.Dir(d) {
			full[d] = true
		}
	}
	for _, d := range dirs {
		for d := path.Dir(d); d != "." && !full[d]; d = path.Dir(d) {
			full[d] = true
		}
	}
	var out []string
	for _, d := range dirs {
		if !full[d] {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// readers is how many files ReadTree reads at once.
const readers = 8

// readFile reads the regular file at p, with its permission bits.
func readFile(p string) (*File, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, 0, st.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // it grew: more room
		}
	}
	return &File{Data: data, Mode: st.Mode().Perm()}, nil
}

// Binary reports whether data looks like binary rather than text: a NUL
// byte in its first 8000 bytes, as git decides.
func Binary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

// Hash is a digest of a file (nil: none) that differs when Same would
// say the files differ.
func Hash(f *File) [32]byte {
	if f == nil {
		return [32]byte{}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%o %q ", f.Mode, f.Link)
	h.Write(f.Data)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// WriteTree writes the files of t into dir, which must exist and hold
// none of them, making their directories and t's empty ones; progress,
// when not nil, is called after each file with how many of how many are
// written.
func WriteTree(dir string, t *Tree, progress func(done, total int)) error {
	if err := t.MakeDirs(dir); err != nil {
		return err
	}
	made := map[string]bool{".": true}
	paths := t.Paths()
	for i, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := mkdirFor(full, p, made); err != nil {
			return err
		}
		if err := t.Files[p].create(full); err != nil {
			return err
		}
		if progress != nil {
			progress(i+1, len(paths))
		}
	}
	return nil
}

// MakeDirs makes the tree's empty directories (Dirs) under dir, where
// they are not.
func (t *Tree) MakeDirs(dir string) error {
	for _, d := range t.Dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// create makes f at full, where nothing is: the symbolic link, or the
// file with its content and permissions (all of them: the process's
// umask does not take a group's write bit off a copy of the original).
func (f *File) create(full string) error {
	if f.Link != "" {
		return os.Symlink(f.Link, full)
	}
	if err := os.WriteFile(full, f.Data, f.Mode.Perm()); err != nil {
		return err
	}
	if f.Mode.Perm()&^umask() != f.Mode.Perm() {
		return os.Chmod(full, f.Mode.Perm())
	}
	return nil
}

// umask is the process's file mode creation mask, read once from
// /proc/self/status (setting it to read it back would race with other
// goroutines creating files); 022, the usual one, where that cannot be
// read.
var umask = sync.OnceValue(func() os.FileMode {
	data, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return os.FileMode(m)
				}
			}
		}
	}
	return 0o022
})
