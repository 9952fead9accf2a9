package codediff

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"

	"github.com/wynot/wynot/domain/syntax/golang"
)

// goTree is the Go code of one tree as go build compiles it on this
// machine: the non-test files whose build constraints hold, by
// directory; the tree's modules; and its packages, parsed and
// type-checked from source when first needed, each once. Packages of
// other modules are empty (their names guessed from the import path),
// so what uses them cannot be checked. Both the needs between changes
// (analyze) and the check of a configuration (BuildCheck) read a tree
// through it.
type goTree struct {
	t    *Tree
	fset *token.FileSet
	mods golang.Modules
	dirs map[string][]string // Go files by directory, in path order

	// parse parses a file into fset; parser.ParseFile unless set.
	parse func(p string, data []byte) (*ast.File, error)
	// info makes each check record the definitions and uses of names.
	info bool
	// typeError, when set, receives each type error of each package
	// checked, soft ones (an unused variable) included.
	typeError func(gp *goPackage, err error)
	// checked, when set, is called after each package is checked.
	checked func(gp *goPackage)

	pkgs   map[string][]*goPackage   // by directory, once parsed
	syntax map[string][]error        // by directory: its files that do not parse
	byPath map[string]*goPackage     // the importable package of an import path
	empty  map[string]*types.Package // other modules' packages, by import path
}

// goPackage is the files of one directory that declare one package
// name, and their type check.
type goPackage struct {
	dir, name, importPath string
	files                 []*ast.File
	info                  *types.Info
	tpkg                  *types.Package // nil until checked, and when the directory does not parse
	done                  bool
}

// newGoTree indexes t's Go files by directory and reads its modules;
// files are parsed only when their package is needed.
func newGoTree(t *Tree, fset *token.FileSet) *goTree {
	g := &goTree{t: t, fset: fset, dirs: map[string][]string{}, pkgs: map[string][]*goPackage{},
		syntax: map[string][]error{}, byPath: map[string]*goPackage{}, empty: map[string]*types.Package{}}
	mods := map[string][]byte{}
	for _, p := range t.Paths() {
		switch f := t.Files[p]; {
		case f == nil || f.Link != "":
		case path.Base(p) == "go.mod":
			mods[p] = f.Data
		case goSource(p):
			g.dirs[path.Dir(p)] = append(g.dirs[path.Dir(p)], p)
		}
	}
	g.mods = golang.ReadModules(mods)
	g.parse = func(p string, data []byte) (*ast.File, error) {
		return parser.ParseFile(g.fset, p, data, parser.SkipObjectResolution)
	}
	return g
}

// goSource says whether p is a Go file that go build compiles with its
// package, build constraints aside: not a test, not in a vendor,
// testdata or hidden directory.
func goSource(p string) bool {
	return strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && !golang.Hidden(p) && !vendored(p)
}

// vendored says whether p is in a vendor directory: the code of other
// modules, whose needs between changes are not looked for.
func vendored(p string) bool {
	return slices.Contains(strings.Split(path.Dir(p), "/"), "vendor")
}

// packages parses the files of dir that build on this machine (once)
// into its packages, in the order of their first files.
func (g *goTree) packages(dir string) []*goPackage {
	if ps, ok := g.pkgs[dir]; ok {
		return ps
	}
	var ps []*goPackage
	for _, p := range g.dirs[dir] {
		data := g.t.Files[p].Data
		if !golang.Builds(p, data) {
			continue
		}
		f, err := g.parse(p, data)
		if err != nil {
			g.syntax[dir] = append(g.syntax[dir], err)
			continue
		}
		i := slices.IndexFunc(ps, func(gp *goPackage) bool { return gp.name == f.Name.Name })
		if i < 0 {
			i = len(ps)
			ps = append(ps, &goPackage{dir: dir, name: f.Name.Name, importPath: g.mods.ImportPath(dir)})
		}
		ps[i].files = append(ps[i].files, f)
	}
	g.pkgs[dir] = ps
	// Of two packages in one directory, the importable one is the one
	// that is not main.
	for _, gp := range ps {
		if q := g.byPath[gp.importPath]; q == nil || q.name == "main" {
			g.byPath[gp.importPath] = gp
		}
	}
	return ps
}

// importable returns the package of dir that an import of it names:
// of two, the one that is not main; nil when dir has no Go files that
// build.
func (g *goTree) importable(dir string) *goPackage {
	ps := g.packages(dir)
	if len(ps) == 0 {
		return nil
	}
	return g.byPath[ps[0].importPath]
}

// check type-checks a package (once). A directory with a file that does
// not parse is not checked, as go build stops at its syntax errors.
func (g *goTree) check(gp *goPackage) {
	if gp.done {
		return
	}
	gp.done = true // also guards against import cycles
	if len(g.syntax[gp.dir]) > 0 {
		return
	}
	if g.info {
		gp.info = &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	}
	conf := types.Config{Importer: g, FakeImportC: true, Error: func(err error) {
		if g.typeError != nil {
			g.typeError(gp, err)
		}
	}}
	gp.tpkg, _ = conf.Check(gp.importPath, g.fset, gp.files, gp.info)
	if gp.tpkg != nil && g.checked != nil {
		g.checked(gp)
	}
}

// Import implements types.Importer: packages of the tree's modules are
// checked from the tree's source, every other package is empty.
func (g *goTree) Import(p string) (*types.Package, error) {
	if d := g.mods.DirOf(p); d != "" {
		if gp := g.importable(d); gp != nil {
			g.check(gp)
			if gp.tpkg != nil {
				return gp.tpkg, nil
			}
		}
	}
	if tp := g.empty[p]; tp != nil {
		return tp, nil
	}
	tp := types.NewPackage(p, guessName(p))
	tp.MarkComplete()
	g.empty[p] = tp
	return tp, nil
}

// guessName is the package name an import path most likely declares:
// its last element without a major version suffix or a gopkg.in version.
func guessName(p string) string {
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
