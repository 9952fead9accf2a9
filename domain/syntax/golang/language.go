package golang

import (
	"errors"
	"fmt"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/syntax"
)

// Language is Go as a language of package syntax: its passes go through
// go/ast, its candidates are printed as gofmt would, a candidate with a
// new type error is predicted (TypeError), and in a tree a package's
// files are one unit, as are a module's go.mod, go.sum and
// vendor/modules.txt, with the export data of the module's requirements
// as context (go list -export).
type Language struct{}

func init() { syntax.Register(Language{}) }

// Name is "go".
func (Language) Name() string { return "go" }

// Match says whether a file is Go source by its name.
func (Language) Match(name string) bool { return strings.HasSuffix(name, ".go") }

// Open prepares data, a Go file on its own.
func (Language) Open(data []byte, typeCheck bool) (*syntax.Syntax, error) {
	return open(data, typeCheck, nil)
}

// open prepares data, the file t.Path of the tree t, the bundle of the
// package t.Dir, or a file on its own (t nil).
func open(data []byte, typeCheck bool, t *Tree) (*syntax.Syntax, error) {
	chk, err := NewCheckerIn(data, typeCheck, t)
	if err != nil {
		return nil, fmt.Errorf("does not parse as Go: %w", err)
	}
	if typeCheck {
		if _, err := chk.Finish(data); err != nil {
			return nil, err
		}
	}
	return &syntax.Syntax{Lang: "go", Finish: chk.Finish, Format: chk.Finish, Typed: true, Renames: true,
		Passes: func(d []byte) ([]decomp.Pass, error) { return PassesIn(d, typeCheck, t) }}, nil
}

// Predicts says that err is a TypeError: a new type error in a package,
// or a go.mod, go.sum or vendor/modules.txt that breaks its module.
func (Language) Predicts(err error) (syntax.Prediction, bool) {
	var te *TypeError
	if !errors.As(err, &te) {
		return syntax.Prediction{}, false
	}
	p := syntax.Prediction{Class: te.Dir}
	switch b := path.Base(te.Dir); {
	case b == "go.mod" || b == "go.sum" || b == "modules.txt":
		p.Still = fmt.Sprintf("a candidate that breaks %s (%s) still fails: the test does not build the module, so such candidates are tested too", te.Dir, te.Msg)
	case te.Dir == "":
		p.Still = fmt.Sprintf("a candidate with a new type error (%s) still fails: the test does not need code that type-checks, so such candidates are tested too (--typecheck=false says so from the start)", te.Msg)
	default:
		p.Still = fmt.Sprintf("a candidate with a new type error in %s (%s) still fails: the test does not need that package to type-check, so candidates with type errors there are tested too", te.Dir, te.Msg)
	}
	return p, true
}

// Untested says that Go candidates with new type errors (outside the
// packages in off), and go.mod candidates that break their module, were
// not run.
func (Language) Untested(off []string, units []syntax.Unit) string {
	mod := ""
	if slices.ContainsFunc(units, func(u syntax.Unit) bool { return u.Module }) {
		mod = ", or a go.mod that breaks its module,"
	}
	if len(off) > 0 {
		return fmt.Sprintf(" (a Go candidate with a new type error outside %s%s counts as not failing: it was not run)", strings.Join(off, ", "), mod)
	}
	return fmt.Sprintf(" (a Go candidate with a new type error%s counts as not failing: it was not run)", mod)
}

// Tree prepares Go for a directory: with type checks, and Go files that
// parse, the export data of what each module of the tree imports from
// outside it is read once, from the original tree.
func (Language) Tree(d syntax.Dir) (syntax.Tree, []string) {
	t := &goTree{typeCheck: d.TypeCheck}
	var notes []string
	if d.TypeCheck && d.Parsed {
		t.imports, notes = exports(d)
	}
	return t, notes
}

// exports reads, with go list -export in each module of the tree (a
// directory with a go.mod), where the go command keeps the export data
// of the packages the modules import, the standard library's too, so
// that Go files are type-checked with their requirements typed. It
// builds what is not built yet, once, in the original tree (go list
// changes no file of it). Without go, or when go list fails, imports
// from outside the tree stay untyped, as the notes say.
func exports(d syntax.Dir) (types.Importer, []string) {
	files := map[string]string{}
	var failed, notes []string
	for _, rel := range sortedKeys(d.Files) {
		if path.Base(rel) != "go.mod" {
			continue
		}
		dir := filepath.Join(d.Root, filepath.FromSlash(path.Dir(rel)))
		if err := ListExports(d.Exec, dir, "./...", files); err != nil {
			failed = append(failed, path.Dir(rel)+": "+err.Error())
		}
	}
	if len(failed) > 0 {
		notes = append(notes, fmt.Sprintf("go list -export failed (%s): Go imports from outside the tree stay untyped", strings.Join(failed, "; ")))
	}
	if len(files) == 0 {
		return nil, notes
	}
	n := fmt.Sprintf("%d packages", len(files))
	if len(files) == 1 {
		n = "1 package"
	}
	notes = append(notes, fmt.Sprintf("Go files are type-checked with the export data of %s from outside the tree (go list -export)", n))
	return NewExportImporter(files), notes
}

// ListExports adds to files, by import path, the export data files the
// go command keeps for the packages that patterns in dir need, the
// standard library's too (go list -e -deps -export, run by exec): what
// an ExportImporter reads.
func ListExports(exec syntax.Exec, dir, patterns string, files map[string]string) error {
	out, err := exec([]string{"go", "-C", dir, "list", "-e", "-deps", "-export", "-f", "{{if .Export}}{{.ImportPath}}\t{{.Export}}{{end}}", patterns})
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if imp, file, ok := strings.Cut(line, "\t"); ok {
			files[imp] = file
		}
	}
	return nil
}

// goTree is Go in a directory reduced as a whole.
type goTree struct {
	typeCheck bool
	imports   types.Importer // from export data, or nil
}

// goFiles are the tree's Go files and go.mod files, for type-checking a
// Go file with its package and the packages around it.
func goFiles(files map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for name, data := range files {
		if strings.HasSuffix(name, ".go") || path.Base(name) == "go.mod" {
			out[name] = data
		}
	}
	return out
}

// Group puts a Go file in its package: the Go files of its directory.
func (t *goTree) Group(name string) (key, unit string) {
	dir := path.Dir(name)
	if dir == "." {
		return dir, "*.go"
	}
	return dir, dir + "/*.go"
}

// Units are each module's go.mod with its go.sum and vendor/modules.txt,
// those present.
func (t *goTree) Units(files map[string][]byte) []syntax.Unit {
	var us []syntax.Unit
	for _, name := range sortedKeys(files) {
		if path.Base(name) != "go.mod" {
			continue
		}
		u := syntax.Unit{Name: name, Files: []string{name}, Module: true}
		dir := path.Dir(name)
		for _, other := range []string{"go.sum", "vendor/modules.txt"} {
			if p := path.Join(dir, other); files[p] != nil {
				u.Files = append(u.Files, p)
				u.Name += ", " + p
			}
		}
		us = append(us, u)
	}
	return us
}

// Passes are, for a package, Go's passes over its files as one bundle,
// type-checked with the tree around it when type checks are on; for a
// module, the pass that removes requirements (Requirements).
func (t *goTree) Passes(u syntax.Unit, data []byte, files syntax.Files) ([]decomp.Pass, error) {
	if u.Module {
		req := Requirements{Finish: map[string]func([]byte) ([]byte, error){}}
		now := files()
		for _, name := range u.Files {
			if fin := t.modFinish(name, now[name], files); fin != nil {
				req.Finish[name] = fin
			}
		}
		return []decomp.Pass{req}, nil
	}
	syn, err := open(data, t.typeCheck, &Tree{Dir: path.Dir(u.Files[0]), Files: goFiles(files()), Imports: t.imports})
	if err != nil {
		return nil, err
	}
	return syn.Passes(data)
}

// File is, with type checks, the Go file name type-checked with the tree
// as it is now: its package, and the packages that import it.
func (t *goTree) File(name string, data []byte, files syntax.Files) *syntax.Syntax {
	if !t.typeCheck {
		return nil
	}
	syn, err := open(data, true, &Tree{Path: name, Files: goFiles(files()), Imports: t.imports})
	if err != nil {
		return nil
	}
	return syn
}

// Finish predicts, with type checks, the candidates of the text passes
// that break a module: a go.mod's (ModCheck), a go.sum's (SumCheck), and
// a vendor/modules.txt's, which those passes change without go.mod
// (VendorCheck; the requirements pass changes both together).
func (t *goTree) Finish(name string, data []byte, files syntax.Files) func([]byte) ([]byte, error) {
	if t.typeCheck && path.Base(name) == "modules.txt" && path.Base(path.Dir(name)) == "vendor" {
		return NewVendorCheck(name, data).Finish
	}
	return t.modFinish(name, data, files)
}

// modFinish is, for a module's go.mod or go.sum (with type checks), what
// predicts the candidates that break the module: they do not parse, or
// no longer require, replace or sum what the tree's Go files need; nil
// otherwise.
func (t *goTree) modFinish(name string, data []byte, files syntax.Files) func([]byte) ([]byte, error) {
	if !t.typeCheck {
		return nil
	}
	// With -mod=mod the go command adds a missing requirement or
	// checksum itself.
	auto := slices.Contains(strings.Fields(os.Getenv("GOFLAGS")), "-mod=mod")
	switch path.Base(name) {
	case "go.mod":
		m, err := NewModCheck(name, data, goFiles(files()))
		if err != nil {
			return nil
		}
		m.AutoRequire = auto
		return m.Finish
	case "go.sum":
		s, err := NewSumCheck(name, data, goFiles(files()))
		if err != nil {
			return nil
		}
		s.AutoRequire = auto
		return s.Finish
	}
	return nil
}
