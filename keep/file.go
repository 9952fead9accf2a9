// Package keep writes results where the user asked for them and never
// loses an original. A result that replaces its input is written
// atomically, once the original was copied beside it (FILE.orig,
// DIR.orig); a lineage kept in the user's cache directory tells the
// original of an interrupted run, which a later run continues from,
// from an unrelated FILE.orig, which it leaves alone; a change to
// several files of a tree is journaled beside it (DIR.wynot-pending), so
// that a run killed while writing never leaves the tree half changed.
// It also holds the file helpers the commands share (WriteAtomic,
// FreePath, CheckWritable).
package keep

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is an input whose result replaces it, its original kept in
// Backup, or goes elsewhere (Dest). The original stays in memory until
// a file holds it (the backup, or the input itself when the result goes
// elsewhere), and is read again from there when needed, so that a large
// original does not stay in memory beside the reduction.
type File struct {
	Path string // the input as given
	// Name is its name where the tests see it: its base name, or its
	// slash-separated path in a tree.
	Name string
	Mode fs.FileMode
	Size int    // the original's size
	Sum  string // the original's digest
	// Dest is where the result goes: Path itself, -o, or NAME.reduced
	// in the current directory for an input that cannot be replaced.
	Dest string
	// Backup is FILE.orig (or FILE.orig.N) when the result replaces
	// the input.
	Backup string

	orig   []byte
	origAt string
	// madeBackup says Backup was written by this run; an existing one
	// is reused only for the same interrupted reduction (lineage).
	madeBackup bool
	backupSum  string // the digest of what Backup holds
	written    []byte // what Dest holds now (nil: untouched)
	// of names the file system Dest is on, for a write that finds it
	// full (NoRoomError.Of): "the input FILE", "-o PATH", "the current
	// directory"; "" is the input's.
	of string
}

// fsOf names the file system of Dest (NoRoomError.Of).
func (f *File) fsOf() string {
	if f.of == "" {
		return "the input " + Quote(f.Path)
	}
	return f.of
}

// NewFile is the input at path, called name, with its original data.
func NewFile(path, name string, data []byte, mode fs.FileMode) *File {
	return &File{Path: path, Name: name, Mode: mode, Size: len(data), Sum: Digest(data), orig: data}
}

// Original returns the original content: from memory, or read again
// from the file that holds it, which must still hold it.
func (f *File) Original() ([]byte, error) {
	if f.orig != nil {
		return f.orig, nil
	}
	for _, p := range []string{f.origAt, f.Path} {
		if p == f.Dest && f.written != nil {
			continue // the file holds a result now
		}
		if data, err := os.ReadFile(p); err == nil && Digest(data) == f.Sum {
			return data, nil
		}
	}
	return nil, fmt.Errorf("the original of %s is no longer in %s: it changed during the run", Quote(f.Path), Quote(f.origAt))
}

// Written says Dest holds a result of this run.
func (f *File) Written() bool { return f.written != nil }

// Place decides where each file's result goes: into output (-o: a file
// for one input, a directory for several, made when missing), in place
// with FILE.orig kept, or, for an input that is not a regular file
// (/dev/null, a pipe), NAME.reduced in the current directory. It returns
// what to tell the user.
func Place(files []*File, output string) (notes []string, err error) {
	if output != "" {
		st, err := os.Stat(output)
		isDir := err == nil && st.IsDir()
		if len(files) > 1 && !isDir {
			if err == nil {
				return nil, fmt.Errorf("-o %s: with several inputs, -o names a directory", Quote(output))
			}
			if err := os.Mkdir(output, 0o755); err != nil {
				return nil, fmt.Errorf("-o %s: %v", Quote(output), UnwrapPath(err))
			}
			isDir = true
		}
		for _, f := range files {
			f.Dest, f.of = output, "-o "+Quote(output)
			if isDir {
				f.Dest = filepath.Join(output, f.Name)
			}
			if err := CheckWritable(filepath.Dir(f.Dest)); err != nil {
				return nil, fmt.Errorf("cannot write the result to %s: %v", Quote(f.Dest), UnwrapPath(err))
			}
			if same(f.Dest, f.Path) {
				f.Dest, f.of = "", ""
			}
		}
	}
	for _, f := range files {
		switch {
		case f.Dest != "":
		case !Replaceable(f.Path):
			// A symbolic link, a device, a pipe, anything under /dev or
			// /proc: never replaced, renamed or written next to.
			f.Dest, f.of = FreePath(f.Name+".reduced", ""), "the current directory"
			if err := CheckWritable("."); err != nil {
				return nil, fmt.Errorf("input %s is not a regular file, so its result goes to the current directory, which is not writable: %v; give -o", Quote(f.Path), UnwrapPath(err))
			}
			notes = append(notes, fmt.Sprintf("input %s is not a regular file; it stays as it is, and the result goes to %s", Quote(f.Path), Quote(f.Dest)))
		default:
			f.Dest = f.Path
			if err := CheckWritable(filepath.Dir(f.Path)); err != nil {
				return nil, fmt.Errorf("cannot replace %s: %v; give -o", Quote(f.Path), UnwrapPath(err))
			}
			var note string
			f.Backup, f.backupSum, note = backupFor(f)
			if note != "" {
				notes = append(notes, note)
			}
		}
	}
	return notes, nil
}

// backupFor chooses where the original of an input replaced in place is
// kept: FILE.orig, unless that exists. An existing FILE.orig is kept as
// the original when it belongs to an interrupted reduction of this very
// file (its lineage says that FILE.orig holds what that run began from
// and FILE what it wrote last); otherwise it belongs to something else,
// and the original goes to the first free FILE.orig.N.
func backupFor(f *File) (path, sum, note string) {
	base := f.Path + ".orig"
	old, err := os.ReadFile(base)
	if err != nil {
		return base, f.Sum, ""
	}
	if lin, ok := readLineage(f.Path); ok && lin.Orig == Digest(old) && lin.Last == f.Sum {
		return base, lin.Orig, fmt.Sprintf("%s holds the original of an interrupted reduction of %s; keeping it, and reducing %s as it is now", Quote(base), Quote(f.Path), Quote(f.Path))
	}
	p := FreePath(base, "")
	return p, f.Sum, fmt.Sprintf("%s exists and is not the original of %s; the original will be kept in %s", Quote(base), Quote(f.Path), Quote(p))
}

// KeepOriginal writes the backup of an input replaced in place, unless
// it holds the original of an interrupted reduction already, and
// records the lineage. From then on the original is read from the file
// that holds it.
func (f *File) KeepOriginal() error {
	if f.Backup != "" {
		if _, err := os.Stat(f.Backup); err != nil {
			if err := WriteAtomic(f.Backup, f.orig, f.Mode); err != nil {
				if Full(err) {
					return noRoom(err, "the input "+Quote(f.Path), filepath.Dir(f.Backup), "the copy of the original to "+Quote(f.Backup), true)
				}
				return fmt.Errorf("cannot keep the original in %s: %w; give -o", Quote(f.Backup), UnwrapPath(err))
			}
			f.madeBackup = true
			writeLineage(f.Path, lineage{Orig: f.backupSum, Last: f.Sum})
		}
	}
	switch {
	case f.madeBackup:
		f.orig, f.origAt = nil, f.Backup
	case f.Dest != f.Path && Replaceable(f.Path):
		f.orig, f.origAt = nil, f.Path
	}
	return nil
}

// DropBackup removes the backup this run made of an input it left as it
// was: nothing was found, and the original is still in place.
func (f *File) DropBackup() {
	if f.madeBackup && f.written == nil {
		os.Remove(f.Backup)
		removeLineage(f.Path)
		f.Backup, f.madeBackup = "", false
	}
}

// Write makes Dest hold data, atomically (synced to the disk when sync
// is set: a crash of the whole system may otherwise find the one
// before), and, for an input replaced in place, records it in the
// lineage.
func (f *File) Write(data []byte, sync bool) error {
	if err := os.MkdirAll(filepath.Dir(f.Dest), 0o755); err != nil {
		return f.writeError(err)
	}
	write := WriteAtomic
	if !sync {
		write = ReplaceFile
	}
	if err := write(f.Dest, data, f.Mode); err != nil {
		return f.writeError(err)
	}
	f.written = data
	if f.Backup != "" {
		writeLineage(f.Path, lineage{Orig: f.backupSum, Last: Digest(data)})
	}
	return nil
}

// writeError is the error of writing the result to Dest: a NoRoomError
// that names Dest's file system when it is full.
func (f *File) writeError(err error) error {
	if Full(err) {
		return noRoom(err, f.fsOf(), filepath.Dir(f.Dest), "the result to "+Quote(f.Dest), f.Dest == f.Path)
	}
	return fmt.Errorf("writing the result to %s: %w", Quote(f.Dest), UnwrapPath(err))
}
