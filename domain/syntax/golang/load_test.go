package golang

import (
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// The loader reads a tree as go build does here: a file whose build
// constraint fails is not read, a directory with a main package beside
// another imports as the other, a package of the tree is checked from
// source, and one from outside comes from Ext, or is empty (named by
// its path) without it.
func TestLoader(t *testing.T) {
	files := map[string][]byte{
		"go.mod":        []byte("module example.com/m\n\ngo 1.22\n"),
		"a/a.go":        []byte("package a\n\nimport \"example.com/other/v2\"\n\nfunc A() int { return other.N }\n"),
		"a/never.go":    []byte("//go:build never\n\npackage a\n\nfunc A() string { return \"\" }\n"),
		"a/gen.go":      []byte("//go:build ignore\n\npackage main\n\nfunc main() {}\n"),
		"b/b.go":        []byte("package b\n\nimport \"example.com/m/a\"\n\nvar B string = a.A()\n"),
		"b/b_test.go":   []byte("package b\n\nthis is not Go\n"),
		"c/c.go":        []byte("package c\n\nfunc {\n"),
		"testdata/x.go": []byte("package x\n"),
	}
	for _, ext := range []bool{false, true} {
		l := NewLoader(token.NewFileSet(), files, Source)
		if ext {
			other := types.NewPackage("example.com/other/v2", "other")
			other.Scope().Insert(types.NewVar(token.NoPos, other, "N", types.Typ[types.Int]))
			other.MarkComplete()
			l.Ext = importerFunc(func(p string) (*types.Package, error) { return other, nil })
		}
		var errs []string
		l.TypeError = func(p *Package, err error) { errs = append(errs, p.Dir+": "+err.Error()) }
		if got := strings.Join(l.Dirs(), " "); got != "a b c" {
			t.Errorf("dirs %q", got)
		}
		b := l.Importable("b")
		l.Check(b)
		if b.Types == nil || len(l.Importable("a").Files) != 1 || !l.Loaded("example.com/m/a") {
			t.Fatalf("b not checked, or a has %d files", len(l.Importable("a").Files))
		}
		// a.A returns int: b's string variable does not type-check.
		want := "cannot use a.A() (value of type int) as string value in variable declaration"
		if !ext {
			// other.N is unknown in an empty package: a does not
			// type-check either.
			want = "undefined: other.N"
		}
		if !strings.Contains(strings.Join(errs, "\n"), want) {
			t.Errorf("ext %v: errors %q, want %q", ext, errs, want)
		}
		if c := l.Importable("c"); c != nil || len(l.SyntaxErrors("c")) != 1 {
			t.Errorf("c does not parse: package %v, syntax errors %v", c, l.SyntaxErrors("c"))
		}
	}
}

// The imports from outside a tree's modules: the standard library's and
// other modules', not the tree's own, not cgo's, not those of files the
// go command ignores.
func TestImportsOutside(t *testing.T) {
	files := map[string][]byte{
		"go.mod":        []byte("module example.com/m\n"),
		"a/a.go":        []byte("package a\n\nimport (\n\t\"C\"\n\t\"fmt\"\n\t\"example.com/m/b\"\n\tx \"github.com/x/y/v2\"\n)\n"),
		"b/b_test.go":   []byte("package b\n\nimport \"testing\"\n"),
		"testdata/t.go": []byte("package t\n\nimport \"os\"\n"),
		"_ignored/i.go": []byte("package i\n\nimport \"net\"\n"),
		"c/broken.go":   []byte("package c\n\nimport \"strings\n"),
	}
	if got := strings.Join(ImportsOutside(files), " "); got != "fmt github.com/x/y/v2 testing" {
		t.Errorf("imports outside: %q", got)
	}
}
