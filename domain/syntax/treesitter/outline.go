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
	return outline(tr.root, text, "", "", int(tr.root.EndPoint().Row))
}

// containers are the kinds of top-level nodes whose members are
// declarations of their own: a C++ namespace or extern "C" block, a
// class or interface (Java, JavaScript, TypeScript), a Rust impl,
// module or trait. Their header and closing lines are header parts every
// member needs; with none of its members such a container is still
// valid. (Not a Python class: without a member its body is empty, which
// does not parse.)
var containers = map[string]bool{
	"namespace_definition": true, "linkage_specification": true,
	"class_declaration": true, "interface_declaration": true,
	"impl_item": true, "mod_item": true, "trait_item": true,
}

// outline lists the declarations among the named children of parent
// (members of the container in, "" at the top level), each with the
// comments (and Rust attributes) just before it, named after prefix;
// comments after the last run to last. A container's members are
// declarations of their own, between its header and its closing lines,
// when each starts on a line of its own.
func outline(parent *sitter.Node, text func(*sitter.Node) string, prefix, in string, last int) []syntax.Decl {
	var out []syntax.Decl
	comment, commentEnd := -1, -1 // the lines of the comments before the next declaration
	for i := 0; i < int(parent.NamedChildCount()); i++ {
		n := parent.NamedChild(i)
		start, end := int(n.StartPoint().Row), int(n.EndPoint().Row)
		if end > start && n.EndPoint().Column == 0 {
			end--
		}
		if strings.Contains(n.Type(), "comment") || n.Type() == "attribute_item" {
			// A comment, or a Rust attribute (#[derive(...)]), goes
			// with the declaration after it; one that begins on the
			// line where the one before ends (} // namespace x) is that
			// one's.
			if len(out) > 0 && start <= out[len(out)-1].End {
				continue
			}
			if comment < 0 {
				comment = start
			}
			commentEnd = end
			continue
		}
		if comment >= 0 {
			start, comment = comment, -1
		}
		name := n.Type()
		if id := declName(n, text); id != "" {
			name += " " + id
		}
		name = prefix + name
		if members := containerMembers(n, text, name, in, start, end); members != nil {
			out = append(out, members...)
			continue
		}
		out = append(out, syntax.Decl{Name: name, Start: start, End: end, In: in})
	}
	if comment >= 0 {
		if last < 0 {
			last = commentEnd
		}
		out = append(out, syntax.Decl{Name: prefix + "comment", Start: comment, End: last, In: in})
	}
	return out
}

// containerMembers outlines a container n named name (its lines start
// to end, a member of in) as its header, its members and its closing
// lines; nil when n is no container, has no members, or a member shares
// a line with the header or the closing lines.
func containerMembers(n *sitter.Node, text func(*sitter.Node) string, name, in string, start, end int) []syntax.Decl {
	body := n.ChildByFieldName("body")
	if !containers[n.Type()] || body == nil || body.NamedChildCount() == 0 {
		return nil
	}
	members := outline(body, text, name+" > ", name, -1)
	if len(members) == 0 || members[0].Start <= start {
		return nil
	}
	out := append([]syntax.Decl{{Name: name, Start: start, End: members[0].Start - 1, Header: true, Of: name, In: in}}, members...)
	if tail := members[len(members)-1].End + 1; tail <= end {
		out = append(out, syntax.Decl{Name: name, Start: tail, End: end, Header: true, Of: name, In: in})
	} else if members[len(members)-1].End > end {
		return nil
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
