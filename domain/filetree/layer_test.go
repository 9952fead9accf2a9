package filetree

import (
	"fmt"
	"io/fs"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestLayers: over random layers and deltas, a work directory synced to
// a layer with a delta holds what a fresh copy of the same content
// holds; two candidates have the same identity exactly when their trees
// are the same, over whatever layers; Present counts the base's files
// there.
func TestLayers(t *testing.T) {
	names := []string{"a", "b", "d/c", "d/e/f", "g/h", "new", "d/new"}
	rng := rand.New(rand.NewSource(1))
	randFile := func() *File {
		switch rng.Intn(4) {
		case 0:
			return nil
		case 1:
			return &File{Mode: fs.ModeSymlink | 0o777, Link: names[rng.Intn(len(names))]}
		}
		return &File{Data: []byte(strings.Repeat("x", rng.Intn(3))), Mode: []fs.FileMode{0o644, 0o755}[rng.Intn(2)]}
	}
	randContent := func() map[string]*File {
		m := map[string]*File{}
		for _, n := range names {
			if rng.Intn(3) == 0 {
				m[n] = randFile()
			}
		}
		return m
	}
	// tree is the content over base, as Sync takes it: every path that
	// differs from the base.
	tree := func(base *Tree, l *Layer, delta map[string]*File) map[string]*File {
		out := map[string]*File{}
		for _, n := range names {
			if f := l.file(delta, n); !Same(f, base.Files[n]) {
				out[n] = f
			}
		}
		return out
	}
	// Layers remember three improvements, and merge their own files
	// into a shared map from two on.
	defer func(m, c int) { maxSteps, compactAt = m, c }(maxSteps, compactAt)
	maxSteps, compactAt = 3, 2
	for round := range rounds(8) {
		base := &Tree{Files: map[string]*File{}}
		for _, n := range names[:5] {
			if f := randFile(); f != nil {
				base.Files[n] = f
			}
		}
		// Two work directories, each synced in turn to a candidate over
		// any layer made so far, as tests that run in parallel are.
		var ws []*Workspace
		for range 2 {
			w, err := NewWorkspace(t.TempDir(), base)
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, w)
		}
		ls := []*Layer{NewLayer(base, randContent())}
		seen := map[string]string{} // identity → the tree's listing
		for step := range 30 {
			if rng.Intn(3) == 0 {
				ls = append(ls, ls[len(ls)-1].With(randContent()))
			}
			if rng.Intn(8) == 0 {
				ls = append(ls, NewLayer(base, randContent())) // a new line, as after a restart
			}
			l := ls[len(ls)-1-rng.Intn(min(len(ls), 6))]
			w := ws[step%2]
			dir := w.Dir
			delta := randContent()
			if _, err := w.SyncOver(l, delta); err != nil {
				t.Fatalf("round %d step %d: %v", round, step, err)
			}
			want := tree(base, l, delta)
			if got, fresh := listing(t, dir), fresh(t, base, want); !slices.Equal(got, fresh) {
				t.Fatalf("round %d step %d:\n%s\nwant:\n%s", round, step, strings.Join(got, "\n"), strings.Join(fresh, "\n"))
			}
			// The same tree as a layer of its own, and as a delta over an
			// empty layer: the same identity.
			id := string(l.Identity(delta))
			if id2, id3 := string(NewLayer(base, want).Identity(nil)), string(NewLayer(base, nil).Identity(want)); id2 != id || id3 != id {
				t.Errorf("round %d step %d: identities %s %s %s of one tree", round, step, id, id2, id3)
			}
			key := fmt.Sprint(Identity(want))
			if other, ok := seen[id]; ok && other != key {
				t.Errorf("round %d step %d: one identity for two trees", round, step)
			}
			seen[id] = key
			n := 0
			for p := range base.Files {
				if l.file(delta, p) != nil {
					n++
				}
			}
			if got := l.Present(delta); got != n {
				t.Errorf("round %d step %d: Present %d, want %d", round, step, got, n)
			}
			if step%5 == 4 {
				// Back to a plain Sync, then the layer again.
				if _, err := w.Sync(maps.Clone(want)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if len(seen) < 5 {
			t.Errorf("round %d: only %d trees", round, len(seen))
		}
	}
}
