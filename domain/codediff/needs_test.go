package codediff

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// pad puts n unchanged lines between two parts of a file, so that the
// changes around them are separate hunks.
func pad(n int) string { return strings.Repeat("// -\n", n) }

// needsOf describes the needs of a set as "change -> changes" lines,
// changes named by String.
func needsOf(s *Set, needs [][]int) []string {
	var out []string
	for i, ns := range needs {
		if len(ns) == 0 {
			continue
		}
		var names []string
		for _, j := range ns {
			names = append(names, s.Changes[j].String())
		}
		out = append(out, fmt.Sprintf("%s -> %s", s.Changes[i].String(), strings.Join(names, " ")))
	}
	return out
}

// TestNeeds: which changes need which, on a module where a release
// renames a field and its type (pflag v1.0.8), adds a function and its
// caller, adds an import with its only use, edits an existing function
// and its caller (no need: the old function exists), requires a new
// module in go.mod with its go.sum lines, and moves a file to a new
// package that another file then imports.
func TestNeeds(t *testing.T) {
	old := tree(map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n\nrequire example.com/old v1.0.0\n",
		"go.sum": "example.com/old v1.0.0 h1:a=\nexample.com/old v1.0.0/go.mod h1:b=\n",
		"flag.go": "package m\n\n// Whitelist is old.\ntype Whitelist struct{ Unknown bool }\n" + pad(6) +
			"type Set struct {\n\tW Whitelist\n\tname string\n}\n" + pad(6) +
			"func (s *Set) parse() bool {\n\treturn s.W.Unknown\n}\n" + pad(6) +
			"func helperOld() int { return 1 }\n" + pad(6) +
			"func use() int {\n\treturn helperOld()\n}\n" + pad(6),
		"util/util.go": "package util\n\nfunc X() int { return 1 }\n",
		"main/main.go": "package main\n\nimport \"example.com/m/util\"\n" + pad(6) + "func main() {\n\tprintln(util.X())\n}\n",
	})
	nw := tree(map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n\nrequire example.com/old v1.0.0\nrequire example.com/dep v1.2.0\n",
		"go.sum": "example.com/dep v1.2.0 h1:c=\nexample.com/dep v1.2.0/go.mod h1:d=\nexample.com/old v1.0.0 h1:a=\nexample.com/old v1.0.0/go.mod h1:b=\n",
		"flag.go": "package m\n\nimport \"strings\"\n\n// Allowlist is new.\ntype Allowlist struct{ Unknown bool }\n" + pad(6) +
			"type Set struct {\n\tA Allowlist\n\tname string\n}\n" + pad(6) +
			"func (s *Set) parse() bool {\n\treturn s.A.Unknown\n}\n" + pad(6) +
			"func helperOld() int { return 2 }\n" + pad(6) +
			"func use() int {\n\treturn helperOld() + helperNew()\n}\n" + pad(6) +
			"func helperNew() int { return len(strings.TrimSpace(\" \")) }\n",
		"moved/util.go": "package util\n\nfunc X() int { return 1 }\n",
		"main/main.go":  "package main\n\nimport \"example.com/m/moved\"\nimport \"example.com/dep/pkg\"\n" + pad(6) + "func main() {\n\tprintln(util.X(), pkg.Y)\n}\n",
	})
	s := Compare(old, nw, 3)
	got := needsOf(s, s.Needs(nil))
	want := []string{
		// The first hunk adds the import of strings and renames the type:
		// the import needs its only user, the new helper; the old type
		// and its field Unknown are still used by the old field and its
		// use.
		"flag.go:3-4 -> flag.go:12-12 flag.go:22-22 flag.go:46+1",
		"flag.go:12-12 -> flag.go:3-4 flag.go:22-22", // the field's rename: the new type; the old field's use
		"flag.go:22-22 -> flag.go:3-4 flag.go:12-12", // the new use: the new field and type
		"flag.go:38-38 -> flag.go:46+1",              // use() calls the new helper; helperOld's edit needs nothing
		"flag.go:46+1 -> flag.go:3-4",                // the new helper uses strings
		"go.mod:6+1 -> go.sum:1+2",                   // a new requirement: its checksums
		// main imports a package of the new module (needs go.mod) and
		// must use it (needs the line that does); that line uses the
		// new import and the moved package; moving the package needs
		// its old use gone.
		"main/main.go:3-3 -> go.mod:6+1 main/main.go:11-11",
		"main/main.go:11-11 -> main/main.go:3-3 rename util/util.go -> moved/util.go",
		"rename util/util.go -> moved/util.go -> main/main.go:11-11",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("needs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJoin: changes that need each other form an atomic group, which
// Partition cuts apart only when nothing else is left to cut, and the
// changes connected to them join their group.
func TestJoin(t *testing.T) {
	// Ten changes in two files; 1, 4 and 8 need each other (across the
	// files), 6 needs 4.
	var cs []Change
	for i := range 10 {
		p := "a.go"
		if i >= 5 {
			p = "b.go"
		}
		cs = append(cs, Change{Kind: Hunk, Path: p, OldStart: i * 10, Old: [][]byte{[]byte("x\n")}, New: [][]byte{[]byte("y\n")}})
	}
	s := &Set{Old: &Tree{Files: map[string]*File{}}, New: &Tree{Files: map[string]*File{}}, Changes: cs}
	s.index()
	needs := make([][]int, 10)
	needs[1], needs[4], needs[8], needs[6] = []int{4}, []int{8}, []int{1}, []int{4}
	root := s.Groups(ByFiles)
	root.Join(needs)
	for n := 2; n <= 8; n++ {
		parts := root.Partition(seq(10), n)
		if len(parts) != n {
			t.Fatalf("n=%d: %d parts", n, len(parts))
		}
		together := false
		for _, p := range parts {
			if slices.Contains(p, 1) && slices.Contains(p, 4) && slices.Contains(p, 8) {
				together = true
			}
		}
		if !together {
			t.Errorf("n=%d: %v cuts the atomic group {1, 4, 8}", n, parts)
		}
		if n == 2 {
			for _, p := range parts {
				if slices.Contains(p, 4) != slices.Contains(p, 6) {
					t.Errorf("n=2: %v separates 6 from 4, which it needs", parts)
				}
			}
		}
	}
	if parts := root.Partition(seq(10), 10); len(parts) != 10 {
		t.Errorf("n=10: %v", parts)
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestNeedsContext: the trees of a set made from a git commit hold only
// the files it changes; the context supplies the others, and may say of a
// path that it does not exist (nil), as an overlay of a revision does.
func TestNeedsContext(t *testing.T) {
	old := tree(map[string]string{"a.go": "package m\n\nfunc A() int { return 1 }\n"})
	nw := tree(map[string]string{"a.go": "package m\n\nfunc A() int { return B() }\n"})
	context := tree(map[string]string{"b.go": "package m\n\nfunc B() int { return 2 }\n", "gone.go": ""})
	context.Files["gone.go"] = nil
	s := Compare(old, nw, 3)
	if got := s.Needs(context); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("needs %v: B is in the context, old and new", got)
	}
}

// TestRequirements reads go.mod as the go command does (x/mod/modfile):
// blocks, single lines, comments, a quoted module path.
func TestRequirements(t *testing.T) {
	gomod := &File{Data: []byte("module \"example.com/app\" // the app\n\ngo 1.22\n\nrequire example.com/one v1.0.0\n\nrequire (\n\texample.com/two v0.2.0 // indirect\n\t\"example.com/three/v3\" v3.0.0\n)\n\n// require example.com/commented v1.0.0\n")}
	got := requirements(gomod)
	want := map[string]bool{"example.com/one": true, "example.com/two": true, "example.com/three/v3": true}
	if !maps.Equal(got, want) {
		t.Errorf("requirements: %v, want %v", got, want)
	}
}

// TestNeedsNewAPI: a go.mod change that moves a required module to
// another version (pflag v1.0.8 for cobra v1.10.0) is needed by a
// change that uses a name of that module the old tree never uses (its
// new API), not by one that uses a name the old tree uses too; and it
// needs a change that stops using a name the new tree never uses (a
// name the new version may have taken away).
func TestNeedsNewAPI(t *testing.T) {
	old := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire (\n\tgithub.com/x/flags v1.0.6\n\texample.com/other v1.0.0\n)\n",
		"a.go":   "package app\n\nimport (\n\tf \"github.com/x/flags\"\n\t\"example.com/other\"\n)\n\nvar Mode = f.Old\n" + pad(6) + "var Again = f.Old\n" + pad(6) + "var O = other.Old\n" + pad(6) + "var W = f.Whitelist\n",
	})
	nw := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire (\n\tgithub.com/x/flags v1.0.8\n\texample.com/other v1.0.0\n)\n",
		"a.go":   "package app\n\nimport (\n\tf \"github.com/x/flags\"\n\t\"example.com/other\"\n)\n\nvar Mode = f.New\n" + pad(6) + "var Again = f.Old + 1\n" + pad(6) + "var O = other.New\n" + pad(6) + "var W = 0\n",
	})
	s := Compare(old, nw, 2)
	got := needsOf(s, s.Needs(nil))
	want := []string{"a.go:8-8 -> go.mod:6-6", "go.mod:6-6 -> a.go:29-29"}
	if !slices.Equal(got, want) {
		t.Errorf("needs %q, want %q", got, want)
	}
}

// TestNeedsConstraints: a file no build on this machine compiles (here
// one for `go run` only) needs nothing: its use of a name a change
// declares joins no changes.
func TestNeedsConstraints(t *testing.T) {
	old := tree(map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.21\n",
		"p/a.go":   "package p\n\nfunc A() int { return 1 }\n" + pad(6),
		"p/gen.go": "//go:build ignore\n\npackage p\n\nvar _ = 0\n",
		"p/b.go":   "package p\n\nvar _ = 0\n",
	})
	nw := tree(map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.21\n",
		"p/a.go":   "package p\n\nfunc A() int { return 1 }\n" + pad(6) + "func B() int { return 2 }\n",
		"p/gen.go": "//go:build ignore\n\npackage p\n\nvar _ = B()\n",
		"p/b.go":   "package p\n\nvar _ = B()\n",
	})
	s := Compare(old, nw, 0)
	got := needsOf(s, s.Needs(nil))
	want := []string{"p/b.go:3-3 -> p/a.go:10+1"}
	if !slices.Equal(got, want) {
		t.Errorf("needs %q, want %q", got, want)
	}
}

// TestNeedsDeterministic: two locals of one name in one function are
// one entity to the needs (locals are named by function and name, the
// same in both trees); the first one's change declares it, in every run,
// so that the same trees give the same needs and the same search.
func TestNeedsDeterministic(t *testing.T) {
	block := func(a, b string) string { return "\t{\n\t\t" + a + "\n\t\t_ = 0\n\t\t" + b + "\n\t}\n" }
	old := tree(map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n",
		"p/a.go": "package p\n\nfunc F() {\n" + block("// a", "// b") + block("// c", "// d") + "}\n",
	})
	nw := tree(map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n",
		"p/a.go": "package p\n\nfunc F() {\n" + block("x := 1", "println(x)") + block("x := 2", "println(x)") + "}\n",
	})
	s := Compare(old, nw, 0)
	// The first x is the entity's declaration: it must be used, so its
	// change needs the uses; both uses need it.
	want := []string{"p/a.go:5-5 -> p/a.go:7-7 p/a.go:12-12", "p/a.go:7-7 -> p/a.go:5-5", "p/a.go:12-12 -> p/a.go:5-5"}
	for range 30 {
		if got := needsOf(s, s.Needs(nil)); !slices.Equal(got, want) {
			t.Fatalf("needs %q, want %q", got, want)
		}
	}
}
