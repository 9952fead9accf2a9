package codediff

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/filetree"
)

func tree(files map[string]string) *Tree {
	t := &Tree{Files: map[string]*File{}}
	for p, d := range files {
		t.Files[p] = &File{Data: []byte(d), Mode: 0o644}
	}
	return t
}

func lines(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i) + "\n")
	}
	return b.String()
}

func TestCompareKinds(t *testing.T) {
	base := lines(20, func(i int) string { return fmt.Sprint("line ", i) })
	old := tree(map[string]string{"a.txt": base, "gone.txt": "bye\n", "moved/x.txt": "same\n", "bin": "\x00\x01"})
	changed := strings.Replace(strings.Replace(base, "line 3\n", "LINE 3\n", 1), "line 4\n", "LINE 4\n", 1)
	changed = strings.Replace(changed, "line 15\n", "", 1)
	nw := tree(map[string]string{"a.txt": changed, "new.txt": "hi\n", "moved/y.txt": "same\n", "bin": "\x00\x02"})
	s := Compare(old, nw, 2)
	var got []string
	for _, c := range s.Changes {
		got = append(got, c.String())
	}
	want := []string{"a.txt:4-5", "a.txt:16-16", "replace bin", "delete gone.txt", "rename moved/x.txt -> moved/y.txt", "add new.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	// With a context of 20 the two hunks of a.txt are one.
	if n := Compare(old, nw, 20).Len(); n != 5 {
		t.Errorf("context 20: %d changes, want 5", n)
	}
	// With context -1, every line edit is a change: 2 lines replaced (4
	// edits) and one deleted.
	if n := Compare(old, nw, -1).Len(); n != 4+1+4 {
		t.Errorf("context -1: %d changes, want 9", n)
	}
}

// randomTrees makes an old and a new tree of text files with random edits.
func randomTrees(rng *rand.Rand) (*Tree, *Tree) {
	old, nw := map[string]string{}, map[string]string{}
	for f := range 2 + rng.IntN(4) {
		name := fmt.Sprintf("d%d/f%d.txt", f%2, f)
		n := 5 + rng.IntN(30)
		ls := make([]string, n)
		for i := range ls {
			ls[i] = fmt.Sprint("text ", rng.IntN(8))
		}
		old[name] = strings.Join(ls, "\n") + "\n"
		switch rng.IntN(6) {
		case 0: // deleted
			continue
		case 1: // renamed
			nw[name+".moved"] = old[name]
			continue
		}
		for range rng.IntN(6) {
			i := rng.IntN(len(ls))
			switch rng.IntN(3) {
			case 0:
				ls[i] = "changed " + fmt.Sprint(rng.IntN(100))
			case 1:
				ls = slices.Delete(ls, i, i+1)
			default:
				ls = slices.Insert(ls, i, "inserted "+fmt.Sprint(rng.IntN(100)))
			}
			if len(ls) == 0 {
				ls = []string{"x"}
			}
		}
		nw[name] = strings.Join(ls, "\n") + "\n"
	}
	nw["added.txt"] = "new file\n"
	return tree(old), tree(nw)
}

func subset(rng *rand.Rand, n int) []int {
	var c []int
	for i := range n {
		if rng.IntN(2) == 0 {
			c = append(c, i)
		}
	}
	return c
}

// TestApplyAndPatch: applying no changes gives the old tree, all changes
// the new one; and for random subsets, git apply of Patch on the old tree
// gives exactly what Content computes.
func TestApplyAndPatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	haveGit := exec.Command("git", "--version").Run() == nil
	for round := range 60 {
		old, nw := randomTrees(rng)
		context := []int{-1, 0, 2}[round%3]
		s := Compare(old, nw, context)
		all := make([]int, s.Len())
		for i := range all {
			all[i] = i
		}
		for p, f := range s.Content(nil) {
			if !filetree.Same(f, old.Files[p]) {
				t.Fatalf("no changes: %s differs from the old tree", p)
			}
		}
		for p, f := range s.Content(all) {
			if !filetree.Same(f, nw.Files[p]) {
				t.Fatalf("all changes: %s = %q, want %q", p, data(f), data(nw.Files[p]))
			}
		}
		if !haveGit || round%4 != 0 {
			continue
		}
		c := subset(rng, s.Len())
		dir := t.TempDir()
		ws, err := filetree.NewWorkspace(dir, s.Old)
		if err != nil {
			t.Fatal(err)
		}
		_ = ws
		patch := s.Patch(c)
		if len(c) == 0 {
			if patch != "" {
				t.Fatalf("empty configuration, patch %q", patch)
			}
			continue
		}
		cmd := exec.Command("git", "apply", "--unsafe-paths", "-")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(patch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git apply: %v\n%s\npatch:\n%s", err, out, patch)
		}
		got, err := filetree.ReadTree(dir)
		if err != nil {
			t.Fatal(err)
		}
		for p, f := range s.Content(c) {
			if g := got.Files[p]; !bytes.Equal(data(g), data(f)) || (g == nil) != (f == nil) {
				t.Fatalf("after git apply, %s = %q, want %q\npatch:\n%s", p, data(g), data(f), patch)
			}
		}
	}
}

func data(f *File) []byte {
	if f == nil {
		return nil
	}
	return f.Data
}

// TestWorkspace: a workspace holds what Content says, and applying a
// configuration writes only the files that differ from the previous one.
func TestWorkspace(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	old, nw := randomTrees(rng)
	s := Compare(old, nw, 2)
	dir := t.TempDir()
	ws, err := filetree.NewWorkspace(dir, s.Old)
	if err != nil {
		t.Fatal(err)
	}
	var prev []int
	for range 30 {
		c := subset(rng, s.Len())
		n, err := ws.Sync(s.Content(c))
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		before, after := s.Content(prev), s.Content(c)
		for p := range after {
			if !filetree.Same(before[p], after[p]) {
				want++
			}
		}
		if n != want {
			t.Errorf("wrote %d files, %d differ", n, want)
		}
		got, err := filetree.ReadTree(dir)
		if err != nil {
			t.Fatal(err)
		}
		for p, f := range after {
			if g := got.Files[p]; (g == nil) != (f == nil) || f != nil && !bytes.Equal(g.Data, f.Data) {
				t.Fatalf("%s holds %q, want %q", p, data(g), data(f))
			}
		}
		for p, f := range old.Files {
			if _, touched := after[p]; !touched && !bytes.Equal(got.Files[p].Data, f.Data) {
				t.Fatalf("untouched %s changed", p)
			}
		}
		prev = c
	}
}

// TestPartition: for every grouping, partitions cover the difference
// exactly, in n non-empty subsets, and keep a group together when there
// are at least as many groups as subsets.
func TestPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 200 {
		old, nw := randomTrees(rng)
		s := Compare(old, nw, -1)
		if s.Len() < 2 {
			continue
		}
		for g := NoGroups; g <= Auto; g++ {
			root := s.Groups(g)
			delta := subset(rng, s.Len())
			if len(delta) < 2 {
				continue
			}
			for n := 2; n <= len(delta); n++ {
				parts := root.Partition(delta, n)
				if len(parts) != n {
					t.Fatalf("%s: %d parts, want %d", g, len(parts), n)
				}
				var all []int
				for _, p := range parts {
					if len(p) == 0 {
						t.Fatalf("%s n=%d: empty part in %v", g, n, parts)
					}
					all = append(all, p...)
				}
				slices.Sort(all)
				if !slices.Equal(all, delta) {
					t.Fatalf("%s n=%d: parts %v do not cover %v", g, n, parts, delta)
				}
			}
		}
	}
}

func TestGroupsByFileAndDecl(t *testing.T) {
	goOld := "package p\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n\nfunc C() int {\n\treturn 3\n}\n"
	goNew := strings.NewReplacer("return 1", "return 10", "return 3", "return 30").Replace(goOld)
	old := tree(map[string]string{"p/p.go": goOld, "q/q.txt": "x\ny\nz\n"})
	nw := tree(map[string]string{"p/p.go": goNew, "q/q.txt": "x\nY\nz\n"})
	s := Compare(old, nw, 0)
	root := s.Groups(Auto)
	// Root: two directories; p.go has two hunks in two declarations.
	if len(root.Kids) != 2 {
		t.Fatalf("root has %d groups", len(root.Kids))
	}
	p := root.Kids[0]
	for len(p.Kids) == 1 {
		p = p.Kids[0]
	}
	if len(p.Kids) != 2 || !strings.HasSuffix(p.Kids[0].Name, ":A") || !strings.HasSuffix(p.Kids[1].Name, ":C") {
		var names []string
		for _, k := range p.Kids {
			names = append(names, k.Name)
		}
		t.Errorf("groups of p.go: %v", names)
	}
	// At n = 2, the two directories are the two subsets.
	parts := root.Partition([]int{0, 1, 2}, 2)
	if !slices.Equal(parts[0], []int{0, 1}) || !slices.Equal(parts[1], []int{2}) {
		t.Errorf("partition %v", parts)
	}
}
