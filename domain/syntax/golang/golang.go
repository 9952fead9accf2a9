// Package golang reduces Go source as a syntax tree. A pass parses the
// input once and proposes transformations of its nodes, each a change
// that delta debugging makes or not; a candidate is the immutable source
// with a set of them made, printed by go/format (Debugging Book,
// "Reducing Syntax Trees" and "Transforming Nodes", with several
// transformations per node as in its Exercise 1). Passes go level by
// level from the top, as hierarchical delta debugging does: declarations,
// then the statements of each block depth, then the expressions of each
// nesting depth, then identifiers.
package golang

import (
	"fmt"
	"github.com/wynot/wynot/internal/enum"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/wynot/wynot/domain/decomp"
)

// Transform is one kind of change a pass proposes for a node: the node
// goes, or is replaced by a part of itself or by something smaller.
type Transform int

// The transforms of Go syntax trees.
const (
	DeleteDecl     Transform = iota // a declaration, with its comment
	DeleteSpec                      // a spec of a grouped declaration (import, const, type, var)
	EmptyBody                       // a function body emptied (a return of zero values where one is needed)
	DeleteField                     // a struct field
	DeleteMethod                    // an interface method
	DeleteParam                     // a parameter, with the argument at every call
	DeleteComment                   // a comment group
	DeleteClause                    // a case clause
	DeleteStmt                      // a statement
	IfToThen                        // an if statement by its then-branch
	IfToElse                        // an if statement by its else-branch
	DeleteElse                      // an else-branch
	LoopToBody                      // a loop by its body
	BlockToStmts                    // a block by its statements
	LabelToStmt                     // a labeled statement by the statement
	GoToCall                        // a go statement by its call
	DeferToCall                     // a defer statement by its call
	SwitchToClause                  // a switch by one clause's body
	DeleteElement                   // an element of a composite literal
	ExprToFalse                     // a boolean expression by false
	ExprToTrue                      // a boolean expression by true
	ExprToZero                      // an expression by its type's zero value
	ExprToOperand                   // an expression by one of its operands
	ShortenName                     // an identifier shortened at every use
	DeleteWithUses                  // a declaration with every statement that uses it, in any file
)

var transformNames = []string{"declaration → nothing", "spec → nothing", "function → empty body", "field → nothing", "method → nothing", "parameter → nothing", "comment → nothing", "clause → nothing", "statement → nothing", "if → then", "if → else", "else → nothing", "loop → body", "block → statements", "label → statement", "go → call", "defer → call", "switch → clause", "element → nothing", "expression → false", "expression → true", "expression → zero", "expression → operand", "name → shorter", "declaration → nothing, with its uses"}

// String returns the transform as the log shows it, e.g. "if → then".
func (t Transform) String() string { return enum.Name(transformNames, t, "Transform") }

// Kind is what a pass transforms.
type Kind int

// The kinds of passes, in the order a round runs them.
const (
	Decls Kind = iota // declarations, specs, fields, parameters, function bodies, comments
	Stmts             // statements of one block depth
	Exprs             // expressions of one nesting depth
	Names             // identifiers, consistently shortened
)

// Pass is one level of the tree: a decomp.Pass.
type Pass struct {
	Kind      Kind
	Depth     int // block depth for Stmts (1 = function bodies), nesting depth for Exprs (1 = outermost)
	TypeCheck bool
	// Tree, for a file reduced among a directory's files, is the rest
	// of the tree: candidates are type-checked with it (Tree).
	Tree *Tree
}

// Name is the pass's name in logs: "go decls", "go stmts 2", ...
func (p Pass) Name() string {
	switch p.Kind {
	case Decls:
		return "go decls"
	case Stmts:
		return fmt.Sprintf("go stmts %d", p.Depth)
	case Exprs:
		return fmt.Sprintf("go exprs %d", p.Depth)
	}
	return "go names"
}

// Passes lists the passes of one round over data: declarations, the
// statement depths and expression depths data has, and names.
func Passes(data []byte, typeCheck bool) ([]decomp.Pass, error) {
	return PassesIn(data, typeCheck, nil)
}

// PassesIn lists the passes of one round over data, the file t.Path of
// the tree t (nil: a file on its own).
func PassesIn(data []byte, typeCheck bool, t *Tree) ([]decomp.Pass, error) {
	a, err := analyze(data, t)
	if err != nil {
		return nil, err
	}
	ps := []decomp.Pass{Pass{Kind: Decls, TypeCheck: typeCheck, Tree: t}}
	for d := 1; d <= a.maxStmt; d++ {
		ps = append(ps, Pass{Kind: Stmts, Depth: d, TypeCheck: typeCheck, Tree: t})
	}
	for d := 1; d <= a.maxExpr; d++ {
		ps = append(ps, Pass{Kind: Exprs, Depth: d, TypeCheck: typeCheck, Tree: t})
	}
	return append(ps, Pass{Kind: Names, TypeCheck: typeCheck, Tree: t}), nil
}

// Plan proposes the pass's transformations of data.
func (p Pass) Plan(data []byte) (decomp.Plan, error) {
	a, err := analyze(data, p.Tree)
	if err != nil {
		return nil, err
	}
	chk, err := NewCheckerIn(data, p.TypeCheck, p.Tree)
	if err != nil {
		return nil, err
	}
	var chs []decomp.Change
	switch p.Kind {
	case Decls:
		chs = a.decls()
	case Stmts:
		chs = a.stmts(p.Depth)
	case Exprs:
		chs = a.exprs(p.Depth)
	case Names:
		chs = a.names()
	}
	return &decomp.Rewrite{Src: data, Changes: chs, Finish: chk.Finish}, nil
}

// Changes lists every transformation of every level, for tests that check
// a result is 1-minimal with respect to all of them.
func Changes(data []byte, typeCheck bool) (*decomp.Rewrite, error) {
	return ChangesIn(data, typeCheck, nil)
}

// ChangesIn is Changes of data in the tree t (PassesIn): a file of it,
// or the bundle of a package's files.
func ChangesIn(data []byte, typeCheck bool, t *Tree) (*decomp.Rewrite, error) {
	ps, err := PassesIn(data, typeCheck, t)
	if err != nil {
		return nil, err
	}
	all := &decomp.Rewrite{Src: data}
	for _, p := range ps {
		pl, err := p.Plan(data)
		if err != nil {
			return nil, err
		}
		r := pl.(*decomp.Rewrite)
		all.Changes = append(all.Changes, r.Changes...)
		all.Finish = r.Finish
	}
	return all, nil
}

// analysis is the parsed, type-checked input of a pass: one file, or a
// bundle of a package's files (decomp.Bundle), whose changes may then
// span files.
type analysis struct {
	src   []byte
	fset  *token.FileSet
	files []*ast.File
	base  map[*token.File]int // where each file's text begins in src
	info  *types.Info
	pkg   *types.Package
	// shared says that other packages of the tree import this one: its
	// exported names are not the files' own to change.
	shared  bool
	parent  map[ast.Node]ast.Node
	uses    map[types.Object]int
	usesOf  map[types.Object][]*ast.Ident // by useIDs, when first needed
	maxStmt int
	maxExpr int
	depth   map[ast.Node]int // block depth of statement lists, nesting depth of expressions
}

// analyze parses and type-checks src: a file on its own (t nil), the
// file t.Path of a tree, or the bundle of the Go files of t.Dir.
func analyze(src []byte, t *Tree) (*analysis, error) {
	a := &analysis{src: src, base: map[*token.File]int{}, parent: map[ast.Node]ast.Node{}, depth: map[ast.Node]int{},
		uses: map[types.Object]int{}}
	a.info = &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	if t != nil && t.Dir != "" {
		files, err := decomp.Unbundle(src)
		if err != nil {
			return nil, err
		}
		u := newUniverse(t, nil, nil)
		a.fset = u.fset
		for i, span := range decomp.BundleSpans(files) {
			f, err := parser.ParseFile(a.fset, files[i].Name, files[i].Data, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("%s does not parse as Go: %w", files[i].Name, firstError(err))
			}
			a.files = append(a.files, f)
			a.base[a.fset.File(f.Pos())] = span[0]
		}
		u.setRdeps(a.fset, a.files)
		a.shared = len(u.rdeps) > 0
		u.errors(a.files, a.info, false)
	} else {
		a.fset = token.NewFileSet()
		f, err := parser.ParseFile(a.fset, "input.go", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("does not parse as Go: %w", firstError(err))
		}
		a.files = []*ast.File{f}
		a.base[a.fset.File(f.Pos())] = 0
		typeErrors(a.fset, f, a.info, t.importer())
	}
	for _, obj := range a.info.Uses {
		a.uses[obj]++
	}
	for id, obj := range a.info.Defs {
		if obj != nil && obj.Pkg() != nil && id.Name != "_" && (a.pkg == nil || strings.HasSuffix(a.pkg.Name(), "_test")) {
			a.pkg = obj.Pkg()
		}
	}
	for _, f := range a.files {
		var stack []ast.Node
		depths := []int{0} // statement depth around the node on top of stack
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack, depths = stack[:len(stack)-1], depths[:len(depths)-1]
				return true
			}
			var par ast.Node
			if len(stack) > 0 {
				par = stack[len(stack)-1]
				a.parent[n] = par
			}
			cur := depths[len(depths)-1]
			switch n.(type) {
			case *ast.BlockStmt:
				cur++ // a block's statements, or a switch's clauses
				a.depth[n] = cur
			case *ast.CaseClause, *ast.CommClause:
				a.depth[n] = cur // a clause's statements are as deep as the clauses
			}
			a.maxStmt = max(a.maxStmt, cur)
			if e, ok := n.(ast.Expr); ok {
				d := 1
				if pe, ok := par.(ast.Expr); ok {
					d = a.depth[pe] + 1
				}
				a.depth[e] = d
				a.maxExpr = max(a.maxExpr, d)
			}
			stack, depths = append(stack, n), append(depths, cur)
			return true
		})
	}
	return a, nil
}

// decls1 are the top-level declarations of every file.
func (a *analysis) decls1() []ast.Decl {
	var ds []ast.Decl
	for _, f := range a.files {
		ds = append(ds, f.Decls...)
	}
	return ds
}

// inspect walks every file of the input.
func (a *analysis) inspect(fn func(ast.Node) bool) {
	for _, f := range a.files {
		ast.Inspect(f, fn)
	}
}

// own says whether objects of package p are the input's to change.
func (a *analysis) own(p *types.Package) bool {
	return p != nil && a.pkg != nil && (p == a.pkg || p.Path() == a.pkg.Path()+"_test" || a.pkg.Path() == p.Path()+"_test")
}

func isClauseOwner(n ast.Node) bool {
	switch n.(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

// off is where position p is in the input.
func (a *analysis) off(p token.Pos) int {
	tf := a.fset.File(p)
	return a.base[tf] + tf.Offset(p)
}

func (a *analysis) text(n ast.Node) string { return string(a.src[a.off(n.Pos()):a.off(n.End())]) }

// ref keeps node n (with the transformations made inside it).
func (a *analysis) ref(n ast.Node) decomp.Part { return decomp.Ref(a.off(n.Pos()), a.off(n.End())) }

// replace is a change with one edit replacing node n.
func (a *analysis) replace(t Transform, n ast.Node, parts ...decomp.Part) decomp.Change {
	return decomp.Change{Kind: t.String(), Edits: []decomp.Splice{{From: a.off(n.Pos()), To: a.off(n.End()), Parts: parts}}}
}

// del deletes node n; in a list separated by commas, with its comma.
func (a *analysis) del(t Transform, n ast.Node, list bool) decomp.Change {
	from, to := a.off(n.Pos()), a.off(n.End())
	if list {
		rest := a.src[to:]
		i := 0
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
		if i < len(rest) && rest[i] == ',' {
			to += i + 1
		}
	}
	return decomp.Change{Kind: t.String(), Edits: []decomp.Splice{{From: from, To: to}}}
}

// inner keeps the statements of a block, without its braces.
func (a *analysis) inner(b *ast.BlockStmt) decomp.Part {
	return decomp.Ref(a.off(b.Lbrace)+1, a.off(b.Rbrace))
}

// withInit keeps an init statement before the parts.
func (a *analysis) withInit(init ast.Stmt, parts ...decomp.Part) []decomp.Part {
	if init == nil {
		return parts
	}
	return append([]decomp.Part{a.ref(init), decomp.Lit("\n")}, parts...)
}

// decls: comments, declarations, specs, struct fields and interface
// methods go; function bodies become empty; unused parameters go from
// a function and every call of it.
func (a *analysis) decls() []decomp.Change {
	var chs []decomp.Change
	for _, f := range a.files {
		for _, cg := range f.Comments {
			if directive(cg) {
				continue
			}
			chs = append(chs, a.replace(DeleteComment, cg))
		}
	}
	for _, d := range a.decls1() {
		var from ast.Node = d
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				from = d.Doc
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				from = d.Doc
			}
		}
		chs = append(chs, decomp.Change{Kind: DeleteDecl.String(), Edits: []decomp.Splice{{From: a.off(from.Pos()), To: a.off(d.End())}}})
		switch d := d.(type) {
		case *ast.GenDecl:
			grouped := d.Lparen.IsValid() && len(d.Specs) > 1
			for _, s := range d.Specs {
				if grouped {
					chs = append(chs, a.replace(DeleteSpec, s))
				}
				var del ast.Node = d
				if grouped {
					del = s
				}
				if obj := a.declared(s); obj != nil {
					if ch, ok := a.withUses(obj, del); ok {
						chs = append(chs, ch)
					}
				}
			}
		case *ast.FuncDecl:
			if d.Body != nil {
				body := "{\n" + a.zeroReturn(d.Type) + "}"
				if strings.Join(strings.Fields(a.text(d.Body)), " ") != strings.Join(strings.Fields(body), " ") {
					chs = append(chs, a.replace(EmptyBody, d.Body, decomp.Lit(body)))
				}
			}
			chs = append(chs, a.params(d)...)
			if obj := a.info.Defs[d.Name]; obj != nil && d.Recv == nil {
				if ch, ok := a.withUses(obj, d); ok {
					chs = append(chs, ch)
				}
			}
		}
	}
	a.inspect(func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StructType:
			for _, fl := range n.Fields.List {
				chs = append(chs, a.replace(DeleteField, fl))
			}
		case *ast.InterfaceType:
			for _, fl := range n.Methods.List {
				chs = append(chs, a.replace(DeleteMethod, fl))
			}
		}
		return true
	})
	return chs
}

// declared is the one object a top-level spec declares (nil for none
// or several).
func (a *analysis) declared(s ast.Spec) types.Object {
	var names []*ast.Ident
	switch s := s.(type) {
	case *ast.ValueSpec:
		names = s.Names
	case *ast.TypeSpec:
		names = []*ast.Ident{s.Name}
	}
	if len(names) != 1 || names[0].Name == "_" {
		return nil
	}
	return a.info.Defs[names[0]]
}

// local is the one local variable statement s declares (x := e, var x
// T), or nil.
func (a *analysis) local(s ast.Stmt) types.Object {
	var id *ast.Ident
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != 1 {
			return nil
		}
		id, _ = s.Lhs[0].(*ast.Ident)
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) == 1 {
			if vs := gd.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 {
				id = vs.Names[0]
			}
		}
	}
	if id == nil || id.Name == "_" {
		return nil
	}
	if v, ok := a.info.Defs[id].(*types.Var); ok {
		return v
	}
	return nil
}

// maxUses bounds the statements a DeleteWithUses change deletes.
const maxUses = 16

// withUses deletes decl, the declaration of obj (a top-level
// declaration or spec, or a statement), together with every statement,
// in whichever file of the input, that uses obj, and, for a type, its
// methods: the change that drops a declaration with its last uses,
// where deleting either alone is a type error (an unused variable; a
// call of a deleted function). It is offered only where obj is used,
// only in statements of function bodies or in other top-level
// variable declarations, and not from other packages.
func (a *analysis) withUses(obj types.Object, decl ast.Node) (decomp.Change, bool) {
	if obj.Exported() && a.shared && obj.Parent() == obj.Pkg().Scope() || len(a.useIDs(obj)) == 0 {
		return decomp.Change{}, false
	}
	var gone []ast.Node
	within := func(n ast.Node) bool {
		return slices.ContainsFunc(gone, func(g ast.Node) bool { return g.Pos() <= n.Pos() && n.End() <= g.End() })
	}
	from := decl
	if fd, ok := decl.(*ast.FuncDecl); ok && fd.Doc != nil {
		from = fd.Doc
	} else if gd, ok := decl.(*ast.GenDecl); ok && gd.Doc != nil {
		from = gd.Doc
	}
	ch := decomp.Change{Kind: DeleteWithUses.String(), Edits: []decomp.Splice{{From: a.off(from.Pos()), To: a.off(decl.End())}}}
	gone = append(gone, decl)
	if _, ok := obj.(*types.TypeName); ok {
		for _, d := range a.decls1() {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && a.receiverIs(fd.Recv.List[0].Type, obj) {
				ch.Edits = append(ch.Edits, decomp.Splice{From: a.off(fd.Pos()), To: a.off(fd.End())})
				gone = append(gone, fd)
			}
		}
	}
	for _, id := range a.useIDs(obj) {
		if within(id) {
			continue // a use inside what goes already
		}
		var unit ast.Node
		for n := ast.Node(id); unit == nil; {
			p := a.parent[n]
			switch p.(type) {
			case nil:
				return decomp.Change{}, false
			case *ast.File:
				gd, ok := n.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					return decomp.Change{}, false // in a signature, a type, a constant
				}
				unit = n
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				if _, ok := n.(ast.Stmt); ok {
					unit = n
				}
			}
			n = p
		}
		if within(unit) {
			continue
		}
		if len(ch.Edits) == maxUses+1 {
			return decomp.Change{}, false
		}
		ch.Edits = append(ch.Edits, decomp.Splice{From: a.off(unit.Pos()), To: a.off(unit.End())})
		gone = append(gone, unit)
	}
	return ch, true
}

// receiverIs says whether a method's receiver type expression names the
// type obj (T, *T, T[P]).
func (a *analysis) receiverIs(e ast.Expr, obj types.Object) bool {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return a.info.Uses[x] == obj
		default:
			return false
		}
	}
}

// useIDs are the identifiers that use obj, in the order of the input.
func (a *analysis) useIDs(obj types.Object) []*ast.Ident {
	if a.usesOf == nil {
		a.usesOf = map[types.Object][]*ast.Ident{}
		for id, o := range a.info.Uses {
			a.usesOf[o] = append(a.usesOf[o], id)
		}
		for _, ids := range a.usesOf {
			slices.SortFunc(ids, func(x, y *ast.Ident) int { return int(x.Pos() - y.Pos()) })
		}
	}
	return a.usesOf[obj]
}

// directive tells comments the build depends on: //go:..., // +build,
// //line, and cgo preambles.
func directive(cg *ast.CommentGroup) bool {
	for _, c := range cg.List {
		if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "// +build") ||
			strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") || strings.HasPrefix(c.Text, "//export ") {
			return true
		}
	}
	return false
}

// zeroReturn is the return statement of an empty body of a function of
// type ft ("" when it has no results).
func (a *analysis) zeroReturn(ft *ast.FuncType) string {
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return ""
	}
	if len(ft.Results.List[0].Names) > 0 {
		return "return\n"
	}
	var zs []string
	for _, r := range ft.Results.List {
		z := a.zeroOf(r.Type)
		if z == "" {
			z = "*new(" + a.text(r.Type) + ")"
		}
		zs = append(zs, z)
	}
	return "return " + strings.Join(zs, ", ") + "\n"
}

// zeroOf is the zero value of the type written as expression t.
func (a *analysis) zeroOf(t ast.Expr) string {
	if tv, ok := a.info.Types[t]; ok && tv.Type != nil {
		return a.zero(tv.Type)
	}
	return ""
}

// zero is the zero value of type t as Go text, or "" when unknown.
func (a *analysis) zero(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		case u.Kind() == types.UnsafePointer || u.Kind() == types.UntypedNil:
			return "nil"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	case *types.Struct, *types.Array:
		return types.TypeString(t, a.qualifier) + "{}"
	}
	return ""
}

func (a *analysis) qualifier(p *types.Package) string {
	if p == a.pkg {
		return ""
	}
	return p.Name()
}

// params removes an unused parameter of a function from its signature
// and the matching argument from every call (C-Reduce's "remove
// parameter" transformation). Only functions used solely in calls with
// one argument per parameter qualify.
func (a *analysis) params(fd *ast.FuncDecl) []decomp.Change {
	obj, ok := a.info.Defs[fd.Name].(*types.Func)
	if !ok || fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || a.shared && obj.Exported() {
		return nil
	}
	sig := obj.Type().(*types.Signature)
	if sig.Variadic() || sig.Params().Len() == 0 {
		return nil
	}
	var calls []*ast.CallExpr
	a.inspect(func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && a.info.Uses[id] == obj {
				calls = append(calls, c)
			}
		}
		return true
	})
	if len(calls) != a.uses[obj] {
		return nil // used as a value too
	}
	for _, c := range calls {
		if c.Ellipsis.IsValid() || len(c.Args) != sig.Params().Len() {
			return nil // f(g()) with g returning several values
		}
	}
	type param struct {
		name *ast.Ident
		typ  ast.Expr
	}
	var ps []param
	for _, fl := range fd.Type.Params.List {
		if len(fl.Names) == 0 {
			ps = append(ps, param{nil, fl.Type})
		}
		for _, n := range fl.Names {
			ps = append(ps, param{n, fl.Type})
		}
	}
	var chs []decomp.Change
	for k, p := range ps {
		if p.name != nil && p.name.Name != "_" && a.uses[a.info.Defs[p.name]] > 0 {
			continue
		}
		var rest []string
		for j, q := range ps {
			if j == k {
				continue
			}
			s := a.text(q.typ)
			if q.name != nil {
				s = q.name.Name + " " + s
			}
			rest = append(rest, s)
		}
		ch := decomp.Change{Kind: DeleteParam.String(), Edits: []decomp.Splice{{
			From: a.off(fd.Type.Params.Opening) + 1, To: a.off(fd.Type.Params.Closing),
			Parts: []decomp.Part{decomp.Lit(strings.Join(rest, ", "))},
		}}}
		for _, c := range calls {
			var parts []decomp.Part
			for j, arg := range c.Args {
				if j == k {
					continue
				}
				if len(parts) > 0 {
					parts = append(parts, decomp.Lit(", "))
				}
				parts = append(parts, a.ref(arg))
			}
			ch.Edits = append(ch.Edits, decomp.Splice{From: a.off(c.Lparen) + 1, To: a.off(c.Rparen), Parts: parts})
		}
		chs = append(chs, ch)
	}
	return chs
}

// stmts: the statements of the lists at block depth d go, or are replaced
// by a part of themselves: if → its then- or else-branch, a loop → its
// body, a switch → one clause's body, a block → its statements, go and
// defer → the call.
func (a *analysis) stmts(d int) []decomp.Change {
	var chs []decomp.Change
	a.inspect(func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			if isClauseOwner(a.parent[n]) {
				if a.depth[n] == d {
					for _, s := range n.List {
						chs = append(chs, a.replace(DeleteClause, s))
					}
				}
				return true
			}
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		default:
			return true
		}
		if a.depth[n] != d {
			return true
		}
		for _, s := range list {
			chs = append(chs, a.stmt(s)...)
			if obj := a.local(s); obj != nil {
				if ch, ok := a.withUses(obj, s); ok {
					chs = append(chs, ch)
				}
			}
		}
		return true
	})
	return chs
}

func (a *analysis) stmt(s ast.Stmt) []decomp.Change {
	if _, ok := s.(*ast.EmptyStmt); ok {
		return nil
	}
	chs := []decomp.Change{a.replace(DeleteStmt, s)}
	switch s := s.(type) {
	case *ast.IfStmt:
		chs = append(chs, a.replace(IfToThen, s, a.withInit(s.Init, a.inner(s.Body))...))
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			chs = append(chs, a.replace(IfToElse, s, a.withInit(s.Init, a.inner(e))...))
		case *ast.IfStmt:
			chs = append(chs, a.replace(IfToElse, s, a.withInit(s.Init, a.ref(e))...))
		}
		if s.Else != nil {
			chs = append(chs, decomp.Change{Kind: DeleteElse.String(), Edits: []decomp.Splice{{From: a.off(s.Body.End()), To: a.off(s.Else.End())}}})
		}
	case *ast.ForStmt:
		if !branches(s.Body) {
			chs = append(chs, a.replace(LoopToBody, s, a.withInit(s.Init, a.inner(s.Body))...))
		}
	case *ast.RangeStmt:
		// Without the loop, the variables it declares are undefined.
		if !branches(s.Body) && (s.Tok != token.DEFINE || (!a.usedIn(s.Key, s.Body) && !a.usedIn(s.Value, s.Body))) {
			chs = append(chs, a.replace(LoopToBody, s, a.inner(s.Body)))
		}
	case *ast.BlockStmt:
		chs = append(chs, a.replace(BlockToStmts, s, a.inner(s)))
	case *ast.LabeledStmt:
		if a.uses[a.info.Defs[s.Label]] == 0 {
			chs = append(chs, a.replace(LabelToStmt, s, a.ref(s.Stmt)))
		}
	case *ast.GoStmt:
		chs = append(chs, a.replace(GoToCall, s, a.ref(s.Call)))
	case *ast.DeferStmt:
		chs = append(chs, a.replace(DeferToCall, s, a.ref(s.Call)))
	case *ast.SwitchStmt:
		chs = append(chs, a.clauses(s, s.Init, s.Body)...)
	case *ast.TypeSwitchStmt:
		chs = append(chs, a.clauses(s, s.Init, s.Body)...)
	case *ast.SelectStmt:
		chs = append(chs, a.clauses(s, nil, s.Body)...)
	}
	return chs
}

// clauses replaces a switch or select by the statements of one clause.
// branches tells whether body breaks out of or continues the loop it is
// the body of, which it could no longer do without the loop.
func branches(body *ast.BlockStmt) bool {
	found := false
	var walk func(n ast.Node, inLoop, inSwitch bool)
	walk = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil || m == n {
				return !found
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				walk(m, true, inSwitch)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				walk(m, inLoop, true)
				return false
			case *ast.BranchStmt:
				switch {
				case m.Label != nil:
					found = m.Tok == token.BREAK || m.Tok == token.CONTINUE
				case m.Tok == token.BREAK:
					found = !inLoop && !inSwitch
				case m.Tok == token.CONTINUE:
					found = !inLoop
				}
			}
			return true
		})
	}
	walk(body, false, false)
	return found
}

// usedIn tells whether the variable id declares is used inside n.
func (a *analysis) usedIn(id ast.Expr, n ast.Node) bool {
	ident, ok := id.(*ast.Ident)
	if !ok || ident.Name == "_" {
		return false
	}
	obj := a.info.Defs[ident]
	used := false
	ast.Inspect(n, func(m ast.Node) bool {
		if x, ok := m.(*ast.Ident); ok && (a.info.Uses[x] == obj && obj != nil || obj == nil && x.Name == ident.Name) {
			used = true
		}
		return !used
	})
	return used
}

func (a *analysis) clauses(s ast.Stmt, init ast.Stmt, body *ast.BlockStmt) []decomp.Change {
	var chs []decomp.Change
	for _, c := range body.List {
		var list []ast.Stmt
		var colon token.Pos
		switch c := c.(type) {
		case *ast.CaseClause:
			list, colon = c.Body, c.Colon
		case *ast.CommClause:
			list, colon = c.Body, c.Colon
		}
		parts := []decomp.Part{}
		if len(list) > 0 {
			parts = append(parts, decomp.Ref(a.off(colon)+1, a.off(list[len(list)-1].End())))
		}
		chs = append(chs, a.replace(SwitchToClause, s, a.withInit(init, parts...)...))
	}
	return chs
}

// valueExpr tells expressions that stand for a value which another value
// of the same type could replace: not types, not the left side of an
// assignment, not a called function, a selected name, a struct literal's
// key or an operand of &.
func (a *analysis) valueExpr(e ast.Expr) bool {
	switch e.(type) {
	case *ast.KeyValueExpr, *ast.Ellipsis, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType,
		*ast.StructType, *ast.InterfaceType:
		return false
	}
	if tv, ok := a.info.Types[e]; ok && !tv.IsValue() {
		return false
	}
	if _, ok := a.info.Types[e]; !ok {
		// Untyped (type-checking failed here): only literals and
		// operators are known to be values.
		switch e.(type) {
		case *ast.BasicLit, *ast.BinaryExpr, *ast.UnaryExpr, *ast.ParenExpr, *ast.CompositeLit, *ast.FuncLit:
		default:
			return false
		}
	}
	switch p := a.parent[e].(type) {
	case *ast.AssignStmt:
		return !slices.Contains(p.Lhs, e)
	case *ast.IncDecStmt:
		return false
	case *ast.RangeStmt:
		return e == p.X
	case *ast.CallExpr:
		return e != p.Fun
	case *ast.SelectorExpr:
		return e == p.X
	case *ast.KeyValueExpr:
		if e == p.Key {
			if cl, ok := a.parent[p].(*ast.CompositeLit); ok {
				if tv, ok := a.info.Types[cl]; ok {
					if _, isMap := tv.Type.Underlying().(*types.Map); isMap {
						return true
					}
				}
			}
			return false
		}
	case *ast.UnaryExpr:
		return p.Op != token.AND
	case *ast.CompositeLit:
		return e != p.Type
	case *ast.Field, *ast.ValueSpec, *ast.TypeSpec, *ast.ImportSpec, *ast.FuncDecl, *ast.LabeledStmt, *ast.BranchStmt:
		if vs, ok := p.(*ast.ValueSpec); ok {
			return slices.Contains(vs.Values, e)
		}
		return false
	case *ast.IndexExpr:
		if tv, ok := a.info.Types[p.X]; ok && !tv.IsValue() {
			return false // a generic instantiation
		}
	}
	return true
}

// exprs: the expressions at nesting depth d become false or true (when
// boolean), the zero value of their type, or one of their operands of the
// same type; elements of composite literals go; function literals get an
// empty body.
func (a *analysis) exprs(d int) []decomp.Change {
	var chs []decomp.Change
	a.inspect(func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok || a.depth[e] != d {
			return true
		}
		if cl, ok := e.(*ast.CompositeLit); ok {
			for _, el := range cl.Elts {
				chs = append(chs, a.del(DeleteElement, el, true))
			}
		}
		if !a.valueExpr(e) {
			return true
		}
		chs = append(chs, a.expr(e)...)
		return true
	})
	return chs
}

func (a *analysis) expr(e ast.Expr) []decomp.Change {
	var chs []decomp.Change
	text := a.text(e)
	lit := func(t Transform, s string) {
		if s != "" && s != text && len(s) <= len(text) {
			chs = append(chs, a.replace(t, e, decomp.Lit(s)))
		}
	}
	tv, typed := a.info.Types[e]
	boolean := typed && tv.Type != nil && a.zero(tv.Type) == "false"
	if !typed {
		if b, ok := e.(*ast.BinaryExpr); ok {
			switch b.Op {
			case token.LAND, token.LOR, token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				boolean = true
			}
		}
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
			boolean = true
		}
	}
	// A constant is left alone: false → true would swap a behavior,
	// not simplify it.
	if id, ok := e.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") || typed && tv.Value != nil {
		boolean = false
	}
	if boolean {
		lit(ExprToFalse, "false")
		lit(ExprToTrue, "true")
	} else if typed && tv.Type != nil && tv.Value == nil || isLit(e) {
		z := ""
		if typed && tv.Type != nil {
			z = a.zero(tv.Type)
		}
		if bl, ok := e.(*ast.BasicLit); ok && z == "" {
			switch bl.Kind {
			case token.INT, token.FLOAT, token.IMAG, token.CHAR:
				z = "0"
			case token.STRING:
				z = `""`
			}
		}
		lit(ExprToZero, z)
	}
	operand := func(o ast.Expr) {
		if o == nil || !a.sameType(e, o) {
			return
		}
		chs = append(chs, a.replace(ExprToOperand, e, a.ref(o)))
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		operand(e.X)
		operand(e.Y)
	case *ast.UnaryExpr:
		if e.Op != token.AND && e.Op != token.ARROW {
			operand(e.X)
		}
	case *ast.ParenExpr:
		operand(e.X)
	case *ast.CallExpr:
		for _, arg := range e.Args {
			operand(arg)
		}
	case *ast.SliceExpr:
		operand(e.X)
	case *ast.FuncLit:
		body := "{\n" + a.zeroReturn(e.Type) + "}"
		if strings.Join(strings.Fields(a.text(e.Body)), " ") != strings.Join(strings.Fields(body), " ") {
			chs = append(chs, a.replace(EmptyBody, e.Body, decomp.Lit(body)))
		}
	}
	return chs
}

func isLit(e ast.Expr) bool {
	_, ok := e.(*ast.BasicLit)
	return ok
}

// sameType tells whether operand o may stand in for e: the same type, or
// an untyped constant; with no types known, any operand may.
func (a *analysis) sameType(e, o ast.Expr) bool {
	te, ok1 := a.info.Types[e]
	to, ok2 := a.info.Types[o]
	if !ok1 || !ok2 || te.Type == nil || to.Type == nil {
		return !ok1
	}
	if b, ok := to.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return types.AssignableTo(types.Default(to.Type), te.Type) || to.Value != nil
	}
	return types.Identical(te.Type, to.Type)
}

// names: each object declared in the file (not a method, an embedded
// field, a package or main/init) gets the shortest name the file does
// not use yet, at its declaration and every use.
func (a *analysis) names() []decomp.Change {
	used := map[string]bool{}
	a.inspect(func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	type object struct {
		obj types.Object
		ids []*ast.Ident
	}
	objs := map[types.Object]*object{}
	var order []*object
	add := func(id *ast.Ident, obj types.Object) {
		o := objs[obj]
		if o == nil {
			o = &object{obj: obj}
			objs[obj] = o
			order = append(order, o)
		}
		o.ids = append(o.ids, id)
	}
	for id, obj := range a.info.Defs {
		if obj == nil || id.Name == "_" || len(id.Name) <= 1 || !a.own(obj.Pkg()) ||
			a.shared && obj.Exported() && obj.Parent() == obj.Pkg().Scope() {
			continue
		}
		switch o := obj.(type) {
		case *types.PkgName, *types.Label:
			continue
		case *types.Func:
			if o.Type().(*types.Signature).Recv() != nil || (obj.Parent() == obj.Pkg().Scope() && (id.Name == "main" || id.Name == "init")) {
				continue
			}
		case *types.Var:
			if o.Embedded() || (o.IsField() && a.embedsAnywhere()) {
				continue
			}
		}
		add(id, obj)
	}
	for id, obj := range a.info.Uses {
		if o := objs[obj]; o != nil {
			o.ids = append(o.ids, id)
		}
	}
	slices.SortFunc(order, func(x, y *object) int { return int(x.obj.Pos() - y.obj.Pos()) })
	var chs []decomp.Change
	next := 0
	for _, o := range order {
		name := ""
		for name == "" || used[name] || token.IsKeyword(name) || types.Universe.Lookup(name) != nil {
			name = shortName(next)
			next++
		}
		if len(name) >= len(o.obj.Name()) {
			continue
		}
		used[name] = true
		ch := decomp.Change{Kind: ShortenName.String()}
		for _, id := range o.ids {
			ch.Edits = append(ch.Edits, decomp.Splice{From: a.off(id.Pos()), To: a.off(id.End()), Parts: []decomp.Part{decomp.Lit(name)}})
		}
		chs = append(chs, ch)
	}
	return chs
}

// embedsAnywhere tells whether the file embeds a struct in another, where
// renaming a field can change which field a selector finds.
func (a *analysis) embedsAnywhere() bool {
	for _, obj := range a.info.Defs {
		if v, ok := obj.(*types.Var); ok && v.Embedded() {
			return true
		}
	}
	return false
}

// shortName is the i-th name of a, b, ..., z, aa, ab, ...
func shortName(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}
