package keep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wynot/wynot/domain/filetree"
)

// Read reads the input files at paths as the entries of a Result, each
// holding its original: each must be a file, and not empty; their names
// (where the tests see them side by side in one directory: their base
// names) must differ. Where their results go is Place's to decide.
func Read(paths []string) ([]*Entry, error) {
	var es []*Entry
	names := map[string]string{}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("input %s: %v", Quote(p), errors.Unwrap(err))
		}
		if st.IsDir() {
			return nil, fmt.Errorf("input %s is a directory; give files", Quote(p))
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("input %s: %v", Quote(p), UnwrapPath(err))
		}
		if len(data) == 0 {
			return nil, fmt.Errorf("input %s is empty: nothing to reduce", Quote(p))
		}
		name := filepath.Base(p)
		if other, ok := names[name]; ok {
			return nil, fmt.Errorf("inputs %s and %s have the same name; the test sees them side by side in one directory", Quote(other), Quote(p))
		}
		names[name] = p
		es = append(es, &Entry{File: NewFile(p, name, data, st.Mode()), Data: data})
	}
	return es, nil
}

// OpenTree reads the directory p as an input whose result tree goes
// where PlaceTree decides, once the change an interrupted run left
// pending is written (FinishPending). The tree must hold files; the
// current directory, or one holding it, is reduced in place only into
// output (-o). It returns the tree, the entries of its Result (each
// file, by its slash-separated path, holding its original) and what to
// tell the user.
func OpenTree(p, output string) (*Tree, []*Entry, []string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("input %s: %v", Quote(p), err)
	}
	if cwd, err := os.Getwd(); err == nil && Within(cwd, abs) && output == "" {
		return nil, nil, nil, fmt.Errorf("input %s is the current directory, or holds it: reducing it in place would change the directory wynot runs in and put its copy of the original beside it; run wynot from outside the tree, or give -o DIR for the result", Quote(p))
	}
	var notes []string
	if note, err := FinishPending(p); err != nil {
		return nil, nil, nil, err
	} else if note != "" {
		notes = append(notes, note)
	}
	base, err := filetree.ReadTree(abs)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading the tree %s: %v", Quote(p), UnwrapPath(err))
	}
	if len(base.Files) == 0 {
		return nil, nil, nil, fmt.Errorf("input %s holds no files: nothing to reduce", Quote(p))
	}
	for _, vcs := range []string{".git", ".hg", ".svn"} {
		if _, err := os.Lstat(filepath.Join(abs, vcs)); err == nil {
			notes = append(notes, fmt.Sprintf("%s is left out of the tests and of the reduction", Quote(filepath.Join(p, vcs))))
		}
	}
	t, more, err := PlaceTree(p, abs, base, output)
	notes = append(notes, more...)
	if err != nil {
		return nil, nil, notes, err
	}
	var es []*Entry
	for _, rel := range base.Paths() {
		f := base.Files[rel]
		e := &Entry{File: NewFile(filepath.Join(p, filepath.FromSlash(rel)), rel, f.Data, f.Mode), Data: f.Data, Link: f.Link}
		e.Dest, e.of = filepath.Join(t.Dest, filepath.FromSlash(rel)), t.of
		es = append(es, e)
	}
	return t, es, notes, nil
}

// Base is what the directory held when it was opened.
func (t *Tree) Base() *filetree.Tree { return t.base }
