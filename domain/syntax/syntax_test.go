package syntax_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/golang"
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// grammars says whether this build has the tree-sitter grammars (they
// need cgo): without them, only Go is in the table.
var grammars = len(treesitter.Names()) > 0

// TestTable: the table holds Go and every tree-sitter grammar (Go's
// grammar gives way to package golang), each once, and picks a file's
// language by its name; without cgo, only Go.
func TestTable(t *testing.T) {
	names := syntax.Names()
	want := []string{"go"}
	for _, n := range treesitter.Names() {
		if n != "go" {
			want = append(want, n)
		}
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("the table holds %v, want %v", names, want)
	}
	for _, c := range []struct{ name, lang string }{
		{"main.go", "go"}, {"dir/X.GO", "go"}, {"a.c", "c"}, {"a.h", "c"}, {"x.hpp", "cpp"},
		{"p.py", "python"}, {"d.json", "json"}, {"t.tsx", "tsx"},
		{"page.html", ""}, // lenient: text unless asked for
		{"go.mod", ""}, {"notes.txt", ""}, {"Makefile", ""},
	} {
		if !grammars && c.lang != "go" {
			c.lang = ""
		}
		if got := syntax.LangOf(c.name); got != c.lang {
			t.Errorf("LangOf(%s) = %q, want %q", c.name, got, c.lang)
		}
	}
	for _, n := range names {
		l, err := syntax.Lookup(n)
		if err != nil || l.Name() != n {
			t.Errorf("Lookup(%s) = %v, %v", n, l, err)
		}
	}
	known := "known: c, cpp, go, html, java, javascript, json, python, rust, tsx, typescript)"
	if !grammars {
		known = "known: go)"
	}
	if _, err := syntax.Lookup("cobol"); err == nil || !strings.Contains(err.Error(), known) {
		t.Errorf("Lookup(cobol): %v", err)
	}
	if l, _ := syntax.Lookup("go"); l != (golang.Language{}) {
		t.Errorf("go is %T, want golang.Language", l)
	}
}

// TestRegisterTwice: a name registered twice is a mistake.
func TestRegisterTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering go twice did not panic")
		}
	}()
	syntax.Register(golang.Language{})
}

// TestNew: each language of the table opens what parses in it and
// rejects what does not; only Go predicts beyond parsing.
func TestNew(t *testing.T) {
	for _, c := range []struct {
		lang, good, bad string
		typed           bool
	}{
		{"go", "package p\n\nvar x = 1\n", "package p\nvar = \n", true},
		{"c", "int main(void) { return 0; }\n", "int main(void) { return 0;\n", false},
		{"json", "{\"a\": [1, 2]}\n", "{\"a\": [1, 2}\n", false},
		{"python", "def f():\n    return 1\n", "def f(:\n", false},
	} {
		if !grammars && c.lang != "go" {
			t.Logf("%s: not in the table: %s", c.lang, treesitter.NoCgo)
			continue
		}
		syn, err := syntax.New(c.lang, []byte(c.good), true)
		if err != nil {
			t.Errorf("%s: %v", c.lang, err)
			continue
		}
		if syn.Lang != c.lang || syn.Typed != c.typed || syn.Renames != c.typed {
			t.Errorf("%s: %+v", c.lang, syn)
		}
		if ps, err := syn.Passes([]byte(c.good)); err != nil || len(ps) == 0 {
			t.Errorf("%s: passes %v, %v", c.lang, ps, err)
		}
		if _, err := syn.Finish([]byte(c.bad)); err == nil {
			t.Errorf("%s: Finish took %q", c.lang, c.bad)
		}
		if _, err := syntax.New(c.lang, []byte(c.bad), true); err == nil {
			t.Errorf("%s: New took %q", c.lang, c.bad)
		}
	}
	if _, ok := syntax.Predicts(errors.New("does not parse")); ok {
		t.Error("a plain error is a prediction")
	}
}

// TestAbsent: each built-in grammar's language is in the table or, in a
// wynot built without cgo, absent from it: its files (by the extensions
// auto would pick it by) are then in no language, and the note says
// why. A name both in the table and absent is a mistake.
func TestAbsent(t *testing.T) {
	var absent []string
	for _, a := range syntax.Absents() {
		absent = append(absent, a.Name)
		if _, err := syntax.Lookup(a.Name); err == nil {
			t.Errorf("%s is in the table and absent", a.Name)
		}
	}
	if grammars && len(absent) > 0 {
		t.Errorf("with the grammars, %v are absent", absent)
	}
	all := slices.Sorted(slices.Values(append(syntax.Names(), absent...)))
	if want := []string{"c", "cpp", "go", "html", "java", "javascript", "json", "python", "rust", "tsx", "typescript"}; !slices.Equal(all, want) {
		t.Errorf("the table and the absent languages are %v, want %v", all, want)
	}
	for _, c := range []struct{ name, absent string }{
		{"bug.c", "c"}, {"dir/X.HPP", "cpp"}, {"p.py", "python"},
		{"main.go", ""}, {"page.html", ""}, {"notes.txt", ""},
	} {
		if grammars {
			c.absent = ""
		}
		a, ok := syntax.AbsentOf(c.name)
		if a.Name != c.absent || ok != (c.absent != "") {
			t.Errorf("AbsentOf(%s) = %+v, %v; want %q", c.name, a, ok, c.absent)
		}
	}
	if a, ok := syntax.AbsentOf("bug.c"); ok && (a.Title != "C" || a.Why != treesitter.NoCgo) {
		t.Errorf("C is absent as %+v", a)
	}
	a := syntax.Absent{Name: "c", Title: "C", Why: treesitter.NoCgo}
	if want := "C is reduced as text: this wynot was built without cgo, which the tree-sitter grammars need"; a.Note() != want {
		t.Errorf("note %q, want %q", a.Note(), want)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("registering go absent did not panic: it is in the table")
			}
		}()
		syntax.RegisterAbsent(syntax.Absent{Name: "go"})
	}()
}
