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

// The members of a C++ namespace and of a Java class are declarations
// of their own, between the container's header and closing lines
// (header parts); a member on the header's line keeps the container
// whole.
func TestOutlineContainers(t *testing.T) {
	for _, tc := range []struct{ lang, src, want string }{
		{"cpp", "#include <cstdio>\n\nnamespace app {\n\n// f is.\nint f() { return 1; }\n\nint g() { return f(); }\n\n}  // namespace app\n\nint main() { return app::g(); }\n",
			"preproc_include 0-0, namespace_definition app 2-3 header, namespace_definition app > function_definition f 4-5, namespace_definition app > function_definition g 7-7, namespace_definition app 8-9 header, function_definition main 11-11"},
		{"java", "package p;\n\npublic class A {\n    int x;\n\n    int f() { return x; }\n}\n",
			"package_declaration 0-0, class_declaration A 2-2 header, class_declaration A > field_declaration 3-3, class_declaration A > method_declaration f 5-5, class_declaration A 6-6 header"},
		{"cpp", "namespace a { int x;\n}\n", "namespace_definition a 0-1"},
	} {
		g, err := Lookup(tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range g.Outline([]byte(tc.src)) {
			h := ""
			if d.Header {
				h = " header"
			}
			got = append(got, fmt.Sprintf("%s %d-%d%s", d.Name, d.Start, d.End, h))
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("%s outline:\n got %s\nwant %s", tc.lang, strings.Join(got, ", "), tc.want)
		}
	}
}
