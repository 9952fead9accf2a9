package keep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wynot/wynot/domain/filetree"
)

// Result is what a reduction has found so far, kept where the user
// asked: each input's smallest failing content, or in a tree its
// removal, written as soon as it is found, so that a run stopped at any
// moment leaves the best result it had. Its methods are not safe for
// concurrent use: the caller serializes them.
type Result struct {
	Entries []*Entry
	// Tree is the directory reduced as a whole, whose files the
	// entries are; nil for files on their own.
	Tree *Tree
}

// Entry is one input of a Result.
type Entry struct {
	*File
	Data  []byte // the smallest failing content so far
	Dirty bool   // Data is not written yet
	// In a tree: Removed says the file is no longer part of the result;
	// Link is a symbolic link's target (Data unused).
	Removed bool
	Link    string
}

// files are the entries' Files.
func (r *Result) files() []*File {
	fs := make([]*File, len(r.Entries))
	for i, e := range r.Entries {
		fs[i] = e.File
	}
	return fs
}

// KeepOriginals keeps the originals of the inputs replaced in place
// (FILE.orig, DIR.orig), or makes the result tree (-o) a copy of the
// original, before anything is written, and records their lineage.
func (r *Result) KeepOriginals() error {
	if r.Tree != nil {
		return r.Tree.KeepOriginal(r.files(), r.Now())
	}
	for _, e := range r.Entries {
		if err := e.KeepOriginal(); err != nil {
			return err
		}
	}
	return nil
}

// DropBackups removes the copies of originals this run made for inputs
// it left as they were: nothing smaller was found, and the original is
// still in place.
func (r *Result) DropBackups() {
	if r.Tree != nil {
		r.Tree.DropBackup(r.Changed(), r.files())
		return
	}
	for _, e := range r.Entries {
		e.DropBackup()
	}
}

// Save writes the entry to its destination atomically (synced to the
// disk when sync is set: a crash of the whole system may otherwise lose
// the newest few), or removes it from the result tree, and records what
// it wrote in the lineage of a tree replaced in place.
func (r *Result) Save(e *Entry, sync bool) error {
	var err error
	switch {
	case r.Tree != nil && e.Removed:
		err = r.Tree.Remove(e.File, sync)
	case r.Tree != nil && e.Link != "":
		err = r.Tree.Link(e.File, e.Link)
	default:
		err = e.Write(e.Data, sync)
	}
	if err != nil {
		return err
	}
	e.Dirty = false
	if r.Tree != nil {
		r.Tree.Record(r.Now())
	}
	return nil
}

// Flush writes the entry, synced, unless its destination holds it
// already; a result that goes elsewhere (-o) is written even when it is
// the original.
func (r *Result) Flush(e *Entry) error {
	if !e.Dirty && !(e.Dest != e.Path && !e.Written()) {
		return nil
	}
	return r.Save(e, true)
}

// SaveTogether writes entries changed at once (a change across a
// package's files, files removed together); to a tree replaced in
// place, as one journaled change (Tree.Journal), so that the tree never
// stays half changed.
func (r *Result) SaveTogether(changed []*Entry) error {
	write := func() error {
		for _, e := range changed {
			if err := r.Save(e, false); err != nil {
				return err
			}
		}
		return nil
	}
	if r.Tree == nil {
		return write()
	}
	cs := make([]Change, len(changed))
	for i, e := range changed {
		cs[i] = Change{Name: e.Name, Data: e.Data, Mode: e.Mode, Removed: e.Removed}
	}
	return r.Tree.Journal(cs, write)
}

// Restart goes back to the originals: every entry is the original again,
// and what was written of it is written back.
func (r *Result) Restart() error {
	for _, e := range r.Entries {
		if e.Removed {
			e.Removed, e.Dirty = false, true
			if err := r.Save(e, false); err != nil {
				return err
			}
		}
		if e.original() {
			continue
		}
		orig, err := e.Original()
		if err != nil {
			return err
		}
		e.Data, e.Dirty = orig, true
		if e.Written() {
			if err := r.Save(e, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// original says the entry holds its original content.
func (e *Entry) original() bool {
	return e.Link != "" || len(e.Data) == e.Size && Digest(e.Data) == e.Sum
}

// Changed says the result differs from the originals.
func (r *Result) Changed() bool {
	return slices.ContainsFunc(r.Entries, func(e *Entry) bool { return e.Removed || !e.original() })
}

// Now is the tree as the result has it now.
func (r *Result) Now() map[string]*filetree.File {
	now := map[string]*filetree.File{}
	for _, e := range r.Entries {
		if !e.Removed {
			now[e.Name] = &filetree.File{Data: e.Data, Mode: e.Mode, Link: e.Link}
		}
	}
	return now
}

// Size is the size of the result's entries now.
func (r *Result) Size() int {
	n := 0
	for _, e := range r.Entries {
		if !e.Removed {
			n += len(e.Data)
		}
	}
	return n
}

// Where says where the results are, a line for each input (one for a
// tree): left as it was, replaced with its original kept, or written
// elsewhere.
func (r *Result) Where() []string {
	if t := r.Tree; t != nil {
		switch {
		case !r.Changed() && t.Dest == t.Path:
			return []string{fmt.Sprintf("%s is unchanged: nothing smaller fails", Quote(t.Path))}
		case t.Backup != "":
			return []string{fmt.Sprintf("%s now holds the result (%s); the original is in %s", Quote(t.Path), r.names(), Quote(t.Backup))}
		}
		return []string{fmt.Sprintf("result tree written to %s (%s)", Quote(t.Dest), r.names())}
	}
	var lines []string
	for _, e := range r.Entries {
		switch {
		case !e.Written() && e.Dest == e.Path && e.Backup != "":
			lines = append(lines, fmt.Sprintf("%s is unchanged: nothing smaller fails; the original is in %s", Quote(e.Path), Quote(e.Backup)))
		case !e.Written() && e.Dest == e.Path:
			lines = append(lines, fmt.Sprintf("%s is unchanged: nothing smaller fails", Quote(e.Path)))
		case e.Backup != "":
			lines = append(lines, fmt.Sprintf("%s now holds the result; the original is in %s", Quote(e.Path), Quote(e.Backup)))
		default:
			lines = append(lines, fmt.Sprintf("result written to %s", Quote(e.Dest)))
		}
	}
	return lines
}

// names names the result's files, or counts them when there are many.
func (r *Result) names() string {
	var names []string
	for _, e := range r.Entries {
		if !e.Removed {
			names = append(names, Quote(e.Name))
		}
	}
	switch {
	case len(names) == 0:
		return "no files"
	case len(names) == 1:
		return names[0]
	case len(names) > 6:
		return fmt.Sprintf("%d files", len(names))
	}
	return strings.Join(names, ", ")
}
