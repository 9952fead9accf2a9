package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/filetree"
)

// TestApplyWithout takes apart the diff codediff prints for random
// patches of random trees, at each granularity wynot prints (hunks,
// single lines, line edits, parts of added Go files), and rebuilds the
// old tree with every change but one: each tree must be the one
// codediff builds for the patch less that change (under -short on 15
// random trees instead of 60).
func TestApplyWithout(t *testing.T) {
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"a", "b", "c", "d", "x := 1", "return", "}", "{", "", "++ x", "-- y", "@@ z"}
	randomLines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = words[rng.IntN(len(words))]
		}
		return out
	}
	mutate := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			switch rng.IntN(10) {
			case 0: // deleted
			case 1:
				out = append(out, words[rng.IntN(len(words))])
			case 2:
				out = append(out, l, words[rng.IntN(len(words))])
			default:
				out = append(out, l)
			}
		}
		return out
	}
	file := func(lines []string) *filetree.File {
		data := strings.Join(lines, "\n")
		if rng.IntN(4) > 0 { // else a file without a final newline
			data += "\n"
		}
		return &filetree.File{Data: []byte(data), Mode: 0o644}
	}
	goFile := func(n int) *filetree.File {
		var b strings.Builder
		b.WriteString("package p\n")
		for i := range n {
			fmt.Fprintf(&b, "\n// F%d does %d.\nfunc F%d() int {\n\treturn %d\n}\n", i, i, i, rng.IntN(9))
		}
		return &filetree.File{Data: []byte(b.String()), Mode: 0o644}
	}
	for round := range rounds {
		old := &filetree.Tree{Files: map[string]*filetree.File{}}
		nw := &filetree.Tree{Files: map[string]*filetree.File{}}
		for f := range 3 {
			lines := randomLines(10 + rng.IntN(40))
			p := fmt.Sprintf("f%d.txt", f)
			old.Files[p] = file(lines)
			nw.Files[p] = file(mutate(lines))
		}
		old.Files["gone.txt"] = file(randomLines(3))
		nw.Files["new.txt"] = file(randomLines(4))
		nw.Files["added.go"] = goFile(1 + rng.IntN(4))
		context := []int{3, 0, -1}[round%3]
		var set *codediff.Set
		if round%2 == 0 {
			set = codediff.Refine(old, nw, context) // added Go files in parts
		} else {
			set = codediff.Compare(old, nw, context)
		}
		var patch []int
		for i := range set.Len() {
			if rng.IntN(3) > 0 {
				patch = append(patch, i)
			}
		}
		if len(patch) == 0 {
			continue
		}
		names := make([]string, len(patch))
		for k, i := range patch {
			names[k] = set.Changes[i].String()
		}
		files, err := parseDiff(set.Patch(patch))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		own, err := attribute(files, names)
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, set.Patch(patch))
		}
		for skip := -1; skip < len(patch); skip++ {
			want := patch
			if skip >= 0 {
				want = slices.Delete(slices.Clone(patch), skip, skip+1)
			}
			dir := t.TempDir()
			for p, f := range old.Files {
				if err := os.WriteFile(filepath.Join(dir, p), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := applyWithout(dir, dir, files, own, skip); err != nil {
				t.Fatal(err)
			}
			wantTree := set.Tree(want)
			for _, p := range append(old.Paths(), nw.Paths()...) {
				got, err := os.ReadFile(filepath.Join(dir, p))
				wf := wantTree.Files[p]
				switch {
				case wf == nil && err == nil:
					t.Fatalf("round %d, without %d: %s exists; it should not", round, skip, p)
				case wf != nil && err != nil:
					t.Fatalf("round %d, without %d: %v", round, skip, err)
				case wf != nil && !bytes.Equal(got, wf.Data):
					t.Fatalf("round %d, without %d (%s): %s is\n%s\nwant\n%s\ndiff:\n%s", round, skip, names[max(skip, 0)], p, got, wf.Data, set.Patch(patch))
				}
			}
		}
	}
}

// TestMinimalChecker runs the brute-force check with real test scripts:
// two cases with the same old tree and patch but tests of their own
// (two clients of one module version) get answers of their own.
func TestMinimalChecker(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old")
	oldTree := &filetree.Tree{Files: map[string]*filetree.File{"a.txt": {Data: []byte("one\ntwo\n"), Mode: 0o644}}}
	newTree := &filetree.Tree{Files: map[string]*filetree.File{"a.txt": {Data: []byte("one\nNEW\ntwo\n"), Mode: 0o644}, "b.txt": {Data: []byte("b\n"), Mode: 0o644}}}
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "a.txt"), oldTree.Files["a.txt"].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	nw := filepath.Join(dir, "new")
	if err := os.MkdirAll(nw, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, f := range newTree.Files {
		if err := os.WriteFile(filepath.Join(nw, p), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set := codediff.Compare(oldTree, newTree, 3)
	patch := []int{0, 1}
	s := changesSummary{Diff: set.Patch(patch)}
	for _, i := range patch {
		s.Hunks = append(s.Hunks, set.Changes[i].String())
	}
	// "needs-new" fails with the NEW line; "always" fails whatever the
	// tree; "needs-b" fails with b.txt, and does not build without NEW;
	// "otherwise" fails with both, and fails another way (exit 1 all
	// the same) with NEW alone.
	test := filepath.Join(dir, "test.sh")
	script := `#!/bin/sh
case "$1" in
needs-new) grep -q NEW "$2/a.txt" && exit 1; exit 0 ;;
always) exit 1 ;;
needs-b) grep -q NEW "$2/a.txt" || exit 125; [ -f "$2/b.txt" ] && exit 1; exit 0 ;;
otherwise) grep -q NEW "$2/a.txt" || exit 0; [ -f "$2/b.txt" ] && { echo "FAIL: round trip"; exit 1; }; echo "error: undefined: B"; exit 1 ;;
esac
exit 2
`
	if err := os.WriteFile(test, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var mc minimalChecker
	for _, c := range []struct{ name, want string }{
		{"needs-new", "no: 1 of 2 removals fail"},
		{"always", "no: 2 of 2 removals fail"},
		{"needs-b", "yes (1 pass, 1 do not build)"},
		{"otherwise", "yes (1 pass, 1 do not build)"},
	} {
		if got := mc.check(dir, old, nw, test, c.name, s); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
