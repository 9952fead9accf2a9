package codediff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/filetree"
)

// bigTrees: 5,000 files of 1 KB in 50 directories; 20 of them changed in
// one line each.
func bigTrees() (*Tree, *Tree) {
	old, nw := &Tree{Files: map[string]*File{}}, &Tree{Files: map[string]*File{}}
	line := strings.Repeat("x", 60) + "\n"
	for i := range 5000 {
		p := fmt.Sprintf("d%02d/f%04d.go", i%50, i)
		data := strings.Repeat(line, 16)
		old.Files[p] = &File{Data: []byte(data), Mode: 0o644}
		if i%250 == 0 {
			data = "changed\n" + data[len(line):]
		}
		nw.Files[p] = &File{Data: []byte(data), Mode: 0o644}
	}
	return old, nw
}

// BenchmarkMaterialize compares bringing a workspace of 5,000 files from
// one configuration to another (Sync: only the files whose content
// differs) with copying the tree afresh for each test, as a naive
// implementation would. Run with -bench Materialize; the ratio of the
// two is the point.
func BenchmarkMaterialize(b *testing.B) {
	old, nw := bigTrees()
	s := Compare(old, nw, 2)
	if s.Len() != 20 {
		b.Fatalf("%d changes", s.Len())
	}
	configs := [][]int{{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}, {1, 3, 5, 7, 9, 11, 13, 15, 17, 19}}
	b.Run("sync", func(b *testing.B) {
		w, err := filetree.NewWorkspace(b.TempDir(), old)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			if _, err := w.Sync(s.Content(configs[i%2])); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		root := b.TempDir()
		for i := 0; b.Loop(); i++ {
			dir := filepath.Join(root, fmt.Sprint(i))
			os.Mkdir(dir, 0o755)
			w, err := filetree.NewWorkspace(dir, old)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := w.Sync(s.Content(configs[i%2])); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			os.RemoveAll(dir)
			b.StartTimer()
		}
	})
}
