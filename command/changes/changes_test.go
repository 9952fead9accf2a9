package changes

import (
	"context"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
)

func TestAlgorithm(t *testing.T) {
	for _, c := range []struct {
		name string
		want dd.Algorithm
	}{{"dd", dd.Interference}, {"ddplus", dd.Plus}, {"ddmin", dd.Minimize}} {
		var a Algorithm
		if err := a.UnmarshalText([]byte(c.name)); err != nil {
			t.Fatal(err)
		}
		if a.dd() != c.want || a.String() != c.name {
			t.Errorf("%s: %v (%s), want %v", c.name, a.dd(), a, c.want)
		}
	}
	var a Algorithm
	if err := a.UnmarshalText([]byte("bisect")); err == nil || err.Error() != "want dd, ddplus or ddmin" {
		t.Errorf("bisect: %v", err)
	}
}

// tree is a tree of regular files with the given contents.
func tree(files map[string]string) *codediff.Tree {
	tr := &codediff.Tree{Files: map[string]*codediff.File{}}
	for p, d := range files {
		tr.Files[p] = &codediff.File{Data: []byte(d), Mode: 0o644}
	}
	return tr
}

// TestHolding: the hunks that hold line edits of a patch, for the new
// version without them.
func TestHolding(t *testing.T) {
	old := tree(map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "b.txt": "x\n"})
	nw := tree(map[string]string{"a.txt": "1\nTWO\n3\n4\n5\n6\n7\nEIGHT\n9\n", "b.txt": "y\n", "c.txt": "new\n"})
	hunks := codediff.Compare(old, nw, 2)
	fine := codediff.Compare(old, nw, -1)
	name := func(s *codediff.Set, c []int) []string {
		var out []string
		for _, i := range c {
			out = append(out, s.Changes[i].String())
		}
		return out
	}
	find := func(s *codediff.Set, want string) int {
		for i := range s.Changes {
			if s.Changes[i].String() == want {
				return i
			}
		}
		t.Fatalf("no change %s in %v", want, name(s, dd.All(s.Len())))
		return -1
	}
	all := dd.All(hunks.Len())
	for _, c := range []struct {
		patch []string
		want  string
	}{
		{[]string{"a.txt:3+1"}, "a.txt:2-2"}, // the insertion of TWO
		{[]string{"a.txt:8-8"}, "a.txt:8-8"}, // the deletion of 8
		{[]string{"a.txt:2-2", "b.txt:2+1"}, "a.txt:2-2 b.txt:1-1"},
		{[]string{"add c.txt"}, "add c.txt"},
		{nil, ""},
	} {
		var patch []int
		for _, p := range c.patch {
			patch = append(patch, find(fine, p))
		}
		got := strings.Join(name(hunks, holding(hunks, all, fine, patch)), " ")
		if got != c.want {
			t.Errorf("%v: %q, want %q (hunks %v)", c.patch, got, c.want, name(hunks, all))
		}
	}
}

// TestPredict: a configuration with type errors in two packages is
// predicted unresolved once the test was seen to build one of them,
// and errors in a package the test was seen not to build never count.
func TestPredict(t *testing.T) {
	// Each package's function is renamed; its caller in the same
	// package follows (p/a.go, q/a.go).
	old := tree(map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"p/d.go":  "package p\n\nfunc f() int { return 1 }\n",
		"p/a.go":  "package p\n\nvar A = f()\n",
		"q/d.go":  "package q\n\nfunc g() int { return 1 }\n",
		"q/a.go":  "package q\n\nvar A = g()\n",
		"r/ok.go": "package r\n\nvar R = 1\n",
	})
	nw := tree(map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"p/d.go":  "package p\n\nfunc f2() int { return 1 }\n",
		"p/a.go":  "package p\n\nvar A = f2()\n",
		"q/d.go":  "package q\n\nfunc g2() int { return 1 }\n",
		"q/a.go":  "package q\n\nvar A = g2()\n",
		"r/ok.go": "package r\n\nvar R = 2\n",
	})
	set := codediff.Compare(old, nw, 2)
	var names []string
	for i := range set.Changes {
		names = append(names, set.Changes[i].String())
	}
	if strings.Join(names, " ") != "p/a.go:3-3 p/d.go:3-3 q/a.go:3-3 q/d.go:3-3 r/ok.go:3-3" {
		t.Fatalf("changes %v", names)
	}
	lv := &level{set: set, check: set.BuildCheck(nil)}
	both := []int{1, 3} // both definitions renamed, no caller: errors in p and q
	dirs := func(errs []codediff.BuildError) string { return strings.Join(buildDirs(errs), " ") }
	for _, c := range []struct {
		name    string
		probed  map[string]int
		off     map[string]bool
		config  []int
		dirs    string
		trusted bool
	}{
		{"nothing seen", nil, nil, both, "p q", false},
		{"p seen built", map[string]int{"p": 1}, nil, both, "p q", true},
		{"p seen built, q not", map[string]int{"p": 1}, map[string]bool{"q": true}, both, "p", true},
		{"q not built, p not seen", nil, map[string]bool{"q": true}, both, "p", false},
		{"only q's errors, q not built", map[string]int{"p": 1}, map[string]bool{"q": true}, []int{3}, "", false},
		{"no errors", map[string]int{"p": 1}, nil, []int{0, 1, 4}, "", false},
	} {
		e := &search{probed: c.probed, predictOff: c.off}
		errs, trusted := e.predict(lv, c.config)
		if dirs(errs) != c.dirs || trusted != c.trusted {
			t.Errorf("%s: errors in %q, trusted %v; want %q, %v", c.name, dirs(errs), trusted, c.dirs, c.trusted)
		}
	}
}

// TestFailingSize: the size the progress line shows (the smallest of
// the steps' failing) never falls below the result's, as the searches
// of --algorithm run on a cause of two changes that interfere.
func TestFailingSize(t *testing.T) {
	for _, a := range []Algorithm{DD, DDPlus, DDMin} {
		var sizes []int
		opts := dd.Options{Algorithm: a.dd(), Observer: dd.ObserverFunc(func(ev dd.Event) {
			if st, ok := ev.(dd.Step); ok {
				n := a.failing(st)
				if len(sizes) > 0 {
					n = min(n, sizes[len(sizes)-1])
				}
				sizes = append(sizes, n)
			}
		})}
		res, err := dd.Run(context.Background(), 40, dd.TesterFunc(func(_ context.Context, c dd.Config) dd.Outcome {
			if c.Contains(3) && c.Contains(31) {
				return dd.Fail
			}
			return dd.Pass
		}), opts)
		if err != nil {
			t.Fatal(err)
		}
		got := len(res.Delta)
		if a == DDMin {
			got = len(res.Fail)
		}
		if got != 2 || len(sizes) == 0 {
			t.Fatalf("%s: result %d changes, %d steps", a, got, len(sizes))
		}
		for i, n := range sizes {
			if n < got || i > 0 && n > sizes[i-1] {
				t.Errorf("%s: sizes shown %v: below the result's %d, or growing", a, sizes, got)
				break
			}
		}
	}
}
