package reduce

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/split"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/runner"
)

// readWith reads the --with files, which must not have the name of an
// input (in a tree, of a file at its top).
func (r *Reduction) readWith(ins []*input, tree bool) ([]runner.File, error) {
	var fs []runner.File
	for _, p := range r.With {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, command.InputError("--with %s: %v", keep.Quote(p), errors.Unwrap(err))
		}
		name := filepath.Base(p)
		for _, in := range ins {
			switch {
			case in.Name == name && tree:
				return nil, command.InputError("--with %s has the name of %s in the tree; the test sees them in one directory", keep.Quote(name), keep.Quote(name))
			case in.Name == name:
				return nil, command.InputError("--with %s has the name of the input %s; the test sees them side by side in one directory", keep.Quote(p), keep.Quote(in.Path))
			}
		}
		fs = append(fs, runner.File{Name: name, Data: data})
	}
	return fs, nil
}

// openInputs reads the inputs (keep.Read) and decides where their
// results go. Parsing an input (type-checking Go) is cut short when ctx
// ends.
func (r *Reduction) openInputs(ctx context.Context) ([]*input, error) {
	es, err := keep.Read(r.Files)
	if err != nil {
		return nil, command.InputError("%v", err)
	}
	var ins []*input
	var absent absentLangs
	for _, e := range es {
		in := &input{Entry: e}
		if r.Split.Kind == split.Runes && !utf8.Valid(e.Data) {
			return nil, command.InputError("input %s is not UTF-8 text, so it cannot be cut into runes; use --split bytes", keep.Quote(e.Path))
		}
		if lang := r.Split.LangOf(e.Path); lang != "" {
			var err error
			if perr := prepare(ctx, func() { err = r.parse(in, lang) }); perr != nil {
				return nil, perr
			}
			switch {
			case err != nil && r.Split.Syntactic():
				return nil, command.InputError("input %s %v; reduce it with --split auto or lines", keep.Quote(e.Path), err)
			case err != nil:
				say(r.Out, "input %s %v; reducing it as text", keep.Quote(e.Path), err)
			}
		} else if a, ok := r.Split.Absent(e.Path); ok {
			absent.add(a, e.Path)
		}
		ins = append(ins, in)
	}
	absent.say(r.Out)
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
	syn, err := syntax.New(lang, in.Data, r.TypeCheck)
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

// absentLangs are the inputs in languages this wynot lacks
// (split.Split.Absent), by language, so that each is named once.
type absentLangs struct {
	langs []syntax.Absent
	files map[string][]string // by language
}

func (al *absentLangs) add(a syntax.Absent, name string) {
	if al.files == nil {
		al.files = map[string][]string{}
	}
	if _, ok := al.files[a.Name]; !ok {
		al.langs = append(al.langs, a)
	}
	al.files[a.Name] = append(al.files[a.Name], name)
}

// say says once of each language that its files are reduced as text,
// and why: "C is reduced as text: this wynot was built without cgo, …
// (bug.c)".
func (al *absentLangs) say(o command.Output) {
	for _, a := range al.langs {
		say(o, "%s (%s)", a.Note(), command.List(al.files[a.Name], 5))
	}
}

// say writes a message line before the session opens (unless quiet).
func say(o command.Output, format string, args ...any) {
	if o.Stderr != nil && !o.Quiet {
		fmt.Fprintf(o.Stderr, "wynot: "+format+"\n", args...)
	}
}
