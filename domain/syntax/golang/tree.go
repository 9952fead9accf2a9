package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"
	"sync"
)

// Tree is the rest of a Go file's world when the file is reduced among
// the files of a directory: with it, a candidate is type-checked with the
// other files of its package, with the tree's packages it imports read
// from source (their module path from the tree's go.mod), and the tree's
// packages that import it are checked against it, so that removing a
// declaration another file or package uses is predicted, not run.
// Imports from outside the tree come from Imports; without it, the
// standard library's from source, and the others stay untyped, in the
// original and the candidates alike.
type Tree struct {
	Path string // the file being reduced, slash-separated, relative to the tree's root
	// Dir, when set, is the directory whose Go files are reduced
	// together, as one bundle (decomp.Bundle) of a package: Path is then
	// unused.
	Dir   string
	Files map[string][]byte // the tree's files as they are now, by slash-separated path
	// Imports, when set, imports what the tree imports from outside it
	// (an ExportImporter over the module's export data).
	Imports types.Importer
}

// importer is what imports the packages from outside the tree t (nil:
// a file on its own).
func (t *Tree) importer() types.Importer {
	if t != nil && t.Imports != nil {
		return t.Imports
	}
	return std
}

// pkgDir is the directory of the package being reduced.
func (t *Tree) pkgDir() string {
	if t.Dir != "" {
		return t.Dir
	}
	return path.Dir(t.Path)
}

// reduced says whether the tree's file p is one being reduced: Path, or
// a Go file of Dir.
func (t *Tree) reduced(p string) bool {
	if t.Dir != "" {
		return path.Dir(p) == t.Dir && strings.HasSuffix(p, ".go")
	}
	return p == t.Path
}

// universe is a Tree parsed once: the tree's packages by directory; the
// packages the reduced files' own does not reach are type-checked once.
type universe struct {
	ext  types.Importer // the packages from outside the tree
	fset *token.FileSet
	mods Modules
	dir  string // the directory of the reduced files
	pkgs map[string]*srcPkg
	// rdeps are the directories of the packages that import the reduced
	// files' package, directly or not, each after those it imports.
	rdeps []string

	mu sync.Mutex
	// load type-checks the tree's packages the reduced files' own
	// imports, each once, as every Go tree of wynot is read (Loader):
	// the files go build compiles here, parsed once, with the packages
	// from outside the tree from ext. It is used with mu held.
	load *Loader
}

// srcPkg is one directory's Go files, parsed.
type srcPkg struct {
	files   []*ast.File // non-test files
	tests   []*ast.File // in-package test files
	xtests  []*ast.File // external test files (package x_test)
	imports []string    // the tree's directories the non-test files import
}

// newUniverse parses the tree's Go files, except those being reduced;
// self are those (from any file set), as the original has them.
func newUniverse(t *Tree, fset *token.FileSet, self []*ast.File) *universe {
	u := &universe{ext: t.importer(), fset: token.NewFileSet(), dir: t.pkgDir(), pkgs: map[string]*srcPkg{}}
	u.mods = ReadModules(t.Files).Only(u.dir)
	rest := map[string][]byte{}      // the tree without the reduced files
	parsed := map[string]*ast.File{} // of rest
	for _, p := range sortedKeys(t.Files) {
		if t.reduced(p) {
			continue
		}
		rest[p] = t.Files[p]
		if !strings.HasSuffix(p, ".go") || Hidden(p) {
			continue
		}
		f, err := parser.ParseFile(u.fset, p, t.Files[p], parser.SkipObjectResolution)
		if err != nil {
			continue // a file that does not parse stays out, as the build would fail on it anyway
		}
		parsed[p] = f
		sp := u.pkgs[path.Dir(p)]
		if sp == nil {
			sp = &srcPkg{}
			u.pkgs[path.Dir(p)] = sp
		}
		switch {
		case strings.HasSuffix(f.Name.Name, "_test"):
			sp.xtests = append(sp.xtests, f)
		case strings.HasSuffix(p, "_test.go"):
			sp.tests = append(sp.tests, f)
		default:
			sp.files = append(sp.files, f)
		}
	}
	for _, sp := range u.pkgs {
		sp.imports = u.treeImports(sp.files)
	}
	u.load = NewLoader(u.fset, rest, Source)
	u.load.Mods, u.load.Ext = u.mods, u.ext
	u.load.Parse = func(p string, data []byte) (*ast.File, error) {
		if f := parsed[p]; f != nil {
			return f, nil
		}
		return parser.ParseFile(u.fset, p, data, parser.SkipObjectResolution)
	}
	u.setRdeps(fset, self)
	return u
}

// setRdeps finds the packages that import the package of the reduced
// files self (none when they are test files).
func (u *universe) setRdeps(fset *token.FileSet, self []*ast.File) {
	if own, _, _ := split(fset, self); len(own) > 0 {
		u.rdeps = u.importers(u.dir, u.treeImports(own))
	}
}

// split sorts files of one directory, parsed into fset, into those of
// the package proper, its in-package test files (x_test.go in package
// x) and its external test files (package x_test).
func split(fset *token.FileSet, files []*ast.File) (own, tests, xtests []*ast.File) {
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Name.Name, "_test"):
			xtests = append(xtests, f)
		case strings.HasSuffix(fset.File(f.Pos()).Name(), "_test.go"):
			tests = append(tests, f)
		default:
			own = append(own, f)
		}
	}
	return own, tests, xtests
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// treeImports lists the tree directories that files import.
func (u *universe) treeImports(files []*ast.File) []string {
	var dirs []string
	for _, f := range files {
		for _, s := range f.Imports {
			if d := u.mods.DirOf(strings.Trim(s.Path.Value, "`\"")); d != "" && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// importers lists the directories of the packages that import dir,
// directly or not, each after the packages among them it imports. Those
// dir itself imports (an import cycle) are left out.
func (u *universe) importers(dir string, own []string) []string {
	in := map[string]bool{}
	var mark func(d string)
	mark = func(d string) {
		for _, q := range sortedKeys(u.pkgs) {
			if !in[q] && q != dir && slices.Contains(u.pkgs[q].imports, d) {
				in[q] = true
				mark(q)
			}
		}
	}
	mark(dir)
	for _, d := range own {
		delete(in, d)
	}
	var order []string
	seen := map[string]bool{}
	var visit func(d string)
	visit = func(d string) {
		if seen[d] {
			return
		}
		seen[d] = true
		for _, q := range u.pkgs[d].imports {
			if in[q] {
				visit(q)
			}
		}
		order = append(order, d)
	}
	for _, d := range sortedKeys(in) {
		visit(d)
	}
	return order
}

// depLocked is the tree's package in dir, type-checked once against its
// imports (Loader). The caller holds u.mu.
func (u *universe) depLocked(dir string) (*types.Package, error) {
	gp := u.load.Importable(dir)
	if gp == nil {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	u.load.Check(gp)
	if gp.Types == nil {
		return nil, fmt.Errorf("%s does not parse, or imports itself", dir)
	}
	return gp.Types, nil
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }

// errors type-checks the reduced files self (parsed into u.fset) as
// the tree's: their package with the other files of its directory, its
// external tests, and, with importers, every package of the tree that
// imports it, against it. It returns the error messages without
// positions, each after the directory of its package and a tab; info,
// when given, is filled in for self.
func (u *universe) errors(self []*ast.File, info *types.Info, importers bool) []string {
	var errs []string
	dir := u.dir
	collect := func(err error) {
		msg := err.Error()
		if te, ok := err.(types.Error); ok {
			msg = te.Msg
		}
		errs = append(errs, dir+"\t"+position.ReplaceAllString(msg, "input.go"))
	}
	// The same package is checked anew for the tree's importers, which
	// see no test files, and for its external tests, which do.
	fresh := map[string]*types.Package{}
	xtest := false // external tests import the package; it may not import itself
	imp := importerFunc(func(p string) (*types.Package, error) {
		q := u.mods.DirOf(p)
		if q == "" {
			return u.ext.Import(p)
		}
		if pkg, ok := fresh[q]; ok {
			return pkg, nil
		}
		if q == u.dir && !xtest {
			return nil, fmt.Errorf("import cycle: %s imports itself", p)
		}
		u.mu.Lock()
		defer u.mu.Unlock()
		return u.depLocked(q)
	})
	sp := u.pkgs[u.dir]
	if sp == nil {
		sp = &srcPkg{}
	}
	own, tests, xtests := split(u.fset, self)
	if len(own)+len(tests) > 0 {
		files := slices.Concat(own, sp.files, tests, sp.tests)
		conf := types.Config{Importer: imp, Error: collect}
		pkg, _ := conf.Check(u.mods.ImportPath(u.dir), u.fset, files, info)
		if len(xtests)+len(sp.xtests) > 0 {
			fresh[u.dir] = pkg
		}
		if importers && len(own) > 0 && len(u.rdeps) > 0 {
			if len(tests)+len(sp.tests) > 0 {
				quiet := types.Config{Importer: imp, Error: func(error) {}}
				pkg, _ = quiet.Check(u.mods.ImportPath(u.dir), u.fset, slices.Concat(own, sp.files), nil)
			}
			saved := fresh[u.dir]
			fresh[u.dir] = pkg
			for _, d := range u.rdeps {
				files := u.pkgs[d].files
				if len(files) == 0 {
					continue
				}
				dir = d
				conf := types.Config{Importer: imp, Error: collect}
				fresh[d], _ = conf.Check(u.mods.ImportPath(d), u.fset, files, nil)
			}
			dir = u.dir
			if saved != nil {
				fresh[u.dir] = saved
			}
		}
	}
	if len(xtests) > 0 {
		xtest = true
		conf := types.Config{Importer: imp, Error: collect}
		conf.Check(u.mods.ImportPath(u.dir)+"_test", u.fset, slices.Concat(xtests, sp.xtests), info) //nolint:errcheck // errors are collected above
	}
	return errs
}
