package golang

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// transforms names, for each golden file NAME.golden in
// testdata/transform, the change made to get it: the nth (from 1) change
// of a kind, made on NAME.go or on the input sharedInput names.
var transforms = []struct {
	file string
	kind string
	nth  int
}{
	{"comment", "comment → nothing", 1},
	{"declaration", "declaration → nothing", 2}, // the function: its import goes too
	{"spec", "spec → nothing", 1},
	{"function-empty-body", "function → empty body", 1},
	{"field", "field → nothing", 2},
	{"method", "method → nothing", 1},
	{"parameter", "parameter → nothing", 1},
	{"clause", "clause → nothing", 1},
	{"statement", "statement → nothing", 2},
	{"if-then", "if → then", 1},
	{"if-else", "if → else", 1},
	{"else-nothing", "else → nothing", 1},
	{"loop-body", "loop → body", 1},
	{"range-loop-body", "loop → body", 1},
	{"block-statements", "block → statements", 1},
	{"label-statement", "label → statement", 1},
	{"go-call", "go → call", 1},
	{"defer-call", "defer → call", 1},
	{"switch-clause", "switch → clause", 1},
	{"element", "element → nothing", 2},
	{"expression-false", "expression → false", 1},
	{"expression-true", "expression → true", 1},
	{"expression-zero", "expression → zero", 1},
	{"expression-operand", "expression → operand", 2},
	{"call-argument", "expression → operand", 1},
	{"function-literal", "function → empty body", 1},
	{"name-shorter", "name → shorter", 1},
	{"with-uses", "declaration → nothing, with its uses", 1},
	{"with-uses-local", "declaration → nothing, with its uses", 2},
}

func kinds(r *decomp.Rewrite) string {
	var ks []string
	for _, ch := range r.Changes {
		ks = append(ks, ch.Kind)
	}
	return strings.Join(ks, "; ")
}

// sharedInput names the input of golden files made from one input.
var sharedInput = map[string]string{"if-then": "if", "if-else": "if", "else-nothing": "if", "with-uses-local": "with-uses"}

// TestTransformGolden makes each transformation on its input and
// compares the result with a golden file. Every result parses, is gofmt
// clean, and is a fixpoint of the printer (idempotent).

func TestTransformGolden(t *testing.T) {
	used := map[string]bool{}
	for _, tc := range transforms {
		t.Run(tc.file, func(t *testing.T) {
			from := tc.file
			if in, ok := sharedInput[tc.file]; ok {
				from = in
			}
			path := filepath.Join("testdata", "transform", from+".go")
			used[path] = true
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, typeCheck := range []bool{false, true} {
				r, err := Changes(src, typeCheck)
				if err != nil {
					t.Fatal(err)
				}
				idx, seen := -1, 0
				for i, ch := range r.Changes {
					if ch.Kind == tc.kind {
						if seen++; seen == tc.nth {
							idx = i
							break
						}
					}
				}
				if idx < 0 {
					t.Fatalf("no change #%d of kind %q among: %s", tc.nth, tc.kind, kinds(r))
				}
				got, err := r.Apply(dd.AllBut(r.Len(), idx))
				if err != nil {
					t.Fatalf("typecheck=%v: %v", typeCheck, err)
				}
				golden := filepath.Join("testdata", "transform", tc.file+".golden")
				goldenfile.Check(t, golden, string(got), *update && !typeCheck)
				if _, err := parser.ParseFile(token.NewFileSet(), "x.go", got, parser.ParseComments); err != nil {
					t.Errorf("result does not parse: %v", err)
				}
				if f, err := format.Source(got); err != nil || !bytes.Equal(f, got) {
					t.Errorf("result is not gofmt-clean:\n%s", got)
				}
				chk, err := NewChecker(src, typeCheck)
				if err != nil {
					t.Fatal(err)
				}
				if again, err := chk.Finish(got); err != nil || !bytes.Equal(again, got) {
					t.Errorf("printing the result again changes it (%v):\n%s", err, again)
				}
			}
		})
	}
	files, _ := filepath.Glob("testdata/transform/*.go")
	for _, f := range files {
		if !used[f] {
			t.Errorf("%s: no transformation in the table uses it", f)
		}
	}
}

// TestTransformNotOffered lists transformations that would leave the
// program invalid and must not be offered.
func TestTransformNotOffered(t *testing.T) {
	cases := []struct{ name, src, kind string }{
		{"loop body breaks", "package p\nfunc f() { for { break } }\n", "loop → body"},
		{"loop body continues", "package p\nfunc f(xs []int) { for range xs { continue } }\n", "loop → body"},
		{"range variable used", "package p\nfunc f(xs []int) (n int) { for _, x := range xs { n += x }; return }\n", "loop → body"},
		{"label used", "package p\nfunc f() {\nl:\n\tfor {\n\t\tbreak l\n\t}\n}\n", "label → statement"},
		{"parameter used", "package p\nfunc f(a int) int { return a }\nvar x = f(1)\n", "parameter → nothing"},
		{"directive", "package p\n\n//go:noinline\nfunc f() {}\n", "comment → nothing"},
	}
	for _, c := range cases {
		r, err := Changes([]byte(c.src), false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, ch := range r.Changes {
			if ch.Kind == c.kind {
				t.Errorf("%s: %q offered", c.name, c.kind)
			}
		}
	}
	// Inner loops and switches keep their own breaks.
	r, err := Changes([]byte("package p\nfunc f(x int) { for { for { break }; switch x { case 1: break }; return } }\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(kinds(r), "loop → body") {
		t.Errorf("outer loop → body not offered: %s", kinds(r))
	}
}

// TestCheckerTypeCheck: with type checking, a candidate with a type error
// the original does not have is rejected; the original's own errors (a
// name defined in another file of the package) are not held against it.
func TestCheckerTypeCheck(t *testing.T) {
	orig := []byte("package p\n\nfunc f() int {\n\tx := 1\n\treturn x + other\n}\n")
	chk, err := NewChecker(orig, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chk.Finish(orig); err != nil {
		t.Errorf("the original is rejected: %v", err)
	}
	bad := []byte("package p\n\nfunc f() int {\n\treturn x + other\n}\n")
	if _, err := chk.Finish(bad); err == nil || !strings.Contains(err.Error(), "undefined: x") {
		t.Errorf("new type error: err = %v, want undefined: x", err)
	}
	plain, err := NewChecker(orig, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Finish(bad); err != nil {
		t.Errorf("without type checking: %v", err)
	}
	if _, err := plain.Finish([]byte("package p\nfunc f( {")); err == nil {
		t.Error("a candidate that does not parse is accepted")
	}
}

// A Go file outlines into its header, each import spec (the block's
// parentheses as header) and each declaration with its doc comment,
// methods named by receiver.
func TestOutline(t *testing.T) {
	src := "// Package p.\npackage p\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// T is.\ntype T int\n\nfunc (t *T) M() { fmt.Println(os.Args) }\n\nvar x, y = 1, 2\n"
	var got []string
	for _, d := range (Language{}).Outline("p.go", []byte(src)) {
		got = append(got, fmt.Sprintf("%s %d-%d %v", d.Name, d.Start, d.End, d.Header))
	}
	want := "header 0-3 true, import 4-4 false, import 5-5 false, import 6-6 true, T 8-9 false, *T.M 11-11 false, x 13-13 false"
	if strings.Join(got, ", ") != want {
		t.Errorf("outline:\n got %s\nwant %s", strings.Join(got, ", "), want)
	}
	if (Language{}).Outline("p.go", []byte("package p\nfunc {")) != nil {
		t.Errorf("a file that does not parse has an outline")
	}
}
