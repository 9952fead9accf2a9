package codediff

import (
	"slices"
	"strings"
	"testing"
)

// renameSet: a function renamed in its definition (d.go) and at three
// call sites in two files, and an unrelated change.
func renameSet() *Set {
	old := tree(map[string]string{
		"p/d.go": "package p\n\nfunc total() int { return 1 }\n",
		"p/a.go": "package p\n\nvar A = total()\n\n\n\nvar A2 = total()\n",
		"q/b.go": "package q\n\nvar B = p.total()\n\n\n\nvar Other = 1\n",
	})
	nw := tree(map[string]string{
		"p/d.go": "package p\n\nfunc sumAll() int { return 1 }\n",
		"p/a.go": "package p\n\nvar A = sumAll()\n\n\n\nvar A2 = sumAll()\n",
		"q/b.go": "package q\n\nvar B = p.sumAll()\n\n\n\nvar Other = 2\n",
	})
	return Compare(old, nw, 2)
}

func names(s *Set, c []int) []string {
	var out []string
	for _, i := range c {
		out = append(out, s.Changes[i].String())
	}
	return out
}

func TestResolveGoErrors(t *testing.T) {
	s := renameSet()
	// Changes: p/a.go:3, p/a.go:7, p/d.go:3, q/b.go:3, q/b.go:7.
	if got := names(s, all(s.Len())); strings.Join(got, " ") != "p/a.go:3-3 p/a.go:7-7 p/d.go:3-3 q/b.go:3-3 q/b.go:7-7" {
		t.Fatalf("changes %v", got)
	}
	for _, c := range []struct {
		name   string
		config []int
		output string
		want   []string
	}{
		// The definition renamed alone: the callers miss sumAll's old
		// name; the changes that mention total (the call sites) are added.
		{"definition only", []int{2}, "# example.com/app/p\np/a.go:3:9: undefined: total\np/a.go:7:10: undefined: total\n",
			[]string{"p/a.go:3-3", "p/a.go:7-7", "q/b.go:3-3"}},
		// A call site alone: the position names the line, the identifier
		// the definition and the other call sites.
		{"call site only", []int{0}, "./p/a.go:3:9: undefined: sumAll\n",
			[]string{"p/a.go:7-7", "p/d.go:3-3", "q/b.go:3-3"}},
		// Absolute paths into a work directory are mapped to the tree.
		{"absolute path", []int{0, 1, 2}, "/tmp/wynot-123/w0/q/b.go:3:11: undefined: p.total\n",
			[]string{"q/b.go:3-3"}},
		// The message names the missing name and a type: only the
		// missing name counts; q/b.go:7-7, which mentions the type
		// Other, is not added.
		{"missing field", []int{0}, "./p/a.go:3:9: v.sumAll undefined (type *Other has no field or method sumAll)\n",
			[]string{"p/a.go:7-7", "p/d.go:3-3", "q/b.go:3-3"}},
		// Nothing to add: no positions, no identifiers of the changes.
		{"nothing", []int{0}, "go: cannot find main module\n", nil},
	} {
		got := names(s, s.Resolve([]byte(c.output), c.config))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: added %v, want %v", c.name, got, c.want)
		}
	}
}

// TestResolvePositionsInConfiguredFile: line numbers of a message refer
// to the file as configured, where applied hunks shift later lines.
func TestResolvePositionsInConfiguredFile(t *testing.T) {
	old := tree(map[string]string{"f.c": "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"})
	// Change 0 inserts three lines after a; change 1 changes i.
	nw := tree(map[string]string{"f.c": "a\nx1\nx2\nx3\nb\nc\nd\ne\nf\ng\nh\nI\nj\n"})
	s := Compare(old, nw, 2)
	if s.Len() != 2 {
		t.Fatalf("%d changes", s.Len())
	}
	// With change 0 applied, old line 9 (i) is line 12.
	if got := s.Resolve([]byte("f.c:12: error: expected ';'\n"), []int{0}); !slices.Equal(got, []int{1}) {
		t.Errorf("added %v, want [1]", got)
	}
	// Without it, line 12 is past the file's end: nothing near.
	if got := s.Resolve([]byte("f.c:12: error: expected ';'\n"), nil); len(got) != 0 {
		t.Errorf("added %v, want none", got)
	}
}

func all(n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = i
	}
	return c
}

// TestResolveRequirement: code that uses a new API of another module
// does not build without the go.mod change that requires the module's
// new version; no change mentions the missing name but the code itself,
// so the messages' package qualifiers lead to the requirement, through
// an import's alias or the module's last path element.
func TestResolveRequirement(t *testing.T) {
	old := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire (\n\tgithub.com/x/flags v1.0.6\n\texample.com/same v1.0.0\n\texample.com/same2 v1.0.0\n\tgolang.org/x/text v0.3.0\n)\n",
		"a.go":   "package app\n\nimport (\n\tf \"github.com/x/flags\"\n)\n\nvar Mode = f.Old\n\n\n\nvar Other = 1\n",
	})
	nw := tree(map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire (\n\tgithub.com/x/flags v1.0.8\n\texample.com/same v1.0.0\n\texample.com/same2 v1.0.0\n\tgolang.org/x/text v0.4.0\n)\n",
		"a.go":   "package app\n\nimport (\n\tf \"github.com/x/flags\"\n)\n\nvar Mode = f.New\n\n\n\nvar Other = 2\n",
	})
	s := Compare(old, nw, 0)
	if got := strings.Join(names(s, all(s.Len())), " "); got != "a.go:7-7 a.go:11-11 go.mod:6-6 go.mod:9-9" {
		t.Fatalf("changes %s", got)
	}
	for _, c := range []struct {
		name, output string
		want         []string
	}{
		{"by the import's alias", "./a.go:7:14: undefined: f.New\n", []string{"go.mod:6-6"}},
		{"by the module's name", "./a.go:9:3: v.Flags().Lenient undefined (type *flags.Set has no field or method Lenient)\n", []string{"go.mod:6-6"}},
		{"another package", "./a.go:7:14: undefined: strings.Cut\n", nil},
	} {
		got := names(s, s.Resolve([]byte(c.output), []int{0}))
		got = slices.DeleteFunc(got, func(n string) bool { return strings.HasPrefix(n, "a.go") })
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: added %v, want %v", c.name, got, c.want)
		}
	}
}
