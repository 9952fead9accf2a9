package instrument

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// StatePlanEnv is the environment variable that names the plan file of
// a run of a program instrumented by Probes.
const StatePlanEnv = "WYNOT_CHAIN_PLAN"

//go:embed probe.go.txt
var probeTemplate []byte

// Probes type-checks the packages and puts a probe before every
// statement of a statement list: a step of the run, counted, and the
// place where, at the one step a plan watches, the program's state is
// captured as a memory graph (with the variables in scope, the callers'
// receivers, parameters and named results (frame), the package variables
// of the packages and os.Args as base variables) and changed
// by the plan's operations ("Why Programs Fail", Appendix §A.2: memory
// graphs, applying partial state changes). The probe of statement s is
//
//	if rt.Hit(s) { rt.State(s, rt.Var{"x", &x}, ...) }
//
// on the statement's own line, so no line moves. The variables whose
// address a probe takes live on the heap; the program's behavior is the
// same. Each package also gets a file of its own (an overlay) that
// registers its package variables.
func Probes(pkgs []Package, opt Options) (*Program, error) {
	c, err := check(pkgs, opt)
	if err != nil {
		return nil, err
	}
	prog := newProgram(c, opt)
	rt := c.prefix + "rt"
	for _, p := range c.pkgs {
		for i, f := range p.files {
			rel := p.pkg.display(opt, p.pkg.Files[i].Path)
			prog.Sources[rel] = p.pkg.Files[i].Path
			pr := &prober{fset: c.fset, src: p.pkg.Files[i].Src, file: f, info: p.info, pkg: p.tpkg, prog: prog,
				rel: rel, rt: rt}
			if out := pr.rewrite(); out != nil {
				prog.Overlay[p.pkg.Files[i].Path] = out
			}
		}
		if len(p.pkg.Files) == 0 {
			continue
		}
		// The package's variables, and its types (a transplant may need
		// a value of one that the passing run's state has none of),
		// registered by a file of its own.
		var vars, typs []string
		scope := p.tpkg.Scope()
		for _, name := range scope.Names() {
			switch obj := scope.Lookup(name).(type) {
			case *types.Var:
				if name != "_" {
					vars = append(vars, fmt.Sprintf("%s.Var{N: %q, P: &%s}", rt, p.tpkg.Name()+"."+name, name))
				}
			case *types.TypeName:
				if n, ok := obj.Type().(*types.Named); ok && !obj.IsAlias() && n.TypeParams().Len() == 0 && name != "_" {
					typs = append(typs, fmt.Sprintf("(*%s)(nil)", name))
				}
			}
		}
		if len(vars) == 0 && len(typs) == 0 {
			continue
		}
		var calls []string
		if len(vars) > 0 {
			calls = append(calls, fmt.Sprintf("%s.Globals(%s)", rt, strings.Join(vars, ", ")))
		}
		if len(typs) > 0 {
			calls = append(calls, fmt.Sprintf("%s.Types(%s)", rt, strings.Join(typs, ", ")))
		}
		dir := filepath.Dir(p.pkg.Files[0].Path)
		name := "wynot_chain_globals.go"
		for taken(p.pkg.Files, filepath.Join(dir, name)) {
			name = "x" + name
		}
		prog.Overlay[filepath.Join(dir, name)] = fmt.Appendf(nil, "package %s\n\nimport %s %q\n\nfunc init() {\n\t%s\n}\n",
			p.tpkg.Name(), rt, prog.Runtime, strings.Join(calls, "\n\t"))
	}
	prog.Overlay[filepath.Join(opt.ModuleDir, c.rtDir, "rt.go")] = probeSource(prog.Stmts)
	return prog, nil
}

func taken(files []File, path string) bool {
	for _, f := range files {
		if f.Path == path {
			return true
		}
	}
	return false
}

// probeSource is the runtime for a program's probes.
func probeSource(stmts []Stmt) []byte {
	var where, funcs bytes.Buffer
	where.WriteString("var where = [...]string{\"\"")
	funcs.WriteString("var funcs = [...]string{\"\"")
	for _, s := range stmts {
		fmt.Fprintf(&where, ", %q", fmt.Sprintf("%s:%d", s.File, s.Line))
		fmt.Fprintf(&funcs, ", %q", s.Func)
	}
	where.WriteString("}")
	funcs.WriteString("}")
	src := bytes.Replace(probeTemplate, []byte(`var where = [...]string{""}`), where.Bytes(), 1)
	return bytes.Replace(src, []byte(`var funcs = [...]string{""}`), funcs.Bytes(), 1)
}

type prober struct {
	fset  *token.FileSet
	src   []byte
	file  *ast.File
	info  *types.Info
	pkg   *types.Package
	prog  *Program
	rel   string
	rt    string
	edits []edit
}

func (pr *prober) rewrite() []byte {
	rw := &rewriter{fset: pr.fset, src: pr.src, pkg: pr.pkg}
	for _, d := range pr.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fns := []string{rw.funcName(fd)}
		pr.frame(fd.Body, fns[0], fd.Recv, fd.Type)
		lits := map[string]int{}
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				if _, ok := stack[len(stack)-1].(*ast.FuncLit); ok {
					fns = fns[:len(fns)-1]
				}
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			var list []ast.Stmt
			guard := 0
			switch x := n.(type) {
			case *ast.FuncLit:
				outer := fns[len(fns)-1]
				lits[outer]++
				fns = append(fns, fmt.Sprintf("%s.func%d", outer, lits[outer]))
				pr.frame(x.Body, fns[len(fns)-1], nil, x.Type)
			case *ast.BlockStmt:
				list = x.List
				if len(stack) > 1 {
					guard = pr.guard(stack[len(stack)-2], x)
				}
			case *ast.CaseClause:
				list, guard = x.Body, rw.line(x.Pos())
			case *ast.CommClause:
				list, guard = x.Body, rw.line(x.Pos())
			}
			for _, s := range list {
				pr.probe(s, fns[len(fns)-1], guard)
			}
			return true
		})
	}
	if len(pr.edits) == 0 {
		return nil
	}
	pr.edits = append(pr.edits, edit{off: pr.fset.Position(pr.file.Name.End()).Offset, text: fmt.Sprintf("; import %s %q", pr.rt, pr.prog.Runtime)})
	return applyEdits(pr.src, pr.edits)
}

// frame makes a function's calls known to the runtime while a moment
// of the plan is still to come: at the start of its body,
//
//	if rt.Armed() { defer rt.Leave(rt.Enter("fn", func() []rt.Var { return []rt.Var{{N: "x", P: &x}, ...} })) }
//
// with its receiver, parameters and named results, so that a state
// captured in a function it calls has them too (a probe sees only its
// own function's variables). A function without any gets nothing.
func (pr *prober) frame(body *ast.BlockStmt, fn string, recv *ast.FieldList, typ *ast.FuncType) {
	if body == nil {
		return
	}
	var vars []string
	for _, fl := range []*ast.FieldList{recv, typ.Params, typ.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if n.Name != "_" && n.Name != "" {
					vars = append(vars, fmt.Sprintf("{N: %q, P: &%s}", n.Name, n.Name))
				}
			}
		}
	}
	if len(vars) == 0 {
		return
	}
	rw := &rewriter{fset: pr.fset, src: pr.src}
	pr.edits = append(pr.edits, edit{off: rw.off(body.Lbrace) + 1, order: -1,
		text: fmt.Sprintf(" if %[1]s.Armed() { defer %[1]s.Leave(%[1]s.Enter(%[2]q, func() []%[1]s.Var { return []%[1]s.Var{%[3]s} })) };",
			pr.rt, fn, strings.Join(vars, ", "))})
}

// guard is the line of the condition that decides whether block, a
// part of statement parent, runs: an if's or else if's condition (also
// for its else block), a loop's header; 0 for a block that no condition
// decides.
func (pr *prober) guard(parent ast.Node, block *ast.BlockStmt) int {
	rw := &rewriter{fset: pr.fset, src: pr.src}
	switch x := parent.(type) {
	case *ast.IfStmt:
		return rw.line(x.Cond.Pos())
	case *ast.ForStmt:
		if x.Cond != nil {
			return rw.line(x.Cond.Pos())
		}
		return rw.line(x.Pos())
	case *ast.RangeStmt:
		return rw.line(x.Pos())
	}
	return 0
}

// probe puts a probe before statement s of function fn; guard is the
// line of the condition that decides whether s runs (Stmt.Guard).
func (pr *prober) probe(s ast.Stmt, fn string, guard int) {
	switch s.(type) {
	case *ast.EmptyStmt, *ast.CaseClause, *ast.CommClause:
		return // a switch's or select's clauses are not statements of a list
	}
	rw := &rewriter{fset: pr.fset, src: pr.src}
	id := len(pr.prog.Stmts) + 1
	pr.prog.Stmts = append(pr.prog.Stmts, Stmt{ID: id, Kind: Statement, File: pr.rel, Line: rw.line(s.Pos()),
		EndLine: rw.line(s.End()), Text: rw.text(s.Pos(), s.End()), Func: fn, Guard: guard})
	var vars []string
	for _, v := range pr.inScope(s.Pos()) {
		vars = append(vars, fmt.Sprintf(", %s.Var{N: %q, P: &%s}", pr.rt, v.Name(), v.Name()))
	}
	pr.edits = append(pr.edits, edit{off: rw.off(s.Pos()),
		text: fmt.Sprintf("if %s.Hit(%d) { %s.State(%d%s) }; ", pr.rt, id, pr.rt, id, strings.Join(vars, ""))})
}

// inScope lists the local variables visible at pos, in the order they
// were declared.
func (pr *prober) inScope(pos token.Pos) []*types.Var {
	inner := pr.pkg.Scope().Innermost(pos)
	if inner == nil {
		return nil
	}
	var out []*types.Var
	seen := map[string]bool{}
	for sc := inner; sc != nil && sc != pr.pkg.Scope() && sc != types.Universe; sc = sc.Parent() {
		if sc.Parent() == pr.pkg.Scope() {
			break // a file scope
		}
		for _, name := range sc.Names() {
			if seen[name] || name == "_" {
				continue
			}
			seen[name] = true
			_, obj := inner.LookupParent(name, pos)
			v, ok := obj.(*types.Var)
			if !ok || v.Parent() == pr.pkg.Scope() || v.Pkg() != pr.pkg {
				continue
			}
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}

// StatePlan is what one run of a program instrumented by Probes does
// besides running.
type StatePlan struct {
	// Timeline, when set, is a file the run writes the probes it passes
	// to, in order (ReadTimeline), TimelineCap at most.
	Timeline    string `json:"timeline,omitempty"`
	TimelineCap int    `json:"timeline_cap,omitempty"`
	// MaxVertices bounds each memory graph.
	MaxVertices int `json:"max_vertices,omitempty"`
	// At are the moments (four at most) to capture or change the state
	// at.
	At []Moment `json:"at,omitempty"`
	// Args are the program's arguments, for the gdb backend (a Go
	// program gets them on its command line).
	Args []string `json:"args,omitempty"`
	// Env are NAME=VALUE settings the run makes in its environment
	// before any package of the program is initialized; the variables
	// EnvNames names are part of its state (a root env, by name), which a
	// transplant may change.
	Env      []string `json:"env,omitempty"`
	EnvNames []string `json:"env_names,omitempty"`
}

// Moment is a state of the run: where the probe Probe is passed at the
// run's step Step (the failing run: a step of its timeline), or else
// with the backtrace Stack for the Occurrence-th time (the passing run:
// the matching state, "Why Programs Fail" §A.3: the same backtrace).
type Moment struct {
	Probe      int    `json:"probe"`
	Step       uint64 `json:"step,omitempty"`
	Stack      string `json:"stack,omitempty"`
	Occurrence int    `json:"occurrence,omitempty"`
	// Ops are the changes to make there (memgraph.Encode), before the
	// state is written to Graph (when set).
	Ops   json.RawMessage `json:"ops,omitempty"`
	Graph string          `json:"graph,omitempty"`
	// Callers adds the receivers, parameters and named results of the
	// calls in progress to the state (FUNC::NAME): the run records its
	// calls while such a moment is to come.
	Callers bool `json:"callers,omitempty"`
	// Files adds to the state the regular files the run's arguments
	// name (up to MaxStateFile bytes each), by lines, as read when the run began:
	// files["i"] for os.Args[i]. A transplant that changes one writes
	// the new lines to a file beside the plan, which the argument then
	// names. For the run's first moments, before it reads them.
	Files bool `json:"files,omitempty"`
}

// MaxStateFile is the largest file that a run's arguments or variables
// name whose lines are state (Moment.Files): the runtime's maxNamed.
const MaxStateFile = 256 << 10

// Encode writes the plan as the runtime reads it.
func (p StatePlan) Encode() []byte {
	b, _ := json.Marshal(p)
	return b
}
