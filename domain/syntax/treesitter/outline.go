//go:build cgo

package treesitter

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/wynot/wynot/domain/syntax"
)

// Outline lists the top-level declarations of a file of the language:
// the named nodes under its tree's root, each with the comments (and
// Rust attributes) just before it, named by kind and name ("function_definition parse"). It
// returns nil when the file does not parse, and for a grammar whose
// text is a document or a value rather than declarations (HTML, JSON).
func (l Language) Outline(_ string, data []byte) []syntax.Decl {
	return l.G.Outline(data)
}

// Outline is Language.Outline for the grammar.
func (g *Grammar) Outline(data []byte) []syntax.Decl {
	if g.Lenient || g.prefix != "" || g.Check(data) != nil {
		return nil
	}
	tr, err := g.parse(data)
	if err != nil {
		return nil
	}
	defer tr.t.Close()
	text := func(n *sitter.Node) string { return n.Content(data) }
	var out []syntax.Decl
	comment := -1 // the first line of the comments before the next declaration, or -1
	for i := 0; i < int(tr.root.NamedChildCount()); i++ {
		n := tr.root.NamedChild(i)
		start, end := int(n.StartPoint().Row), int(n.EndPoint().Row)
		if end > start && n.EndPoint().Column == 0 {
			end--
		}
		if strings.Contains(n.Type(), "comment") || n.Type() == "attribute_item" {
			// A comment, or a Rust attribute (#[derive(...)]), goes
			// with the declaration after it.
			if comment < 0 {
				comment = start
			}
			continue
		}
		if comment >= 0 {
			start, comment = comment, -1
		}
		name := n.Type()
		if id := declName(n, text); id != "" {
			name += " " + id
		}
		out = append(out, syntax.Decl{Name: name, Start: start, End: end})
	}
	if comment >= 0 {
		last := int(tr.root.EndPoint().Row)
		out = append(out, syntax.Decl{Name: "comment", Start: comment, End: last})
	}
	return out
}

// declName finds the name a top-level node declares: a function's (by
// the grammars' fields, as signature does), its "name" field, or the
// identifier its declarators lead to (C's int x = 1;); "" when it has
// none.
func declName(n *sitter.Node, text func(*sitter.Node) string) string {
	if name, _ := signature(n, text); name != "" {
		return name
	}
	if id := n.ChildByFieldName("name"); id != nil {
		return text(id)
	}
	for d := n.ChildByFieldName("declarator"); d != nil; d = d.ChildByFieldName("declarator") {
		if strings.HasSuffix(d.Type(), "identifier") {
			return text(d)
		}
	}
	if ty := n.ChildByFieldName("type"); ty != nil {
		if id := ty.ChildByFieldName("name"); id != nil {
			return text(id)
		}
	}
	return ""
}
