//go:build cgo

package codediff

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax"
	_ "github.com/wynot/wynot/domain/syntax/sql"
	_ "github.com/wynot/wynot/domain/syntax/treesitter"
)

const cOld = `#include <stdio.h>

static int twice(int x)
{
	return 2 * x;
}

static int thrice(int x)
{
	return 3 * x;
}

int main(void)
{
	printf("%d %d\n", twice(1), thrice(1));
	return 0;
}
`

// A C file's hunks are grouped by the function each is in, as a Go
// file's are: the language's outline (syntax.Outliner), not the file's
// suffix, decides.
func TestGroupsByDeclC(t *testing.T) {
	cNew := strings.NewReplacer("2 * x", "2 * x + 1", "3 * x", "3 * x - 1", "return 0", "return 1").Replace(cOld)
	s := Compare(tree(map[string]string{"m.c": cOld}), tree(map[string]string{"m.c": cNew}), 0)
	if s.Len() != 3 {
		t.Fatalf("%d changes: %v", s.Len(), s.Changes)
	}
	var names []string
	for _, k := range s.Groups(ByDecls).Kids[0].Kids {
		names = append(names, k.Name)
	}
	want := []string{"m.c:function_definition twice", "m.c:function_definition thrice", "m.c:function_definition main"}
	if !slices.Equal(names, want) {
		t.Errorf("groups %q, want %q", names, want)
	}
}

// An added C file, and an added SQL file, are refined into their
// top-level declarations, each with the comments before it.
func TestRefineAddedFileByOutline(t *testing.T) {
	sql := "-- the table\nCREATE TABLE t (a INT);\nINSERT INTO t VALUES (1);\n\nSELECT a FROM t;\n"
	s := Refine(tree(map[string]string{}), tree(map[string]string{"m.c": cOld, "q.sql": sql, "notes.txt": "a\nb\n"}), 0)
	var got []string
	for _, c := range s.Changes {
		got = append(got, c.String())
	}
	want := []string{"m.c:1-2 (new file)", "m.c:3-7 (new file)", "m.c:8-12 (new file)", "m.c:13-17 (new file)", "add notes.txt",
		"q.sql:1-2 (new file)", "q.sql:3-4 (new file)", "q.sql:5-5 (new file)"}
	if !slices.Equal(got, want) {
		t.Errorf("changes\n%q\nwant\n%q", got, want)
	}
}

// An added file cut by its outline loses nothing: its parts, in order,
// are the file, for the real sources of testdata/syntax and small files
// of each language; a Rust attribute goes with its item.
func TestDeclPartsWhole(t *testing.T) {
	files := map[string]string{
		"a.py":   "import os\n\n@cache\ndef f(x):\n    return x\n\nclass C:\n    pass\n\nif __name__ == '__main__':\n    f(1)\n",
		"a.rs":   "use std::fmt;\n\n#[derive(Debug)]\nstruct P { x: i32 }\n\n// main runs.\nfn main() { println!(\"{:?}\", P { x: 1 }); }\n",
		"a.sql":  "CREATE TABLE t (a INT); INSERT INTO t VALUES (1);\nSELECT a FROM t;\n",
		"a.c":    "\n\n/* only a comment */\n",
		"b.c":    "",
		"n.cc":   "#include <cstdio>\n\nnamespace app {\n\n// f is.\nint f() { return 1; }\n\n}  // namespace app\n\nint main() { return app::f(); }\n",
		"A.java": "package p;\n\npublic class A {\n    int x;\n\n    int f() { return x; }\n}\n",
		"c.sql":  "SELECT 1;\r\nSELECT 2;",
	}
	for _, name := range []string{"cppcheck.cc", "crash.c", "crash.cpp", "crash.rs"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/syntax", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	for name, data := range files {
		parts := declParts(name, []byte(data), syntax.OutlineOf(name, []byte(data)))
		if parts == nil {
			continue // one change: the file as it is
		}
		var b strings.Builder
		for _, p := range parts {
			for _, l := range p.New {
				b.Write(l)
			}
		}
		if b.String() != data {
			t.Errorf("%s: parts join to\n%q\nnot\n%q", name, b.String(), data)
		}
	}
	parts := declParts("a.rs", []byte(files["a.rs"]), syntax.OutlineOf("a.rs", []byte(files["a.rs"])))
	if len(parts) != 3 || !strings.HasPrefix(string(parts[1].New[0]), "#[derive") {
		t.Errorf("a.rs parts: %v", parts)
	}
}

// Of an added C++ file, a namespace's members need its first and last
// lines, which need each other; a function outside it needs neither.
func TestContainerNeeds(t *testing.T) {
	src := "namespace app {\n\nint f() { return 1; }\n\nint g() { return 2; }\n\n}  // namespace app\n\nint main() { return 0; }\n"
	s := Refine(tree(map[string]string{}), tree(map[string]string{"n.cc": src}), 0)
	var got []string
	for i, ns := range s.Needs(nil) {
		for _, j := range ns {
			got = append(got, fmt.Sprintf("%s -> %s", s.Changes[i].String(), s.Changes[j].String()))
		}
	}
	slices.Sort(got)
	want := []string{
		"n.cc:1-2 (new file) -> n.cc:6-8 (new file)",
		"n.cc:3-4 (new file) -> n.cc:1-2 (new file)", "n.cc:3-4 (new file) -> n.cc:6-8 (new file)",
		"n.cc:5-5 (new file) -> n.cc:1-2 (new file)", "n.cc:5-5 (new file) -> n.cc:6-8 (new file)",
		"n.cc:6-8 (new file) -> n.cc:1-2 (new file)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("needs\n%q\nwant\n%q", got, want)
	}
}
