package golang

import (
	"errors"
	"strings"
	"testing"
)

// TestModCheck: candidates for a tree's go.mod that break the module are
// predicted; those the go command accepts are not.
func TestModCheck(t *testing.T) {
	gomod := "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/unused v1.2.0\n)\n\nreplace example.com/dep => ../dep\n"
	files := map[string][]byte{
		"go.mod":         []byte(gomod),
		"main.go":        []byte("package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/app/lib\"\n\t\"example.com/dep/sub\"\n)\n\nfunc main() { fmt.Println(lib.X, sub.Y) }\n"),
		"lib/lib.go":     []byte("package lib\n\nconst X = 1\n"),
		"testdata/x.go":  []byte("package x\n\nimport \"example.com/unused\"\n"),
		"other/other.go": []byte("package other\n\nimport \"example.org/notrequired\"\n"),
	}
	for _, c := range []struct {
		name, candidate string
		auto            bool
		want            string // "" for no error
	}{
		{"the original", gomod, false, ""},
		{"an unused requirement goes", strings.Replace(gomod, "\texample.com/unused v1.2.0\n", "", 1), false, ""},
		{"the go line goes", strings.Replace(gomod, "go 1.22\n", "", 1), false, ""},
		{"a requirement an import needs", strings.Replace(gomod, "\texample.com/dep v1.0.0\n", "", 1), false, "no longer requires the module of example.com/dep/sub, which main.go imports"},
		{"the same under -mod=mod, which adds it", strings.Replace(gomod, "\texample.com/dep v1.0.0\n", "", 1), true, ""},
		{"its replacement", strings.Replace(gomod, "replace example.com/dep => ../dep\n", "", 1), false, "no longer replaces example.com/dep"},
		{"the module renamed", strings.Replace(gomod, "module example.com/app", "module a", 1), false, "whose packages main.go imports"},
		{"no module line", strings.Replace(gomod, "module example.com/app\n", "", 1), false, "names no module"},
		{"broken syntax", strings.Replace(gomod, ")\n", "", 1), false, "does not parse"},
	} {
		m, err := NewModCheck("go.mod", []byte(gomod), files)
		if err != nil {
			t.Fatal(err)
		}
		m.AutoRequire = c.auto
		_, err = m.Finish([]byte(c.candidate))
		var te *TypeError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.want == "":
		case !errors.As(err, &te) || te.Dir != "go.mod" || !strings.Contains(te.Msg, c.want):
			t.Errorf("%s: %v, want a go.mod error: %s", c.name, err, c.want)
		}
	}
	// Without imports of its own packages, the module may be renamed.
	delete(files, "lib/lib.go")
	files["main.go"] = []byte("package main\n\nimport \"example.com/dep/sub\"\n\nfunc main() { _ = sub.Y }\n")
	m, err := NewModCheck("go.mod", []byte(gomod), files)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Finish([]byte(strings.Replace(gomod, "module example.com/app", "module a", 1))); err != nil {
		t.Errorf("renamed, nothing imports its packages: %v", err)
	}
}

// TestSumCheck: a go.sum candidate without a checksum the build needs,
// or with a malformed line, breaks the module.
func TestSumCheck(t *testing.T) {
	files := map[string][]byte{
		"go.mod":  []byte("module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/unused v1.2.0\n)\n"),
		"main.go": []byte("package main\n\nimport \"example.com/dep/sub\"\n\nfunc main() { _ = sub.Y }\n"),
	}
	sum := "example.com/dep v1.0.0 h1:abc=\nexample.com/dep v1.0.0/go.mod h1:def=\nexample.com/unused v1.2.0 h1:ghi=\nexample.com/unused v1.2.0/go.mod h1:jkl=\n"
	for _, c := range []struct {
		name, candidate string
		auto            bool
		want            string
	}{
		{"the original", sum, false, ""},
		{"an unused module's lines go", "example.com/dep v1.0.0 h1:abc=\nexample.com/dep v1.0.0/go.mod h1:def=\n", false, ""},
		{"a needed checksum", "example.com/dep v1.0.0/go.mod h1:def=\n", false, "no longer has a checksum of example.com/dep"},
		{"its go.mod checksum", "example.com/dep v1.0.0 h1:abc=\n", false, "no longer has a checksum of example.com/dep"},
		{"under -mod=mod, which adds it", "example.com/dep v1.0.0/go.mod h1:def=\n", true, ""},
		{"a malformed line", strings.Replace(sum, " h1:ghi=", "", 1), false, "line 3 is malformed"},
	} {
		s, err := NewSumCheck("go.sum", []byte(sum), files)
		if err != nil {
			t.Fatal(err)
		}
		s.AutoRequire = c.auto
		_, err = s.Finish([]byte(c.candidate))
		var te *TypeError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.want == "":
		case !errors.As(err, &te) || te.Dir != "go.sum" || !strings.Contains(te.Msg, c.want):
			t.Errorf("%s: %v, want a go.sum error: %s", c.name, err, c.want)
		}
	}
}
