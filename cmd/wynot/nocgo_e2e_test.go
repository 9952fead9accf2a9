package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// TestReduceWithoutCgo: wynot builds without cgo (CGO_ENABLED=0), which
// its tree-sitter grammars need. That wynot reduces two C files as text,
// saying so once for both, with a real test (sh and grep); refuses
// --split tree:c with the reason; still reduces Go as Go syntax (go/ast
// needs no cgo); and wynot version names the languages it has and those
// it reduces as text. Under CGO_ENABLED=0 go test, the wynot the tests
// built is that wynot; otherwise it is built here.
func TestReduceWithoutCgo(t *testing.T) {
	e2e(t)
	t.Parallel()
	bin := wynotBin
	if grammars {
		bin = filepath.Join(t.TempDir(), "wynot")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
		}
	}
	run := func(dir string, args ...string) result {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return runResult(t, cmd)
	}

	dir := t.TempDir()
	write(t, filepath.Join(dir, "bug.c"), []byte("#include <stdlib.h>\n#include \"util.h\"\n\nint main(void) {\n\tint n = twice(21);\n\tif (n == 42)\n\t\tabort();\n\treturn 0;\n}\n"))
	write(t, filepath.Join(dir, "util.h"), []byte("/* Doubling. */\nstatic int twice(int x) { return 2 * x; }\nstatic int thrice(int x) { return 3 * x; }\n"))
	test := []string{"sh", "-c", `grep -q "abort()" bug.c && grep -q "int twice" util.h && exit 1; exit 0`}
	r := run(dir, append([]string{"reduce", "--json", "bug.c", "util.h", "--"}, test...)...)
	if r.code != 0 {
		t.Fatalf("reduce: exit %d\n%s", r.code, r.stderr)
	}
	note := "C is reduced as text: this wynot was built without cgo, which the tree-sitter grammars need (bug.c, util.h)"
	if !strings.Contains(r.stderr, "wynot: "+note+"\n") || strings.Count(r.stderr, "is reduced as text") != 1 {
		t.Errorf("want the note %q once in:\n%s", note, r.stderr)
	}
	for name, want := range map[string]string{"bug.c": "abort()", "util.h": "int twice"} {
		if got := string(read(t, filepath.Join(dir, name))); got != want {
			t.Errorf("%s reduced to %q, want %q", name, got, want)
		}
	}
	// Text passes: lines first, or whole bracket groups in nested text.
	if s := r.summary(t); len(s.Passes) == 0 || s.Passes[0].Name != "lines" && s.Passes[0].Name != "brackets at depth 0" || !s.Minimal {
		t.Errorf("passes %+v, minimal %v: want the text passes", s.Passes, s.Minimal)
	}
	check := exec.Command(test[0], test[1:]...)
	check.Dir = dir
	if err := check.Run(); err == nil {
		t.Error("the result passes the test")
	}

	// --split tree:c asks for what this wynot lacks: refused, nothing
	// runs and nothing changes.
	write(t, filepath.Join(dir, "again.c"), []byte("int main(void) { abort(); }\n"))
	r = run(dir, "reduce", "--split", "tree:c", "again.c", "--", "false")
	if want := `--split tree:c: no grammar for "c": ` + treesitter.NoCgo; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("--split tree:c: exit %d, stderr:\n%s\nwant exit 1 and %q", r.code, r.stderr, want)
	}
	if got := string(read(t, filepath.Join(dir, "again.c"))); got != "int main(void) { abort(); }\n" {
		t.Errorf("again.c changed to %q", got)
	}

	// Go is reduced by its syntax all the same.
	write(t, filepath.Join(dir, "p.go"), []byte("package p\n\nimport \"fmt\"\n\nfunc f(x int) int {\n\tfmt.Println(x)\n\tif x > 2 {\n\t\tpanic(\"boom\")\n\t}\n\treturn x\n}\n"))
	r = run(dir, "reduce", "--json", "p.go", "--", "sh", "-c", "grep -q panic {} && exit 1; exit 0")
	if s := r.summary(t); r.code != 0 || len(s.Passes) == 0 || !strings.HasPrefix(s.Passes[0].Name, "go ") || strings.Contains(r.stderr, "reduced as text") {
		t.Errorf("p.go: exit %d, passes %+v\n%s", r.code, s.Passes, r.stderr)
	}

	r = run(dir, "version")
	if want := "\nlanguages: go; as text: c, cpp, html, java, javascript, json, python, rust, sql, tsx, typescript (" + treesitter.NoCgo + ")\n"; r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("version: exit %d, %q; want %q", r.code, r.stdout, want)
	}
}
