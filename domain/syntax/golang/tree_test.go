package golang

import (
	"errors"
	"strings"
	"testing"
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
