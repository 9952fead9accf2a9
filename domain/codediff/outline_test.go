//go:build cgo

package codediff

import (
	"slices"
	"strings"
	"testing"

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
