package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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
		for _, sp := range g.Specs {
			if vs := sp.(*ast.ValueSpec); len(vs.Values) > 0 {
				rw.unguarded(s, "a parenthesized var declaration")
				break
			}
		}
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
	for _, id := range ids {
		obj := rw.info.Defs[id]
		if obj == nil {
			return nil, false
		}
		t := obj.Type()
		rw.at = id.Pos()
		if !rw.nameable(t, map[types.Type]bool{}) {
			return nil, false
		}
		out = append(out, types.TypeString(t, rw.qualifier))
	}
	return out, true
}

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
