package reduce

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/runner"
)

// readWith reads the --with files.
func (r *Reduction) readWith(ins []*input) ([]runner.File, error) {
	var fs []runner.File
	for _, p := range r.With {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, command.InputError("--with %s: %v", p, errors.Unwrap(err))
		}
		name := filepath.Base(p)
		for _, in := range ins {
			if in.name == name {
				return nil, command.InputError("--with %s has the name of the input %s; the test sees them side by side in one directory", p, in.path)
			}
		}
		fs = append(fs, runner.File{Name: name, Data: data})
	}
	return fs, nil
}

// openInputs reads the inputs and decides where their results go; it
// writes FILE.orig for inputs reduced in place.
func (r *Reduction) openInputs() ([]*input, error) {
	var ins []*input
	names := map[string]string{}
	for _, p := range r.Files {
		st, err := os.Stat(p)
		if err != nil {
			return nil, command.InputError("input %s: %v", p, errors.Unwrap(err))
		}
		if st.IsDir() {
			return nil, command.InputError("input %s is a directory; give files", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, command.InputError("input %s: %v", p, err)
		}
		if len(data) == 0 {
			return nil, command.InputError("input %s is empty: nothing to reduce", p)
		}
		if r.Split.Kind == Runes && !utf8.Valid(data) {
			return nil, command.InputError("input %s is not UTF-8 text, so it cannot be cut into runes; use --split bytes", p)
		}
		name := filepath.Base(p)
		if other, ok := names[name]; ok {
			return nil, command.InputError("inputs %s and %s have the same name; the test sees them side by side in one directory", other, p)
		}
		names[name] = p
		in := &input{path: p, name: name, orig: data, origSize: len(data), origSum: digest(data), data: data, mode: st.Mode()}
		if lang := r.Split.lang(p); lang != "" {
			err := r.parse(in, lang)
			switch {
			case err != nil && r.Split.syntactic():
				return nil, command.InputError("input %s %v; reduce it with --split auto or lines", p, err)
			case err != nil:
				say(r.Out, "input %s %v; reducing it as text", p, err)
			}
		}
		ins = append(ins, in)
	}
	if r.typeCheckAsked && !slices.ContainsFunc(ins, typed) {
		return nil, command.InputError("--typecheck applies to Go inputs that parse; none of the inputs is one")
	}
	if err := r.destinations(ins); err != nil {
		return nil, err
	}
	return ins, nil
}

// parse reads input in as lang: it is then reduced as a syntax tree.
func (r *Reduction) parse(in *input, lang string) error {
	syn, err := syntax.New(lang, in.data, r.TypeCheck)
	if err == nil {
		in.syn = syn
	}
	return err
}

// destinations decides where each result goes: -o, in place (with
// FILE.orig kept), or, for inputs that are not regular files (/dev/null,
// a pipe), the current directory.
func (r *Reduction) destinations(ins []*input) error {
	if r.Output != "" {
		st, err := os.Stat(r.Output)
		isDir := err == nil && st.IsDir()
		if len(ins) > 1 && !isDir {
			if err == nil {
				return command.InputError("-o %s: with several inputs, -o names a directory", r.Output)
			}
			if err := os.Mkdir(r.Output, 0o755); err != nil {
				return command.InputError("-o %s: %v", r.Output, err)
			}
			isDir = true
		}
		for _, in := range ins {
			in.dest = r.Output
			if isDir {
				in.dest = filepath.Join(r.Output, in.name)
			}
			if err := command.CheckWritable(filepath.Dir(in.dest)); err != nil {
				return command.InputError("cannot write the result to %s: %v", in.dest, err)
			}
			if same(in.dest, in.path) {
				in.dest = ""
			}
		}
	}
	for _, in := range ins {
		switch {
		case in.dest != "":
		case !replaceable(in.path):
			// A symbolic link, a device, a pipe, anything under /dev or
			// /proc: never replaced, renamed or written next to.
			in.dest = command.FreePath(in.name+".reduced", "")
			if err := command.CheckWritable("."); err != nil {
				return command.InputError("input %s is not a regular file, so its result goes to the current directory, which is not writable: %v; give -o", in.path, err)
			}
			say(r.Out, "input %s is not a regular file; it stays as it is, and the result goes to %s", in.path, in.dest)
		default:
			in.dest = in.path
			if err := command.CheckWritable(filepath.Dir(in.path)); err != nil {
				return command.InputError("cannot replace %s: %v; give -o", in.path, err)
			}
			in.backup, in.backupSum = backupFor(in, r.Out)
		}
	}
	return nil
}

// replaceable reports whether the input at p is a regular file that
// wynot may replace by its result: not a symbolic link (Lstat), not
// under /dev or /proc.
func replaceable(p string) bool {
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

// backupFor chooses where the original of an input reduced in place is
// kept: FILE.orig, unless that exists. An existing FILE.orig is kept as
// the original when it belongs to an interrupted reduction of this very
// file (its lineage says that FILE.orig holds what this run began from
// and FILE what it wrote last); otherwise it belongs to something else,
// and the original goes to the first free FILE.orig.N.
func backupFor(in *input, out command.Output) (path, sum string) {
	base := in.path + ".orig"
	old, err := os.ReadFile(base)
	if err != nil {
		return base, in.origSum
	}
	if lin, ok := readLineage(in.path); ok && lin.Orig == digest(old) && lin.Last == in.origSum {
		say(out, "%s holds the original of an interrupted reduction of %s; keeping it, and reducing %s as it is now", base, in.path, in.path)
		return base, lin.Orig
	}
	p := command.FreePath(base, "")
	say(out, "%s exists and is not the original of %s; the original will be kept in %s", base, in.path, p)
	return p, in.origSum
}

// keepOriginals writes the backups of inputs reduced in place, once the
// original's checks have passed, and records their lineage.
func (rd *reducer) keepOriginals() error {
	for _, in := range rd.ins {
		if in.backup == "" {
			continue
		}
		if _, err := os.Stat(in.backup); err == nil {
			continue // the original of an interrupted reduction
		}
		if err := command.WriteAtomic(in.backup, in.orig, in.mode); err != nil {
			return command.InputError("cannot keep the original in %s: %v; give -o", in.backup, err)
		}
		in.madeBackup = true
		writeLineage(in.path, lineage{Orig: in.backupSum, Last: in.origSum})
	}
	for _, in := range rd.ins {
		switch {
		case in.madeBackup:
			in.orig, in.origAt = nil, in.backup
		case in.dest != in.path && replaceable(in.path):
			in.orig, in.origAt = nil, in.path
		}
	}
	return nil
}

// original returns the original content: from memory, or read again
// from the file that holds it, which must still hold it.
func (in *input) original() ([]byte, error) {
	if in.orig != nil {
		return in.orig, nil
	}
	for _, p := range []string{in.origAt, in.path} {
		if p == in.dest && in.written != nil {
			continue // the file holds a result now
		}
		if data, err := os.ReadFile(p); err == nil && digest(data) == in.origSum {
			return data, nil
		}
	}
	return nil, fmt.Errorf("the original of %s is no longer in %s: it changed during the run", in.path, in.origAt)
}

// dropBackups removes the backups this run made of inputs it left as
// they were: nothing was found, and the original is still in place.
func (rd *reducer) dropBackups() {
	for _, in := range rd.ins {
		if in.madeBackup && in.written == nil {
			os.Remove(in.backup)
			removeLineage(in.path)
			in.backup, in.madeBackup = "", false
		}
	}
}

// say writes a message line before the session opens (unless quiet).
func say(o command.Output, format string, args ...any) {
	if o.Stderr != nil && !o.Quiet {
		fmt.Fprintf(o.Stderr, "wynot: "+format+"\n", args...)
	}
}

func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
