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

// TestTable: the table holds Go and every tree-sitter grammar (Go's
// grammar gives way to package golang), each once, and picks a file's
// language by its name.
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
	if _, err := syntax.Lookup("cobol"); err == nil || !strings.Contains(err.Error(), "known: c, cpp, go, html, java, javascript, json, python, rust, tsx, typescript)") {
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
