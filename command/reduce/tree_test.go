package reduce

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax/golang"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/runner"
)

// randomTree writes n files into dir, in nested directories, each
// holding a few lines of which one is "keep".
func randomTree(t *testing.T, rng *rand.Rand, dir string, n int) []string {
	t.Helper()
	var names []string
	for i := range n {
		p := fmt.Sprintf("f%d.txt", i)
		for d := rng.IntN(4); d > 0; d-- {
			p = fmt.Sprintf("d%d/%s", rng.IntN(3), p)
		}
		lines := []string{"one", "two", "keep", "three"}
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	slices.Sort(names)
	return names
}

// readFiles reads the tree at dir as file contents by path.
func readFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	tr, err := filetree.ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for p, f := range tr.Files {
		m[p] = f.Data
	}
	return m
}

// reduceTree runs wynot reduce with args on ./tree, with a test that
// fails when fails says so of the candidate tree's files (no process
// runs), and returns what it wrote to stderr.
func reduceTree(t *testing.T, args []string, fails func(files map[string][]byte) bool) string {
	t.Helper()
	fake := func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
		if fails(readFiles(t, dir)) {
			return runner.Run{Exit: 1}, nil
		}
		return runner.Run{}, nil
	}
	var stderr strings.Builder
	code := Command.Main(context.Background(), append(args, "tree", "--", "prog", "{}"),
		command.Env{Stdout: io.Discard, Stderr: &stderr, Fake: fake})
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	return stderr.String()
}

// TestTreeOneMinimal: on random trees and random oracles (the test fails
// when one of a few sets of files all hold "keep"), the reduced tree
// fails, removing any single one of its files or lines makes it pass
// (checked by brute force against the oracle), every file that is left
// holds only "keep", and DIR.orig holds the original tree.
func TestTreeOneMinimal(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			root := t.TempDir()
			t.Chdir(root)
			t.Setenv("XDG_CACHE_HOME", filepath.Join(root, ".cache"))
			names := randomTree(t, rng, filepath.Join(root, "tree"), 4+rng.IntN(12))
			orig, err := filetree.ReadTree("tree")
			if err != nil {
				t.Fatal(err)
			}
			var clauses [][]string
			for range 1 + rng.IntN(3) {
				var c []string
				for range 1 + rng.IntN(3) {
					c = append(c, names[rng.IntN(len(names))])
				}
				clauses = append(clauses, c)
			}
			fails := func(files map[string][]byte) bool {
				for _, c := range clauses {
					all := true
					for _, p := range c {
						all = all && strings.Contains(string(files[p]), "keep")
					}
					if all {
						return true
					}
				}
				return false
			}
			stderr := reduceTree(t, []string{"-j2"}, fails)
			files := readFiles(t, "tree")
			for p, data := range files {
				if string(data) != "keep\n" && string(data) != "keep" {
					t.Errorf("%s holds %q", p, data)
				}
			}
			if !fails(files) {
				t.Fatalf("the result %v does not fail; clauses %v", slices.Sorted(maps.Keys(files)), clauses)
			}
			for p := range files {
				without := maps.Clone(files)
				delete(without, p)
				if fails(without) {
					t.Errorf("the result %v fails without %s: not 1-minimal", slices.Sorted(maps.Keys(files)), p)
				}
			}
			back, err := filetree.ReadTree("tree.orig")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range orig.Paths() {
				if !filetree.Same(orig.Files[p], back.Files[p]) {
					t.Errorf("tree.orig/%s differs from the original", p)
				}
			}
			if len(back.Files) != len(orig.Files) {
				t.Errorf("tree.orig has %d files, the original %d", len(back.Files), len(orig.Files))
			}
			if !strings.Contains(stderr, "tree now holds the result") || !strings.Contains(stderr, "is 1-minimal") {
				t.Errorf("closing lines:\n%s", stderr)
			}
		})
	}
}

// printed is what a Go package's files would print when its main ran,
// as far as this test's programs go: the string literals given to
// println in every function main reaches by calls, found by parsing
// (nothing when a file does not parse).
func printed(files map[string][]byte) string {
	decls := map[string]*ast.FuncDecl{}
	fset := token.NewFileSet()
	for name, data := range files {
		f, err := parser.ParseFile(fset, name, data, 0)
		if err != nil {
			return ""
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls[fd.Name.Name] = fd
			}
		}
	}
	var out strings.Builder
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		fd := decls[name]
		if fd == nil || seen[name] {
			return
		}
		seen[name] = true
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); ok {
				if id.Name == "println" {
					for _, a := range call.Args {
						if lit, ok := a.(*ast.BasicLit); ok {
							out.WriteString(lit.Value)
						}
					}
				} else {
					visit(id.Name)
				}
			}
			return true
		})
	}
	visit("main")
	return out.String()
}

// TestGoPackageOneMinimal: on random Go packages of several files whose
// functions call each other across files, and random oracles (the test
// fails when every marker of one of a few sets is still printed by a
// function main reaches), the reduced package fails, and no single
// change the package's passes offer on the result (those spanning its
// files included: a function called from another file shortened at both
// ends) leaves a candidate that still fails (checked by brute force
// against the oracle).
func TestGoPackageOneMinimal(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 11))
			root := t.TempDir()
			t.Chdir(root)
			t.Setenv("XDG_CACHE_HOME", filepath.Join(root, ".cache"))
			nfiles := 2 + rng.IntN(3)
			var funcs []string
			for f := range nfiles {
				for k := range 1 + rng.IntN(3) {
					funcs = append(funcs, fmt.Sprintf("function%d%d", f, k))
				}
			}
			files := map[string][]byte{}
			for f := range nfiles {
				var b strings.Builder
				b.WriteString("package p\n")
				if f == 0 {
					b.WriteString("\nfunc main() {\n")
					for range 1 + rng.IntN(2) {
						fmt.Fprintf(&b, "\t%s(%d)\n", funcs[len(funcs)-1-rng.IntN(len(funcs)/2+1)], rng.IntN(9))
					}
					b.WriteString("}\n")
				}
				for _, name := range funcs {
					if !strings.HasPrefix(name, fmt.Sprintf("function%d", f)) {
						continue
					}
					fmt.Fprintf(&b, "\nfunc %s(unused int) {\n", name)
					for range 2 + rng.IntN(3) {
						if rng.IntN(2) == 0 {
							fmt.Fprintf(&b, "\t%s(%d)\n", funcs[rng.IntN(len(funcs))], rng.IntN(9))
						} else {
							fmt.Fprintf(&b, "\tprintln(\"m%d\")\n", rng.IntN(8))
						}
					}
					b.WriteString("}\n")
				}
				p := fmt.Sprintf("p/f%d.go", f)
				files[p] = []byte(b.String())
				full := filepath.Join(root, "tree", filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, files[p], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := printed(files)
			var present []string // the markers the original prints
			for m := range 8 {
				if marker := fmt.Sprintf(`"m%d"`, m); strings.Contains(out, marker) {
					present = append(present, marker)
				}
			}
			if len(present) == 0 {
				t.Skip("the random package prints nothing")
			}
			var clauses [][]string
			for range 1 + rng.IntN(2) {
				var c []string
				for range 1 + rng.IntN(2) {
					c = append(c, present[rng.IntN(len(present))])
				}
				clauses = append(clauses, c)
			}
			fails := func(files map[string][]byte) bool {
				text := printed(files)
				for _, c := range clauses {
					all := true
					for _, m := range c {
						all = all && strings.Contains(text, m)
					}
					if all {
						return true
					}
				}
				return false
			}
			stderr := reduceTree(t, []string{"-j2"}, fails)
			got := readFiles(t, "tree")
			if !fails(got) {
				t.Fatalf("the result does not fail: %q", got)
			}
			if !strings.Contains(stderr, "is 1-minimal") {
				t.Fatalf("not certified:\n%s", stderr)
			}
			var bundle []decomp.File
			for _, p := range slices.Sorted(maps.Keys(got)) {
				bundle = append(bundle, decomp.File{Name: p, Data: got[p]})
			}
			src, err := decomp.Bundle(bundle)
			if err != nil {
				t.Fatal(err)
			}
			all, err := golang.ChangesIn(src, true, &golang.Tree{Dir: "p", Files: got})
			if err != nil {
				t.Fatal(err)
			}
			for i, ch := range all.Changes {
				out, err := all.Apply(dd.AllBut(all.Len(), i))
				if err != nil {
					continue // predicted: it does not parse or type-check
				}
				fs, err := decomp.Unbundle(out)
				if err != nil {
					t.Fatal(err)
				}
				m := map[string][]byte{}
				for _, f := range fs {
					m[f.Name] = f.Data
				}
				if fails(m) && schedule.Simpler(out, src) {
					t.Errorf("change %d (%s) still fails: not 1-minimal\n%s", i, ch.Kind, out)
				}
			}
		})
	}
}

// TestTreeContinued: a second reduction of a tree reduced in place finds
// DIR.orig to be the original of that reduction and goes on with it, so
// no DIR.orig.1 is made and DIR.orig keeps the first original; once DIR
// is changed by hand, DIR.orig is someone else's and the original goes
// to DIR.orig.1.
func TestTreeContinued(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, ".cache"))
	for i, data := range []string{"a\nkeep\nb\n", "c\n", "keep\nd\n"} {
		p := filepath.Join("tree", fmt.Sprintf("d%d", i%2), fmt.Sprintf("f%d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	orig, err := filetree.ReadTree("tree")
	if err != nil {
		t.Fatal(err)
	}
	reduce := func() string {
		t.Helper()
		return reduceTree(t, nil, func(files map[string][]byte) bool {
			n := 0
			for _, data := range files {
				n += strings.Count(string(data), "keep")
			}
			return n >= 2
		})
	}
	sameAsOrig := func(dir string) {
		t.Helper()
		back, err := filetree.ReadTree(dir)
		if err != nil {
			t.Fatal(err)
		}
		if keep.Sum(back.Files) != keep.Sum(orig.Files) {
			t.Errorf("%s is not the original tree", dir)
		}
	}
	reduce()
	sameAsOrig("tree.orig")
	out := reduce()
	if !strings.Contains(out, "tree.orig holds the original of an interrupted reduction of tree") {
		t.Errorf("the second run does not go on with tree.orig:\n%s", out)
	}
	if _, err := os.Stat("tree.orig.1"); err == nil {
		t.Error("the second run made tree.orig.1")
	}
	sameAsOrig("tree.orig")
	if err := os.WriteFile(filepath.Join("tree", "extra.txt"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = reduce()
	if !strings.Contains(out, "tree.orig exists and is not the original of tree; the original will be kept in tree.orig.1") {
		t.Errorf("a tree changed by hand is taken for the one reduced before:\n%s", out)
	}
	sameAsOrig("tree.orig")
	if _, err := os.Stat("tree.orig.1"); err != nil {
		t.Errorf("no tree.orig.1: %v", err)
	}
}

// TestTreePending: a change of several files that a killed run left
// half written (DIR.wynot-pending beside the tree) is finished before
// the next run reads the tree, which then goes on as with DIR.orig; a
// run that completes leaves no such record.
func TestTreePending(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, ".cache"))
	write := func(p, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tree/a/one.txt", "x\nkeep\ny\n")
	write("tree/a/two.txt", "keep\n")
	write("tree/b/three.txt", "z\n")
	fails := func(files map[string][]byte) bool {
		n := 0
		for _, data := range files {
			n += strings.Count(string(data), "keep")
		}
		return n >= 2
	}
	reduceTree(t, nil, fails)
	if _, err := os.Stat(keep.PendingPath("tree")); !os.IsNotExist(err) {
		t.Fatalf("a completed run left %s: %v", keep.PendingPath("tree"), err)
	}
	// A run killed while it wrote a change: one file of it written.
	pending := []keep.Change{{Name: "a/one.txt", Data: []byte("keep\nkeep\n"), Mode: 0o644}, {Name: "a/two.txt", Removed: true}}
	data, err := json.Marshal(pending)
	if err != nil {
		t.Fatal(err)
	}
	write(keep.PendingPath("tree"), string(data))
	write("tree/a/one.txt", "keep\nkeep\n")
	files := readFiles(t, "tree")
	if _, ok := files["a/two.txt"]; !ok {
		t.Fatalf("the test tree: %q", files)
	}
	out := reduceTree(t, nil, fails)
	if !strings.Contains(out, "tree.wynot-pending held the last change of an interrupted reduction of tree") {
		t.Errorf("the change is not said to be finished:\n%s", out)
	}
	if _, err := os.Stat(keep.PendingPath("tree")); !os.IsNotExist(err) {
		t.Errorf("%s left: %v", keep.PendingPath("tree"), err)
	}
	if _, err := os.Stat("tree/a/two.txt"); !os.IsNotExist(err) {
		t.Errorf("the removal of the pending change was not made: %v", err)
	}
	if !fails(readFiles(t, "tree")) {
		t.Errorf("the result does not fail: %q", readFiles(t, "tree"))
	}
	// A record that cannot be read stops the run, saying what to do.
	write(keep.PendingPath("tree"), "{")
	var stderr strings.Builder
	code := Command.Main(context.Background(), []string{"tree", "--", "prog", "{}"},
		command.Env{Stdout: io.Discard, Stderr: &stderr, Fake: func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
			return runner.Run{Exit: 1}, nil
		}})
	if code == 0 || !strings.Contains(stderr.String(), "cannot be read") {
		t.Errorf("exit %d:\n%s", code, stderr.String())
	}
}
