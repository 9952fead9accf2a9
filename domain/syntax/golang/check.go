package golang

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/wynot/wynot/domain/decomp"
)

// A Checker decides whether Go text is a well-formed candidate (FSE 1999,
// "predicting test outcomes": a candidate that does not parse, or with
// TypeCheck one that has a type error the original does not have, is
// Unresolved without running the test). It also finishes candidates:
// imports the original used and the candidate no longer does are
// removed, and the text is printed by go/format.
type Checker struct {
	TypeCheck bool
	known     map[string]bool // the original's type errors, by message
	// files are what the checker knows of each original file, by name
	// ("input.go" for a file on its own, the tree path in a bundle).
	files map[string]*fileFacts
	// bundle says the text is a bundle of a package's files
	// (decomp.Bundle; Tree.Dir), checked together.
	bundle bool
	// For a file reduced among a tree's files, a candidate whose
	// declarations differ from the original's as other files see them
	// (api) is also type-checked with its package and the packages
	// around it (the universe, made when first needed; treeKnown are
	// the original's errors there). A bundle is always checked so.
	tree      *Tree
	src       []byte
	api       string
	once      sync.Once
	universe  *universe
	treeKnown map[string]bool
	// finished and parsed keep, per file of a bundle, the work done for
	// its original text and for the last other one.
	finished memo[*finished]
	parsed   memo[*ast.File]
}

// fileFacts are what Finish needs to know of an original file.
type fileFacts struct {
	orig    string          // the original text
	imports map[string]bool // import names the original refers to
	// repairVars removes local variables that a transformation left
	// unused (a Go compiler rejects them), unless the original has such
	// variables itself.
	repairVars bool
}

// TypeError is the error of Finish for a candidate that parses but has a
// type error the original does not have. Finish returns the candidate
// with it, so that a caller that doubts the prediction (a test that
// never compiles the code) can run the test on it all the same.
type TypeError struct {
	Msg string
	// Dir is the package directory of a file reduced in a tree where
	// the error is ("" for a file on its own): a test may need some
	// packages to build and not others.
	Dir string
}

func (e *TypeError) Error() string {
	if e.Dir != "" {
		return "does not type-check in " + e.Dir + ": " + e.Msg
	}
	return "does not type-check: " + e.Msg
}

// NewChecker describes the original src, which must parse.
func NewChecker(src []byte, typeCheck bool) (*Checker, error) {
	return NewCheckerIn(src, typeCheck, nil)
}

// NewCheckerIn describes the original src, the file t.Path of the tree t
// (nil: a file on its own), or the bundle of the Go files of t.Dir,
// which must parse. With a tree, type errors are those of the files'
// package and of the tree's packages that import it (Tree).
func NewCheckerIn(src []byte, typeCheck bool, t *Tree) (*Checker, error) {
	c := &Checker{TypeCheck: typeCheck, files: map[string]*fileFacts{}, bundle: t != nil && t.Dir != ""}
	fset := token.NewFileSet()
	fs, names, err := c.parse(fset, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	texts := map[string]string{}
	if c.bundle {
		bfs, _ := decomp.Unbundle(src) // it parsed
		for _, f := range bfs {
			texts[f.Name] = string(f.Data)
		}
	}
	for i, f := range fs {
		c.files[names[i]] = &fileFacts{orig: texts[names[i]], imports: referenced(f), repairVars: !dropUnusedVars(f)}
	}
	if typeCheck {
		c.known = map[string]bool{}
		if !c.bundle {
			for _, e := range typeErrors(fset, fs[0], nil, t.importer()) {
				c.known[e] = true
			}
		}
		if t != nil {
			c.tree, c.src, c.api = t, src, api(fset, fs)
		}
	}
	return c, nil
}

// parse parses src: one file, or each file of a bundle.
func (c *Checker) parse(fset *token.FileSet, src []byte, mode parser.Mode) ([]*ast.File, []string, error) {
	if !c.bundle {
		f, err := parser.ParseFile(fset, "input.go", src, mode|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, firstError(err)
		}
		return []*ast.File{f}, []string{"input.go"}, nil
	}
	files, err := decomp.Unbundle(src)
	if err != nil {
		return nil, nil, err
	}
	var fs []*ast.File
	var names []string
	for _, file := range files {
		f, err := parser.ParseFile(fset, file.Name, file.Data, mode|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", file.Name, firstError(err))
		}
		fs, names = append(fs, f), append(names, file.Name)
	}
	return fs, names, nil
}

// treeErrors type-checks src, a candidate for the tree's file or
// package, with the tree: its package and, with importers, the packages
// that import it.
func (c *Checker) treeErrors(src []byte, importers bool) []string {
	c.once.Do(func() {
		fset := token.NewFileSet()
		self, _, err := c.parse(fset, c.src, 0)
		if err != nil {
			return
		}
		c.universe = newUniverse(c.tree, fset, self)
		c.treeKnown = map[string]bool{}
		for _, e := range c.treeErrors1(c.src, true) {
			c.treeKnown[e] = true
		}
	})
	if c.universe == nil {
		return nil
	}
	return c.treeErrors1(src, importers)
}

func (c *Checker) treeErrors1(src []byte, importers bool) []string {
	var fs []*ast.File
	if c.bundle {
		files, err := decomp.Unbundle(src)
		if err != nil {
			return []string{err.Error()}
		}
		for _, file := range files {
			in := string(file.Data)
			f, ok := c.parsed.get(file.Name, in)
			if !ok {
				// An AST is only read by the type checks, which may
				// share it.
				if f, err = parser.ParseFile(c.universe.fset, file.Name, file.Data, parser.SkipObjectResolution); err != nil {
					return []string{err.Error()}
				}
				c.parsed.put(file.Name, in, in == c.files[file.Name].orig, f)
			}
			fs = append(fs, f)
		}
	} else {
		f, err := parser.ParseFile(c.universe.fset, c.tree.Path, src, parser.SkipObjectResolution)
		if err != nil {
			return []string{err.Error()}
		}
		fs = []*ast.File{f}
	}
	return c.universe.errors(fs, nil, importers)
}

// api prints what other files see of files: their declarations without
// the bodies of their functions.
func api(fset *token.FileSet, files []*ast.File) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(f.Name.Name)
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				continue
			}
			if fd, ok := d.(*ast.FuncDecl); ok {
				cp := *fd
				cp.Body, cp.Doc = nil, nil
				d = &cp
			}
			b.WriteByte('\n')
			printer.Fprint(&b, fset, d)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Finish parses data, drops imports that became unused, formats it and,
// with TypeCheck, type-checks it. A bundle is finished file by file and
// type-checked as a whole.
func (c *Checker) Finish(data []byte) ([]byte, error) {
	if c.bundle {
		return c.finishBundle(data)
	}
	fset := token.NewFileSet()
	fs, _, err := c.parse(fset, data, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	out, err := c.finishFile(fset, fs[0], c.files["input.go"])
	if err != nil || !c.TypeCheck {
		return out, err
	}
	dir := ""
	if c.tree != nil {
		dir = path.Dir(c.tree.Path)
	}
	for _, e := range typeErrors(fset, fs[0], nil, c.tree.importer()) {
		if !c.known[e] {
			return out, &TypeError{Msg: e, Dir: dir}
		}
	}
	if c.tree != nil && api(fset, fs) != c.api {
		// Other files may use what changed: check it with them.
		if err := c.treeCheck(out, true); err != nil {
			return out, err
		}
	}
	return out, nil
}

// finishFile drops the imports f no longer uses and, where the original
// had none, the local variables a transformation left unused, and
// prints f as gofmt would.
func (c *Checker) finishFile(fset *token.FileSet, f *ast.File, facts *fileFacts) ([]byte, error) {
	c.dropImports(f, facts.imports)
	if facts.repairVars {
		dropUnusedVars(f)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("does not print: %w", err)
	}
	return squeeze(buf.Bytes()), nil
}

// finished is what Finish made of one file of a bundle: its finished
// text and what other files see of it (api), or why it was rejected.
type finished struct {
	out []byte
	api string
	err error
}

// memo keeps, for each file of a bundle, what was made of its original
// text and of the last other text seen: most candidates of a package
// change one or two of its files, and the others need not be parsed,
// printed or parsed again for the type check.
type memo[T any] struct {
	mu    sync.Mutex
	files map[string]*[2]*memoEntry[T]
}

type memoEntry[T any] struct {
	in string
	v  T
}

func (m *memo[T]) get(name, in string) (T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var zero T
	slots := m.files[name]
	if slots == nil {
		return zero, false
	}
	for _, e := range slots {
		if e != nil && e.in == in {
			return e.v, true
		}
	}
	return zero, false
}

// put keeps v, made of the file's text in, as what was made of its
// original (slot 0) or of its last other text.
func (m *memo[T]) put(name, in string, orig bool, v T) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = map[string]*[2]*memoEntry[T]{}
	}
	e := m.files[name]
	if e == nil {
		e = &[2]*memoEntry[T]{}
		m.files[name] = e
	}
	slot := 1
	if orig {
		slot = 0
	}
	e[slot] = &memoEntry[T]{in: in, v: v}
}

// finishBundle finishes each file of a bundle (from the memo where its
// text is one seen before) and type-checks the package.
func (c *Checker) finishBundle(data []byte) ([]byte, error) {
	files, err := decomp.Unbundle(data)
	if err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	outs := make([]decomp.File, len(files))
	var apis strings.Builder
	for i, file := range files {
		facts := c.files[file.Name]
		if facts == nil {
			return nil, fmt.Errorf("%s is not a file of the original", file.Name)
		}
		in := string(file.Data)
		fin, ok := c.finished.get(file.Name, in)
		if !ok {
			fin = &finished{}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, file.Name, file.Data, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				fin.err = fmt.Errorf("does not parse: %s: %w", file.Name, firstError(err))
			} else if fin.out, fin.err = c.finishFile(fset, f, facts); fin.err == nil {
				fin.api = api(fset, []*ast.File{f})
			}
			c.finished.put(file.Name, in, in == facts.orig, fin)
		}
		if fin.err != nil {
			return nil, fin.err
		}
		outs[i] = decomp.File{Name: file.Name, Data: fin.out}
		apis.WriteString(fin.api)
	}
	out, err := decomp.Bundle(outs)
	if err != nil || !c.TypeCheck || c.tree == nil {
		return out, err
	}
	// The bundle is its package: it is always checked, and with the
	// packages that import it when what they see changed.
	if err := c.treeCheck(out, apis.String() != c.api); err != nil {
		return out, err
	}
	return out, nil
}

// treeCheck type-checks a finished candidate with the tree and returns
// its first error the original does not have, as a TypeError.
func (c *Checker) treeCheck(out []byte, importers bool) error {
	for _, e := range c.treeErrors(out, importers) {
		if !c.treeKnown[e] {
			dir, msg, _ := strings.Cut(e, "\t")
			return &TypeError{Msg: msg, Dir: dir}
		}
	}
	return nil
}

func firstError(err error) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e := list[0]
		return fmt.Errorf("line %d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
	}
	return err
}

// importName is the name a file refers to an import by.
func importName(s *ast.ImportSpec) string {
	if s.Name != nil {
		return s.Name.Name
	}
	p := strings.Trim(s.Path.Value, "`\"")
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	return base
}

// referenced lists the import names f refers to (as X in X.Sel).
func referenced(f *ast.File) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
		return true
	})
	return names
}

// dropImports removes the imports the original referred to (imports)
// and f does not.
func (c *Checker) dropImports(f *ast.File, imports map[string]bool) {
	now := referenced(f)
	decls := f.Decls[:0]
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			decls = append(decls, d)
			continue
		}
		specs := gd.Specs[:0]
		for _, s := range gd.Specs {
			name := importName(s.(*ast.ImportSpec))
			if imports[name] && !now[name] && name != "_" && name != "." && name != "C" {
				continue
			}
			specs = append(specs, s)
		}
		gd.Specs = specs
		if len(specs) > 0 {
			decls = append(decls, gd)
		}
	}
	f.Decls = decls
}

// stdImporter imports standard-library packages from source (no process
// is started, no export data needed) and refuses all others, whose
// references then stay untyped in both the original and the candidates.
type stdImporter struct {
	mu   sync.Mutex
	imp  types.Importer
	fset *token.FileSet
	pkgs map[string]*types.Package
}

var std = &stdImporter{}

func (s *stdImporter) Import(p string) (*types.Package, error) {
	if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") || p == "C" {
		return nil, fmt.Errorf("%s is not in the standard library", p)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.imp == nil {
		s.fset = token.NewFileSet()
		s.imp = importer.ForCompiler(s.fset, "source", nil)
		s.pkgs = map[string]*types.Package{}
	}
	// The source importer finds a package's directory again at every
	// import (go/build reads its files) before it looks into its own
	// cache: keeping the packages here makes an import a map lookup.
	if pkg, ok := s.pkgs[p]; ok {
		return pkg, nil
	}
	pkg, err := s.imp.Import(p)
	if err == nil {
		s.pkgs[p] = pkg
	}
	return pkg, err
}

// position prefixes like "input.go:12:3: " are dropped from messages, so
// that a type error moved by an edit is still the original's.
var position = regexp.MustCompile(`[^\s:]*\.go:\d+:\d+`)

// typeErrors type-checks f, its imports from imp, and returns its error
// messages without positions; info, when given, is filled in.
func typeErrors(fset *token.FileSet, f *ast.File, info *types.Info, imp types.Importer) []string {
	var errs []string
	conf := types.Config{
		Importer: imp,
		Error: func(err error) {
			msg := err.Error()
			if te, ok := err.(types.Error); ok {
				msg = te.Msg
			}
			errs = append(errs, position.ReplaceAllString(msg, "input.go"))
		},
	}
	name := "main"
	if f.Name != nil {
		name = f.Name.Name
	}
	conf.Check(name, fset, []*ast.File{f}, info) //nolint:errcheck // errors are collected above
	return errs
}

// dropUnusedVars removes, from every function, the declarations of local
// variables that nothing else in the function names (x := 1, var x int),
// when what they are set to has no effect (literals and names, no calls).
// It reports whether it removed any.
func dropUnusedVars(f *ast.File) bool {
	dropped := false
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		if body == nil {
			return true
		}
		count := map[string]int{}
		ast.Inspect(body, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok {
				count[id.Name]++
			}
			return true
		})
		unused := func(ids []*ast.Ident) bool {
			for _, id := range ids {
				if id.Name != "_" && count[id.Name] != 1 {
					return false
				}
			}
			return len(ids) > 0
		}
		ast.Inspect(body, func(m ast.Node) bool {
			var list *[]ast.Stmt
			switch m := m.(type) {
			case *ast.BlockStmt:
				list = &m.List
			case *ast.CaseClause:
				list = &m.Body
			case *ast.CommClause:
				list = &m.Body
			default:
				return true
			}
			kept := (*list)[:0]
			for _, s := range *list {
				if unusedDecl(s, unused) {
					dropped = true
					continue
				}
				kept = append(kept, s)
			}
			*list = kept
			return true
		})
		return false // nested function literals share the counts above
	})
	return dropped
}

// unusedDecl tells a statement declaring only unused variables with
// values that have no effect.
func unusedDecl(s ast.Stmt, unused func([]*ast.Ident) bool) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return false
		}
		var ids []*ast.Ident
		for _, l := range s.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return false
			}
			ids = append(ids, id)
		}
		return unused(ids) && pure(s.Rhs...)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return false
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if !unused(vs.Names) || !pure(vs.Values...) {
				return false
			}
		}
		return true
	}
	return false
}

// pure tells expressions without effects: literals, names, and
// operators, call-free composites of them.
func pure(es ...ast.Expr) bool {
	for _, e := range es {
		ok := true
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr, *ast.FuncLit, *ast.IndexExpr, *ast.StarExpr, *ast.TypeAssertExpr, *ast.SliceExpr:
				ok = false
			case *ast.UnaryExpr:
				ok = n.Op != token.ARROW
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// squeeze removes the blank lines that deleted statements leave inside
// blocks (a blank line before an indented line or after an opening
// brace), outside raw strings and comments; gofmt leaves such text as it
// is.
func squeeze(src []byte) []byte {
	var keep [][2]int // raw strings and comments, which may hold blank lines
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(tf, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT || (tok == token.STRING && strings.HasPrefix(lit, "`")) {
			off := tf.Offset(pos)
			keep = append(keep, [2]int{off, off + len(lit)})
		}
	}
	inside := func(off int) bool {
		for _, k := range keep {
			if off >= k[0] && off < k[1] {
				return true
			}
		}
		return false
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	out := make([]byte, 0, len(src))
	off := 0
	for i, l := range lines {
		blank := len(bytes.TrimSpace(l)) == 0 && len(l) > 0
		if blank && !inside(off) && i > 0 && i+1 < len(lines) {
			prev := bytes.TrimRight(lines[i-1], " \t\n")
			next := lines[i+1]
			if bytes.HasSuffix(prev, []byte("{")) || (len(next) > 0 && (next[0] == '\t' || next[0] == ' ')) {
				off += len(l)
				continue
			}
		}
		out = append(out, l...)
		off += len(l)
	}
	return out
}
