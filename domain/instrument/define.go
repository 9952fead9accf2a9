package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"regexp"
	"strings"
)

// define guards a short variable declaration. Where the new variables'
// types can be written here, it becomes a declaration and a guarded
// assignment, so that a skipped instance leaves them zero without
// evaluating the right side:
//
//	var x T; if rt.Do(s) { x, err = e }
//
// (through temporaries when e refers to an outer variable of a new
// variable's name). Otherwise the right side is evaluated and the new
// variables are zeroed when the instance is skipped.
func (rw *rewriter) define(s *ast.AssignStmt) {
	var news []*ast.Ident
	isNew := map[*ast.Ident]bool{}
	redeclared := false
	for _, l := range s.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if obj := rw.info.Defs[id]; obj != nil {
			news = append(news, id)
			isNew[id] = true
		} else {
			redeclared = true
		}
	}
	if len(news) == 0 {
		rw.guard(s)
		return
	}
	typs, ok := rw.typesOf(news)
	if !ok {
		if !rw.generics {
			rw.unguarded(s, "a short variable declaration of a type not nameable here, in a module older than Go 1.18")
			return
		}
		if redeclared {
			rw.unguarded(s, "a short variable declaration that also assigns declared variables, of a type not nameable here")
			return
		}
		id := rw.element(Statement, s, rw.text(s.Pos(), s.End()))
		var names, zeros []string
		for _, n := range news {
			names = append(names, n.Name)
			zeros = append(zeros, fmt.Sprintf("%s.Zero(%s)", rw.rt(), n.Name))
		}
		rw.insert(s.End(), -1, fmt.Sprintf("; if !%s.Do(%d) { %s = %s }", rw.rt(), id,
			strings.Join(names, ", "), strings.Join(zeros, ", ")))
		return
	}
	shadow := mentions(s.Rhs, news)
	id := rw.element(Statement, s, rw.text(s.Pos(), s.End()))
	var decls strings.Builder
	var lhs, finalNames, finalTemps []string
	i := 0
	for _, l := range s.Lhs {
		idt, _ := l.(*ast.Ident)
		if idt == nil || !isNew[idt] {
			lhs = append(lhs, rw.text(l.Pos(), l.End()))
			continue
		}
		name := idt.Name
		if shadow {
			rw.temps++
			name = fmt.Sprintf("%st%d", rw.prefix, rw.temps)
			finalNames = append(finalNames, idt.Name)
			finalTemps = append(finalTemps, name)
		}
		fmt.Fprintf(&decls, "var %s %s; ", name, typs[i])
		lhs = append(lhs, name)
		i++
	}
	rw.replace(s.Pos(), s.TokPos+2, fmt.Sprintf("%sif %s.Do(%d) { %s =", decls.String(), rw.rt(), id, strings.Join(lhs, ", ")))
	tail := " }"
	if shadow {
		tail += fmt.Sprintf("; %s := %s", strings.Join(finalNames, ", "), strings.Join(finalTemps, ", "))
	}
	rw.insert(s.End(), -1, tail)
}

// declare guards a var declaration with values (one spec, without
// parentheses): var x T; if rt.Do(s) { x = e }.
func (rw *rewriter) declare(s *ast.DeclStmt) {
	g, ok := s.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR {
		return
	}
	if g.Lparen.IsValid() || len(g.Specs) != 1 {
		rw.declareGroup(s, g)
		return
	}
	vs := g.Specs[0].(*ast.ValueSpec)
	if len(vs.Values) == 0 {
		return // a declaration only: nothing runs
	}
	if mentions(vs.Values, vs.Names) {
		rw.unguarded(s, "a var declaration whose value refers to a variable of the same name")
		return
	}
	var decls strings.Builder
	var names []string
	for _, n := range vs.Names {
		names = append(names, n.Name)
	}
	if vs.Type != nil {
		fmt.Fprintf(&decls, "var %s %s; ", strings.Join(names, ", "), rw.text(vs.Type.Pos(), vs.Type.End()))
	} else {
		var typed []*ast.Ident
		for _, n := range vs.Names {
			if n.Name != "_" {
				typed = append(typed, n)
			}
		}
		typs, ok := rw.typesOf(typed)
		if !ok {
			rw.unguarded(s, "a var declaration of a type not nameable here")
			return
		}
		for i, n := range typed {
			fmt.Fprintf(&decls, "var %s %s; ", n.Name, typs[i])
		}
	}
	id := rw.element(Statement, s, rw.text(s.Pos(), s.End()))
	rw.replace(s.Pos(), vs.Values[0].Pos(), fmt.Sprintf("%sif %s.Do(%d) { %s = ", decls.String(), rw.rt(), id, strings.Join(names, ", ")))
	rw.insert(s.End(), -1, " }")
}

// mentions reports whether an identifier named like one of names occurs
// in es.
// declareGroup guards a parenthesized var declaration whose values
// each fit on their line: the values leave the specs, which keep the
// names and their types, and are assigned in order, in one guarded
// statement on the line of the closing parenthesis:
//
//	var (            var (
//	    a = 1            a int
//	    b = f(a)   →     b T
//	)                ); if rt.Do(s) { a = 1; b = f(a) }
func (rw *rewriter) declareGroup(s *ast.DeclStmt, g *ast.GenDecl) {
	var specs []*ast.ValueSpec
	for _, sp := range g.Specs {
		if vs := sp.(*ast.ValueSpec); len(vs.Values) > 0 {
			specs = append(specs, vs)
		}
	}
	if len(specs) == 0 {
		return // declarations only: nothing runs
	}
	why := ""
	var later []*ast.Ident // names of this spec and the ones after it
	for i := len(g.Specs) - 1; i >= 0; i-- {
		vs := g.Specs[i].(*ast.ValueSpec)
		later = append(later, vs.Names...)
		if len(vs.Values) == 0 {
			continue
		}
		if rw.line(vs.Values[0].Pos()) != rw.line(vs.Values[len(vs.Values)-1].End()) {
			why = "a parenthesized var declaration with a value on several lines"
		}
		if mentions(vs.Values, later) {
			why = "a parenthesized var declaration whose value refers to a variable of the same name or a later one"
		}
	}
	if why != "" {
		rw.unguarded(s, why)
		return
	}
	type edit struct {
		from, to token.Pos
		text     string
	}
	var edits []edit
	var assigns []string
	saved := maps.Clone(rw.imports)
	for _, vs := range specs {
		var names []string
		for _, n := range vs.Names {
			names = append(names, n.Name)
		}
		typ := ""
		if vs.Type == nil {
			var typed []*ast.Ident
			for _, n := range vs.Names {
				if n.Name != "_" {
					typed = append(typed, n)
				}
			}
			typs, ok := rw.typesOf(typed)
			if !ok || len(typs) != len(vs.Names) {
				rw.imports = saved
				rw.unguarded(s, "a parenthesized var declaration of a type not nameable here")
				return
			}
			for _, t := range typs[1:] {
				if t != typs[0] {
					rw.imports = saved
					rw.unguarded(s, "a parenthesized var declaration of names of different types in one line")
					return
				}
			}
			typ = " " + typs[0]
		}
		end := vs.Names[len(vs.Names)-1].End()
		if vs.Type != nil {
			end = vs.Type.End()
		}
		edits = append(edits, edit{end, vs.Values[len(vs.Values)-1].End(), typ})
		assigns = append(assigns, fmt.Sprintf("%s = %s", strings.Join(names, ", "), rw.text(vs.Values[0].Pos(), vs.Values[len(vs.Values)-1].End())))
	}
	id := rw.element(Statement, s, rw.text(s.Pos(), g.Lparen+1)+" … )")
	for _, e := range edits {
		rw.replace(e.from, e.to, e.text)
	}
	rw.insert(g.Rparen+1, -1, fmt.Sprintf("; if %s.Do(%d) { %s }", rw.rt(), id, strings.Join(assigns, "; ")))
}

func mentions(es []ast.Expr, names []*ast.Ident) bool {
	want := map[string]bool{}
	for _, n := range names {
		want[n.Name] = true
	}
	found := false
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && want[id.Name] {
				found = true
			}
			return !found
		})
	}
	return found
}

// typesOf writes the types of declared identifiers as they can be
// spelled in this file, importing their packages under generated names.
func (rw *rewriter) typesOf(ids []*ast.Ident) ([]string, bool) {
	var out []string
	saved := maps.Clone(rw.imports)
	for _, id := range ids {
		obj := rw.info.Defs[id]
		t := types.Type(nil)
		if obj != nil {
			t = obj.Type()
		}
		rw.at = id.Pos()
		if t == nil || !rw.nameable(t, map[types.Type]bool{}) {
			rw.imports = saved // no import for a declaration not written
			return nil, false
		}
		ts := types.TypeString(t, rw.qualifier)
		if !rw.generics {
			// The standard library's types say any (reflect.Value's
			// Interface); a language before Go 1.18 has no such name.
			ts = anyWord.ReplaceAllString(ts, "${1}interface{}")
		}
		out = append(out, ts)
	}
	return out, true
}

// anyWord is the name any where a type string has it (not a field or
// package-qualified name): also a variadic parameter's, ...any.
var anyWord = regexp.MustCompile(`(^|[^.\w]|\.\.\.)any\b`)

func (rw *rewriter) qualifier(p *types.Package) string {
	if p == rw.pkg {
		return ""
	}
	alias, ok := rw.imports[p.Path()]
	if !ok {
		alias = fmt.Sprintf("%sp%d", rw.prefix, len(rw.imports)+1)
		rw.imports[p.Path()] = alias
	}
	return alias
}

// nameable reports whether t can be written in this file: every named
// type in it is predeclared, of this package, a type parameter, or
// exported by a package this one may import.
func (rw *rewriter) nameable(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() != types.Invalid && t.Info()&types.IsUntyped == 0
	case *types.TypeParam:
		return true
	case *types.Alias:
		return rw.objNameable(t.Obj()) && rw.argsNameable(t.TypeArgs(), seen)
	case *types.Named:
		return rw.objNameable(t.Obj()) && rw.argsNameable(t.TypeArgs(), seen)
	case *types.Pointer:
		return rw.nameable(t.Elem(), seen)
	case *types.Slice:
		return rw.nameable(t.Elem(), seen)
	case *types.Array:
		return rw.nameable(t.Elem(), seen)
	case *types.Map:
		return rw.nameable(t.Key(), seen) && rw.nameable(t.Elem(), seen)
	case *types.Chan:
		return rw.nameable(t.Elem(), seen)
	case *types.Signature:
		return rw.tupleNameable(t.Params(), seen) && rw.tupleNameable(t.Results(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			f := t.Field(i)
			if !f.Exported() && f.Pkg() != rw.pkg || !rw.nameable(f.Type(), seen) {
				return false
			}
			if t.Tag(i) != "" {
				return false // tags are part of the type; not worth spelling
			}
		}
		return true
	case *types.Interface:
		if t.NumEmbeddeds() > 0 {
			return false
		}
		for i := range t.NumExplicitMethods() {
			m := t.ExplicitMethod(i)
			if !m.Exported() && m.Pkg() != rw.pkg || !rw.nameable(m.Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}

func (rw *rewriter) tupleNameable(tu *types.Tuple, seen map[types.Type]bool) bool {
	for i := range tu.Len() {
		if !rw.nameable(tu.At(i).Type(), seen) {
			return false
		}
	}
	return true
}

func (rw *rewriter) argsNameable(l *types.TypeList, seen map[types.Type]bool) bool {
	for i := range l.Len() {
		if !rw.nameable(l.At(i), seen) {
			return false
		}
	}
	return true
}

func (rw *rewriter) objNameable(o *types.TypeName) bool {
	p := o.Pkg()
	if p == nil {
		return true // error, comparable, any
	}
	if p == rw.pkg {
		// The name must mean the type where the declaration goes: a
		// parameter or a local declaration may shadow it.
		scope := rw.pkg.Scope().Innermost(rw.at)
		if scope == nil {
			return false
		}
		_, found := scope.LookupParent(o.Name(), rw.at)
		return found == o
	}
	return o.Exported() && importable(rw.pkg.Path(), p.Path())
}

// importable applies Go's rules for internal and vendored packages.
func importable(from, path string) bool {
	if strings.HasPrefix(path, "vendor/") || strings.Contains(path, "/vendor/") {
		return false
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if p == "internal" {
			parent := strings.Join(parts[:i], "/")
			if parent == "" {
				return false
			}
			if from != parent && !strings.HasPrefix(from, parent+"/") {
				return false
			}
		}
	}
	return true
}
