// Package treesitter reduces inputs as the syntax trees of their language's
// tree-sitter grammar (hierarchical delta debugging, Misherghi and Su
// 2006, as the Debugging Book's "Reducing Syntax Trees" background
// describes; TSE 2002 §8: replacing input by smaller alternatives). A pass
// takes the named nodes of one tree depth; each may go (with a comma that
// separates it from a sibling) or be replaced by a descendant of the same
// kind. Candidates that no longer parse are rejected before any test.
package treesitter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/html"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/wynot/wynot/domain/decomp"
)

// Grammar is one language.
type Grammar struct {
	Name string
	Exts []string // file name extensions, with the dot
	lang func() *sitter.Language
	// The text is parsed as prefix+text+suffix (JSON parses as a
	// JavaScript expression in parentheses).
	prefix, suffix string
	valid          func([]byte) error // a check beyond the grammar's
	// blank is what a statement becomes instead of nothing where a
	// block must not be empty (Python's pass), by the block's kind.
	blank map[string]string
	// Lenient is set for languages in which every text is a document
	// (HTML: browsers read anything): their trees are for those who ask.
	Lenient bool
}

// grammars are the languages known, by name.
var grammars = []*Grammar{
	{Name: "c", Exts: []string{".c", ".h"}, lang: c.GetLanguage},
	{Name: "javascript", Exts: []string{".js", ".mjs", ".cjs"}, lang: javascript.GetLanguage},
	{Name: "python", Exts: []string{".py"}, lang: python.GetLanguage, blank: map[string]string{"block": "pass"}},
	{Name: "html", Exts: []string{".html", ".htm"}, lang: html.GetLanguage, Lenient: true},
	{Name: "json", Exts: []string{".json"}, lang: javascript.GetLanguage, prefix: "(", suffix: "\n)", valid: validJSON},
	{Name: "cpp", Exts: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++"}, lang: cpp.GetLanguage},
	{Name: "rust", Exts: []string{".rs"}, lang: rust.GetLanguage},
	{Name: "java", Exts: []string{".java"}, lang: java.GetLanguage},
	{Name: "typescript", Exts: []string{".ts", ".mts", ".cts"}, lang: typescript.GetLanguage},
	{Name: "tsx", Exts: []string{".tsx"}, lang: tsx.GetLanguage},
	// Go files are reduced through go/ast and go/types (package golang);
	// the grammar is the fallback for Go that does not parse there
	// (--split tree:go).
	{Name: "go", lang: golang.GetLanguage},
}

// Names lists the languages, for --split tree:LANG.
func Names() []string {
	var ns []string
	for _, g := range grammars {
		ns = append(ns, g.Name)
	}
	return ns
}

// Lookup finds a language by name.
func Lookup(name string) (*Grammar, error) {
	for _, g := range grammars {
		if g.Name == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no grammar for %q (known: %s)", name, strings.Join(Names(), ", "))
}

// ByExtension names the language of a file name extension (".c"), or "".
func ByExtension(ext string) string {
	for _, g := range grammars {
		if slices.Contains(g.Exts, ext) {
			return g.Name
		}
	}
	return ""
}

func validJSON(data []byte) error {
	if !json.Valid(data) {
		return errors.New("is not valid JSON")
	}
	return nil
}

// tree is a parsed text.
type tree struct {
	t    *sitter.Tree
	root *sitter.Node // the node the text proper starts at
	off  int          // len(prefix)
	n    int          // len(text)
}

func (g *Grammar) parse(data []byte) (*tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(g.lang())
	src := make([]byte, 0, len(g.prefix)+len(data)+len(g.suffix))
	src = append(append(append(src, g.prefix...), data...), g.suffix...)
	t, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		return nil, err
	}
	tr := &tree{t: t, root: t.RootNode(), off: len(g.prefix), n: len(data)}
	if g.prefix != "" {
		// Descend to the outermost node within the text.
		for tr.root != nil && (int(tr.root.StartByte()) < tr.off || int(tr.root.EndByte()) > tr.off+tr.n) {
			var next *sitter.Node
			for i := 0; i < int(tr.root.NamedChildCount()); i++ {
				ch := tr.root.NamedChild(i)
				if int(ch.EndByte()) > tr.off {
					next = ch
					break
				}
			}
			tr.root = next
		}
		if tr.root == nil {
			t.Close()
			return nil, errors.New("is empty")
		}
	}
	return tr, nil
}

// Check tells why data does not parse (a syntax error, a missing token),
// or nil.
func (g *Grammar) Check(data []byte) error {
	tr, err := g.parse(data)
	if err != nil {
		return fmt.Errorf("does not parse as %s: %w", g.Name, err)
	}
	defer tr.t.Close()
	if bad := firstError(tr.t.RootNode()); bad != nil {
		what := "syntax error"
		if bad.IsMissing() {
			what = "missing " + bad.Type()
		}
		return fmt.Errorf("does not parse as %s: %s at line %d", g.Name, what, int(bad.StartPoint().Row)+1)
	}
	if g.valid != nil {
		return g.valid(data)
	}
	return nil
}

// firstError finds the first ERROR or MISSING node under n, or nil.
func firstError(n *sitter.Node) *sitter.Node {
	if !n.HasError() && !n.IsMissing() {
		return nil
	}
	if n.IsError() || n.IsMissing() {
		return n
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if bad := firstError(n.Child(i)); bad != nil {
			return bad
		}
	}
	return n
}

// Pass takes the named nodes at one depth of the tree (1: the root's
// children).
type Pass struct {
	G     *Grammar
	Depth int
}

// Name is the pass's name in logs: "c tree 2".
func (p Pass) Name() string { return fmt.Sprintf("%s tree %d", p.G.Name, p.Depth) }

// Passes lists the passes of one round over data, one per tree depth.
func (g *Grammar) Passes(data []byte) ([]decomp.Pass, error) {
	tr, err := g.parse(data)
	if err != nil {
		return nil, err
	}
	defer tr.t.Close()
	depth := 0
	var walk func(n *sitter.Node, d int)
	walk = func(n *sitter.Node, d int) {
		depth = max(depth, d)
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i), d+1)
		}
	}
	walk(tr.root, 0)
	first := 1
	if g.prefix != "" {
		first = 0 // the root is the JSON value itself
	}
	var ps []decomp.Pass
	for d := first; d <= depth; d++ {
		ps = append(ps, Pass{G: g, Depth: d})
	}
	return ps, nil
}

// maxAlternatives bounds the descendants a node may be replaced by.
const maxAlternatives = 3

// Plan proposes, for each named node at the pass's depth, its deletion
// and its replacement by its nearest descendants of the same kind.
func (p Pass) Plan(data []byte) (decomp.Plan, error) {
	g := p.G
	tr, err := g.parse(data)
	if err != nil {
		return nil, err
	}
	defer tr.t.Close()
	span := func(n *sitter.Node) (int, int) { return int(n.StartByte()) - tr.off, int(n.EndByte()) - tr.off }
	inText := func(n *sitter.Node) bool {
		from, to := span(n)
		return from >= 0 && to <= tr.n && to > from
	}
	var chs []decomp.Change
	var walk func(n *sitter.Node, d int)
	walk = func(n *sitter.Node, d int) {
		if d == p.Depth {
			if inText(n) {
				chs = append(chs, p.changes(data, n, span, inText)...)
			}
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i), d+1)
		}
	}
	walk(tr.root, 0)
	return &decomp.Rewrite{Src: data, Changes: chs, Finish: func(b []byte) ([]byte, error) {
		if err := g.Check(b); err != nil {
			return nil, err
		}
		return b, nil
	}}, nil
}

// wholeLines widens from..to to whole lines, with their indentation and
// line end, when nothing else is on them: a deleted statement or element
// leaves no blank line behind, and the next line keeps its indentation.
func wholeLines(src []byte, from, to int) (int, int) {
	start := from
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] != '\n' {
		return from, to
	}
	end := to
	for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\r') {
		end++
	}
	switch {
	case end == len(src):
		return start, end
	case src[end] == '\n':
		return start, end + 1
	}
	return from, to
}

func (p Pass) changes(src []byte, n *sitter.Node, span func(*sitter.Node) (int, int), inText func(*sitter.Node) bool) []decomp.Change {
	from, to := span(n)
	// A comma separating n from a sibling goes with it.
	if next := n.NextSibling(); next != nil && !next.IsNamed() && next.Type() == "," {
		_, to = span(next)
	} else if prev := n.PrevSibling(); prev != nil && !prev.IsNamed() && prev.Type() == "," {
		from, _ = span(prev)
	}
	from, to = wholeLines(src, from, to)
	var chs []decomp.Change
	del := decomp.Change{Kind: n.Type() + " → nothing", Edits: []decomp.Splice{{From: from, To: to}}}
	chs = append(chs, del)
	if par := n.Parent(); par != nil {
		if b, ok := p.G.blank[par.Type()]; ok && n.Type() != "comment" {
			f, t := span(n)
			chs = append(chs, decomp.Change{Kind: n.Type() + " → " + b, Edits: []decomp.Splice{{From: f, To: t, Parts: []decomp.Part{decomp.Lit(b)}}}})
		}
	}
	// The nearest descendants of the same kind, largest first.
	var alts []*sitter.Node
	var find func(m *sitter.Node)
	find = func(m *sitter.Node) {
		for i := 0; i < int(m.NamedChildCount()); i++ {
			ch := m.NamedChild(i)
			if ch.Type() == n.Type() && inText(ch) {
				alts = append(alts, ch)
				continue
			}
			find(ch)
		}
	}
	find(n)
	sort.SliceStable(alts, func(i, j int) bool {
		return alts[i].EndByte()-alts[i].StartByte() > alts[j].EndByte()-alts[j].StartByte()
	})
	f, t := span(n)
	for _, alt := range alts[:min(len(alts), maxAlternatives)] {
		af, at := span(alt)
		chs = append(chs, decomp.Change{Kind: n.Type() + " → descendant", Edits: []decomp.Splice{{From: f, To: t, Parts: []decomp.Part{decomp.Ref(af, at)}}}})
	}
	return chs
}
