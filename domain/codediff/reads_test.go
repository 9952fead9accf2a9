package codediff

import "testing"

func TestReads(t *testing.T) {
	tree := func(files map[string]string) *Tree {
		tr := &Tree{Files: map[string]*File{}}
		for p, d := range files {
			tr.Files[p] = &File{Data: []byte(d)}
		}
		return tr
	}
	goMod := tree(map[string]string{"go.mod": "module m\n", "a.go": "package a\n"})
	embedding := tree(map[string]string{"go.mod": "module m\n", "a.go": "package a\n",
		"web/web.go": "package web\n\nimport _ \"embed\"\n\n//go:embed README.md\nvar Doc string\n"})
	plain := tree(map[string]string{"main.c": "int main(){}\n"})
	for _, c := range []struct {
		name   string
		reads  *Reads
		commit []string
		want   string
	}{
		{"docs", NewReads(nil, false, goMod), []string{"README.md", "docs/guide.rst", "LICENSE"}, WhyDocs},
		{"license with an extension", NewReads(nil, false, goMod), []string{"LICENSE.txt"}, WhyDocs},
		{"a text file is data", NewReads(nil, false, goMod), []string{"notes/n1.txt"}, ""},
		{"CI and metadata", NewReads(nil, false, goMod), []string{".github/workflows/test.yml", ".golangci.yml", ".travis.yml"}, WhyCI + " and " + WhyMeta},
		{"docs and code", NewReads(nil, false, goMod), []string{"README.md", "route.go"}, ""},
		{"go.mod", NewReads(nil, false, goMod), []string{"go.mod"}, ""},
		{"go.sum", NewReads(nil, false, goMod), []string{"go.sum"}, ""},
		{"assembly", NewReads(nil, false, goMod), []string{"asm_amd64.s"}, ""},
		{"cgo header", NewReads(nil, false, goMod), []string{"include/x.h"}, ""},
		{"syso", NewReads(nil, false, goMod), []string{"rsrc_windows_amd64.syso"}, ""},
		{"vendor", NewReads(nil, false, goMod), []string{"vendor/modules.txt"}, ""},
		{"Go tests", NewReads(nil, false, goMod), []string{"a_test.go", "testdata/in.txt", "sub/testdata/x.go"}, WhyTests},
		{"Go tests under go test", NewReads(nil, true, goMod), []string{"a_test.go"}, ""},
		{"testdata under go test", NewReads(nil, true, goMod), []string{"testdata/in.txt"}, ""},
		{"test-named file outside a Go module", NewReads(nil, false, plain), []string{"x_test.go", "testdata/in"}, ""},
		{"docs and Go tests", NewReads(nil, false, goMod), []string{"README.md", "a_test.go"}, WhyDocs + " and " + WhyTests},
		{"embedded README", NewReads(nil, false, embedding), []string{"web/README.md"}, ""},
		{"embedded below", NewReads(nil, false, embedding), []string{"web/static/LICENSE"}, ""},
		{"not below the embedding package", NewReads(nil, false, embedding), []string{"README.md"}, WhyDocs},
		{"embedding in the new tree only", NewReads(nil, false, goMod, embedding), []string{"web/README.md"}, ""},
		{"no file", NewReads(nil, false, goMod), nil, WhyNoChange},
		{"paths: inside", NewReads([]string{"internal"}, false, goMod), []string{"internal/x/y.go", "README.md"}, ""},
		{"paths: outside", NewReads([]string{"internal", "go.mod"}, false, goMod), []string{"cmd/main.go"}, WhyOutside},
		{"paths: a file", NewReads([]string{"./go.mod"}, false, goMod), []string{"go.mod"}, ""},
		{"paths: a pattern", NewReads([]string{"*.go"}, false, goMod), []string{"a.go"}, ""},
		{"paths: a pattern misses subdirectories", NewReads([]string{"*.go"}, false, goMod), []string{"sub/a.go"}, WhyOutside},
		{"paths: everything", NewReads([]string{"."}, false, goMod), []string{"README.md"}, ""},
		{"paths vouch for docs", NewReads([]string{"README.md"}, false, goMod), []string{"README.md"}, ""},
	} {
		if got := c.reads.Commit(c.commit); got != c.want {
			t.Errorf("%s: %v: %q, want %q", c.name, c.commit, got, c.want)
		}
	}
}

func TestParseDiffTreeNames(t *testing.T) {
	out := []byte("aaa\x00README.md\x00go.mod\x00ccc\x00x/y.go\x00")
	got, err := ParseDiffTreeNames(out, []string{"aaa", "bbb", "ccc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got["aaa"]) != 2 || got["aaa"][1] != "go.mod" || len(got["ccc"]) != 1 || got["bbb"] != nil {
		t.Errorf("%q", got)
	}
	if _, err := ParseDiffTreeNames([]byte("x.go\x00"), []string{"aaa"}); err == nil {
		t.Error("a path before any commit was read")
	}
}
