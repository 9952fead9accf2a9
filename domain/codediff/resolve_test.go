package codediff

import (
	"fmt"
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
		// A call site alone: the missing name is declared by the
		// definition, which is added; the other call sites are not
		// (where a name is declared comes first).
		{"call site only", []int{0}, "./p/a.go:3:9: undefined: sumAll\n",
			[]string{"p/d.go:3-3"}},
		// Absolute paths into a work directory are mapped to the tree.
		{"absolute path", []int{0, 1, 2}, "/tmp/wynot-123/w0/q/b.go:3:11: undefined: p.total\n",
			[]string{"q/b.go:3-3"}},
		// The message names the missing name and a type: only the
		// missing name counts; q/b.go:7-7, which mentions the type
		// Other, is not added.
		{"missing field", []int{0}, "./p/a.go:3:9: v.sumAll undefined (type *Other has no field or method sumAll)\n",
			[]string{"p/d.go:3-3"}},
		// A missing name that no change declares (the old name the
		// definition took away): every change that mentions it.
		{"old name", []int{2, 3}, "p/a.go:7:10: undefined: total\n",
			[]string{"p/a.go:3-3", "p/a.go:7-7"}},
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

// TestResolveDeclarations: a missing name that many changes use is
// resolved by the changes that declare it: a type declared in an added
// file, a struct field, a const block's entry, a method; a missing
// package name by the import that a change adds to the file that misses
// it (not by another file's import of it).
func TestResolveDeclarations(t *testing.T) {
	var oldUses, newUses strings.Builder
	for i := range 8 {
		fmt.Fprintf(&oldUses, "var u%d = 0\n\n\n\n", i)
		fmt.Fprintf(&newUses, "var u%d = Widget{}.Size + Small + fmt.Sprint(W.Grow)\n\n\n\n", i)
	}
	old := tree(map[string]string{
		"p/a.go": "package p\n\nimport (\n\t\"os\"\n)\n\n" + oldUses.String(),
		"p/b.go": "package p\n\nimport (\n\t\"os\"\n)\n\nvar _ = os.Args\n",
		"p/t.go": "package p\n\nconst (\n\tBig = 2\n)\n\ntype Gadget struct {\n\tName string\n}\n",
	})
	nw := tree(map[string]string{
		"p/a.go":      "package p\n\nimport (\n\t\"fmt\"\n)\n\n" + newUses.String(),
		"p/b.go":      "package p\n\nimport (\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint()\n",
		"p/t.go":      "package p\n\nconst (\n\tBig = 2\n\tSmall = 1\n)\n\ntype Gadget struct {\n\tName string\n\tSize int\n}\n",
		"p/widget.go": "package p\n\n// Widget is new.\ntype Widget Gadget\n\nvar W Widget\n\nfunc (Widget) Grow() {}\n",
	})
	s := Compare(old, nw, 0)
	var uses []int
	for i, c := range s.Changes {
		if c.Path == "p/a.go" && c.OldStart >= 6 {
			uses = append(uses, i)
		}
	}
	if len(uses) != 8 {
		t.Fatalf("changes %v", names(s, all(s.Len())))
	}
	c := uses[:1]
	imports := func(p string) []int {
		return slices.DeleteFunc(all(s.Len()), func(i int) bool { return s.Changes[i].String() != p+":4-4" })
	}
	for _, tc := range []struct {
		name, output string
		want         []string
		config       []int // c unless set
	}{
		{"a type of an added file", "p/a.go:7:10: undefined: Widget\n", []string{"add p/widget.go"}, nil},
		{"a field", "p/a.go:7:19: Widget{}.Size undefined (type Widget has no field or method Size)\n", []string{"p/t.go:9+1"}, nil},
		{"a const block's entry", "p/a.go:7:26: undefined: Small\n", []string{"p/t.go:5+1"}, nil},
		{"a method", "p/a.go:7:50: W.Grow undefined (type Widget has no field or method Grow)\n", []string{"add p/widget.go"}, nil},
		{"an import of the file", "p/a.go:7:34: undefined: fmt\n", []string{"p/a.go:4-4"}, nil},
		// The import of fmt without its uses: the uses of that file, not
		// p/b.go's, nor every change that mentions the words of the
		// import path.
		{"an unused import", "p/a.go:4:2: \"fmt\" imported and not used\n", names(s, uses), imports("p/a.go")},
		{"an unused import, named", "p/b.go:4:2: \"example.com/x/fmt/v2\" imported as fmt and not used\n", []string{"p/b.go:7-7"}, imports("p/b.go")},
	} {
		config := tc.config
		if config == nil {
			config = c
		}
		got := names(s, s.Resolve([]byte(tc.output), config))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: added %v, want %v", tc.name, got, tc.want)
		}
	}
}
