//go:build cgo

// Package sql reduces SQL scripts (files named *.sql) as syntax trees of
// the tree-sitter SQL grammar, with the passes of package treesitter
// (hierarchical delta debugging, Misherghi and Su 2006) and one of its
// own that removes a table's column with its values (Columns), and
// predicts,
// beyond parsing, the candidates that use a table or view the script no
// longer creates: a database rejects such a statement ("no such
// table") before it runs, so the candidate does not run what the
// original ran (the Debugging Book, "Reducing Failure-Inducing Inputs":
// predicting test outcomes; as Go's new type errors are predicted in
// package golang). The reduction tests a few such candidates first and
// tests them all from then on when one still fails (Predicts).
//
// The check is conservative: it only names tables the original script
// created (CREATE TABLE, CREATE VIEW, ALTER TABLE … RENAME TO) and the
// candidate no longer does, where the candidate names them as a table
// that every database resolves when the statement is prepared: the
// target of INSERT, UPDATE, DELETE, ALTER TABLE and CREATE INDEX, and the
// tables of a FROM clause that is no expression's (not inside WHERE,
// ON, a scalar or EXISTS subquery, which a database may fold away
// unresolved, as SQLite folds "0 AND EXISTS (…)"), outside the bodies of
// views and common table expressions (resolved only when used). Built-in
// tables (sqlite_master, sqlite_schema), tables of an attached or
// existing database, and names a candidate gives a common table
// expression or an alias are never reported missing.
package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	tsql "github.com/smacker/go-tree-sitter/sql"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// Grammar is SQL's tree-sitter grammar, in the table of grammars of
// package treesitter (so that --split tree:sql names it).
var Grammar = &treesitter.Grammar{Name: "sql", Exts: []string{".sql"}, Lang: tsql.GetLanguage, Separators: []string{";"}}

// Language is SQL as a language of package syntax: the grammar's passes
// and Finish, and with type checks the prediction of candidates that use
// a table they no longer create (MissingError).
type Language struct{ treesitter.Language }

func init() {
	treesitter.Add(Grammar)
	syntax.Register(Language{treesitter.Language{G: Grammar}})
}

// Open prepares data, which must parse; with typeCheck, and when the
// script creates tables, its candidates that use one of them without
// creating it are rejected with a MissingError.
func (l Language) Open(data []byte, typeCheck bool) (*syntax.Syntax, error) {
	if err := Grammar.Check(data); err != nil {
		return nil, err
	}
	finish := Grammar.Finish
	typed := false
	if typeCheck {
		s, err := analyze(data)
		if err != nil {
			return nil, fmt.Errorf("does not parse as sql: %w", err)
		}
		if len(s.created) > 0 {
			finish = Check{Created: s.created}.Finish
			typed = true
		}
	}
	return &syntax.Syntax{Lang: Grammar.Name, Finish: finish, Typed: typed,
		Passes: func(d []byte) ([]decomp.Pass, error) {
			ps, err := Grammar.PassesWith(d, finish)
			return append(ps, Columns{Finish: finish}), err
		}}, nil
}

// Predicts says that err is a MissingError: a candidate that uses a
// table the script no longer creates.
func (Language) Predicts(err error) (syntax.Prediction, bool) {
	var me *MissingError
	if !errors.As(err, &me) {
		return syntax.Prediction{}, false
	}
	return syntax.Prediction{Still: fmt.Sprintf("a candidate that %s still fails: the test does not need the script's tables to exist, so such candidates are tested too (--typecheck=false says so from the start)", me.Error())}, true
}

// Untested says that SQL candidates that use a table they no longer
// create were not run.
func (Language) Untested([]string, []syntax.Unit) string {
	return " (an SQL candidate that uses a table it no longer creates counts as not failing: it was not run)"
}

// MissingError is why a candidate is predicted: it uses a table or view
// the original script created and the candidate no longer does.
type MissingError struct {
	Table string // as the candidate names it
	Line  int    // of the first use, from 1
}

// Error says which table the candidate uses and where.
func (e *MissingError) Error() string {
	return fmt.Sprintf("uses table %s (line %d), which it no longer creates", e.Table, e.Line)
}

// Check is the check of a script's candidates beyond parsing.
type Check struct {
	// Created are the tables and views the original script created, by
	// their normalized names (name).
	Created map[string]bool
}

// Finish returns data if it parses and uses no table of Created that it
// does not create itself; a candidate that does is returned with a
// MissingError (it is well-formed, and tested all the same once a probe
// found that such candidates still fail).
func (c Check) Finish(data []byte) ([]byte, error) {
	if _, err := Grammar.Finish(data); err != nil {
		return nil, err
	}
	s, err := analyze(data)
	if err != nil {
		return nil, err
	}
	for _, u := range s.uses {
		if c.Created[u.name] && !s.created[u.name] && !s.shadows[u.name] {
			return data, &MissingError{Table: u.text, Line: u.line}
		}
	}
	return data, nil
}

// script is what a script creates and uses.
type script struct {
	created map[string]bool // tables and views it creates
	shadows map[string]bool // names it gives common table expressions and aliases
	uses    []use           // tables it uses, in order
}

// use is a table named where a database resolves it.
type use struct {
	name, text string
	line       int
}

// analyze reads which tables a script creates and uses.
func analyze(data []byte) (*script, error) {
	root, err := sitter.ParseCtx(context.Background(), data, tsql.GetLanguage())
	if err != nil {
		return nil, err
	}
	s := &script{created: map[string]bool{}, shadows: map[string]bool{}}
	text := func(n *sitter.Node) string { return string(data[n.StartByte():n.EndByte()]) }
	// Creations and shadows, anywhere.
	var all func(n *sitter.Node)
	all = func(n *sitter.Node) {
		switch n.Type() {
		case "create_table", "create_view", "rename_object":
			if r := firstChild(n, "object_reference"); r != nil {
				s.created[name(r, text)] = true
			}
		case "cte":
			if id := firstChild(n, "identifier"); id != nil {
				s.shadows[normalize(text(id))] = true
			}
		case "relation":
			// The alias: an identifier beside the table or subquery.
			if id := firstChild(n, "identifier"); id != nil {
				s.shadows[normalize(text(id))] = true
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			all(n.NamedChild(i))
		}
	}
	all(root)
	// Uses, only through the nodes every database resolves.
	var resolved func(n *sitter.Node)
	resolved = func(n *sitter.Node) {
		refs := 0
		for i := 0; i < int(n.NamedChildCount()); i++ {
			ch := n.NamedChild(i)
			switch t := ch.Type(); {
			case t == "object_reference" && usesTable[n.Type()]:
				if refs++; n.Type() == "alter_table" && refs > 1 {
					continue
				}
				s.uses = append(s.uses, use{name: name(ch, text), text: text(ch), line: int(ch.StartPoint().Row) + 1})
			case t == "subquery" && n.Type() == "relation", descend[t]:
				resolved(ch)
			}
		}
	}
	resolved(root)
	return s, nil
}

// usesTable are the nodes whose object_reference children name a table
// the statement uses (the first one of alter_table; create_table's and
// create_view's are creations, not uses).
var usesTable = map[string]bool{"relation": true, "insert": true, "from": true, "alter_table": true, "create_index": true}

// descend are the nodes through which uses are looked for: statements,
// their queries and FROM clauses, never an expression, a view's or a
// common table expression's body.
var descend = map[string]bool{
	"program": true, "statement": true, "select": true, "from": true, "relation": true, "join": true,
	"set_operation": true, "insert": true, "update": true, "delete": true, "create_table": true,
	"create_query": true, "alter_table": true, "create_index": true,
}

func firstChild(n *sitter.Node, typ string) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if ch := n.NamedChild(i); ch.Type() == typ {
			return ch
		}
	}
	return nil
}

// name is the normalized name of an object reference: its last part
// (main.t is t), without quotes, in lower case (SQL names are not case
// sensitive).
func name(r *sitter.Node, text func(*sitter.Node) string) string {
	n := r.ChildByFieldName("name")
	if n == nil {
		n = r
		for i := int(r.NamedChildCount()) - 1; i >= 0; i-- {
			if ch := r.NamedChild(i); ch.Type() == "identifier" {
				n = ch
				break
			}
		}
	}
	return normalize(text(n))
}

// normalize takes the quotes off a name and puts it in lower case.
func normalize(s string) string {
	if len(s) >= 2 {
		switch q := s[0]; {
		case (q == '"' || q == '`') && s[len(s)-1] == q:
			s = strings.ReplaceAll(s[1:len(s)-1], string(q)+string(q), string(q))
		case q == '[' && s[len(s)-1] == ']':
			s = s[1 : len(s)-1]
		}
	}
	return strings.ToLower(s)
}
