//go:build cgo

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
	"sync"

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

// Grammar is one language: a package of its own may define one with
// Name, Exts and Lang (as domain/syntax/sql does) and put it in the
// table of grammars (Add); the other fields are the built-in grammars'.
type Grammar struct {
	Name string
	Exts []string // file name extensions, with the dot
	// Lang is the tree-sitter language (a grammar package's
	// GetLanguage).
	Lang func() *sitter.Language
	// Separators are tokens besides the comma that separate a node from
	// its next sibling, and go with the node when it is deleted (SQL's
	// semicolon after a statement).
	Separators []string
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
	// cFamily marks languages of statements, blocks and expressions in
	// C's manner, which get C-Reduce's and Perses' transformations
	// besides deletion (cFamilyChanges).
	cFamily bool
}

// grammars are the languages known, by name.
var grammars = []*Grammar{
	{Name: "c", Exts: []string{".c", ".h"}, Lang: c.GetLanguage, cFamily: true},
	{Name: "javascript", Exts: []string{".js", ".mjs", ".cjs"}, Lang: javascript.GetLanguage, cFamily: true},
	{Name: "python", Exts: []string{".py"}, Lang: python.GetLanguage, blank: map[string]string{"block": "pass"}},
	{Name: "html", Exts: []string{".html", ".htm"}, Lang: html.GetLanguage, Lenient: true},
	{Name: "json", Exts: []string{".json"}, Lang: javascript.GetLanguage, prefix: "(", suffix: "\n)", valid: validJSON},
	{Name: "cpp", Exts: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++"}, Lang: cpp.GetLanguage, cFamily: true},
	{Name: "rust", Exts: []string{".rs"}, Lang: rust.GetLanguage, cFamily: true},
	{Name: "java", Exts: []string{".java"}, Lang: java.GetLanguage, cFamily: true},
	{Name: "typescript", Exts: []string{".ts", ".mts", ".cts"}, Lang: typescript.GetLanguage, cFamily: true},
	{Name: "tsx", Exts: []string{".tsx"}, Lang: tsx.GetLanguage, cFamily: true},
	// Go files are reduced through go/ast and go/types (package golang);
	// the grammar is the fallback for Go that does not parse there
	// (--split tree:go).
	{Name: "go", Lang: golang.GetLanguage, cFamily: true},
}

// mu guards grammars, which Add extends.
var mu sync.Mutex

// Add puts a grammar defined in another package in the table of
// grammars, so that --split tree:LANG and ByExtension know it; that
// package calls it from an init, and registers its own language in
// package syntax (a grammar's passes with predictions of its own). A
// name added twice is a mistake.
func Add(g *Grammar) {
	mu.Lock()
	defer mu.Unlock()
	for _, o := range grammars {
		if o.Name == g.Name {
			panic("treesitter: grammar " + g.Name + " added twice")
		}
	}
	grammars = append(grammars, g)
}

// table is the table of grammars as it is now.
func table() []*Grammar {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(grammars)
}

// Names lists the languages, for --split tree:LANG.
func Names() []string {
	var ns []string
	for _, g := range table() {
		ns = append(ns, g.Name)
	}
	return ns
}

// Lookup finds a language by name.
func Lookup(name string) (*Grammar, error) {
	for _, g := range table() {
		if g.Name == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no grammar for %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Known checks that there is a grammar called name: nil, or an error
// that names the grammars there are (without cgo: why there are none).
func Known(name string) error {
	_, err := Lookup(name)
	return err
}

// ByExtension names the language of a file name extension (".c"), or "".
func ByExtension(ext string) string {
	for _, g := range table() {
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
	p.SetLanguage(g.Lang())
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
	// Finish makes each candidate of the pass well-formed or rejects
	// it; nil is the grammar's Finish (the candidate must parse). A
	// language with a check beyond parsing sets its own (PassesWith).
	Finish func([]byte) ([]byte, error)
}

// Name is the pass's name in logs: "c tree 2".
func (p Pass) Name() string { return fmt.Sprintf("%s tree %d", p.G.Name, p.Depth) }

// Passes lists the passes of one round over data, one per tree depth.
func (g *Grammar) Passes(data []byte) ([]decomp.Pass, error) { return g.PassesWith(data, nil) }

// Finish returns data if it parses, else why not (Check).
func (g *Grammar) Finish(data []byte) ([]byte, error) {
	if err := g.Check(data); err != nil {
		return nil, err
	}
	return data, nil
}

// PassesWith lists the passes of one round over data, as Passes does,
// with each candidate finished by finish (Pass.Finish): a language's
// check beyond parsing, which calls the grammar's Finish first.
func (g *Grammar) PassesWith(data []byte, finish func([]byte) ([]byte, error)) ([]decomp.Pass, error) {
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
		ps = append(ps, Pass{G: g, Depth: d, Finish: finish})
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
	finish := p.Finish
	if finish == nil {
		finish = g.Finish
	}
	return &decomp.Rewrite{Src: data, Changes: chs, Finish: finish}, nil
}

// separates says whether an unnamed token of type typ separates nodes
// in the grammar: a comma, or one of Separators.
func (g *Grammar) separates(typ string) bool {
	return typ == "," || slices.Contains(g.Separators, typ)
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
	// A comma (or another separator) separating n from a sibling goes
	// with it.
	if next := n.NextSibling(); next != nil && !next.IsNamed() && p.G.separates(next.Type()) {
		_, to = span(next)
	} else if prev := n.PrevSibling(); prev != nil && !prev.IsNamed() && p.G.separates(prev.Type()) {
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
	if p.G.cFamily {
		chs = append(chs, cFamilyChanges(n, span, inText)...)
		if isFunc(n.Type()) {
			chs = append(chs, paramChanges(src, n, root(n), span, inText)...)
		}
	}
	return chs
}

func root(n *sitter.Node) *sitter.Node {
	for n.Parent() != nil {
		n = n.Parent()
	}
	return n
}

// WithComma widens a list element's span over the comma that separates
// it from its next sibling (and the bytes of blanks after that comma),
// or else from its previous one.
func WithComma(src []byte, n *sitter.Node, span func(*sitter.Node) (int, int), blanks string) decomp.Splice {
	from, to := span(n)
	if next := n.NextSibling(); next != nil && !next.IsNamed() && next.Type() == "," {
		_, to = span(next)
		for to < len(src) && strings.IndexByte(blanks, src[to]) >= 0 {
			to++
		}
	} else if prev := n.PrevSibling(); prev != nil && !prev.IsNamed() && prev.Type() == "," {
		from, _ = span(prev)
	}
	return decomp.Splice{From: from, To: to}
}

// ListItems are the named children of a parameter or argument list,
// comments left out.
func ListItems(l *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(l.NamedChildCount()); i++ {
		if ch := l.NamedChild(i); ch.Type() != "comment" {
			out = append(out, ch)
		}
	}
	return out
}

// signature finds a function's name and parameter list, by the
// grammars' fields: "name" and "parameters", or in C and C++ those of
// its function declarator.
func signature(fn *sitter.Node, text func(*sitter.Node) string) (name string, params *sitter.Node) {
	params = fn.ChildByFieldName("parameters")
	if id := fn.ChildByFieldName("name"); id != nil {
		name = text(id)
	}
	for d := fn.ChildByFieldName("declarator"); d != nil && params == nil; d = d.ChildByFieldName("declarator") {
		if d.Type() == "function_declarator" {
			params = d.ChildByFieldName("parameters")
			if id := d.ChildByFieldName("declarator"); id != nil && id.Type() == "identifier" {
				name = text(id)
			}
		}
	}
	return name, params
}

// paramChanges removes a function's parameter together with the argument
// at every call of it by name with as many arguments (Perses; the
// Debugging Book's exercise on reducing syntax trees), one change per
// parameter. Methods called through a receiver are left alone.
func paramChanges(src []byte, fn, top *sitter.Node, span func(*sitter.Node) (int, int), inText func(*sitter.Node) bool) []decomp.Change {
	text := func(n *sitter.Node) string {
		if !inText(n) {
			return ""
		}
		f, t := span(n)
		return string(src[f:t])
	}
	name, params := signature(fn, text)
	if name == "" || params == nil || !inText(params) {
		return nil
	}
	ps := ListItems(params)
	if len(ps) == 0 {
		return nil
	}
	var calls [][]*sitter.Node // the arguments of each call
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch n.Type() {
		case "call_expression", "method_invocation":
			callee := n.ChildByFieldName("function")
			if n.Type() == "method_invocation" {
				if n.ChildByFieldName("object") != nil {
					break
				}
				callee = n.ChildByFieldName("name")
			}
			args := n.ChildByFieldName("arguments")
			if callee != nil && callee.Type() == "identifier" && text(callee) == name && args != nil && inText(args) {
				if as := ListItems(args); len(as) == len(ps) {
					calls = append(calls, as)
				}
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(top)
	var chs []decomp.Change
	for k, p := range ps {
		if !inText(p) || p.Type() == "self_parameter" || p.Type() == "variadic_parameter" {
			continue
		}
		eds := []decomp.Splice{WithComma(src, p, span, " ")}
		for _, as := range calls {
			eds = append(eds, WithComma(src, as[k], span, " "))
		}
		chs = append(chs, decomp.Change{Kind: "parameter → nothing", Edits: eds})
	}
	return chs
}

// Node kinds, by the grammars' naming: expressions, statements, blocks.
func isExpr(t string) bool {
	return strings.HasSuffix(t, "expression") && t != "expression_statement"
}

func isStmt(t string) bool { return strings.HasSuffix(t, "statement") || isBlock(t) }

func isBlock(t string) bool {
	return t == "compound_statement" || t == "block" || t == "statement_block"
}

func isFunc(t string) bool {
	switch t {
	case "function_definition", "function_declaration", "function_item", "method_declaration",
		"method_definition", "constructor_declaration", "function_expression", "arrow_function":
		return true
	}
	return false
}

// cFamilyChanges are the transformations C-Reduce and Perses make of
// C-like code, besides deleting a node: an expression becomes one of its
// operands; a statement one of the statements or blocks inside it
// (an if its then-block, a loop its body); a function's body an empty
// block. Each candidate must still parse (the plan's Finish).
func cFamilyChanges(n *sitter.Node, span func(*sitter.Node) (int, int), inText func(*sitter.Node) bool) []decomp.Change {
	var chs []decomp.Change
	f, t := span(n)
	typ := n.Type()
	replace := func(kind string, parts ...decomp.Part) {
		chs = append(chs, decomp.Change{Kind: typ + " → " + kind, Edits: []decomp.Splice{{From: f, To: t, Parts: parts}}})
	}
	children := func(want func(string) bool) []*sitter.Node {
		var out []*sitter.Node
		for i := 0; i < int(n.NamedChildCount()); i++ {
			ch := n.NamedChild(i)
			if ch.Type() != typ && want(ch.Type()) && inText(ch) {
				out = append(out, ch)
			}
		}
		return out
	}
	switch {
	case isExpr(typ):
		ops := children(func(c string) bool {
			return isExpr(c) || strings.HasSuffix(c, "identifier") || strings.HasSuffix(c, "literal") || c == "number"
		})
		for _, op := range ops[:min(len(ops), maxAlternatives)] {
			of, ot := span(op)
			replace("operand", decomp.Ref(of, ot))
		}
		// An expression by the literal 0, as C-Reduce does, cost 20 more
		// tests on the gcc case (356 against 376) and made no result
		// smaller (gcc, crash.cpp, crash.rs): not offered.
	case isStmt(typ) && !isBlock(typ):
		for _, st := range children(isStmt)[:min(len(children(isStmt)), maxAlternatives)] {
			sf, st2 := span(st)
			replace("inner statement", decomp.Ref(sf, st2))
		}
	case isFunc(typ):
		if body := n.ChildByFieldName("body"); body != nil && isBlock(body.Type()) && inText(body) && body.NamedChildCount() > 0 {
			bf, bt := span(body)
			chs = append(chs, decomp.Change{Kind: typ + " → empty body", Edits: []decomp.Splice{{From: bf, To: bt, Parts: []decomp.Part{decomp.Lit("{}")}}}})
		}
	}
	return chs
}
