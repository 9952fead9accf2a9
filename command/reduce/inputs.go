package reduce

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/keep"
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
			if in.Name == name {
				return nil, command.InputError("--with %s has the name of the input %s; the test sees them side by side in one directory", p, in.Path)
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
		in := &input{File: keep.NewFile(p, name, data, st.Mode()), data: data}
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
		return nil, command.InputError("--typecheck applies to inputs that parse in a language with checks beyond parsing (Go's types, SQL's tables); none of the inputs is one")
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
// a pipe), the current directory (keep.Place).
func (r *Reduction) destinations(ins []*input) error {
	files := make([]*keep.File, len(ins))
	for i, in := range ins {
		files[i] = in.File
	}
	notes, err := keep.Place(files, r.Output)
	if err != nil {
		return command.InputError("%v", err)
	}
	for _, n := range notes {
		say(r.Out, "%s", n)
	}
	return nil
}

// keepOriginals writes the backups of inputs reduced in place, once the
// original's checks have passed, and records their lineage.
func (rd *reducer) keepOriginals() error {
	for _, in := range rd.ins {
		if err := in.KeepOriginal(); err != nil {
			return command.InputError("%v", err)
		}
	}
	return nil
}

// dropBackups removes the backups this run made of inputs it left as
// they were: nothing was found, and the original is still in place.
func (rd *reducer) dropBackups() {
	for _, in := range rd.ins {
		in.DropBackup()
	}
}

// say writes a message line before the session opens (unless quiet).
func say(o command.Output, format string, args ...any) {
	if o.Stderr != nil && !o.Quiet {
		fmt.Fprintf(o.Stderr, "wynot: "+format+"\n", args...)
	}
}
