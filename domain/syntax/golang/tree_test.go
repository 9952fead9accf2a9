package golang

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// A module of four packages: app imports lib and ext (outside the
// tree); lib's two files share a helper; lib has an in-package test;
// tool imports app.
var treeFiles = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"lib/a.go": `package lib

import "strings"

// Upper is used by app.
func Upper(s string) string { return strings.ToUpper(trim(s)) }

// Unused is used by nothing.
func Unused() {}
`,
	"lib/b.go": `package lib

import "strings"

func trim(s string) string { return strings.TrimSpace(s) }

func forTests() int { return 1 }
`,
	"lib/a_test.go": `package lib

import "testing"

func TestX(t *testing.T) { _ = forTests() }
`,
	"app/app.go": `package app

import (
	"example.com/m/lib"
	"example.org/ext"
)

// Run is used by tool.
func Run() string { return lib.Upper(ext.Name) }
`,
	"tool/main.go": `package main

import "example.com/m/app"

func main() { println(app.Run()) }
`,
	"testdata/ignored.go": "package broken(",
}

func inTree(t *testing.T, path string) *Checker {
	t.Helper()
	files := map[string][]byte{}
	for p, d := range treeFiles {
		files[p] = []byte(d)
	}
	chk, err := NewCheckerIn(files[path], true, &Tree{Path: path, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	return chk
}

// TestTreeTypeCheck: a Go file reduced in a tree is type-checked with
// the other files of its package, its in-package tests and the packages
// that import it, directly or not; an error says in which package it
// is; what the original could not resolve (a module outside the tree)
// is not held against a candidate.
func TestTreeTypeCheck(t *testing.T) {
	for _, c := range []struct {
		name, path, candidate string
		dir, msg              string // the error wanted ("" for none)
	}{
		{"the original", "lib/a.go", treeFiles["lib/a.go"], "", ""},
		{"an unused declaration goes", "lib/a.go", "package lib\n\nimport \"strings\"\n\nfunc Upper(s string) string { return strings.ToUpper(trim(s)) }\n", "", ""},
		{"a declaration an importer uses", "lib/a.go", "package lib\n\nfunc Unused() {}\n", "app", "undefined: lib.Upper"},
		{"a helper another file of the package uses", "lib/b.go", "package lib\n\nfunc forTests() int { return 1 }\n", "lib", "undefined: trim"},
		{"a function only the package's test uses", "lib/b.go", "package lib\n\nimport \"strings\"\n\nfunc trim(s string) string { return strings.TrimSpace(s) }\n", "lib", "undefined: forTests"},
		{"an importer's importer", "app/app.go", "package app\n", "tool", "undefined: app.Run"},
		{"the package renamed", "lib/b.go", strings.Replace(treeFiles["lib/b.go"], "package lib", "package b", 1), "lib", "expected package"},
		{"outside the tree: unresolved alike", "app/app.go", strings.Replace(treeFiles["app/app.go"], "ext.Name", "ext.Other", 1), "", ""},
		{"a new error in the file itself", "tool/main.go", "package main\n\nfunc main() { println(x) }\n", "tool", "undefined: x"},
	} {
		chk := inTree(t, c.path)
		_, err := chk.Finish([]byte(c.candidate))
		var te *TypeError
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.msg == "":
		case !errors.As(err, &te):
			t.Errorf("%s: %v, want a type error in %s: %s", c.name, err, c.dir, c.msg)
		case te.Dir != c.dir || !strings.Contains(te.Msg, c.msg):
			t.Errorf("%s: type error in %s: %s; want in %s: %s", c.name, te.Dir, te.Msg, c.dir, c.msg)
		}
	}
}

// TestTreeImportCycle: a tree whose packages import each other (which
// the go command rejects) is checked without hanging.
func TestTreeImportCycle(t *testing.T) {
	files := map[string][]byte{
		"go.mod": []byte("module m\n"),
		"a/a.go": []byte("package a\n\nimport \"m/b\"\n\nvar A = b.B\n"),
		"b/b.go": []byte("package b\n\nimport \"m/a\"\n\nvar B = a.A\n"),
		"c/c.go": []byte("package c\n\nimport \"m/a\"\n\nvar C = a.A\n"),
	}
	chk, err := NewCheckerIn(files["c/c.go"], true, &Tree{Path: "c/c.go", Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chk.Finish(files["c/c.go"]); err != nil {
		t.Errorf("the original: %v", err)
	}
}

// libBundle is the bundle of lib's Go files and the tree around it.
func libBundle(t *testing.T) ([]byte, *Tree) {
	t.Helper()
	files := map[string][]byte{}
	for p, d := range treeFiles {
		files[p] = []byte(d)
	}
	var fs []decomp.File
	for _, p := range []string{"lib/a.go", "lib/a_test.go", "lib/b.go"} {
		fs = append(fs, decomp.File{Name: p, Data: files[p]})
	}
	b, err := decomp.Bundle(fs)
	if err != nil {
		t.Fatal(err)
	}
	return b, &Tree{Dir: "lib", Files: files}
}

// TestPackageBundle: the Go files of a package reduced together have
// changes that span files (a name shortened at its declaration and its
// uses in other files, a declaration with its uses), keep the names
// other packages use, and are type-checked as a package.
func TestPackageBundle(t *testing.T) {
	src, tree := libBundle(t)
	all, err := ChangesIn(src, true, tree)
	if err != nil {
		t.Fatal(err)
	}
	apply := func(kind, in string) (map[string]string, error) {
		t.Helper()
		for i, ch := range all.Changes {
			if ch.Kind != kind || !strings.Contains(string(src[ch.Edits[0].From:ch.Edits[0].To]), in) {
				continue
			}
			out, err := all.Apply(dd.AllBut(all.Len(), i))
			files, uerr := decomp.Unbundle(out)
			if uerr != nil {
				t.Fatalf("%s %s: %v", kind, in, uerr)
			}
			m := map[string]string{}
			for _, f := range files {
				m[f.Name] = string(f.Data)
			}
			return m, err
		}
		t.Fatalf("no %q change of %q among: %s", kind, in, kinds(all))
		return nil, nil
	}
	// trim: declared in b.go, used in a.go.
	got, err := apply("name → shorter", "trim")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got["lib/b.go"], "func a(s string)") || !strings.Contains(got["lib/a.go"], "strings.ToUpper(a(s))") {
		t.Errorf("trim renamed in one file only:\n%s\n%s", got["lib/a.go"], got["lib/b.go"])
	}
	// forTests: declared in b.go, used by the in-package test.
	got, err = apply("name → shorter", "forTests")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got["lib/a_test.go"], "forTests") || strings.Contains(got["lib/b.go"], "forTests") {
		t.Errorf("forTests renamed in one file only:\n%s\n%s", got["lib/a_test.go"], got["lib/b.go"])
	}
	for _, ch := range all.Changes {
		if name := string(src[ch.Edits[0].From:ch.Edits[0].To]); ch.Kind == "name → shorter" && (name == "Upper" || name == "Unused") {
			t.Errorf("%s renamed: app imports lib", name)
		}
	}
	// forTests with its use in the test file: the test's statement goes.
	got, err = apply("declaration → nothing, with its uses", "func forTests")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got["lib/a_test.go"], "forTests") || strings.Contains(got["lib/b.go"], "forTests") {
		t.Errorf("forTests or its use left:\n%s\n%s", got["lib/a_test.go"], got["lib/b.go"])
	}
	// trim alone: a.go still uses it.
	_, err = apply("declaration → nothing", "func trim")
	var te *TypeError
	if !errors.As(err, &te) || te.Dir != "lib" || !strings.Contains(te.Msg, "undefined: trim") {
		t.Errorf("deleting trim: %v, want undefined: trim in lib", err)
	}
	// Upper: app uses it.
	_, err = apply("declaration → nothing", "// Upper")
	if !errors.As(err, &te) || te.Dir != "app" || !strings.Contains(te.Msg, "undefined: lib.Upper") {
		t.Errorf("deleting Upper: %v, want undefined: lib.Upper in app", err)
	}
}

// TestBundleMemo: what a bundle's Checker keeps of the files it finished
// (their original text and the last other one) gives the same candidates
// as a Checker that has seen nothing, whatever came before.
func TestBundleMemo(t *testing.T) {
	src, tree := libBundle(t)
	plan := func() *decomp.Rewrite {
		all, err := ChangesIn(src, true, tree)
		if err != nil {
			t.Fatal(err)
		}
		return all
	}
	used := plan()
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 1, 0, 0}} {
		for _, i := range order {
			i = i * used.Len() / 4
			got, gerr := used.Apply(dd.AllBut(used.Len(), i))
			fresh := plan()
			want, werr := fresh.Apply(dd.AllBut(fresh.Len(), i))
			if !bytes.Equal(got, want) || (gerr == nil) != (werr == nil) {
				t.Errorf("change %d: %q, %v\nwant %q, %v", i, got, gerr, want, werr)
			}
		}
	}
}
