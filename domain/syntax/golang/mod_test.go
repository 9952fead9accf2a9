package golang

import (
	"errors"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/decomp"
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
		{"its replacement's path cut short", strings.Replace(gomod, "=> ../dep", "=> ../de", 1), false, "no longer replaces example.com/dep"},
		{"the requirement goes, under -mod=mod", strings.Replace(gomod, "\texample.com/dep v1.0.0\n", "", 1), true, ""},
		{"then the replacement's path cut short", strings.Replace(strings.Replace(gomod, "\texample.com/dep v1.0.0\n", "", 1), "=> ../dep", "=> ../de", 1), true, "no longer replaces example.com/dep as it did, which main.go imports"},
		{"then the replacement goes", strings.Replace(strings.Replace(gomod, "\texample.com/dep v1.0.0\n", "", 1), "replace example.com/dep => ../dep\n", "", 1), true, "which main.go imports"},
		{"without -mod=mod, no longer required", strings.Replace(strings.Replace(gomod, "\texample.com/dep v1.0.0\n", "", 1), "=> ../dep", "=> ../de", 1), false, "no longer requires the module of example.com/dep/sub"},
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
		wantTypeError(t, c.name, err, "go.mod", c.want)
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
		wantTypeError(t, c.name, err, "go.sum", c.want)
	}
}

// TestVendorCheck: of what the text passes make of vendor/modules.txt,
// only dropping package lines keeps it consistent with go.mod.
func TestVendorCheck(t *testing.T) {
	orig := "# example.com/dep v1.0.0\n## explicit; go 1.22\nexample.com/dep\nexample.com/dep/sub\n# example.com/other v1.0.0 => ../other\n## explicit\nexample.com/other\n"
	for _, c := range []struct {
		name, candidate, want string
	}{
		{"the original", orig, ""},
		{"a package line dropped", strings.Replace(orig, "example.com/dep/sub\n", "", 1), ""},
		{"every package line dropped", "# example.com/dep v1.0.0\n## explicit; go 1.22\n# example.com/other v1.0.0 => ../other\n## explicit\n", ""},
		{"a blank line dropped or added", strings.Replace(orig, "\n#", "\n\n#", 1), ""},
		{"a marker dropped", strings.Replace(orig, "## explicit\n", "", 1), "inconsistent vendoring"},
		{"a marker's annotation dropped", strings.Replace(orig, "; go 1.22", "", 1), ""},
		{"a marker shortened", strings.Replace(orig, "explicit; go", "expl; go", 1), "inconsistent vendoring"},
		{"a version changed", strings.Replace(orig, "v1.0.0 =>", "v1.0 =>", 1), "inconsistent vendoring"},
		{"a replacement dropped", strings.Replace(orig, " => ../other", "", 1), "inconsistent vendoring"},
		{"two lines joined", strings.Replace(orig, "example.com/dep/sub\n#", "example.com/dep/sub#", 1), "inconsistent vendoring"},
		{"a module dropped", "# example.com/dep v1.0.0\n## explicit; go 1.22\nexample.com/dep\n", "inconsistent vendoring"},
		{"a package shortened", strings.Replace(orig, "example.com/dep/sub", "example.com/dep/su", 1), "not vendored"},
	} {
		_, err := NewVendorCheck("vendor/modules.txt", []byte(orig)).Finish([]byte(c.candidate))
		wantTypeError(t, c.name, err, "vendor/modules.txt", c.want)
	}
}

// TestRequirements: each change removes one requirement from go.mod
// with its checksums and its vendor/modules.txt block; a candidate that
// drops a requirement the Go files import is a TypeError of go.mod.
func TestRequirements(t *testing.T) {
	goMod := "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/used v1.0.0\n\texample.com/gone v1.2.0 // indirect\n)\n"
	goSum := "example.com/gone v1.2.0 h1:aaa=\nexample.com/gone v1.2.0/go.mod h1:bbb=\nexample.com/gone v1.1.0/go.mod h1:ccc=\nexample.com/used v1.0.0 h1:ddd=\nexample.com/used v1.0.0/go.mod h1:eee=\n"
	modules := "# example.com/used v1.0.0\n## explicit; go 1.22\nexample.com/used\n# example.com/gone v1.2.0\n## explicit\nexample.com/gone/pkg\n"
	files := map[string][]byte{"go.mod": []byte(goMod), "go.sum": []byte(goSum), "vendor/modules.txt": []byte(modules),
		"main.go": []byte("package main\n\nimport _ \"example.com/used\"\n")}
	mc, err := NewModCheck("go.mod", files["go.mod"], files)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decomp.Bundle([]decomp.File{{Name: "go.mod", Data: files["go.mod"]}, {Name: "go.sum", Data: files["go.sum"]}, {Name: "vendor/modules.txt", Data: files["vendor/modules.txt"]}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Requirements{Finish: map[string]func([]byte) ([]byte, error){"go.mod": mc.Finish}}.Plan(b)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 2 {
		t.Fatalf("%d changes, want 2", p.Len())
	}
	// The second change: example.com/gone.
	out, err := p.Apply([]int{0})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := decomp.Unbundle(out)
	want := []string{
		"module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/used v1.0.0\n)\n",
		"example.com/gone v1.1.0/go.mod h1:ccc=\nexample.com/used v1.0.0 h1:ddd=\nexample.com/used v1.0.0/go.mod h1:eee=\n",
		"# example.com/used v1.0.0\n## explicit; go 1.22\nexample.com/used\n",
	}
	for i, f := range got {
		if string(f.Data) != want[i] {
			t.Errorf("%s:\n%s\nwant\n%s", f.Name, f.Data, want[i])
		}
	}
	// A go.mod the reduction took apart has no requirements to remove.
	broken, _ := decomp.Bundle([]decomp.File{{Name: "go.mod", Data: []byte("module (\nrequire x")}})
	if bp, err := (Requirements{}).Plan(broken); err != nil || bp.Len() != 0 {
		t.Errorf("a go.mod that does not parse: %v, %v", bp, err)
	}
	// The first: example.com/used, which main.go imports.
	_, err = p.Apply([]int{1})
	var te *TypeError
	if !errors.As(err, &te) || te.Dir != "go.mod" {
		t.Errorf("removing a requirement in use: %v, want a TypeError of go.mod", err)
	}
}

// wantTypeError checks that err is nil when want is empty, and otherwise
// a TypeError of the file dir whose message holds want.
func wantTypeError(t *testing.T, name string, err error, dir, want string) {
	t.Helper()
	var te *TypeError
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want no error", name, err)
	case want == "":
	case !errors.As(err, &te) || te.Dir != dir || !strings.Contains(te.Msg, want):
		t.Errorf("%s: %v, want an error of %s: %s", name, err, dir, want)
	}
}
