// Package codediff finds the changes between two versions of a source
// tree, as delta debugging of code changes needs them (FSE 1999,
// "Yesterday, my program worked. Today, it does not. Why?"): the hunks of
// each changed text file, files added, deleted or renamed, and binary
// files as whole-file changes. It groups related changes (by directory,
// file, Go declaration, identifier); Set.Content gives any subset of them
// as the files to write into a copy of the old tree (a
// filetree.Workspace).
package codediff

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/filetree"
)

// Kind says what a change does.
type Kind int

const (
	// Hunk replaces lines of a text file: Old by New, at line OldStart.
	Hunk Kind = iota
	// Add adds a file.
	Add
	// Delete deletes a file.
	Delete
	// Rename moves a file, unchanged, from From to Path.
	Rename
	// Replace replaces a file as a whole: a binary file, a symbolic link,
	// or a change of mode.
	Replace
)

var kindNames = [...]string{"hunk", "add", "delete", "rename", "replace"}

func (k Kind) String() string { return kindNames[k] }

// Change is one change between the old and the new tree.
type Change struct {
	Kind Kind
	Path string // the file; for Rename, its new path
	From string // for Rename, the old path

	// For hunks: lines Old[0:] at 0-based line OldStart of the old file
	// are replaced by New; NewStart is where they start in the new file.
	OldStart, NewStart int
	Old, New           [][]byte
	// NewFile says the hunk is a part of a file the old tree does not
	// have (Refine): the file exists when any of its parts is applied,
	// and holds the parts applied, in order. Header says the other
	// parts of the file need this one (its package clause) or, when
	// Opens names a container, its members do (a namespace's first or
	// last lines); Within is the container a part is a member of ("" at
	// the top level).
	NewFile, Header bool
	Opens, Within   string
}

// String describes the change briefly, as "dir/file.go:12-14" or
// "add dir/new.go".
func (c *Change) String() string {
	switch c.Kind {
	case Hunk:
		if c.NewFile {
			return fmt.Sprintf("%s:%d-%d (new file)", c.Path, c.NewStart+1, c.NewStart+len(c.New))
		}
		if len(c.Old) == 0 {
			return fmt.Sprintf("%s:%d+%d", c.Path, c.OldStart+1, len(c.New))
		}
		return fmt.Sprintf("%s:%d-%d", c.Path, c.OldStart+1, c.OldStart+len(c.Old))
	case Rename:
		return fmt.Sprintf("rename %s -> %s", c.From, c.Path)
	}
	return c.Kind.String() + " " + c.Path
}

// Set is the changes between an old and a new tree.
type Set struct {
	Old, New *Tree
	Changes  []Change
	byPath   map[string][]int // the changes of each path they touch, in order
}

// Compare computes the changes that turn old into new. In a text file
// changed in several places, each hunk is a change; hunks separated by
// fewer than context unchanged lines are one (FSE 1999 §8: GDB's 178,000
// changed lines made 8721 changes with a context of two). context < 0
// makes every inserted or deleted line a change of its own. Files whose
// content moved unchanged from one path to another are one rename.
func Compare(old, new *Tree, context int) *Set {
	s := &Set{Old: old, New: new}
	var added, deleted []string
	for _, p := range old.Paths() {
		if _, ok := new.Files[p]; !ok {
			deleted = append(deleted, p)
		}
	}
	for _, p := range new.Paths() {
		of, ok := old.Files[p]
		nf := new.Files[p]
		switch {
		case !ok:
			added = append(added, p)
		case filetree.Same(of, nf):
		case of.Mode.IsRegular() && nf.Mode.IsRegular() && of.Mode == nf.Mode && !filetree.Binary(of.Data) && !filetree.Binary(nf.Data):
			s.Changes = append(s.Changes, hunks(p, of.Data, nf.Data, context)...)
		default:
			s.Changes = append(s.Changes, Change{Kind: Replace, Path: p})
		}
	}
	// Renames: a deleted file whose content reappears under an added path.
	byContent := map[[32]byte][]string{}
	for _, p := range deleted {
		h := filetree.Hash(old.Files[p])
		byContent[h] = append(byContent[h], p)
	}
	renamed := map[string]bool{}
	for _, p := range added {
		h := filetree.Hash(new.Files[p])
		if froms := byContent[h]; len(froms) > 0 {
			s.Changes = append(s.Changes, Change{Kind: Rename, Path: p, From: froms[0]})
			byContent[h] = froms[1:]
			renamed[froms[0]] = true
			continue
		}
		s.Changes = append(s.Changes, Change{Kind: Add, Path: p})
	}
	for _, p := range deleted {
		if !renamed[p] {
			s.Changes = append(s.Changes, Change{Kind: Delete, Path: p})
		}
	}
	// Order by path, then position, so that related changes are neighbors.
	sort.SliceStable(s.Changes, func(i, j int) bool {
		a, b := &s.Changes[i], &s.Changes[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.OldStart < b.OldStart
	})
	s.index()
	return s
}

func (s *Set) index() {
	s.byPath = map[string][]int{}
	for i, c := range s.Changes {
		s.byPath[c.Path] = append(s.byPath[c.Path], i)
		if c.Kind == Rename {
			s.byPath[c.From] = append(s.byPath[c.From], i)
		}
	}
}

// Len is the number of changes.
func (s *Set) Len() int { return len(s.Changes) }

// Paths returns the paths the changes touch, sorted.
func (s *Set) Paths() []string {
	ps := make([]string, 0, len(s.byPath))
	for p := range s.byPath {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func splitLines(data []byte) [][]byte {
	p, _ := decomp.Lines{}.Cut(data)
	out := make([][]byte, p.Len())
	for i := range out {
		out[i] = p.Piece(i)
	}
	return out
}

// hunks diffs two versions of a text file by lines and groups the
// edits into hunks.
func hunks(p string, old, new []byte, context int) []Change {
	ol, nl := splitLines(old), splitLines(new)
	op, _ := decomp.Lines{}.Cut(old)
	np, _ := decomp.Lines{}.Cut(new)
	script := decomp.Diff(op, np)
	edits := script.Edits()
	var out []Change
	for k := 0; k < len(edits); {
		e := edits[k]
		h := Change{Kind: Hunk, Path: p, OldStart: e.OldStart, NewStart: e.NewStart}
		oldEnd, newEnd := e.OldStart, e.NewStart
		for ; k < len(edits); k++ {
			e := edits[k]
			if context >= 0 && len(h.Old)+len(h.New) > 0 && e.OldStart-oldEnd >= max(context, 1) {
				break
			}
			if context < 0 && len(h.Old)+len(h.New) > 0 {
				break
			}
			// Unchanged lines between edits of one hunk belong to both sides.
			h.Old = append(h.Old, ol[oldEnd:e.OldStart]...)
			h.New = append(h.New, nl[newEnd:e.NewStart]...)
			if e.Insert {
				h.New = append(h.New, nl[e.NewStart])
				newEnd = e.NewStart + 1
				oldEnd = e.OldStart
			} else {
				h.Old = append(h.Old, ol[e.OldStart])
				oldEnd = e.OldStart + 1
				newEnd = e.NewStart
			}
		}
		out = append(out, h)
	}
	return out
}

// Content computes the files touched by the changes as they are with the
// changes at the sorted indices c applied: by path, the file, or nil for
// a file that does not exist then.
func (s *Set) Content(c []int) map[string]*File {
	on := make(map[int]bool, len(c))
	for _, i := range c {
		on[i] = true
	}
	out := make(map[string]*File, len(s.byPath))
	for p, idx := range s.byPath {
		out[p] = s.file(p, idx, on)
	}
	return out
}

// file computes one path under the applied changes on.
func (s *Set) file(p string, idx []int, on map[int]bool) *File {
	of := s.Old.Files[p]
	nf := s.New.Files[p]
	var lines [][]byte
	hunked := false
	// Removals first, then additions: a path may lose its old file to a
	// rename and get a new one added.
	removed, added := false, (*File)(nil)
	for _, i := range idx {
		c := &s.Changes[i]
		if !on[i] {
			if c.Kind == Hunk {
				hunked = true
			}
			continue
		}
		switch {
		case c.Kind == Hunk:
			hunked = true
		case c.Kind == Delete, c.Kind == Rename && c.From == p:
			removed = true
		case c.Kind == Add, c.Kind == Replace:
			added = nf
		case c.Kind == Rename && c.Path == p:
			added = s.Old.Files[c.From]
		}
	}
	present := of
	if removed {
		present = nil
	}
	if added != nil {
		present = added
	}
	if !hunked {
		return present
	}
	if of == nil {
		// The parts of an added file (Refine): the file holds those
		// applied, and exists when one is.
		for _, i := range idx {
			if c := &s.Changes[i]; on[i] && c.Kind == Hunk {
				lines = append(lines, c.New...)
			}
		}
		if lines == nil {
			return present
		}
		return &File{Data: bytes.Join(lines, nil), Mode: nf.Mode}
	}
	ol := splitLines(of.Data)
	pos := 0
	for _, i := range idx {
		c := &s.Changes[i]
		lines = append(lines, ol[pos:c.OldStart]...)
		if on[i] {
			lines = append(lines, c.New...)
		} else {
			lines = append(lines, c.Old...)
		}
		pos = c.OldStart + len(c.Old)
	}
	lines = append(lines, ol[pos:]...)
	return &File{Data: bytes.Join(lines, nil), Mode: of.Mode}
}

// Tree returns the old tree with the changes at the sorted indices c
// applied.
func (s *Set) Tree(c []int) *Tree {
	t := &Tree{Files: make(map[string]*File, len(s.Old.Files))}
	for p, f := range s.Old.Files {
		t.Files[p] = f
	}
	for p, f := range s.Content(c) {
		if f == nil {
			delete(t.Files, p)
		} else {
			t.Files[p] = f
		}
	}
	return t
}

// Tree is a version's files, by slash-separated relative path.
type Tree = filetree.Tree

// File is one file of a Tree.
type File = filetree.File
