package golang

import (
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/wynot/wynot/domain/syntax"
)

// Outline lists the top-level declarations of a Go file: a header (the
// package clause and what comes before the first declaration), each
// import spec (named "import", with the lines of an import block's
// parentheses as header), and each declaration with its doc comment,
// named by its name ("T.M" for a method). It returns nil when the file
// does not parse.
func (Language) Outline(name string, data []byte) []syntax.Decl {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, data, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	line := func(pos token.Pos) int { return fset.Position(pos).Line - 1 }
	from := func(pos token.Pos, doc *ast.CommentGroup) int {
		if doc != nil {
			return line(doc.Pos())
		}
		return line(pos)
	}
	out := []syntax.Decl{{Name: "header", Start: 0, End: line(f.Name.End()), Header: true}}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				out = append(out, syntax.Decl{Name: genName(d), Start: from(d.Pos(), d.Doc), End: line(d.End())})
				continue
			}
			if !d.Lparen.IsValid() {
				// import "x": the declaration is the spec.
				end := line(d.End())
				out = append(out, syntax.Decl{Name: "import", Start: from(d.Pos(), d.Doc), End: end},
					syntax.Decl{Name: "import", Start: end + 1, End: end + 1, Header: true})
				continue
			}
			for _, sp := range d.Specs {
				is := sp.(*ast.ImportSpec)
				out = append(out, syntax.Decl{Name: "import", Start: from(is.Pos(), is.Doc), End: line(is.End())})
			}
			out = append(out, syntax.Decl{Name: "import", Start: line(d.Rparen), End: line(d.Rparen), Header: true})
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = recvName(d.Recv.List[0].Type) + "." + name
			}
			out = append(out, syntax.Decl{Name: name, Start: from(d.Pos(), d.Doc), End: line(d.End())})
		}
	}
	if len(out) > 1 {
		// The header is what comes before the first declaration.
		out[0].End = max(out[0].End, out[1].Start-1)
	}
	return out
}

// genName names a declaration of types, constants or variables by its
// first name.
func genName(d *ast.GenDecl) string {
	if len(d.Specs) > 0 {
		switch sp := d.Specs[0].(type) {
		case *ast.TypeSpec:
			return sp.Name.Name
		case *ast.ValueSpec:
			return sp.Names[0].Name
		}
	}
	return d.Tok.String()
}

// recvName is a method's receiver type as the method's name writes it:
// "*T", "T".
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + recvName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	}
	return "?"
}
