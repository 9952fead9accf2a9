// Package instrument rewrites the statements of a Go program into a
// guarded form, so that chosen statement instances can be skipped at run
// time and every statement's executions are counted: the partial
// executions of "Finding Failure Causes through Automated Testing"
// (AADEBUG 2000, §6, "Reducing Execution Traces": STRIPE), for Go.
//
// The rewrite is textual: statements keep their lines, so positions in
// panics and stack traces stay those of the user's source, and
// comments and directives are untouched. The result is an overlay for
// `go build -overlay` (the user's files are never written) plus a small
// runtime package that the rewritten files import. One build serves
// every test: a plan file, named by the environment variable PlanEnv,
// says which instances to skip and whether to record counts.
//
// A guarded statement s becomes
//
//	if rt.Do(s) { S }
//
// where Do counts the execution (atomically: goroutines may share
// statements) and says whether this instance runs. Instance k of
// statement s is its k-th execution in the run; under real concurrency
// that numbering is as nondeterministic as the scheduling.
//
// What is guarded: expression statements (except calls of the builtin
// panic, which end their block), assignments, increments, sends, go
// and defer statements, short variable declarations and var
// declarations with values; and, as units, function bodies (one
// instance per call; a skipped call returns zero values) and loop bodies
// (one instance per iteration; a skipped iteration continues with the
// next). Control statements (if, for, switch, select), return, branch
// statements and the init and post statements of their headers are
// never guarded: control flow follows the program's own state.
//
// This package writes source and never runs anything.
package instrument

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"go/version"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// PlanEnv is the environment variable that names the plan file of a run.
// Without it, the instrumented program runs every statement and records
// nothing.
const PlanEnv = "WYNOT_TRACE_PLAN"

// Kind says what a guarded element is.
type Kind uint8

const (
	// Statement is one statement; an instance is one execution.
	Statement Kind = iota
	// Loop is a loop body; an instance is one iteration.
	Loop
	// Func is a function body; an instance is one call.
	Func
)

// String names the kind: statement, loop or func.
func (k Kind) String() string {
	switch k {
	case Loop:
		return "loop"
	case Func:
		return "func"
	}
	return "statement"
}

// Stmt is one guarded element of the program.
type Stmt struct {
	ID   int // from 1
	Kind Kind
	// File is the path relative to the module's root, Line and EndLine
	// the lines the element spans in it.
	File          string
	Line, EndLine int
	// Text is the element's source as one line: the statement, or the
	// header of the loop or function.
	Text string
	// Func is the function the element is in ("main.main", "(*T).m",
	// "main.func1" for a literal).
	Func string
	// Guard is the line of the condition that decides whether the
	// statement runs: the if, else if, case or loop header whose block
	// holds it; 0 when none does or it is not known (Probes sets it).
	Guard int
}

// Unguarded is a statement wynot could not guard; it always runs.
type Unguarded struct {
	File string
	Line int
	Why  string
}

// File is one Go source file of a package.
type File struct {
	Path string // absolute
	Src  []byte
}

// Package is one package to instrument.
type Package struct {
	ImportPath string
	Files      []File
	// Module, Version and ModuleDir are those of the package's module
	// when it is not the main module (Options.Module); the files of
	// such a package are named "module@version/file.go".
	Module, Version, ModuleDir string
	// GoVersion is the language version of the package's module
	// ("go1.16"), or "" for Options.GoVersion.
	GoVersion string
	// Optional says the package may be left uninstrumented when it
	// cannot be instrumented (a dependency that does not type-check from
	// source alone): Program.Skipped says so.
	Optional bool
}

// goVersion is the language version p is checked and rewritten under.
func (p Package) goVersion(opt Options) string {
	if p.GoVersion != "" {
		return p.GoVersion
	}
	return opt.GoVersion
}

// display is how path, a file of p, is named in Stmts: under the module
// path and version of a dependency in the module cache
// ("github.com/BurntSushi/toml@v1.3.2/decode.go"), else relative to the
// main module's root ("lib/x.go", "../lib/x.go", "vendor/…").
func (p Package) display(opt Options, path string) string {
	if p.ModuleDir != "" && p.Version != "" && p.Module != opt.Module {
		rel, err := filepath.Rel(p.ModuleDir, path)
		if err == nil && !strings.HasPrefix(rel, "..") {
			return p.Module + "@" + p.Version + "/" + filepath.ToSlash(rel)
		}
	}
	rel, err := filepath.Rel(opt.ModuleDir, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// Skipped is a package left uninstrumented, and why.
type Skipped struct {
	ImportPath, Why string
}

// Options say how to instrument.
type Options struct {
	// Importer resolves the packages' imports (export data of the
	// dependencies, as `go list -export` gives it).
	Importer types.Importer
	// Module is the module's path and ModuleDir its root directory: the
	// runtime package goes there (as an overlay file only), and File
	// paths in Stmt are relative to it.
	Module, ModuleDir string
	// GoVersion is the module's language version ("go1.22"), or "".
	GoVersion string
}

// Program is an instrumented program.
type Program struct {
	// Stmts are the guarded elements, Stmts[i].ID == i+1.
	Stmts     []Stmt
	Unguarded []Unguarded
	// Overlay maps absolute file paths to their instrumented content:
	// the rewritten files and the runtime package's file.
	Overlay map[string][]byte
	// Runtime is the import path of the runtime package.
	Runtime string
	// Sources maps each Stmt.File to the file's absolute path.
	Sources map[string]string
	// Skipped are the optional packages left uninstrumented.
	Skipped []Skipped
}

// Source is the absolute path of a Stmt's File.
func (p *Program) Source(file string) string {
	if path, ok := p.Sources[file]; ok {
		return path
	}
	return file
}

// newProgram is the program of the checked packages, before rewriting.
func newProgram(c *checked, opt Options) *Program {
	return &Program{Overlay: map[string][]byte{}, Runtime: opt.Module + "/" + c.rtDir, Sources: map[string]string{}, Skipped: c.skipped}
}

// Stmt returns the element with the given id.
func (p *Program) Stmt(id int) Stmt { return p.Stmts[id-1] }

// Instrument type-checks the packages and rewrites them.
func Instrument(pkgs []Package, opt Options) (*Program, error) {
	c, err := check(pkgs, opt)
	if err != nil {
		return nil, err
	}
	prog := newProgram(c, opt)
	for _, p := range c.pkgs {
		gv := p.pkg.goVersion(opt)
		for i, f := range p.files {
			rel := p.pkg.display(opt, p.pkg.Files[i].Path)
			prog.Sources[rel] = p.pkg.Files[i].Path
			rw := &rewriter{fset: c.fset, src: p.pkg.Files[i].Src, file: f, info: p.info, pkg: p.tpkg,
				prog: prog, rel: rel, prefix: c.prefix, imports: map[string]string{},
				generics: gv == "" || version.Compare(gv, "go1.18") >= 0}
			out := rw.rewrite()
			if out != nil {
				prog.Overlay[p.pkg.Files[i].Path] = out
			}
		}
	}
	prog.Overlay[filepath.Join(opt.ModuleDir, c.rtDir, "rt.go")] = runtimeSource(prog.Stmts)
	return prog, nil
}

// checked are type-checked packages, with a prefix for generated names
// that no identifier of theirs starts with and the directory of the
// runtime package.
type checked struct {
	fset          *token.FileSet
	prefix, rtDir string
	pkgs          []checkedPkg
	skipped       []Skipped // optional packages that did not parse or type-check
}

type checkedPkg struct {
	pkg   Package
	files []*ast.File
	info  *types.Info
	tpkg  *types.Package
}

// check parses and type-checks the packages.
func check(pkgs []Package, opt Options) (*checked, error) {
	fset := token.NewFileSet()
	prefix := "_wynot"
	var all []checkedPkg
	var skipped []Skipped
	for _, p := range pkgs {
		var files []*ast.File
		var perr error
		for _, f := range p.Files {
			af, err := parser.ParseFile(fset, f.Path, f.Src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				perr = err
				break
			}
			files = append(files, af)
		}
		if perr != nil && p.Optional {
			skipped = append(skipped, Skipped{p.ImportPath, perr.Error()})
			continue
		}
		if perr != nil {
			return nil, perr
		}
		all = append(all, checkedPkg{pkg: p, files: files})
	}
	// Generated names start with a prefix no identifier of the program
	// starts with.
	for clash := true; clash; {
		clash = false
		for _, p := range all {
			for _, f := range p.files {
				ast.Inspect(f, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, prefix) {
						clash = true
					}
					return !clash
				})
			}
		}
		if clash {
			prefix += "X"
		}
	}
	kept := all[:0]
	for i := range all {
		p := &all[i]
		p.info = &types.Info{
			Types: map[ast.Expr]types.TypeAndValue{},
			Defs:  map[*ast.Ident]types.Object{},
			Uses:  map[*ast.Ident]types.Object{},
			// Scopes tell whether a type's name means the type where a
			// declaration is written (a parameter may shadow it), and
			// which variables are in scope at a statement.
			Scopes:    map[ast.Node]*types.Scope{},
			Implicits: map[ast.Node]types.Object{},
		}
		conf := types.Config{Importer: opt.Importer, GoVersion: p.pkg.goVersion(opt)}
		tpkg, err := conf.Check(p.pkg.ImportPath, fset, p.files, p.info)
		if err != nil && p.pkg.Optional {
			skipped = append(skipped, Skipped{p.pkg.ImportPath, err.Error()})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("type-checking %s: %v", p.pkg.ImportPath, err)
		}
		p.tpkg = tpkg
		kept = append(kept, *p)
	}
	return &checked{fset: fset, prefix: prefix, rtDir: strings.ToLower(strings.TrimPrefix(prefix, "_")) + "rt", pkgs: kept, skipped: skipped}, nil
}

// edit replaces src[off:off+del] by text.
type edit struct {
	off, del int
	text     string
	order    int // among edits at one offset: lower first
}

type rewriter struct {
	fset     *token.FileSet
	src      []byte
	file     *ast.File
	info     *types.Info
	pkg      *types.Package
	prog     *Program
	rel      string
	prefix   string
	imports  map[string]string // import path -> alias
	edits    []edit
	temps    int
	guarded  bool
	generics bool      // the module's language has type parameters (rt.Zero)
	at       token.Pos // where the type names being written go
	fn       []string  // enclosing functions, innermost last
	lits     map[string]int
}

func (rw *rewriter) off(p token.Pos) int { return rw.fset.Position(p).Offset }
func (rw *rewriter) line(p token.Pos) int {
	return rw.fset.Position(p).Line
}

func (rw *rewriter) insert(p token.Pos, order int, text string) {
	rw.edits = append(rw.edits, edit{off: rw.off(p), text: text, order: order})
}

func (rw *rewriter) replace(from, to token.Pos, text string) {
	rw.edits = append(rw.edits, edit{off: rw.off(from), del: rw.off(to) - rw.off(from), text: text})
}

func (rw *rewriter) rt() string { return rw.prefix + "rt" }

// element registers a guarded element and returns its id.
func (rw *rewriter) element(k Kind, n ast.Node, text string) int {
	rw.guarded = true
	id := len(rw.prog.Stmts) + 1
	fn := ""
	if len(rw.fn) > 0 {
		fn = rw.fn[len(rw.fn)-1]
	}
	rw.prog.Stmts = append(rw.prog.Stmts, Stmt{ID: id, Kind: k, File: rw.rel,
		Line: rw.line(n.Pos()), EndLine: rw.line(n.End()), Text: text, Func: fn})
	return id
}

func (rw *rewriter) unguarded(n ast.Node, why string) {
	rw.prog.Unguarded = append(rw.prog.Unguarded, Unguarded{File: rw.rel, Line: rw.line(n.Pos()), Why: why})
}

// text is a node's source on one line, shortened.
func (rw *rewriter) text(from, to token.Pos) string {
	s := string(rw.src[rw.off(from):rw.off(to)])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// rewrite returns the instrumented file, or nil when nothing in it is
// guarded.
func (rw *rewriter) rewrite() []byte {
	for _, d := range rw.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		rw.fn = []string{rw.funcName(fd)}
		rw.lits = map[string]int{}
		isMain := rw.pkg.Name() == "main" && fd.Recv == nil && fd.Name.Name == "main"
		isInit := fd.Recv == nil && fd.Name.Name == "init"
		if !isMain && !isInit {
			rw.unit(fd.Type, fd.Body, rw.text(fd.Pos(), fd.Body.Lbrace)+" {")
		}
		rw.block(fd.Body.List)
	}
	if !rw.guarded {
		return nil
	}
	// The runtime and the packages of type names, imported on the
	// package clause's line so that no line moves.
	var imps []string
	imps = append(imps, fmt.Sprintf("%s %q", rw.rt(), rw.prog.Runtime))
	paths := make([]string, 0, len(rw.imports))
	for p := range rw.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		imps = append(imps, fmt.Sprintf("%s %q", rw.imports[p], p))
	}
	rw.insert(rw.file.Name.End(), 0, "; import ("+strings.Join(imps, "; ")+")")
	return applyEdits(rw.src, rw.edits)
}

// applyEdits makes the edits of src, in the order of their offsets (and
// of their order among edits at one offset).
func applyEdits(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.off != b.off {
			return a.off < b.off
		}
		return a.order < b.order
	})
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.off])
		out.WriteString(e.text)
		at = e.off + e.del
	}
	out.Write(src[at:])
	return out.Bytes()
}

func (rw *rewriter) funcName(fd *ast.FuncDecl) string {
	name := fd.Name.Name
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		t := fd.Recv.List[0].Type
		star := ""
		if s, ok := t.(*ast.StarExpr); ok {
			star, t = "*", s.X
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		if id, ok := t.(*ast.Ident); ok {
			if star != "" {
				return fmt.Sprintf("(*%s).%s", id.Name, name)
			}
			return id.Name + "." + name
		}
	}
	return rw.pkg.Name() + "." + name
}

// unit makes a function body a guarded element: a skipped call returns
// at once, with zero results (unnamed results get names for that).
func (rw *rewriter) unit(ft *ast.FuncType, body *ast.BlockStmt, text string) {
	if len(body.List) == 0 {
		return
	}
	if ft.Results != nil && len(ft.Results.List) > 0 && len(ft.Results.List[0].Names) == 0 {
		for i, f := range ft.Results.List {
			rw.insert(f.Type.Pos(), 1, fmt.Sprintf("%sr%d ", rw.prefix, i))
		}
		if !ft.Results.Opening.IsValid() {
			rw.insert(ft.Results.List[0].Type.Pos(), 0, "(")
			rw.insert(ft.Results.List[0].Type.End(), 0, ")")
		}
	}
	id := rw.element(Func, body, text)
	rw.insert(body.Lbrace+1, 0, fmt.Sprintf(" if !%s.Do(%d) { return };", rw.rt(), id))
}

// header guards the init statement of an if or switch statement s
// (init; next), as an element of its own: the init goes before s, in a
// block that holds both, so that its variables are in scope where they
// were,
//
//	{ var x T; if rt.Do(i) { x = f() }; if x > 0 { … } }
//
// on the lines where it was. An init that holds a function literal, or
// declares a variable it mentions, or one of a type not nameable here,
// stays as it is, unguarded.
func (rw *rewriter) header(s ast.Stmt, init ast.Stmt, next token.Pos, rest ast.Node) {
	defer rw.lits0(rest)
	if init == nil {
		return
	}
	lit := false
	ast.Inspect(init, func(n ast.Node) bool {
		_, ok := n.(*ast.FuncLit)
		lit = lit || ok
		return !lit
	})
	if lit {
		rw.lits0(init)
		return
	}
	var pre string
	if a, ok := init.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
		// In the statement's own scope every name but _ is new.
		var news []*ast.Ident
		var lhs []string
		for _, l := range a.Lhs {
			id, ok := l.(*ast.Ident)
			if ok && id.Name == "_" {
				lhs = append(lhs, "_")
				continue
			}
			if !ok || rw.info.Defs[id] == nil {
				rw.unguarded(init, "an if or switch statement's short variable declaration that assigns a declared variable")
				return
			}
			news = append(news, id)
			lhs = append(lhs, id.Name)
		}
		typs, ok := rw.typesOf(news)
		if !ok || mentions(a.Rhs, news) {
			rw.unguarded(init, "an if or switch statement's short variable declaration of a type not nameable here, or of a variable its value mentions")
			return
		}
		id := rw.element(Statement, init, rw.text(init.Pos(), init.End()))
		for i, n := range news {
			pre += fmt.Sprintf("var %s %s; ", n.Name, typs[i])
		}
		pre += fmt.Sprintf("if %s.Do(%d) { %s = %s }; ", rw.rt(), id, strings.Join(lhs, ", "), rw.src[rw.off(a.Rhs[0].Pos()):rw.off(a.Rhs[len(a.Rhs)-1].End())])
	} else {
		id := rw.element(Statement, init, rw.text(init.Pos(), init.End()))
		pre = fmt.Sprintf("if %s.Do(%d) { %s }; ", rw.rt(), id, rw.src[rw.off(init.Pos()):rw.off(init.End())])
	}
	rw.insert(s.Pos(), 0, "{ "+pre)
	rw.replace(init.Pos(), next, "")
	rw.insert(s.End(), 1, " }")
}

// block guards the statements of a list, and what is inside them.
func (rw *rewriter) block(list []ast.Stmt) {
	for _, s := range list {
		rw.stmt(s)
	}
}

// stmt guards one statement of a list and goes into the blocks it holds.
func (rw *rewriter) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.LabeledStmt:
		rw.stmt(s.Stmt)
		return
	case *ast.ExprStmt:
		if rw.isPanic(s.X) {
			break // a terminating statement: it ends its block
		}
		rw.guard(s)
	case *ast.IncDecStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt:
		rw.guard(s)
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			rw.define(s)
		} else {
			rw.guard(s)
		}
	case *ast.DeclStmt:
		rw.declare(s)
	case *ast.BlockStmt:
		rw.block(s.List)
		return
	case *ast.IfStmt:
		rw.header(s, s.Init, s.Cond.Pos(), s.Cond)
		rw.block(s.Body.List)
		if s.Else != nil {
			rw.stmt(s.Else)
		}
		return
	case *ast.ForStmt:
		rw.lits0(s.Init, s.Cond, s.Post)
		rw.loop(s.Body, rw.text(s.Pos(), s.Body.Lbrace)+" {")
		return
	case *ast.RangeStmt:
		rw.lits0(s.X)
		rw.loop(s.Body, rw.text(s.Pos(), s.Body.Lbrace)+" {")
		return
	case *ast.SwitchStmt:
		next := s.Body.Lbrace
		if s.Tag != nil {
			next = s.Tag.Pos()
		}
		rw.header(s, s.Init, next, s.Tag)
		for _, c := range s.Body.List {
			rw.block(c.(*ast.CaseClause).Body)
		}
		return
	case *ast.TypeSwitchStmt:
		rw.header(s, s.Init, s.Assign.Pos(), s.Assign)
		for _, c := range s.Body.List {
			rw.block(c.(*ast.CaseClause).Body)
		}
		return
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			rw.lits0(cc.Comm)
			rw.block(cc.Body)
		}
		return
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			rw.lits0(r)
		}
		return
	default:
		return
	}
	rw.lits0(s)
}

// lits0 instruments the bodies of function literals inside nodes that
// are not statement lists (expressions, headers).
func (rw *rewriter) lits0(nodes ...ast.Node) {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(x ast.Node) bool {
			fl, ok := x.(*ast.FuncLit)
			if !ok {
				return true
			}
			outer := rw.fn[len(rw.fn)-1]
			rw.lits[outer]++
			rw.fn = append(rw.fn, fmt.Sprintf("%s.func%d", outer, rw.lits[outer]))
			rw.unit(fl.Type, fl.Body, rw.text(fl.Pos(), fl.Body.Lbrace)+" {")
			rw.block(fl.Body.List)
			rw.fn = rw.fn[:len(rw.fn)-1]
			return false
		})
	}
}

// loop makes a loop body a guarded element (a skipped iteration goes on
// with the next) and goes into it.
func (rw *rewriter) loop(body *ast.BlockStmt, text string) {
	if len(body.List) > 0 {
		id := rw.element(Loop, body, text)
		rw.insert(body.Lbrace+1, 0, fmt.Sprintf(" if !%s.Do(%d) { continue };", rw.rt(), id))
	}
	rw.block(body.List)
}

func (rw *rewriter) isPanic(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	_, builtin := rw.info.Uses[id].(*types.Builtin)
	return builtin && id.Name == "panic"
}

// guard wraps a statement: if rt.Do(id) { S }.
func (rw *rewriter) guard(s ast.Stmt) {
	id := rw.element(Statement, s, rw.text(s.Pos(), s.End()))
	rw.insert(s.Pos(), 2, fmt.Sprintf("if %s.Do(%d) { ", rw.rt(), id))
	rw.insert(s.End(), -1, " }")
}

// WriteOverlay writes the instrumented files under dir (mirroring their
// place below the main module's root; those of other modules under
// dir/src/_deps) and the overlay file that maps the files' paths to
// them, for go build -overlay; it returns the overlay file's path. Where
// maps a file's path to the one the build reads it at (a dependency's
// copy, outside the module cache, which no overlay may replace), or is
// nil.
func (p *Program) WriteOverlay(moduleDir, dir string, where func(string) string) (string, error) {
	ov := struct{ Replace map[string]string }{map[string]string{}}
	deps := 0
	for path, data := range p.Overlay {
		if where != nil {
			path = where(path)
		}
		dst := ""
		if rel, err := filepath.Rel(moduleDir, path); err == nil && !strings.HasPrefix(rel, "..") {
			dst = filepath.Join(dir, "src", rel)
		} else {
			deps++
			dst = filepath.Join(dir, "src", "_deps", strconv.Itoa(deps), filepath.Base(path))
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", err
		}
		ov.Replace[path] = dst
	}
	js, err := json.Marshal(ov)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, js, 0o644)
}
