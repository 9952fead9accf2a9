package codediff

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Refine is Compare with every added Go file cut into the parts its
// declarations make (declParts), each a change: refinement then keeps of
// a new file only the declarations the failure needs, with what they
// need to compile (Set.Needs), instead of the whole file. A file that
// does not parse, or makes one part, stays one change.
func Refine(old, new *Tree, context int) *Set {
	s := Compare(old, new, context)
	var out []Change
	for _, c := range s.Changes {
		if f := new.Files[c.Path]; c.Kind == Add && strings.HasSuffix(c.Path, ".go") && f.Link == "" && f.Mode.IsRegular() {
			if parts := declParts(c.Path, f.Data); len(parts) > 1 {
				out = append(out, parts...)
				continue
			}
		}
		out = append(out, c)
	}
	s.Changes = out
	s.index()
	return s
}

// declParts cuts an added Go file into parts, each a hunk of a file the
// old tree does not have (NewFile): the header (the package clause, the
// comments before it, and the lines of the import declarations around
// their specs: "import (" and ")"), which every other part needs
// (Header); each import spec; and each top-level declaration with its
// doc comment and the lines after it up to the next part. An empty
// import block is still Go, so any subset of the specs compiles as far
// as the header goes. It returns nil when the file does not parse or a
// part would share a line with another.
func declParts(p string, data []byte) []Change {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, data, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	line := func(pos token.Pos) int { return fset.Position(pos).Line - 1 }
	type cut struct {
		start  int
		header bool
	}
	cuts := []cut{{0, true}}
	at := func(start int, header bool) bool {
		switch last := cuts[len(cuts)-1]; {
		case start == last.start && last.header && !header && len(cuts) > 1:
			cuts[len(cuts)-1] = cut{start, header} // the header part between two imports is empty
		case start <= last.start:
			return false
		default:
			cuts = append(cuts, cut{start, header})
		}
		return true
	}
	from := func(pos token.Pos, doc *ast.CommentGroup) int {
		if doc != nil {
			return line(doc.Pos())
		}
		return line(pos)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				if !at(from(d.Pos(), d.Doc), false) {
					return nil
				}
				continue
			}
			if !d.Lparen.IsValid() {
				// import "x": the declaration is the spec.
				if !at(from(d.Pos(), d.Doc), false) || !at(line(d.End())+1, true) {
					return nil
				}
				continue
			}
			for _, sp := range d.Specs {
				is := sp.(*ast.ImportSpec)
				if !at(from(is.Pos(), is.Doc), false) {
					return nil
				}
			}
			if !at(line(d.Rparen), true) {
				return nil
			}
		case *ast.FuncDecl:
			if !at(from(d.Pos(), d.Doc), false) {
				return nil
			}
		}
	}
	lines := splitLines(data)
	var parts []Change
	for i, c := range cuts {
		end := len(lines)
		if i+1 < len(cuts) {
			end = cuts[i+1].start
		}
		if end <= c.start || c.start >= len(lines) {
			continue
		}
		parts = append(parts, Change{Kind: Hunk, Path: p, NewFile: true, Header: c.header, NewStart: c.start, New: lines[c.start:end]})
	}
	return parts
}

// fileNeeds adds, for each added file cut into parts, that every part
// needs the file's header parts (the package clause and the import
// lines around the specs).
func (s *Set) fileNeeds(add func(i, j int)) {
	for _, idx := range s.byPath {
		for _, h := range idx {
			if c := &s.Changes[h]; c.NewFile && c.Header {
				for _, i := range idx {
					add(i, h)
				}
			}
		}
	}
}
