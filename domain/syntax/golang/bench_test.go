package golang

import (
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// BenchmarkBundleFinish finishes candidates of a package of 32 files (a
// declaration of one file deleted each), as the declarations pass of a
// tree's package makes them: with the Checker of the pass, which keeps
// what it made of each file (memo), and with a new Checker for every
// candidate, which parses and prints every file again (fresh), side by
// side in one run:
//
//	go test ./domain/syntax/golang -run XXX -bench BundleFinish
func BenchmarkBundleFinish(b *testing.B) {
	files := map[string][]byte{"go.mod": []byte("module example.com/m\n\ngo 1.22\n")}
	var fs []decomp.File
	for f := range 32 {
		var src strings.Builder
		src.WriteString("package p\n\nimport \"strings\"\n")
		for k := range 20 {
			fmt.Fprintf(&src, "\n// F%d_%d is one of many.\nfunc F%d_%d(s string, n int) string {\n\tif n > %d {\n\t\treturn strings.Repeat(s, n)\n\t}\n\tfor i := 0; i < n; i++ {\n\t\ts += strings.ToUpper(s[:1])\n\t}\n\treturn s\n}\n", f, k, f, k, k)
		}
		name := fmt.Sprintf("p/f%02d.go", f)
		files[name] = []byte(src.String())
		fs = append(fs, decomp.File{Name: name, Data: files[name]})
	}
	src, err := decomp.Bundle(fs)
	if err != nil {
		b.Fatal(err)
	}
	tree := &Tree{Dir: "p", Files: files}
	ps, err := PassesIn(src, true, tree)
	if err != nil {
		b.Fatal(err)
	}
	pl, err := ps[0].Plan(src)
	if err != nil {
		b.Fatal(err)
	}
	r := pl.(*decomp.Rewrite)
	candidate := func(i int) []byte {
		// The rendered text, before Finish: one change made.
		raw := &decomp.Rewrite{Src: r.Src, Changes: r.Changes}
		out, err := raw.Apply(dd.AllBut(r.Len(), i%r.Len()))
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	cands := make([][]byte, 64)
	for i := range cands {
		cands[i] = candidate(i * 7)
	}
	b.Run("memo", func(b *testing.B) {
		chk, err := NewCheckerIn(src, true, tree)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; b.Loop(); i++ {
			if _, err := chk.Finish(cands[i%len(cands)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fresh", func(b *testing.B) {
		chk, err := NewCheckerIn(src, true, tree)
		if err != nil {
			b.Fatal(err)
		}
		chk.Finish(src) // the universe, made once per Checker as in a pass
		for i := 0; b.Loop(); i++ {
			chk.finished = memo[*finished]{}
			chk.parsed = memo[*ast.File]{}
			if _, err := chk.Finish(cands[i%len(cands)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
