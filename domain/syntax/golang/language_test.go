package golang

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax"
)

// moduleTree is a tree of two modules: the root's, with go.sum and a
// vendor directory, and sub's, with its go.mod alone.
func moduleTree() map[string][]byte {
	return map[string][]byte{
		"go.mod":             []byte("module example.com/app\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n"),
		"go.sum":             []byte("example.com/dep v1.0.0 h1:x=\nexample.com/dep v1.0.0/go.mod h1:y=\n"),
		"vendor/modules.txt": []byte("# example.com/dep v1.0.0\n## explicit; go 1.22\nexample.com/dep\n"),
		"main.go":            []byte("package main\n\nimport \"example.com/dep\"\n\nfunc main() { _ = dep.X }\n"),
		"sub/go.mod":         []byte("module example.com/sub\n\ngo 1.22\n"),
		"sub/s.go":           []byte("package sub\n\nconst S = 1\n"),
		"README":             []byte("read me\n"),
	}
}

// TestLanguageTreeContext: the export data is asked for in every module
// of the tree, through the Exec handed in, only with type checks and Go
// files that parse; what it says and a failure become notes.
func TestLanguageTreeContext(t *testing.T) {
	for _, c := range []struct {
		name              string
		typeCheck, parsed bool
		fail              bool
		runs              []string // the directories go list ran in
		notes             []string
	}{
		{name: "type checks", typeCheck: true, parsed: true, runs: []string{"/t", "/t/sub"},
			notes: []string{"Go files are type-checked with the export data of 2 packages from outside the tree (go list -export)"}},
		{name: "go list fails", typeCheck: true, parsed: true, fail: true, runs: []string{"/t", "/t/sub"},
			notes: []string{"go list -export failed (.: boom; sub: boom): Go imports from outside the tree stay untyped"}},
		{name: "no type checks", parsed: true},
		{name: "no Go file parses", typeCheck: true},
	} {
		var runs []string
		exec := func(argv []string) ([]byte, error) {
			if argv[0] != "go" || argv[1] != "-C" || !slices.Contains(argv, "-export") {
				t.Errorf("%s: ran %q", c.name, argv)
			}
			runs = append(runs, argv[2])
			if c.fail {
				return nil, errors.New("boom")
			}
			return []byte("fmt\t/cache/fmt.a\nexample.com/dep\t/cache/dep.a\nunsafe\n"), nil
		}
		tr, notes := Language{}.Tree(syntax.Dir{Root: "/t", Files: moduleTree(), TypeCheck: c.typeCheck, Parsed: c.parsed, Exec: exec})
		if tr == nil {
			t.Fatalf("%s: no tree", c.name)
		}
		if !slices.Equal(runs, c.runs) || !slices.Equal(notes, c.notes) {
			t.Errorf("%s: ran in %q, notes %q; want %q, %q", c.name, runs, notes, c.runs, c.notes)
		}
		if imp := tr.(*goTree).imports; (imp != nil) != (len(c.runs) > 0 && !c.fail) {
			t.Errorf("%s: importer %v", c.name, imp)
		}
	}
}

// TestLanguageTreeUnits: a Go file's group is its package's directory;
// each module's go.mod is a unit with its go.sum and vendor/modules.txt.
func TestLanguageTreeUnits(t *testing.T) {
	tr, _ := Language{}.Tree(syntax.Dir{Root: "/t", Files: moduleTree()})
	for name, want := range map[string][2]string{"main.go": {".", "*.go"}, "sub/s.go": {"sub", "sub/*.go"}, "a/b/c.go": {"a/b", "a/b/*.go"}} {
		if k, u := tr.Group(name); k != want[0] || u != want[1] {
			t.Errorf("Group(%s) = %s, %s; want %v", name, k, u, want)
		}
	}
	got := tr.Units(moduleTree())
	want := []syntax.Unit{
		{Name: "go.mod, go.sum, vendor/modules.txt", Files: []string{"go.mod", "go.sum", "vendor/modules.txt"}, Module: true},
		{Name: "sub/go.mod", Files: []string{"sub/go.mod"}, Module: true},
	}
	if len(got) != len(want) {
		t.Fatalf("units %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Name != want[i].Name || !slices.Equal(got[i].Files, want[i].Files) || !got[i].Module {
			t.Errorf("unit %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestLanguageTreeFinish: with type checks, the text passes over go.mod,
// go.sum and vendor/modules.txt are predicted by the module's checks
// (their errors are TypeErrors the language predicts); without, and for
// other files, nothing is.
func TestLanguageTreeFinish(t *testing.T) {
	t.Setenv("GOFLAGS", "") // -mod=mod would add a requirement dropped
	files := moduleTree()
	for _, typeCheck := range []bool{true, false} {
		tr, _ := Language{}.Tree(syntax.Dir{Root: "/t", Files: files, TypeCheck: typeCheck})
		for _, c := range []struct{ name, candidate, class string }{
			{"go.mod", "module example.com/app\n\ngo 1.22\n", "go.mod"},
			{"vendor/modules.txt", "# example.com/dep v1.0.0\nexample.com/dep\n", "vendor/modules.txt"},
			{"README", "", ""},
			{"main.go", "", ""},
		} {
			fin := tr.Finish(c.name, files[c.name], func() map[string][]byte { return files })
			if (fin != nil) != (typeCheck && c.class != "") {
				t.Errorf("typeCheck %v: Finish of %s: %v", typeCheck, c.name, fin != nil)
			}
			if fin == nil {
				continue
			}
			_, err := fin([]byte(c.candidate))
			p, ok := Language{}.Predicts(err)
			if !ok || p.Class != c.class || !strings.Contains(p.Still, "the test does not build the module") {
				t.Errorf("%s: %v predicts %+v, %v", c.name, err, p, ok)
			}
		}
	}
}

// TestLanguagePredicts: a TypeError is a prediction of its directory,
// and what is said when one still fails depends on where it is; other
// errors are no predictions.
func TestLanguagePredicts(t *testing.T) {
	for _, c := range []struct {
		err   error
		ok    bool
		class string
		still string
	}{
		{&TypeError{Msg: "undefined: x"}, true, "", "a candidate with a new type error (undefined: x) still fails: the test does not need code that type-checks"},
		{&TypeError{Msg: "undefined: x", Dir: "p/q"}, true, "p/q", "a candidate with a new type error in p/q (undefined: x) still fails"},
		{&TypeError{Msg: "no longer requires", Dir: "sub/go.sum"}, true, "sub/go.sum", "a candidate that breaks sub/go.sum (no longer requires) still fails"},
		{errors.New("does not parse"), false, "", ""},
		{nil, false, "", ""},
	} {
		p, ok := Language{}.Predicts(c.err)
		if ok != c.ok || p.Class != c.class || !strings.HasPrefix(p.Still, c.still) {
			t.Errorf("%v: %+v, %v", c.err, p, ok)
		}
		if q, ok2 := syntax.Predicts(c.err); ok2 != ok || q != p {
			t.Errorf("%v: the table predicts %+v, %v", c.err, q, ok2)
		}
	}
	mod := []syntax.Unit{{Name: "go.mod", Module: true}}
	for _, c := range []struct {
		off   []string
		units []syntax.Unit
		want  string
	}{
		{nil, nil, " (a Go candidate with a new type error counts as not failing: it was not run)"},
		{nil, mod, " (a Go candidate with a new type error, or a go.mod that breaks its module, counts as not failing: it was not run)"},
		{[]string{"a", "b"}, nil, " (a Go candidate with a new type error outside a, b counts as not failing: it was not run)"},
	} {
		if got := (Language{}).Untested(c.off, c.units); got != c.want {
			t.Errorf("Untested(%v, %v) = %q, want %q", c.off, c.units, got, c.want)
		}
	}
}

// TestLanguageOpen: Go source opens as Go, typed and renaming; text
// that does not parse does not; with type checks, the file's passes and
// a type error's prediction come through the table.
func TestLanguageOpen(t *testing.T) {
	src := []byte("package p\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n")
	syn, err := syntax.New("go", src, true)
	if err != nil {
		t.Fatal(err)
	}
	if syn.Lang != "go" || !syn.Typed || !syn.Renames || syn.Format == nil {
		t.Errorf("syntax %+v", syn)
	}
	if _, err := syntax.New("go", []byte("package p\nfunc {"), true); err == nil || !strings.Contains(err.Error(), "does not parse as Go") {
		t.Errorf("broken Go: %v", err)
	}
	_, err = syn.Finish([]byte("package p\n\nfunc f() int {\n\treturn x\n}\n"))
	if p, ok := syntax.Predicts(err); !ok || p.Class != "" {
		t.Errorf("a new type error: %v predicts %+v, %v", err, p, ok)
	}
	ps, err := syn.Passes(src)
	if err != nil || len(ps) == 0 || ps[0].Name() != "go decls" {
		t.Errorf("passes %v, %v", ps, err)
	}
}
