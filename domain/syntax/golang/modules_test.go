package golang

import (
	"runtime"
	"testing"
)

// TestModules maps a tree's directories to import paths and back as the
// go command does, with nested modules and a quoted module path.
func TestModules(t *testing.T) {
	m := ReadModules(map[string][]byte{
		"go.mod":          []byte("module example.com/app\n\ngo 1.22\n"),
		"sub/go.mod":      []byte("module \"example.com/sub\" // nested\n"),
		"sub/x.go":        []byte("package sub\n"),
		"other/README.md": []byte("go.mod\n"),
	})
	for _, c := range []struct{ dir, mod, root, imp string }{
		{".", "example.com/app", ".", "example.com/app"},
		{"cmd/tool", "example.com/app", ".", "example.com/app/cmd/tool"},
		{"sub", "example.com/sub", "sub", "example.com/sub"},
		{"sub/pkg/x", "example.com/sub", "sub", "example.com/sub/pkg/x"},
	} {
		if mod, root := m.Module(c.dir); mod != c.mod || root != c.root {
			t.Errorf("Module(%q) = %q in %q, want %q in %q", c.dir, mod, root, c.mod, c.root)
		}
		if imp := m.ImportPath(c.dir); imp != c.imp {
			t.Errorf("ImportPath(%q) = %q, want %q", c.dir, imp, c.imp)
		}
		if dir := m.DirOf(c.imp); dir != c.dir {
			t.Errorf("DirOf(%q) = %q, want %q", c.imp, dir, c.dir)
		}
	}
	for _, imp := range []string{"example.com/application", "fmt", "example.com"} {
		if dir := m.DirOf(imp); dir != "" {
			t.Errorf("DirOf(%q) = %q, want none", imp, dir)
		}
	}
	only := m.Only("cmd/tool")
	if dir := only.DirOf("example.com/sub/pkg"); dir != "" {
		// The other module comes from the module cache, not the tree.
		t.Errorf("Only(cmd/tool): DirOf(example.com/sub/pkg) = %q, want none", dir)
	}
	if len(only) != 1 || only["."] != "example.com/app" {
		t.Errorf("Only(cmd/tool) = %v", only)
	}
	if len(ReadModules(map[string][]byte{"a.go": []byte("package a\n")}).Only("x")) != 0 {
		t.Error("Only outside any module is not empty")
	}
	if imp := (Modules{}).ImportPath("a/b"); imp != "a/b" {
		t.Errorf("ImportPath outside a module = %q", imp)
	}
	for p, want := range map[string]bool{"a/b.go": false, ".git/x.go": true, "a/_old/x.go": true, "a/testdata/x.go": true, "a/.x.go": true, "vendor/x/y.go": false} {
		if Hidden(p) != want {
			t.Errorf("Hidden(%q) = %v", p, !want)
		}
	}
}

// TestBuilds: the files a build on this machine compiles, by their
// names' suffixes and //go:build lines, as go/build decides.
func TestBuilds(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	for _, c := range []struct {
		path, data string
		want       bool
	}{
		{"p/a.go", "package p\n", true},
		{"p/a_" + runtime.GOOS + ".go", "package p\n", true},
		{"p/a_" + other + ".go", "package p\n", false},
		{"p/a_" + runtime.GOARCH + ".go", "package p\n", true},
		{"p/gen.go", "//go:build ignore\n\npackage main\n", false},
		{"p/b.go", "// Copyright.\n\n//go:build " + runtime.GOOS + "\n\npackage p\n", true},
		{"p/b.go", "//go:build " + other + " && !" + runtime.GOOS + "\n\npackage p\n", false},
		{"p/b.go", "//go:build !" + other + "\n\npackage p\n", true},
		// A comment that is not a constraint, after the package clause.
		{"p/c.go", "package p\n\n//go:build ignore\n", true},
		// The parse reports what does not parse.
		{"p/d.go", "package p\n\nimport (\n", true},
	} {
		if got := Builds(c.path, []byte(c.data)); got != c.want {
			t.Errorf("Builds(%s, %q) = %v", c.path, c.data, got)
		}
	}
}
