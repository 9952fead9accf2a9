package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/filetree"
)

// diffPairs are old and new versions of real files from the
// repository's testdata: the instrumenter's test programs and their
// instrumented goldens, each a Go file edited in many places.
func diffPairs(f *testing.F) [][2][]byte {
	f.Helper()
	olds, err := filepath.Glob("../../domain/instrument/testdata/pitfalls/*.go")
	if err != nil || len(olds) == 0 {
		f.Fatalf("no pitfalls programs: %v", err)
	}
	var pairs [][2][]byte
	for _, p := range olds {
		old, err1 := os.ReadFile(p)
		nw, err2 := os.ReadFile(strings.TrimSuffix(p, ".go") + ".golden")
		if err1 != nil || err2 != nil {
			f.Fatal(err1, err2)
		}
		pairs = append(pairs, [2][]byte{old, nw})
	}
	return pairs
}

// oneFile is a tree of the file f.txt, or of no file when data is nil.
func oneFile(data []byte) *filetree.Tree {
	t := &filetree.Tree{Files: map[string]*filetree.File{}}
	if data != nil {
		t.Files["f.txt"] = &filetree.File{Data: data, Mode: 0o644}
	}
	return t
}

// FuzzParseDiff: parseDiff reads any text without panicking; what it
// reads of a diff it takes is there: a file for each "diff --git" line,
// and each edit line is a line of the diff with its sign. Seeded with
// the diff of a real summary (command/changes/testdata) and the patches
// wynot prints between real files.
func FuzzParseDiff(f *testing.F) {
	data, err := os.ReadFile("../../command/changes/testdata/close-git.json")
	if err != nil {
		f.Fatal(err)
	}
	var s struct{ Diff string }
	if err := json.Unmarshal(data, &s); err != nil || s.Diff == "" {
		f.Fatalf("no diff in close-git.json: %v", err)
	}
	f.Add(s.Diff)
	for _, p := range diffPairs(f) {
		set := codediff.Compare(oneFile(p[0]), oneFile(p[1]), 3)
		all := make([]int, set.Len())
		for i := range all {
			all[i] = i
		}
		f.Add(set.Patch(all))
	}
	f.Fuzz(func(t *testing.T, diff string) {
		files, err := parseDiff(diff)
		if err != nil {
			return
		}
		lines := strings.Split(diff, "\n")
		headers := 0
		in := map[string]bool{}
		for _, l := range lines {
			if strings.HasPrefix(l, "diff --git ") {
				headers++
			}
			in[l] = true
		}
		if len(files) != headers {
			t.Fatalf("%d files read of %d file headers", len(files), headers)
		}
		for _, fd := range files {
			for _, l := range fd.lines {
				sign := "+"
				if l.del {
					sign = "-"
				}
				if !in[sign+l.text] {
					t.Fatalf("%s: read the line %q, which the diff does not hold", fd.path, sign+l.text)
				}
			}
		}
	})
}

// FuzzPatchRoundTrip: the patch wynot prints between two versions of a
// file, read back by parseDiff and taken apart by the changes' names
// (attribute), gives the new version when applied whole, and the tree
// of the other changes when applied without any one of them: what the
// brute-force check builds is what wynot's changes make. Seeded with
// real files edited in many places.
func FuzzPatchRoundTrip(f *testing.F) {
	for _, p := range diffPairs(f) {
		f.Add(p[0], p[1], uint8(3))
	}
	f.Fuzz(func(t *testing.T, old, nw []byte, shape uint8) {
		// shape: the context (-1 to 3) and whether a side lacks the file.
		context := int(shape%5) - 1
		oldTree, newTree := oneFile(old), oneFile(nw)
		switch shape / 5 % 4 {
		case 1:
			oldTree = oneFile(nil)
		case 2:
			newTree = oneFile(nil)
		}
		set := codediff.Compare(oldTree, newTree, context)
		if set.Len() == 0 || set.Len() > 64 {
			return
		}
		all := make([]int, set.Len())
		names := make([]string, set.Len())
		for i := range all {
			all[i] = i
			names[i] = set.Changes[i].String()
		}
		patch := set.Patch(all)
		files, err := parseDiff(patch)
		if err != nil {
			if strings.Contains(patch, "\nBinary files ") || strings.Contains(patch, "\nold mode ") {
				return // not taken, and said so
			}
			t.Fatalf("%v\n%s", err, patch)
		}
		own, err := attribute(files, names)
		if err != nil {
			return // the check is not made, and says why
		}
		if len(files) != 1 {
			t.Fatalf("%d file diffs for one file:\n%s", len(files), patch)
		}
		var oldData []byte
		if f := oldTree.Files["f.txt"]; f != nil {
			oldData = f.Data
		}
		for skip := -1; skip < len(all); skip++ {
			drop := map[int]bool{}
			want := all
			if skip >= 0 {
				for _, k := range own[skip][0] {
					drop[k] = true
				}
				want = append(append([]int{}, all[:skip]...), all[skip+1:]...)
			}
			got, exists := patched(oldData, files[0], drop)
			wf := set.Tree(want).Files["f.txt"]
			switch {
			case wf == nil && exists:
				t.Fatalf("without %d: the file exists, it should not; patch:\n%s", skip, patch)
			case wf != nil && !exists:
				t.Fatalf("without %d: no file, want %q; patch:\n%s", skip, wf.Data, patch)
			case wf != nil && !bytes.Equal(got, wf.Data):
				t.Fatalf("without %d: %q, want %q; patch:\n%s", skip, got, wf.Data, patch)
			}
		}
	})
}
