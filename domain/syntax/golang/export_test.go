package golang

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exportData writes a module example.com/app that requires example.com/dep
// (a module outside the tree, by a replace directive) and returns the
// export data files go list -export gives for its imports, and the
// tree's files.
func exportData(t *testing.T) (map[string]string, map[string][]byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds export data with go list -export")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root := t.TempDir()
	files := map[string]string{
		"dep/go.mod":  "module example.com/dep\n\ngo 1.22\n",
		"dep/dep.go":  "package dep\n\n// Greet greets n times.\nfunc Greet(name string, n int) string { return name }\n\n// Version is the version.\nconst Version = 3\n",
		"app/go.mod":  "module example.com/app\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => " + filepath.Join(root, "dep") + "\n",
		"app/main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/dep\"\n)\n\nfunc main() { fmt.Println(dep.Greet(\"x\", dep.Version)) }\n",
	}
	tree := map[string][]byte{}
	for p, d := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		if rel, ok := strings.CutPrefix(p, "app/"); ok {
			tree[rel] = []byte(d)
		}
	}
	cmd := exec.Command("go", "list", "-e", "-deps", "-export", "-f", "{{if .Export}}{{.ImportPath}}\t{{.Export}}{{end}}", "./...")
	cmd.Dir = filepath.Join(root, "app")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if imp, file, ok := strings.Cut(line, "\t"); ok {
			exports[imp] = file
		}
	}
	if exports["example.com/dep"] == "" || exports["fmt"] == "" {
		t.Fatalf("no export data for example.com/dep and fmt:\n%s", out)
	}
	return exports, tree
}

// TestExportImports: with the export data of the module's imports, a
// candidate that misuses a package from outside the tree has a new type
// error (predicted, not run); without it, the package stays untyped and
// the candidate is not held against.
func TestExportImports(t *testing.T) {
	exports, files := exportData(t)
	imp := NewExportImporter(exports)
	for _, c := range []struct {
		name, candidate string
		withExports     string // the error wanted with export data ("" for none)
	}{
		{"the original", string(files["main.go"]), ""},
		{"an argument dropped", strings.Replace(string(files["main.go"]), `dep.Greet("x", dep.Version)`, `dep.Greet("x")`, 1), "not enough arguments"},
		{"a constant of the wrong type", strings.Replace(string(files["main.go"]), `dep.Greet("x", dep.Version)`, `dep.Greet(dep.Version, 1)`, 1), "cannot use dep.Version"},
		{"a name the package does not have", strings.Replace(string(files["main.go"]), `dep.Version`, `dep.Release`, 1), "undefined: dep.Release"},
		{"a standard-library misuse", strings.Replace(string(files["main.go"]), `fmt.Println`, `fmt.Printline`, 1), "undefined: fmt.Printline"},
	} {
		for _, with := range []bool{true, false} {
			tree := &Tree{Path: "main.go", Files: files}
			if with {
				tree.Imports = imp
			}
			chk, err := NewCheckerIn(files["main.go"], true, tree)
			if err != nil {
				t.Fatal(err)
			}
			_, err = chk.Finish([]byte(c.candidate))
			var te *TypeError
			want := c.withExports
			if !with && !strings.Contains(c.name, "standard") {
				want = "" // untyped without export data
			}
			switch {
			case want == "" && err != nil:
				t.Errorf("%s (export data %v): %v, want no error", c.name, with, err)
			case want == "":
			case !errors.As(err, &te) || !strings.Contains(te.Msg, want):
				t.Errorf("%s (export data %v): %v, want a type error: %s", c.name, with, err, want)
			}
		}
	}
}
