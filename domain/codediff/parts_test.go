package codediff

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const addedGo = `// Package p parses.
package p

import (
	"strconv"
	"strings"
)

// split cuts s into fields.
func split(s string) []string {
	return strings.Split(s, ";")
}

// Version is the format's version.
const Version = 2

// atoi reads a number.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
`

// An added Go file is cut into its header, each import spec and each
// declaration with its doc comment; any subset of the parts is a file,
// none is no file, and the patch of a subset applies with git apply.
func TestRefineAddedGoFile(t *testing.T) {
	old := tree(map[string]string{"p/parse.go": "package p\n\nfunc Parse(s string) int { return len(s) }\n"})
	nw := tree(map[string]string{"p/parse.go": "package p\n\nfunc Parse(s string) int { return len(split(s)) }\n", "p/split.go": addedGo, "notes.txt": "a\nb\n"})
	if s := Compare(old, nw, 0); !slices.ContainsFunc(s.Changes, func(c Change) bool { return c.Kind == Add && c.Path == "p/split.go" }) {
		t.Fatalf("Compare cut the added file: %v", s.Changes)
	}
	s := Refine(old, nw, 0)
	var got []string
	var split []int
	for i, c := range s.Changes {
		got = append(got, c.String())
		if c.Path == "p/split.go" {
			split = append(split, i)
		}
	}
	want := []string{"add notes.txt", "p/parse.go:3-3", "p/split.go:1-4 (new file)", "p/split.go:5-5 (new file)", "p/split.go:6-6 (new file)",
		"p/split.go:7-8 (new file)", "p/split.go:9-13 (new file)", "p/split.go:14-16 (new file)", "p/split.go:17-21 (new file)"}
	if !slices.Equal(got, want) {
		t.Fatalf("changes\n%q\nwant\n%q", got, want)
	}
	if h := s.Changes[split[0]]; !h.Header || s.Changes[split[1]].Header || !s.Changes[split[3]].Header || s.Changes[split[4]].Header {
		t.Errorf("header parts: %v", s.Changes)
	}
	if f := s.Content([]int{1})["p/split.go"]; f != nil {
		t.Errorf("without its parts the file exists: %q", f.Data)
	}
	// The header, the strings import and split: a file that compiles
	// alone (an empty line closes the import block's parts).
	sub := []int{split[0], split[2], split[3], split[4]}
	f := s.Content(sub)["p/split.go"]
	wantFile := "// Package p parses.\npackage p\n\nimport (\n\t\"strings\"\n)\n\n// split cuts s into fields.\nfunc split(s string) []string {\n\treturn strings.Split(s, \";\")\n}\n\n"
	if f == nil || string(f.Data) != wantFile {
		t.Fatalf("the file of the header, one import and split:\n%q\nwant\n%q", f, wantFile)
	}
	if all := s.Content(split)["p/split.go"]; all == nil || string(all.Data) != addedGo {
		t.Errorf("all parts do not make the file")
	}
	// The patch of the subset applies to the old tree and makes that file.
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for p, f := range old.Files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), f.Data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "fix.patch"), []byte(s.Patch(sub)), 0o644)
	if out, err := exec.Command("git", "-C", dir, "apply", "fix.patch").CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, s.Patch(sub))
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "p/split.go")); string(data) != wantFile {
		t.Errorf("applied:\n%s", data)
	}
}

// Every part of an added file needs its header; a declaration needs the
// import spec it uses, and the spec the declarations that use it (Go
// refuses an unused import); a use of a new function needs the part that
// declares it.
func TestRefineNeeds(t *testing.T) {
	old := tree(map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "p/parse.go": "package p\n\nfunc Parse(s string) int { return len(s) }\n"})
	nw := tree(map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "p/parse.go": "package p\n\nfunc Parse(s string) int { return len(split(s)) }\n", "p/split.go": addedGo})
	s := Refine(old, nw, 0)
	idx := map[string]int{}
	for i, c := range s.Changes {
		idx[c.String()] = i
	}
	needs := s.Needs(nil)
	has := func(from, to string) bool { return slices.Contains(needs[idx[from]], idx[to]) }
	header, strconv, stringsSpec, close, splitDecl, version, atoi := "p/split.go:1-4 (new file)", "p/split.go:5-5 (new file)", "p/split.go:6-6 (new file)",
		"p/split.go:7-8 (new file)", "p/split.go:9-13 (new file)", "p/split.go:14-16 (new file)", "p/split.go:17-21 (new file)"
	for _, part := range []string{strconv, stringsSpec, close, splitDecl, version, atoi} {
		if !has(part, header) || !has(part, close) && part != close {
			t.Errorf("%s does not need the header parts: %v", part, needs[idx[part]])
		}
	}
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"p/parse.go:3-3", splitDecl, true}, {splitDecl, stringsSpec, true}, {stringsSpec, splitDecl, true},
		{atoi, strconv, true}, {strconv, atoi, true}, {splitDecl, strconv, false}, {version, stringsSpec, false},
		{"p/parse.go:3-3", atoi, false}, {splitDecl, version, false},
	} {
		if has(c.from, c.to) != c.want {
			t.Errorf("%s needs %s: %v, want %v", c.from, c.to, !c.want, c.want)
		}
	}
	if strings.Contains(s.Changes[idx[splitDecl]].String(), "add") {
		t.Error("a part is named as the whole file")
	}
}

// A file that does not parse, or is one declaration, stays one change.
func TestRefineKeepsWhole(t *testing.T) {
	old := tree(map[string]string{})
	nw := tree(map[string]string{"bad.go": "package p\n\nfunc (\n", "one.go": "package p\n", "x.txt": "x\n"})
	var got []string
	for _, c := range Refine(old, nw, 0).Changes {
		got = append(got, c.String())
	}
	if want := []string{"add bad.go", "add one.go", "add x.txt"}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
}
