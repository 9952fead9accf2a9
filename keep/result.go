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
	if r.Tree == nil {
		return r.write(e, sync)
	}
	return r.saveTree([]*Entry{e}, sync, false, "")
}

// write writes the entry (or removes it from the result tree), and
// nothing else.
func (r *Result) write(e *Entry, sync bool) error {
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
	return nil
}

// fileOf is what the result tree holds of the entry now (nil: nothing).
func fileOf(e *Entry) *filetree.File {
	if e.Removed {
		return nil
	}
	return &filetree.File{Data: e.Data, Mode: e.Mode, Link: e.Link}
}

// next is the digest of what the tree will hold once the entries in
// changed are written (what it holds when it is not tracked).
func (t *Tree) next(changed []*Entry) filetree.Digest {
	next := t.sum
	if !t.tracked {
		return next
	}
	for _, e := range changed {
		if k, ok := t.sums[e.Name]; ok {
			next.Sub(k)
		}
		if f := fileOf(e); f != nil {
			next.Add(fileSum(e.Name, f))
		}
	}
	return next
}

// saveTree writes entries of a tree changed at once, journaled when
// journal is set (Tree.Journal), and records the change in the tree's
// lineage: before the first file is written, as the change DIR may hold
// next, and once all are, as what it holds. It costs the files changed:
// their content is hashed into the tree's digest, the others are not
// read. what names the write for Tree.Progress ("": the smaller tree).
func (r *Result) saveTree(changed []*Entry, sync, journal bool, what string) error {
	t := r.Tree
	if what == "" {
		what = "writing the smaller tree to " + t.Dest
	}
	if next := t.next(changed); t.tracked && next != t.sum {
		t.Record(next.String())
	}
	progress := t.progress(what)
	write := func() error {
		for i, e := range changed {
			if err := r.write(e, sync); err != nil {
				return err
			}
			t.set(e.Name, fileOf(e))
			if progress != nil {
				progress(i+1, len(changed))
			}
		}
		return nil
	}
	var err error
	if journal {
		cs := make([]Change, len(changed))
		for i, e := range changed {
			cs[i] = Change{Name: e.Name, Data: e.Data, Mode: e.Mode, Removed: e.Removed}
		}
		err = t.Journal(cs, write)
	} else {
		err = write()
	}
	if err != nil {
		return err
	}
	t.Record("")
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
// stays half changed. Its cost is that of the files changed, whatever
// the size of the tree.
func (r *Result) SaveTogether(changed []*Entry) error {
	if r.Tree == nil {
		for _, e := range changed {
			if err := r.write(e, false); err != nil {
				return err
			}
		}
		return nil
	}
	return r.saveTree(changed, false, true, "")
}

// Restart goes back to the originals: every entry is the original again,
// and what was written of it is written back.
func (r *Result) Restart() error {
	var changed []*Entry
	for _, e := range r.Entries {
		back := false
		if e.Removed {
			e.Removed, e.Dirty, back = false, true, true
		}
		if !e.original() {
			orig, err := e.Original()
			if err != nil {
				return err
			}
			e.Data, e.Dirty = orig, true
			back = back || e.Written()
		}
		if back {
			changed = append(changed, e)
		}
	}
	if r.Tree == nil {
		for _, e := range changed {
			if err := r.write(e, false); err != nil {
				return err
			}
		}
		return nil
	}
	// Not journaled: the journal would hold the whole original, which
	// DIR.orig holds already.
	return r.saveTree(changed, false, false, "restoring the original in "+r.Tree.Dest)
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
