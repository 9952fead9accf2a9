package codediff

import (
	"fmt"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestBuildCheck: configurations of a rename that do not compile are
// found without a build, with messages Resolve can read; names of
// another module, which the check cannot see, and packages the
// configuration does not change are no reason.
func TestBuildCheck(t *testing.T) {
	old := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n",
		"p/d.go": "package p\n\nfunc total() int { return 1 }\n",
		"p/a.go": "package p\n\nvar A = total()\n\n\n\nvar A2 = total()\n",
		"p/f.go": "package p\n\nimport \"github.com/x/flags\"\n\nfunc F(x bool) {\n\tprintln(1)\n}\n\nvar V = flags.Old\n",
		"q/b.go": "package q\n\nimport \"example.com/app/p\"\n\nvar B = p.A\n",
	})
	nw := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n",
		"p/d.go": "package p\n\nfunc sumAll() int { return 1 }\n",
		"p/a.go": "package p\n\nvar A = sumAll()\n\n\n\nvar A2 = sumAll()\n",
		"p/f.go": "package p\n\nimport \"github.com/x/flags\"\n\nfunc F(x bool) {\n\tif x {\n\tprintln(1)\n\t}\n}\n\nvar V = flags.New\n",
		"q/b.go": "package q\n\nimport \"example.com/app/p\"\n\nvar B = p.A2\n",
	})
	s := Compare(old, nw, 0)
	if got := strings.Join(names(s, all(s.Len())), " "); got != "p/a.go:3-3 p/a.go:7-7 p/d.go:3-3 p/f.go:6+1 p/f.go:7+1 p/f.go:9-9 q/b.go:5-5" {
		t.Fatalf("changes %s", got)
	}
	b := s.BuildCheck(nil)
	for _, c := range []struct {
		name   string
		config []int
		want   string // the messages, joined by "|"
	}{
		{"old version", nil, ""},
		{"new version", all(s.Len()), ""},
		// Only p is checked: q, which uses p.A2, builds as long as p does.
		{"q alone", []int{6}, ""},
		// The other module's names are unknown to the check in every
		// configuration: never a reason.
		{"flags.New alone", []int{5}, ""},
		{"definition only", []int{2}, "p/a.go:3:9: undefined: total|p/a.go:7:10: undefined: total"},
		{"one call site", []int{0, 1}, "p/a.go:3:9: undefined: sumAll|p/a.go:7:10: undefined: sumAll"},
		{"an if without its brace", []int{3}, "p/f.go:10:19: expected '}', found 'EOF'"},
	} {
		var got []string
		for _, e := range b.Check(c.config) {
			if e.Dir != "p" {
				t.Errorf("%s: error in %s: %s", c.name, e.Dir, e.Msg)
			}
			got = append(got, e.Msg)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: %q, want %q", c.name, strings.Join(got, "|"), c.want)
		}
	}
	// A build of q builds p, which q imports.
	if got := b.Deps("q"); !slices.Equal(got, []string{"p"}) {
		t.Errorf("deps of q: %v", got)
	}
	if got := b.Deps("p"); len(got) != 0 {
		t.Errorf("deps of p: %v", got)
	}
	// Resolve reads the check's messages as a build's.
	var out []string
	for _, e := range b.Check([]int{2}) {
		out = append(out, e.Msg)
	}
	if got := names(s, s.Resolve([]byte(strings.Join(out, "\n")), []int{2})); strings.Join(got, " ") != "p/a.go:3-3 p/a.go:7-7" {
		t.Errorf("resolved with %v", got)
	}
}

// TestBuildCheckReports: a build's output shows that the build compiled
// a package when it reports an error in one of its files.
func TestBuildCheckReports(t *testing.T) {
	s := renameSet()
	b := s.BuildCheck(nil)
	for _, c := range []struct {
		output, dir string
		want        bool
	}{
		{"# example.com/app/p\np/a.go:3:9: undefined: total\n", "p", true},
		{"# example.com/app/p\np/a.go:3:9: undefined: total\n", "q", false},
		{"/tmp/wynot-1/w0/q/b.go:3:11: undefined: p.total\n", "q", true},
		{"go: cannot find main module\n", "p", false},
	} {
		if got := b.Reports([]byte(c.output), c.dir); got != c.want {
			t.Errorf("%q in %s: %v, want %v", c.output, c.dir, got, c.want)
		}
	}
}

// otherOS is a GOOS other than this machine's.
func otherOS() string {
	if runtime.GOOS == "windows" {
		return "linux"
	}
	return "windows"
}

// TestBuildCheckConstraints: the check sees the files a build on this
// machine compiles. Two files of one function for two systems are not a
// redeclaration (which, seen in the old and new versions alike, would
// hide the real one as noise); a configuration that declares the
// function a second time for this system is.
func TestBuildCheckConstraints(t *testing.T) {
	here, other := "p/f_"+runtime.GOOS+".go", "p/f_"+otherOS()+".go"
	old := tree(map[string]string{
		"go.mod":   "module example.com/app\n\ngo 1.21\n",
		"p/a.go":   "package p\n\nfunc A() int { return f() }\n",
		here:       "package p\n\nfunc f() int { return 1 }\n",
		other:      "package p\n\nfunc f() int { return 2 }\n",
		"p/gen.go": "//go:build ignore\n\npackage main\n\nfunc main() { undefinedHere() }\n",
	})
	nw := tree(map[string]string{
		"go.mod":   "module example.com/app\n\ngo 1.21\n",
		"p/a.go":   "package p\n\nfunc A() int { return f() }\n\nfunc f() int { return impl() }\n",
		here:       "package p\n\nfunc impl() int { return 1 }\n",
		other:      "package p\n\nfunc f() int { return 2 }\n",
		"p/gen.go": "//go:build ignore\n\npackage main\n\nfunc main() { undefinedHere() }\n",
	})
	s := Compare(old, nw, 0)
	if got := strings.Join(names(s, all(s.Len())), " "); got != "p/a.go:4+2 "+here+":3-3" {
		t.Fatalf("changes %s", got)
	}
	b := s.BuildCheck(nil)
	for _, c := range []struct {
		name   string
		config []int
		want   string // a part of the messages, joined by "|"
	}{
		{"old version", nil, ""},
		{"new version", all(s.Len()), ""},
		{"the second f", []int{0}, "f redeclared in this block"},
		{"f renamed alone", []int{1}, "undefined: f"},
	} {
		var got []string
		for _, e := range b.Check(c.config) {
			got = append(got, e.Msg)
		}
		if j := strings.Join(got, "|"); c.want == "" && j != "" || !strings.Contains(j, c.want) {
			t.Errorf("%s: %q, want %q", c.name, j, c.want)
		}
	}
}

// With the packages from outside the tree typed (WithImports: export
// data), a configuration's misuse of another module's API is a type
// error the check finds; left empty, that package's names are unknown
// in every version alike, and the check cannot tell.
func TestBuildCheckWithImports(t *testing.T) {
	dep := types.NewPackage("github.com/x/dep", "dep")
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, dep, "n", types.Typ[types.Int])),
		types.NewTuple(types.NewVar(token.NoPos, dep, "", types.Typ[types.Int])), false)
	dep.Scope().Insert(types.NewFunc(token.NoPos, dep, "F", sig))
	dep.MarkComplete()
	ext := importerFunc(func(p string) (*types.Package, error) {
		if p == dep.Path() {
			return dep, nil
		}
		return nil, fmt.Errorf("no export data for %s", p)
	})
	old := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n",
		"p/p.go": "package p\n\nimport \"github.com/x/dep\"\n\nvar n = 1\n\nvar V = dep.F(n)\n",
	})
	nw := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n",
		"p/p.go": "package p\n\nimport \"github.com/x/dep\"\n\nvar n = \"1\"\n\nvar V = dep.F(len(n))\n",
	})
	s := Compare(old, nw, 0)
	if s.Len() != 2 {
		t.Fatalf("changes %v", s.Changes)
	}
	// The string without len: dep.F gets a string.
	if errs := s.BuildCheck(nil).WithImports(ext).Check([]int{0}); len(errs) != 1 || !strings.Contains(errs[0].Msg, "cannot use n (variable of type string) as int value in argument to dep.F") {
		t.Errorf("typed: %v", errs)
	}
	if errs := s.BuildCheck(nil).Check([]int{0}); len(errs) != 0 {
		t.Errorf("untyped: %v", errs)
	}
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }
