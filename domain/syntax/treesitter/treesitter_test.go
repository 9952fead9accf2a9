//go:build cgo

package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/syntax"
)

// samples are small programs in each language, each with a marker that
// the reduction oracle below keeps, and a broken variant.
var samples = []struct {
	lang, src, marker, broken string
}{
	{"c", `#include <stdio.h>
struct point { int x, y; };
static int sq(int v) { return v * v; }
int main(void) {
    struct point p = {1, 2};
    for (int i = 0; i < 3; i++) {
        if (i > 1) {
            printf("%d\n", sq(p.x) + MARKER);
        }
    }
    return 0;
}
`, "MARKER", "int main( {"},
	{"javascript", `import fs from "fs";
const config = { name: "x", items: [1, 2, 3], nested: { deep: MARKER } };
function load(path) {
  if (!fs.existsSync(path)) {
    throw new Error("missing " + path);
  }
  return JSON.parse(fs.readFileSync(path, "utf8"));
}
export default function main() {
  for (const item of config.items) {
    console.log(item, load("data.json"));
  }
}
`, "MARKER", "function (x {"},
	{"python", `import os

class Loader:
    def __init__(self, path):
        self.path = path

    def load(self):
        if not os.path.exists(self.path):
            raise ValueError("missing")
        with open(self.path) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                yield MARKER(line)

def main():
    for x in Loader("data.txt").load():
        print(x)
`, "MARKER", "def f(:\n"},
	{"html", `<!DOCTYPE html>
<html>
<head><title>T</title></head>
<body>
  <ul>
    <li>one</li>
    <li>two <b>MARKER</b></li>
    <li>three</li>
  </ul>
  <p>Some <a href="x">text</a>.</p>
</body>
</html>
`, "MARKER", "<p <"},
	{"json", `{
  "name": "wynot",
  "version": 3,
  "tags": ["a", "b", {"deep": ["MARKER", 1, 2]}],
  "nested": {"x": null, "y": [true, false]}
}
`, "MARKER", `{"a": [1, 2}`},
	{"cpp", `#include <iostream>
#include <vector>
namespace geo {
template <typename T> struct Point { T x, y; };
class Shape {
public:
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
}
int main() {
  std::vector<geo::Point<int>> ps{{1, 2}, {3, 4}};
  for (const auto &p : ps) {
    if (p.x > 1) {
      std::cout << p.y + MARKER << std::endl;
    }
  }
  return 0;
}
`, "MARKER", "int main( {"},
	{"rust", `use std::collections::HashMap;
struct Counter { counts: HashMap<String, u32> }
impl Counter {
    fn add(&mut self, w: &str) -> u32 {
        let c = self.counts.entry(w.to_string()).or_insert(0);
        *c += 1;
        *c
    }
}
fn main() {
    let mut c = Counter { counts: HashMap::new() };
    for w in ["a", "b", "a"] {
        if c.add(w) > 1 {
            println!("{}", MARKER);
        }
    }
}
`, "MARKER", "fn main( {"},
	{"java", `import java.util.List;
public class Main {
    interface Shape { double area(); }
    record Square(double side) implements Shape {
        public double area() { return side * side; }
    }
    public static void main(String[] args) {
        List<Shape> shapes = List.of(new Square(2), new Square(3));
        for (Shape s : shapes) {
            if (s.area() > 5) {
                System.out.println(MARKER + s.area());
            }
        }
    }
}
`, "MARKER", "class Main { void f( }"},
	{"typescript", `interface Item { name: string; tags?: string[] }
type Loader = (path: string) => Promise<Item[]>;
export async function main(load: Loader): Promise<void> {
  const items: Item[] = await load("data.json");
  for (const item of items) {
    if (item.tags && item.tags.length > 1) {
      console.log(item.name, MARKER);
    }
  }
}
`, "MARKER", "function f(: {"},
	{"go", `package main

import "fmt"

type point struct{ x, y int }

func main() {
	ps := []point{{1, 2}, {3, 4}}
	for _, p := range ps {
		if p.x > 1 {
			fmt.Println(p.y + MARKER)
		}
	}
}
`, "MARKER", "func main( {"},
}

func TestCheck(t *testing.T) {
	for _, s := range samples {
		g, err := Lookup(s.lang)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Check([]byte(s.src)); err != nil {
			t.Errorf("%s sample: %v", s.lang, err)
		}
		if s.lang == "html" {
			continue // every text is HTML; tree-sitter marks only some errors
		}
		if err := g.Check([]byte(s.broken)); err == nil {
			t.Errorf("%s: %q accepted", s.lang, s.broken)
		}
	}
	if _, err := Lookup("cobol"); err == nil || !strings.Contains(err.Error(), "javascript") {
		t.Errorf("Lookup(cobol) = %v, want an error naming the known languages", err)
	}
	for ext, want := range map[string]string{".c": "c", ".h": "c", ".js": "javascript", ".py": "python", ".htm": "html", ".json": "json", ".go": "",
		".cpp": "cpp", ".hpp": "cpp", ".cc": "cpp", ".rs": "rust", ".java": "java", ".ts": "typescript", ".tsx": "tsx"} {
		if got := ByExtension(ext); got != want {
			t.Errorf("ByExtension(%s) = %q, want %q", ext, got, want)
		}
	}
}

// TestPlanCandidatesParse checks every single transformation of every
// pass: its candidate parses (or the plan rejects it) and is no larger.
func TestPlanCandidatesParse(t *testing.T) {
	for _, s := range samples {
		g, _ := Lookup(s.lang)
		ps, err := g.Passes([]byte(s.src))
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) < 3 {
			t.Errorf("%s: only %d passes", s.lang, len(ps))
		}
		valid := 0
		for _, p := range ps {
			pl, err := p.Plan([]byte(s.src))
			if err != nil {
				t.Fatalf("%s %s: %v", s.lang, p.Name(), err)
			}
			for i := range pl.Len() {
				var keep []int
				for j := range pl.Len() {
					if j != i {
						keep = append(keep, j)
					}
				}
				out, err := pl.Apply(keep)
				if err != nil {
					continue
				}
				valid++
				if err := g.Check(out); err != nil {
					t.Errorf("%s %s change %d: candidate %v:\n%s", s.lang, p.Name(), i, err, out)
				}
				if len(out) > len(s.src) {
					t.Errorf("%s %s change %d grows the input", s.lang, p.Name(), i)
				}
			}
		}
		if valid == 0 {
			t.Errorf("%s: no valid candidate", s.lang)
		}
	}
}

// TestReduceKeepsMarker reduces each sample with ddmin, pass after pass
// until a fixpoint, keeping the marker: the result parses, keeps it, and
// is a fraction of the sample.
func TestReduceKeepsMarker(t *testing.T) {
	for _, s := range samples {
		g, _ := Lookup(s.lang)
		data := []byte(s.src)
		for changed := true; changed; {
			changed = false
			ps, err := g.Passes(data)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				pl, err := p.Plan(data)
				if err != nil {
					t.Fatal(err)
				}
				test := dd.TesterFunc(func(_ context.Context, c dd.Config) dd.Outcome {
					out, err := pl.Apply(c)
					switch {
					case err != nil:
						return dd.Unresolved
					case strings.Contains(string(out), s.marker):
						return dd.Fail
					}
					return dd.Pass
				})
				res, err := dd.Run(context.Background(), pl.Len(), test, dd.Options{Algorithm: dd.Minimize})
				if err != nil {
					t.Fatalf("%s %s: %v", s.lang, p.Name(), err)
				}
				out, err := pl.Apply(res.Fail)
				if err != nil {
					t.Fatal(err)
				}
				if len(out) < len(data) {
					data, changed = out, true
				}
			}
		}
		if err := g.Check(data); err != nil || !strings.Contains(string(data), s.marker) {
			t.Errorf("%s: result %q: %v", s.lang, data, err)
		}
		if len(data)*3 > len(s.src) {
			t.Errorf("%s: reduced only to %d of %d bytes: %q", s.lang, len(data), len(s.src), data)
		}
		t.Logf("%s: %d → %d bytes: %q", s.lang, len(s.src), len(data), data)
	}
}

// TestCFamilyChanges: C-like languages get an expression replaced by an
// operand, a statement by the statement or block inside it, a function's
// body emptied; the others do not.
func TestCFamilyChanges(t *testing.T) {
	kinds := func(lang, src string) map[string]bool {
		g, err := Lookup(lang)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := g.Passes([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, p := range ps {
			pl, err := p.Plan([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range pl.(*decomp.Rewrite).Changes {
				out[ch.Kind] = true
			}
		}
		return out
	}
	c := kinds("c", "int f(int a, int b) {\n  if (a > b) {\n    return a * b + 1;\n  }\n  return 0;\n}\n")
	for _, want := range []string{"binary_expression → operand", "if_statement → inner statement", "function_definition → empty body"} {
		if !c[want] {
			t.Errorf("C: no %q among %v", want, c)
		}
	}
	rs := kinds("rust", "fn f(a: i32) -> i32 {\n    if a > 1 { a * 2 } else { 0 }\n}\n")
	if !rs["function_item → empty body"] || !rs["binary_expression → operand"] {
		t.Errorf("Rust: %v", rs)
	}
	for k := range kinds("python", "def f(a):\n    if a > 1:\n        return a * 2\n") {
		if strings.Contains(k, "operand") || strings.Contains(k, "empty body") {
			t.Errorf("Python got a C-family change: %s", k)
		}
	}
}

// TestParamChanges: a parameter goes with the argument at every call by
// name with as many arguments, in C, C++, Java, JavaScript, TypeScript
// and Rust; the candidate parses.
func TestParamChanges(t *testing.T) {
	for _, c := range []struct{ lang, src, want string }{
		{"c", "int f(int a, int b) { return b; }\nint main(void) { return f(1, 2) + f(3, 4); }\n",
			"int f(int b) { return b; }\nint main(void) { return f(2) + f(4); }\n"},
		{"cpp", "static int f(int a, int b) { return b; }\nint main() { return f(1, 2); }\n",
			"static int f(int b) { return b; }\nint main() { return f(2); }\n"},
		{"java", "class A {\n  static int f(int a, int b) { return b; }\n  int g() { return f(1, 2); }\n}\n",
			"class A {\n  static int f(int b) { return b; }\n  int g() { return f(2); }\n}\n"},
		{"javascript", "function f(a, b) { return b; }\nf(1, 2);\n", "function f(b) { return b; }\nf(2);\n"},
		{"typescript", "function f(a: number, b: number) { return b; }\nf(1, 2);\n", "function f(b: number) { return b; }\nf(2);\n"},
		{"rust", "fn f(a: i32, b: i32) -> i32 { b }\nfn main() { f(1, 2); }\n", "fn f(b: i32) -> i32 { b }\nfn main() { f(2); }\n"},
	} {
		g, err := Lookup(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := g.Passes([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			pl, err := p.Plan([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			rw := pl.(*decomp.Rewrite)
			for i, ch := range rw.Changes {
				if ch.Kind != "parameter → nothing" {
					continue
				}
				keep := make([]int, 0, len(rw.Changes)-1)
				for j := range rw.Changes {
					if j != i {
						keep = append(keep, j)
					}
				}
				out, err := rw.Apply(keep)
				if err != nil {
					t.Errorf("%s: %v", c.lang, err)
					continue
				}
				got = append(got, string(out))
			}
		}
		if !slices.Contains(got, c.want) {
			t.Errorf("%s: the candidates removing a parameter are %q, want among them %q", c.lang, got, c.want)
		}
	}
}

// TestAbsent: a wynot built without cgo knows the languages of the
// built-in grammars (builtins) by the names and extensions they have
// here, but HTML's, which auto never picks (and Go's, which package
// golang reduces).
func TestAbsent(t *testing.T) {
	var names []string
	for _, g := range grammars {
		if g.Name == "go" {
			continue
		}
		names = append(names, g.Name)
		i := slices.IndexFunc(builtins, func(a syntax.Absent) bool { return a.Name == g.Name })
		if i < 0 {
			t.Errorf("%s: not among the absent languages", g.Name)
			continue
		}
		exts := g.Exts
		if g.Lenient {
			exts = nil
		}
		if a := builtins[i]; !slices.Equal(a.Exts, exts) || a.Title == "" {
			t.Errorf("%s: absent as %+v, want the extensions %v and a title", g.Name, a, exts)
		}
	}
	if len(builtins) != len(names) {
		t.Errorf("%d absent languages, want %d (%v)", len(builtins), len(names), names)
	}
}
