package codediff

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/wynot/wynot/domain/syntax/golang"
)

// A BuildCheck predicts, for Go, whether a configuration of a set
// builds: it parses the Go files the configuration changes and
// type-checks their packages in the tree as configured, before any
// build runs (FSE 1999 §5 construction failures, and "predicting test
// outcomes": a configuration that does not compile is unresolved
// without a test). The packages of the tree's own modules are imported
// from the configured tree; every other import is left empty, so what
// the check cannot see (the names of other modules, cgo) shows as
// errors in the old or the new version too: such messages are the
// check's noise, and never count against a configuration.
//
// The files are those a build on this machine compiles (goTree: build
// constraints hold, no tests). Only the packages of the changed files
// are checked, not their importers. A BuildCheck is safe for use by
// concurrent goroutines (checks run one at a time).
type BuildCheck struct {
	s       *Set
	context *Tree

	ext types.Importer // the packages from outside the tree, or nil (empty)

	mu     sync.Mutex
	fset   *token.FileSet
	parsed map[string][]parsedFile // by path: the last few versions parsed
	known  map[string]bool         // messages of the old and the new version, without positions
	// imports are the directories of the tree's own packages that each
	// checked package directory imports, in any configuration checked.
	imports map[string]map[string]bool
}

// parsedFile is one version of a file, parsed.
type parsedFile struct {
	data []byte
	file *ast.File
	err  error
}

// BuildError is an error a BuildCheck found: the directory of the
// package where it is, and the message as a Go compiler writes it
// ("path:line:col: message"), so that Resolve can read it.
type BuildError struct {
	Dir, Msg string
}

// BuildCheck returns a check of the set's configurations; context
// supplies every file the set's trees leave out (nil when they are
// whole).
func (s *Set) BuildCheck(context *Tree) *BuildCheck {
	if context == nil {
		context = s.Old // what the set leaves untouched
	}
	return &BuildCheck{s: s, context: context, fset: token.NewFileSet(), parsed: map[string][]parsedFile{}, imports: map[string]map[string]bool{}}
}

// WithImports makes the check type the packages from outside the tree
// with ext (export data: golang.ExportImporter) instead of leaving them
// empty; the same for every configuration and for the versions whose
// messages are the check's noise.
func (b *BuildCheck) WithImports(ext types.Importer) *BuildCheck {
	b.ext = ext
	return b
}

// Check returns the errors configuration c has in the packages of the
// Go files it changes that neither the old nor the new version has
// (by message); none when c builds as far as the check can see.
func (b *BuildCheck) Check(c []int) []BuildError {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.known == nil {
		b.known = map[string]bool{}
		all := make([]int, b.s.Len())
		for i := range all {
			all[i] = i
		}
		for _, cfg := range [][]int{nil, all} {
			for _, e := range b.check(cfg, all) {
				b.known[message(e.Msg)] = true
			}
		}
	}
	var out []BuildError
	for _, e := range b.check(c, c) {
		if !b.known[message(e.Msg)] {
			out = append(out, e)
		}
	}
	return out
}

// message is a compiler message without its position.
func message(m string) string {
	if l := positionRe.FindStringSubmatch(m); l != nil {
		return l[3]
	}
	return m
}

// check type-checks, in the tree as configured by c, the packages of
// the Go files that the changes of of touch.
func (b *BuildCheck) check(c, of []int) []BuildError {
	var dirs []string
	for _, i := range of {
		ch := &b.s.Changes[i]
		for _, p := range []string{ch.Path, ch.From} {
			if goSource(p) && !slices.Contains(dirs, path.Dir(p)) {
				dirs = append(dirs, path.Dir(p))
			}
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	sort.Strings(dirs)
	g := goTree(b.s.whole(b.context, &Tree{Files: b.s.Content(c)}), b.fset)
	g.Parse, g.Ext = b.parse, b.ext
	errs := map[string][]BuildError{} // by directory
	g.TypeError = func(gp *golang.Package, err error) {
		errs[gp.Dir] = append(errs[gp.Dir], BuildError{Dir: gp.Dir, Msg: err.Error()})
	}
	g.Checked = func(gp *golang.Package) {
		for _, f := range gp.Files {
			for _, im := range f.Imports {
				if p, err := strconv.Unquote(im.Path.Value); err == nil {
					if dep := g.Mods.DirOf(p); dep != "" && dep != gp.Dir {
						if b.imports[gp.Dir] == nil {
							b.imports[gp.Dir] = map[string]bool{}
						}
						b.imports[gp.Dir][dep] = true
					}
				}
			}
		}
	}
	var out []BuildError
	for _, d := range dirs {
		gp := g.Importable(d)
		if gp == nil {
			continue // the configuration removes every Go file there
		}
		for _, err := range g.SyntaxErrors(d) {
			var list scanner.ErrorList
			if errors.As(err, &list) && len(list) > 0 {
				err = list[0]
			}
			out = append(out, BuildError{Dir: d, Msg: err.Error()})
		}
		if len(g.SyntaxErrors(d)) == 0 {
			g.Check(gp)
			out = append(out, errs[d]...)
		}
	}
	return out
}

// parse parses a file, reusing the parse of the same text.
func (b *BuildCheck) parse(p string, data []byte) (*ast.File, error) {
	for _, v := range b.parsed[p] {
		if bytes.Equal(v.data, data) {
			return v.file, v.err
		}
	}
	f, err := parser.ParseFile(b.fset, p, data, parser.SkipObjectResolution)
	vs := append(b.parsed[p], parsedFile{data: data, file: f, err: err})
	if len(vs) > 3 {
		vs = vs[len(vs)-3:]
	}
	b.parsed[p] = vs
	return f, err
}

// Reports says whether a build's output reports an error at a position
// in a Go file of directory dir: evidence that the build compiles that
// package, which a build that fails for another reason is not.
func (b *BuildCheck) Reports(output []byte, dir string) bool {
	for _, m := range positionRe.FindAllSubmatch(output, -1) {
		if p := b.s.findPath(string(m[1])); p != "" && path.Dir(p) == dir {
			return true
		}
	}
	return false
}

// Deps returns the directories of the tree's own packages that the
// package in dir imports, directly or not, as the configurations
// checked so far have them: a build that compiles dir compiles them
// too.
func (b *BuildCheck) Deps(dir string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	seen := map[string]bool{dir: true}
	stack := []string{dir}
	var out []string
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for dep := range b.imports[d] {
			if !seen[dep] {
				seen[dep] = true
				out = append(out, dep)
				stack = append(stack, dep)
			}
		}
	}
	sort.Strings(out)
	return out
}
