package reduce

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/filetree"
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
			fails := func(files map[string]string) bool {
				for _, c := range clauses {
					all := true
					for _, p := range c {
						all = all && strings.Contains(files[p], "keep")
					}
					if all {
						return true
					}
				}
				return false
			}
			fake := func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
				tr, err := filetree.ReadTree(dir)
				if err != nil {
					return runner.Run{}, err
				}
				files := map[string]string{}
				for p, f := range tr.Files {
					files[p] = string(f.Data)
				}
				if fails(files) {
					return runner.Run{Exit: 1}, nil
				}
				return runner.Run{}, nil
			}
			var stderr strings.Builder
			code := Command.Main(context.Background(), []string{"-j2", "tree", "--", "prog", "{}"},
				command.Env{Stdout: io.Discard, Stderr: &stderr, Fake: fake})
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			got, err := filetree.ReadTree("tree")
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			for p, f := range got.Files {
				files[p] = string(f.Data)
				if string(f.Data) != "keep\n" && string(f.Data) != "keep" {
					t.Errorf("%s holds %q", p, f.Data)
				}
			}
			if !fails(files) {
				t.Fatalf("the result %v does not fail; clauses %v", got.Paths(), clauses)
			}
			for p := range files {
				without := maps.Clone(files)
				delete(without, p)
				if fails(without) {
					t.Errorf("the result %v fails without %s: not 1-minimal", got.Paths(), p)
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
			if !strings.Contains(stderr.String(), "tree now holds the result") || !strings.Contains(stderr.String(), "is 1-minimal") {
				t.Errorf("closing lines:\n%s", stderr.String())
			}
		})
	}
}
