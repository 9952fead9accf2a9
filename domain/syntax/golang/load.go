package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"
)

// Loader is the Go code of one tree as go build compiles it on this
// machine: the files that Source takes and whose build constraints hold,
// by directory; the tree's modules; and its packages, parsed and
// type-checked from source when first needed, each once. It is the one
// loader of wynot's Go: wynot changes reads each configuration through
// it (the needs between changes, the check before a build), wynot reduce
// the tree's packages a reduced file's package imports. Not safe for
// concurrent use.
type Loader struct {
	Fset *token.FileSet
	Mods Modules
	// Ext imports the packages outside the tree's modules (export data);
	// nil makes each an empty package named after its import path
	// (guessed), so that what uses it cannot be checked.
	Ext types.Importer
	// Parse parses a file into Fset; parser.ParseFile unless set.
	Parse func(p string, data []byte) (*ast.File, error)
	// Info makes each check record the definitions and uses of names.
	Info bool
	// TypeError, when set, receives each type error of each package
	// checked, soft ones (an unused variable) included.
	TypeError func(p *Package, err error)
	// Checked, when set, is called after each package is checked.
	Checked func(p *Package)

	files  map[string][]byte
	dirs   map[string][]string // Go files by directory, in path order
	pkgs   map[string][]*Package
	syntax map[string][]error        // by directory: its files that do not parse
	byPath map[string]*Package       // the importable package of an import path
	empty  map[string]*types.Package // outside packages without Ext, by import path
}

// Package is the files of one directory that declare one package name,
// and their type check.
type Package struct {
	Dir, Name, ImportPath string
	Files                 []*ast.File
	Info                  *types.Info    // with Loader.Info
	Types                 *types.Package // nil until checked, and when the directory does not parse
	done                  bool
}

// NewLoader indexes the Go files of files (by slash-separated path) that
// source takes, and reads the tree's modules (every go.mod); files are
// parsed only when their package is needed.
func NewLoader(fset *token.FileSet, files map[string][]byte, source func(p string) bool) *Loader {
	l := &Loader{Fset: fset, files: files, dirs: map[string][]string{}, pkgs: map[string][]*Package{},
		syntax: map[string][]error{}, byPath: map[string]*Package{}, empty: map[string]*types.Package{}}
	mods := map[string][]byte{}
	for _, p := range sortedKeys(files) {
		switch {
		case path.Base(p) == "go.mod":
			mods[p] = files[p]
		case source(p):
			l.dirs[path.Dir(p)] = append(l.dirs[path.Dir(p)], p)
		}
	}
	l.Mods = ReadModules(mods)
	return l
}

// Source says whether p is a Go file that go build compiles with its
// package, build constraints aside: not a test, not in a testdata or
// hidden directory.
func Source(p string) bool {
	return strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && !Hidden(p)
}

// Dirs lists the directories that hold Go files the loader takes.
func (l *Loader) Dirs() []string { return sortedKeys(l.dirs) }

// Has says whether dir holds Go files the loader takes.
func (l *Loader) Has(dir string) bool { return l.dirs[dir] != nil }

// SyntaxErrors are the errors of the files of dir that do not parse
// (once its packages were asked for).
func (l *Loader) SyntaxErrors(dir string) []error { return l.syntax[dir] }

// Packages parses the files of dir that build on this machine (once)
// into its packages, in the order of their first files.
func (l *Loader) Packages(dir string) []*Package {
	if ps, ok := l.pkgs[dir]; ok {
		return ps
	}
	parse := l.Parse
	if parse == nil {
		parse = func(p string, data []byte) (*ast.File, error) {
			return parser.ParseFile(l.Fset, p, data, parser.SkipObjectResolution)
		}
	}
	var ps []*Package
	for _, p := range l.dirs[dir] {
		data := l.files[p]
		if !Builds(p, data) {
			continue
		}
		f, err := parse(p, data)
		if err != nil {
			l.syntax[dir] = append(l.syntax[dir], err)
			continue
		}
		i := slices.IndexFunc(ps, func(gp *Package) bool { return gp.Name == f.Name.Name })
		if i < 0 {
			i = len(ps)
			ps = append(ps, &Package{Dir: dir, Name: f.Name.Name, ImportPath: l.Mods.ImportPath(dir)})
		}
		ps[i].Files = append(ps[i].Files, f)
	}
	l.pkgs[dir] = ps
	// Of two packages in one directory, the importable one is the one
	// that is not main.
	for _, gp := range ps {
		if q := l.byPath[gp.ImportPath]; q == nil || q.Name == "main" {
			l.byPath[gp.ImportPath] = gp
		}
	}
	return ps
}

// Loaded says whether the package of an import path is one of the
// tree's, parsed.
func (l *Loader) Loaded(importPath string) bool { return l.byPath[importPath] != nil }

// Importable returns the package of dir that an import of it names: of
// two, the one that is not main; nil when dir has no Go files that
// build.
func (l *Loader) Importable(dir string) *Package {
	ps := l.Packages(dir)
	if len(ps) == 0 {
		return nil
	}
	return l.byPath[ps[0].ImportPath]
}

// Check type-checks a package (once). A directory with a file that does
// not parse is not checked, as go build stops at its syntax errors.
func (l *Loader) Check(gp *Package) {
	if gp.done {
		return
	}
	gp.done = true // also guards against import cycles
	if len(l.syntax[gp.Dir]) > 0 {
		return
	}
	if l.Info {
		gp.Info = &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	}
	conf := types.Config{Importer: l, FakeImportC: true, Error: func(err error) {
		if l.TypeError != nil {
			l.TypeError(gp, err)
		}
	}}
	gp.Types, _ = conf.Check(gp.ImportPath, l.Fset, gp.Files, gp.Info)
	if gp.Types != nil && l.Checked != nil {
		l.Checked(gp)
	}
}

// Import implements types.Importer: packages of the tree's modules are
// checked from the tree's source, every other package comes from Ext
// (or is empty).
func (l *Loader) Import(p string) (*types.Package, error) {
	if d := l.Mods.DirOf(p); d != "" {
		if gp := l.Importable(d); gp != nil {
			l.Check(gp)
			if gp.Types != nil {
				return gp.Types, nil
			}
		}
	}
	if l.Ext != nil {
		return l.Ext.Import(p)
	}
	if tp := l.empty[p]; tp != nil {
		return tp, nil
	}
	tp := types.NewPackage(p, GuessName(p))
	tp.MarkComplete()
	l.empty[p] = tp
	return tp, nil
}

// GuessName is the package name an import path most likely declares:
// its last element without a major version suffix or a gopkg.in version.
func GuessName(p string) string {
	el := path.Base(p)
	if len(el) > 1 && el[0] == 'v' && strings.Trim(el[1:], "0123456789") == "" && path.Dir(p) != "." {
		el = path.Base(path.Dir(p))
	}
	if i := strings.Index(el, ".v"); i > 0 {
		el = el[:i]
	}
	el = strings.TrimPrefix(el, "go-")
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return '_'
		}
		return r
	}, el)
}

// ImportsOutside lists, sorted, the import paths that the Go files of
// files (the tree's, by slash-separated path) import from outside the
// tree's modules: the standard library's and the requirements'
// packages, whose export data types them (ExportImporter).
func ImportsOutside(files map[string][]byte) []string {
	mods := ReadModules(files)
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, p := range sortedKeys(files) {
		if !strings.HasSuffix(p, ".go") || Hidden(p) {
			continue
		}
		f, err := parser.ParseFile(fset, p, files[p], parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			imp := strings.Trim(im.Path.Value, "`\"")
			if imp != "C" && mods.DirOf(imp) == "" {
				seen[imp] = true
			}
		}
	}
	return sortedKeys(seen)
}
