//go:build cgo

package sql

import (
	"context"

	sitter "github.com/smacker/go-tree-sitter"
	tsql "github.com/smacker/go-tree-sitter/sql"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// Columns is a pass that removes a column of a table together with its
// value in every row an INSERT writes into the table, one change per
// column: as Perses removes a function's parameter together with the
// argument at every call (Sun et al., "Perses: Syntax-Guided Program
// Reduction", ICSE 2018), since neither goes alone (an INSERT with more
// values than the table has columns is an error). A table created more
// than once, or an INSERT whose rows do not match what it names, is
// left alone.
type Columns struct {
	// Finish makes each candidate well-formed or rejects it (the
	// language's Finish).
	Finish func([]byte) ([]byte, error)
}

// Name is the pass's name in logs.
func (Columns) Name() string { return "sql columns" }

// Plan proposes, for each column of each table with more than one, its
// removal with its values.
func (p Columns) Plan(data []byte) (decomp.Plan, error) {
	root, err := sitter.ParseCtx(context.Background(), data, tsql.GetLanguage())
	if err != nil {
		return nil, err
	}
	text := func(n *sitter.Node) string { return string(data[n.StartByte():n.EndByte()]) }
	type table struct {
		cols    []*sitter.Node // its column definitions, in order
		inserts []*sitter.Node
		twice   bool
	}
	tables := map[string]*table{}
	var order []string
	get := func(name string) *table {
		t := tables[name]
		if t == nil {
			t = &table{}
			tables[name] = t
			order = append(order, name)
		}
		return t
	}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch n.Type() {
		case "create_table":
			if r := firstChild(n, "object_reference"); r != nil {
				t := get(name(r, text))
				t.twice = t.twice || t.cols != nil
				if defs := firstChild(n, "column_definitions"); defs != nil {
					t.cols = children(defs, "column_definition")
				}
			}
		case "insert":
			if r := firstChild(n, "object_reference"); r != nil {
				t := get(name(r, text))
				t.inserts = append(t.inserts, n)
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(root)
	var chs []decomp.Change
	for _, tn := range order {
		t := tables[tn]
		if t.twice || len(t.cols) < 2 {
			continue
		}
		for k, col := range t.cols {
			id := firstChild(col, "identifier")
			if id == nil {
				continue
			}
			eds := []decomp.Splice{treesitter.WithComma(data, col, span, " \t\n")}
			for _, ins := range t.inserts {
				eds = append(eds, insertEdits(data, ins, k, len(t.cols), normalize(text(id)), text)...)
			}
			chs = append(chs, decomp.Change{Kind: "column → nothing, with its values", Edits: eds})
		}
	}
	return &decomp.Rewrite{Src: data, Changes: chs, Finish: p.Finish}, nil
}

// insertEdits are the removals from an INSERT of the column col, the
// k-th of n the table has: the column from the INSERT's list of columns
// and its value from each row; none when the INSERT does not name col
// or its rows do not have as many values as it names columns.
func insertEdits(data []byte, ins *sitter.Node, k, n int, col string, text func(*sitter.Node) string) []decomp.Splice {
	var names []*sitter.Node // the INSERT's list of columns, if any
	var rows [][]*sitter.Node
	values := false
	for i := 0; i < int(ins.NamedChildCount()); i++ {
		ch := ins.NamedChild(i)
		switch {
		case ch.Type() == "keyword_values":
			values = true
		case ch.Type() == "list" && !values:
			names = children(ch, "column")
		case ch.Type() == "list":
			rows = append(rows, treesitter.ListItems(ch))
		}
	}
	if !values {
		return nil // INSERT … SELECT, DEFAULT VALUES
	}
	var eds []decomp.Splice
	if names != nil {
		k, n = -1, len(names)
		for i, c := range names {
			if id := firstChild(c, "identifier"); id != nil && normalize(text(id)) == col {
				k = i
			}
		}
		if k < 0 {
			return nil
		}
		eds = append(eds, treesitter.WithComma(data, names[k], span, " \t\n"))
	}
	for _, r := range rows {
		if len(r) != n {
			return nil
		}
		eds = append(eds, treesitter.WithComma(data, r[k], span, " \t\n"))
	}
	return eds
}

// children are the named children of n of type typ.
func children(n *sitter.Node, typ string) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if ch := n.NamedChild(i); ch.Type() == typ {
			out = append(out, ch)
		}
	}
	return out
}

// span is a node's bytes.
func span(n *sitter.Node) (int, int) { return int(n.StartByte()), int(n.EndByte()) }
