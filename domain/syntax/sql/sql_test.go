//go:build cgo

package sql

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/treesitter"
	"github.com/wynot/wynot/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestTable: SQL is in the table of languages and in the table of
// grammars, so that auto picks it for *.sql and --split tree:sql names
// it.
func TestTable(t *testing.T) {
	l, err := syntax.Lookup("sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.(Language); !ok {
		t.Errorf("sql is %T, want sql.Language", l)
	}
	if g, err := treesitter.Lookup("sql"); err != nil || g != Grammar {
		t.Errorf("treesitter.Lookup(sql) = %v, %v", g, err)
	}
	for name, want := range map[string]string{"a.sql": "sql", "dir/Schema.SQL": "sql", "a.sqlite": "", "sql": ""} {
		if got := syntax.LangOf(name); got != want {
			t.Errorf("LangOf(%s) = %q, want %q", name, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("adding the sql grammar twice did not panic")
		}
	}()
	treesitter.Add(&treesitter.Grammar{Name: "sql"})
}

// TestAbsent: a wynot built without cgo knows SQL by the name and
// extensions of its grammar.
func TestAbsent(t *testing.T) {
	if absent.Name != Grammar.Name || !slices.Equal(absent.Exts, Grammar.Exts) || absent.Title == "" || absent.Why == "" {
		t.Errorf("SQL is absent as %+v; its grammar is %s for %v", absent, Grammar.Name, Grammar.Exts)
	}
}

// predictCases: an original script and a candidate of it; missing is
// the table the candidate is predicted for ("" for none).
var predictCases = []struct {
	name, orig, cand, missing string
}{
	{"select from a dropped table", "CREATE TABLE t (a INTEGER);\nSELECT a FROM t;", "SELECT a FROM t;", "t"},
	{"insert", "CREATE TABLE t (a INTEGER);\nINSERT INTO t (a) VALUES (1);", "INSERT INTO t (a) VALUES (1);", "t"},
	{"update", "CREATE TABLE t (a INTEGER);\nUPDATE t SET a = 1;", "UPDATE t SET a = 1;", "t"},
	{"delete", "CREATE TABLE t (a INTEGER);\nDELETE FROM t WHERE a = 1;", "DELETE FROM t WHERE a = 1;", "t"},
	{"index", "CREATE TABLE t (a INTEGER);\nCREATE INDEX i ON t (a);", "CREATE INDEX i ON t (a);", "t"},
	{"alter", "CREATE TABLE t (a INTEGER);\nALTER TABLE t ADD COLUMN b INTEGER;", "ALTER TABLE t ADD COLUMN b INTEGER;", "t"},
	{"join", "CREATE TABLE t (a INTEGER);\nCREATE TABLE u (a INTEGER);\nSELECT * FROM t JOIN u ON u.a = t.a;", "CREATE TABLE t (a INTEGER);\nSELECT * FROM t JOIN u ON u.a = t.a;", "u"},
	{"subquery in FROM", "CREATE TABLE t (a INTEGER);\nSELECT * FROM (SELECT a FROM t) AS s;", "SELECT * FROM (SELECT a FROM t) AS s;", "t"},
	{"union", "CREATE TABLE t (a INTEGER);\nSELECT 1 UNION SELECT a FROM t;", "SELECT 1 UNION SELECT a FROM t;", "t"},
	{"create table as", "CREATE TABLE t (a INTEGER);\nCREATE TABLE u AS SELECT a FROM t;", "CREATE TABLE u AS SELECT a FROM t;", "t"},
	{"a dropped view", "CREATE TABLE t (a INTEGER);\nCREATE VIEW v AS SELECT a FROM t;\nSELECT * FROM v;", "CREATE TABLE t (a INTEGER);\nSELECT * FROM v;", "v"},
	{"a renamed table", "CREATE TABLE t (a INTEGER);\nALTER TABLE t RENAME TO u;\nSELECT * FROM u;", "CREATE TABLE t (a INTEGER);\nSELECT * FROM u;", "u"},
	{"names are not case sensitive", "CREATE TABLE \"Album\" (a INTEGER);\nSELECT * FROM album;", "SELECT * FROM ALBUM;", "ALBUM"},
	{"schema-qualified", "CREATE TEMP TABLE t (a INTEGER);\nSELECT * FROM temp.t;", "SELECT * FROM temp.t;", "temp.t"},

	{"still created", "CREATE TABLE t (a INTEGER);\nSELECT a FROM t;", "CREATE TABLE t (a INTEGER);\nSELECT a FROM t;", ""},
	{"created by the rename", "CREATE TABLE t (a INTEGER);\nALTER TABLE t RENAME TO u;\nSELECT * FROM u;", "CREATE TABLE t (a INTEGER);\nALTER TABLE t RENAME TO u;\nSELECT * FROM u;", ""},
	{"created as", "CREATE TABLE t (a INTEGER);\nCREATE TABLE u AS SELECT a FROM t;\nSELECT * FROM u;", "CREATE TABLE u AS SELECT 1 AS a;\nSELECT * FROM u;", ""},
	{"built-in table", "CREATE TABLE t (a INTEGER);\nSELECT name FROM sqlite_master;", "SELECT name FROM sqlite_master;", ""},
	{"never created by the script", "CREATE TABLE t (a INTEGER);\nSELECT value FROM json_each('[1]');", "SELECT value FROM json_each('[1]');", ""},
	{"a common table expression", "CREATE TABLE t (a INTEGER);\nSELECT a FROM t;", "WITH t AS (SELECT 1 AS a) SELECT a FROM t;", ""},
	{"an alias", "CREATE TABLE t (a INTEGER);\nCREATE TABLE u (a INTEGER);\nSELECT 1 FROM u AS t, t AS v;", "CREATE TABLE u (a INTEGER);\nSELECT 1 FROM u AS t, t AS v;", ""},
	{"inside WHERE", "CREATE TABLE t (a INTEGER);\nCREATE TABLE u (a INTEGER);\nSELECT 1 FROM u WHERE 0 AND EXISTS (SELECT 1 FROM t);", "CREATE TABLE u (a INTEGER);\nSELECT 1 FROM u WHERE 0 AND EXISTS (SELECT 1 FROM t);", ""},
	{"inside IN", "CREATE TABLE t (a INTEGER);\nCREATE TABLE u (a INTEGER);\nSELECT * FROM u WHERE a IN ((SELECT a FROM t));", "CREATE TABLE u (a INTEGER);\nSELECT * FROM u WHERE a IN ((SELECT a FROM t));", ""},
	{"in a view's body", "CREATE TABLE t (a INTEGER);\nCREATE VIEW v AS SELECT a FROM t;", "CREATE VIEW v AS SELECT a FROM t;", ""},
	{"in an unused common table expression", "CREATE TABLE t (a INTEGER);\nWITH c AS (SELECT a FROM t) SELECT 1;", "WITH c AS (SELECT a FROM t) SELECT 1;", ""},
	{"a foreign key", "CREATE TABLE t (a INTEGER PRIMARY KEY);\nCREATE TABLE u (b INTEGER REFERENCES t (a));", "CREATE TABLE u (b INTEGER REFERENCES t (a));", ""},
	{"dropped", "CREATE TABLE t (a INTEGER);\nDROP TABLE IF EXISTS t;", "DROP TABLE IF EXISTS t;", ""},
}

// TestPredict: with type checks, a candidate that uses, where every
// database resolves it, a table the original created and the candidate
// no longer does is predicted (a MissingError that Predicts recognizes),
// and nothing else is; without them nothing is. Where sqlite3 is
// installed, each prediction is checked to be an error of sqlite3's
// ("no such table"), and the original to run without one.
func TestPredict(t *testing.T) {
	sqlite3, _ := exec.LookPath("sqlite3")
	for _, c := range predictCases {
		t.Run(c.name, func(t *testing.T) {
			l := Language{treesitter.Language{G: Grammar}}
			syn, err := l.Open([]byte(c.orig), true)
			if err != nil {
				t.Fatal(err)
			}
			if !syn.Typed {
				t.Error("not typed: the original creates a table")
			}
			out, err := syn.Finish([]byte(c.cand))
			if string(out) != c.cand {
				t.Errorf("Finish returned %q, want the candidate", out)
			}
			p, predicted := l.Predicts(err)
			var me *MissingError
			switch {
			case c.missing == "" && err != nil:
				t.Errorf("predicted: %v", err)
			case c.missing != "" && (!errors.As(err, &me) || me.Table != c.missing || !predicted):
				t.Errorf("got %v, want a prediction that %s is missing", err, c.missing)
			case predicted && (p.Class != "" || !strings.Contains(p.Still, me.Error())):
				t.Errorf("prediction %+v", p)
			}
			if _, ok := syntax.Predicts(err); ok != predicted {
				t.Errorf("syntax.Predicts says %v", ok)
			}
			off, err := l.Open([]byte(c.orig), false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := off.Finish([]byte(c.cand)); err != nil || off.Typed {
				t.Errorf("without type checks: %v, typed %v", err, off.Typed)
			}
			if sqlite3 == "" {
				return
			}
			run := func(script string) string {
				cmd := exec.Command(sqlite3, "-bail", ":memory:")
				cmd.Stdin = strings.NewReader(script)
				b, _ := cmd.CombinedOutput()
				return string(b)
			}
			if o := run(c.orig); strings.Contains(o, "rror") {
				t.Errorf("the original fails in sqlite3: %s", o)
			}
			if o := run(c.cand); c.missing != "" && !strings.Contains(o, "no such table") {
				t.Errorf("predicted, but sqlite3 runs the candidate: %q", o)
			}
		})
	}
}

// TestUntyped: a script that creates no table predicts nothing.
func TestUntyped(t *testing.T) {
	syn, err := Language{treesitter.Language{G: Grammar}}.Open([]byte("SELECT 1;\n"), true)
	if err != nil || syn.Typed {
		t.Fatalf("%v, typed %v", err, syn != nil && syn.Typed)
	}
	if _, err := (Language{}).Open([]byte("SELECT FROM WHERE (;"), true); err == nil {
		t.Error("a script that does not parse opened")
	}
}

// TestPasses: the passes over a small script, each of its
// transformations made alone: the candidate, or why it is rejected (it
// does not parse, or it is predicted), as in testdata/passes.golden.
func TestPasses(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "store.sql"))
	if err != nil {
		t.Fatal(err)
	}
	syn, err := Language{treesitter.Language{G: Grammar}}.Open(src, true)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := syn.Passes(src)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	predicted := 0
	for _, p := range ps {
		plan, err := p.Plan(src)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %s: %d transformations\n", p.Name(), plan.Len())
		all := dd.All(plan.Len())
		for i := 0; i < plan.Len() && i < 12; i++ {
			keep := append(append([]int(nil), all[:i]...), all[i+1:]...)
			out, err := plan.Apply(keep)
			var me *MissingError
			switch {
			case errors.As(err, &me):
				predicted++
				fmt.Fprintf(&b, "%d: predicted: %v\n", i, err)
			case err != nil:
				fmt.Fprintf(&b, "%d: rejected: %v\n", i, err)
			default:
				fmt.Fprintf(&b, "%d: %d bytes (%d removed)\n", i, len(out), len(src)-len(out))
			}
		}
	}
	if predicted == 0 {
		t.Error("no transformation predicted")
	}
	goldenfile.Check(t, filepath.Join("testdata", "passes.golden"), b.String(), *update)
}

// TestColumns: a column goes with its value in every row written into
// its table, by position or by name; a table's only column, a table
// created twice and rows that do not match what the INSERT names are
// left alone.
func TestColumns(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // the candidate of each change made alone
	}{
		{"by position", "CREATE TABLE t (a INTEGER, b TEXT);\nINSERT INTO t VALUES (1, 'x'), (2, 'y');\nSELECT b FROM t;\n", []string{
			"CREATE TABLE t (b TEXT);\nINSERT INTO t VALUES ('x'), ('y');\nSELECT b FROM t;\n",
			"CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1), (2);\nSELECT b FROM t;\n",
		}},
		{"by name", "CREATE TABLE t (a INTEGER, b TEXT, c INTEGER);\nINSERT INTO t (c, a) VALUES (3, 1);\n", []string{
			"CREATE TABLE t (b TEXT, c INTEGER);\nINSERT INTO t (c) VALUES (3);\n",
			"CREATE TABLE t (a INTEGER, c INTEGER);\nINSERT INTO t (c, a) VALUES (3, 1);\n",
			"CREATE TABLE t (a INTEGER, b TEXT);\nINSERT INTO t (a) VALUES (1);\n",
		}},
		{"a constraint stays", "CREATE TABLE t (a INTEGER, b TEXT, CONSTRAINT pk PRIMARY KEY (a));\nINSERT INTO main.t VALUES (1, 'x');\n", []string{
			"CREATE TABLE t (b TEXT, CONSTRAINT pk PRIMARY KEY (a));\nINSERT INTO main.t VALUES ('x');\n",
			"CREATE TABLE t (a INTEGER, CONSTRAINT pk PRIMARY KEY (a));\nINSERT INTO main.t VALUES (1);\n",
		}},
		{"rows that do not match", "CREATE TABLE t (a INTEGER, b TEXT);\nINSERT INTO t VALUES (1);\n", []string{
			"CREATE TABLE t (b TEXT);\nINSERT INTO t VALUES (1);\n",
			"CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1);\n",
		}},
		{"one column", "CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1);\n", nil},
		{"created twice", "CREATE TABLE t (a INTEGER, b TEXT);\nDROP TABLE t;\nCREATE TABLE t (a INTEGER, b TEXT);\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan, err := Columns{}.Plan([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if plan.Len() != len(c.want) {
				t.Fatalf("%d changes, want %d", plan.Len(), len(c.want))
			}
			all := dd.All(plan.Len())
			for i, want := range c.want {
				got, err := plan.Apply(append(append([]int(nil), all[:i]...), all[i+1:]...))
				if err != nil || string(got) != want {
					t.Errorf("change %d: %q, %v; want %q", i, got, err, want)
				}
			}
		})
	}
}
