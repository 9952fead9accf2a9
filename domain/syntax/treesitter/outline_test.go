//go:build cgo

package treesitter

import (
	"fmt"
	"strings"
	"testing"
)

// A C file outlines into its top-level declarations, each with the
// comments before it, named by kind and name; a file that does not parse
// has no outline.
func TestOutlineC(t *testing.T) {
	g, err := Lookup("c")
	if err != nil {
		t.Fatal(err)
	}
	src := `#include <stdio.h>

/* a point */
struct point { int x, y; };

int count = 0;

// norm is the
// squared norm.
static int norm(struct point p)
{
	return p.x * p.x + p.y * p.y;
}

int main(void) { printf("%d\n", norm((struct point){1, 2})); }
`
	var got []string
	for _, d := range g.Outline([]byte(src)) {
		got = append(got, fmt.Sprintf("%s %d-%d", d.Name, d.Start, d.End))
	}
	want := "preproc_include 0-0, struct_specifier point 2-3, declaration count 5-5, function_definition norm 7-12, function_definition main 14-14"
	if strings.Join(got, ", ") != want {
		t.Errorf("outline:\n got %s\nwant %s", strings.Join(got, ", "), want)
	}
	if d := g.Outline([]byte("int main( {")); d != nil {
		t.Errorf("a file that does not parse: %v", d)
	}
	if j, _ := Lookup("json"); j.Outline([]byte(`{"a": 1}`)) != nil {
		t.Errorf("JSON has no declarations to outline")
	}
}
