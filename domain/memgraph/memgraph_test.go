package memgraph

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// vx is a vertex for graph: its edges as "op>id op>id".
type vx struct {
	kind  Kind
	typ   string
	value string
	addr  uint64
	nil   bool
	len   int
	edges string
}

// graph builds a memory graph through Read: vs[0] gives the root's
// edges (root), vs[i] is vertex i.
func graph(t *testing.T, vs ...vx) *Graph {
	t.Helper()
	var g Graph
	for i, v := range vs {
		x := Vertex{ID: i, Kind: v.kind, Type: v.typ, Value: v.value, Addr: v.addr, Nil: v.nil, Len: v.len}
		if i == 0 {
			x.Kind = Root
		}
		for _, e := range strings.Fields(v.edges) {
			op, to, _ := strings.Cut(e, ">")
			var n int
			fmt.Sscan(to, &n)
			x.Edges = append(x.Edges, Edge{Op: op, To: n})
		}
		g.Vertices = append(g.Vertices, x)
	}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func root(edges string) vx { return vx{edges: edges} }

func describe(m *Matching) []string {
	var out []string
	for _, d := range m.Deltas() {
		out = append(out, m.Describe(d))
	}
	return out
}

// TestNames: names follow the edge operations (§A.2.1), a dereferenced
// name is parenthesized, and aliases (§A.2.2, Figure A.3) are one vertex
// with several names.
func TestNames(t *testing.T) {
	g := graph(t,
		root("f>1 p1>3 p2>4"),
		vx{kind: Struct, typ: "foo", addr: 0x10, edges: ".val>2"},
		vx{kind: Atom, typ: "int", value: "47", addr: 0x10},
		vx{kind: Ptr, typ: "*foo", edges: "*>1"},
		vx{kind: Ptr, typ: "*foo", edges: "*>1"},
	)
	for v, want := range map[int]string{1: "f", 2: "f.val", 3: "p1", 4: "p2"} {
		if g.Name(v) != want {
			t.Errorf("name of %d = %q, want %q", v, g.Name(v), want)
		}
	}
	if got := g.Names(1); !slices.Equal(got, []string{"f", "*p1", "*p2"}) {
		t.Errorf("the names of f's vertex are %q", got)
	}
	if got := Apply(Apply("s", "*", false), ".Scores", false); got != "(*s).Scores" {
		t.Errorf("%s", got)
	}
	if g.Lookup("f.val") != 2 || g.Lookup("nope") != -1 {
		t.Error("Lookup")
	}
	if paths := g.Paths(1); len(paths) != 3 || strings.Join(paths[2], " ") != "p2 *" {
		t.Errorf("paths of f: %q", paths)
	}
}

// list is a linked list of values as a memory graph: list → node{value,
// next} → ... → nil.
func list(t *testing.T, values ...int) *Graph {
	vs := []vx{root("list>1")}
	for i, v := range values {
		ptr := len(vs)
		vs = append(vs,
			vx{kind: Ptr, typ: "*List", edges: fmt.Sprintf("*>%d", ptr+1)},
			vx{kind: Struct, typ: "List", addr: uint64(0x100 * (i + 1)), edges: fmt.Sprintf(".value>%d .next>%d", ptr+2, ptr+3)},
			vx{kind: Atom, typ: "int", value: fmt.Sprint(v), addr: uint64(0x100 * (i + 1))})
		if i == len(values)-1 {
			vs = append(vs, vx{kind: Ptr, typ: "*List", nil: true})
		}
	}
	return graph(t, vs...)
}

// TestListDifference is Figure A.4's pair of lists. Parallel traversal
// pairs the elements by position (the appendix notes that it cannot
// find the largest common subgraph, where 15 is inserted and 20
// deleted): the differences are the two values that differ in place.
func TestListDifference(t *testing.T) {
	pass, fail := list(t, 14, 18, 20, 22), list(t, 14, 15, 18, 22)
	m := Match(pass, fail)
	got := describe(m)
	want := []string{"(*(*list).next).value = 15 instead of 18", "(*(*(*list).next).next).value = 18 instead of 20"}
	if !slices.Equal(got, want) {
		t.Errorf("deltas %q, want %q", got, want)
	}
	// Matching works: equal parts are matched, nothing else differs.
	for v, x := range m.ToFail {
		if x < 0 && pass.Vertices[v].Kind != Atom {
			t.Errorf("%s is not matched", pass.Name(v))
		}
	}
	ops := m.Plan(m.Deltas(), []int{1})
	if len(ops) != 1 || ops[0].Do != "set" || strings.Join(ops[0].Path, " ") != "list * .next * .next * .value" || ops[0].Value.Atom != "18" {
		t.Errorf("plan of the second delta: %+v", ops)
	}
	// A longer list: the failing run's extra element is created with its
	// tail (§A.2.5 step 1), where the passing run has nil.
	m = Match(list(t, 1), list(t, 1, 2))
	ds := m.Deltas()
	if len(ds) != 1 || ds[0].Kind != Change || m.Describe(ds[0]) != "(*list).next = &List{…} instead of nil" {
		t.Fatalf("deltas %q", describe(m))
	}
	ops = m.Plan(ds, []int{0})
	v := ops[0].Value
	if ops[0].Do != "set" || v.Kind != Ptr || v.Elem == nil || v.Elem.Fields[0].Value.Atom != "2" || !v.Elem.Fields[1].Value.Nil {
		js, _ := json.Marshal(ops)
		t.Errorf("plan: %s", js)
	}
}

// TestAliasDifference: a pointer that, in the failing run, points to a
// vertex the passing run has elsewhere is re-pointed to it (§A.2.5 step
// 2), and the delta names the target.
func TestAliasDifference(t *testing.T) {
	pass := graph(t,
		root("a>1 b>2 p>3"),
		vx{kind: Atom, typ: "int", value: "1", addr: 0x10},
		vx{kind: Atom, typ: "int", value: "1", addr: 0x20},
		vx{kind: Ptr, typ: "*int", edges: "*>2"},
	)
	fail := graph(t,
		root("a>1 b>2 p>3"),
		vx{kind: Atom, typ: "int", value: "1", addr: 0x10},
		vx{kind: Atom, typ: "int", value: "1", addr: 0x20},
		vx{kind: Ptr, typ: "*int", edges: "*>1"},
	)
	m := Match(pass, fail)
	ds := m.Deltas()
	if len(ds) != 1 || ds[0].Kind != Repoint || m.Var(ds[0]) != "a" || m.Describe(ds[0]) != "p points to a" {
		t.Fatalf("deltas %q", describe(m))
	}
	ops := m.Plan(ds, []int{0})
	if len(ops) != 1 || ops[0].Do != "point" || strings.Join(ops[0].Path, " ") != "p" || strings.Join(ops[0].Ref, " ") != "a" {
		t.Errorf("plan %+v", ops)
	}
	// The other way: the passing run's alias is not the failing run's;
	// p gets a value of its own.
	m = Match(fail, pass)
	ds = m.Deltas()
	if len(ds) != 1 || ds[0].Kind != Repoint || m.Describe(ds[0]) != "p points to b" {
		t.Fatalf("deltas %q", describe(m))
	}
}

// TestSliceDifferences: elements past the shorter length are added
// (growing the slice first) or deleted (cutting it); a slice that shares
// another's array in one run only is re-pointed or copied.
func TestSliceDifferences(t *testing.T) {
	short := graph(t,
		root("s>1"),
		vx{kind: Slice, typ: "[]int", len: 1, edges: "[0]>2"},
		vx{kind: Atom, typ: "int", value: "7", addr: 0x10},
	)
	long := graph(t,
		root("s>1"),
		vx{kind: Slice, typ: "[]int", len: 3, edges: "[0]>2 [1]>3 [2]>4"},
		vx{kind: Atom, typ: "int", value: "7", addr: 0x10},
		vx{kind: Atom, typ: "int", value: "8", addr: 0x18},
		vx{kind: Atom, typ: "int", value: "9", addr: 0x20},
	)
	m := Match(short, long)
	if got := describe(m); !slices.Equal(got, []string{"s[1] = 8 (only in the failing run)", "s[2] = 9 (only in the failing run)"}) {
		t.Errorf("deltas %q", got)
	}
	ops := m.Plan(m.Deltas(), []int{1})
	if len(ops) != 2 || ops[0].Do != "grow" || ops[0].Len != 3 || ops[1].Do != "set" {
		t.Errorf("plan %+v", ops)
	}
	m = Match(long, short)
	ds := m.Deltas()
	if len(ds) != 2 || ds[0].Kind != Delete {
		t.Fatalf("deltas %q", describe(m))
	}
	// Deleting s[1] alone cannot cut the slice (s[2] stays); both can.
	if ops := m.Plan(ds, []int{0}); len(ops) != 0 {
		t.Errorf("plan of s[1] alone: %+v", ops)
	}
	if ops := m.Plan(ds, []int{0, 1}); len(ops) != 1 || ops[0].Do != "trunc" || ops[0].Len != 1 {
		t.Errorf("plan of both: %+v", ops)
	}
	// b shares a's array in the failing run only.
	own := graph(t,
		root("a>1 b>3"),
		vx{kind: Slice, typ: "[]int", len: 1, edges: "[0]>2"},
		vx{kind: Atom, typ: "int", value: "7", addr: 0x10},
		vx{kind: Slice, typ: "[]int", len: 1, edges: "[0]>4"},
		vx{kind: Atom, typ: "int", value: "7", addr: 0x30},
	)
	shared := graph(t,
		root("a>1 b>3"),
		vx{kind: Slice, typ: "[]int", len: 1, edges: "[0]>2"},
		vx{kind: Atom, typ: "int", value: "7", addr: 0x10},
		vx{kind: Slice, typ: "[]int", len: 1, edges: "[0]>2"},
	)
	m = Match(own, shared)
	ds = m.Deltas()
	if len(ds) != 1 || m.Describe(ds[0]) != "b shares its elements with a[0]" {
		t.Fatalf("deltas %q", describe(m))
	}
	if ops := m.Plan(ds, []int{0}); len(ops) != 1 || ops[0].Do != "point" || strings.Join(ops[0].Ref, " ") != "a [0]" || ops[0].Len != 1 {
		t.Errorf("plan %+v", ops)
	}
	m = Match(shared, own)
	ds = m.Deltas()
	if len(ds) != 1 || m.Describe(ds[0]) != "b has elements of its own, not those of a[0]" {
		t.Fatalf("deltas %q", describe(m))
	}
	if ops := m.Plan(ds, []int{0}); len(ops) != 1 || ops[0].Do != "set" || len(ops[0].Value.Elems) != 1 {
		t.Errorf("plan %+v", ops)
	}
}

// TestSharedArray: two slices over one array, one element differing:
// one delta, under the first slice, the element's other name an alias.
func TestSharedArray(t *testing.T) {
	g := func(v string) *Graph {
		return graph(t,
			root("s>1 sorted>4"),
			vx{kind: Slice, typ: "[]int", len: 2, addr: 0x100, edges: "[0]>2 [1]>3"},
			vx{kind: Atom, typ: "int", value: "50", addr: 0x10},
			vx{kind: Atom, typ: "int", value: v, addr: 0x18},
			vx{kind: Slice, typ: "[]int", len: 2, addr: 0x200, edges: "[0]>2 [1]>3"},
		)
	}
	pass, fail := g("70"), g("60")
	m := Match(pass, fail)
	if got := describe(m); !slices.Equal(got, []string{"s[1] = 60 instead of 70"}) {
		t.Errorf("deltas %q", got)
	}
	if got := fail.Names(3); !slices.Equal(got, []string{"s[1]", "sorted[1]"}) {
		t.Errorf("names %q", got)
	}
}

// TestMapAndInterface: map entries are added and deleted by key; an
// interface holding another dynamic type is a change of the whole
// value.
func TestMapAndInterface(t *testing.T) {
	pass := graph(t,
		root("m>1 i>3"),
		vx{kind: Map, typ: "map[string]int", len: 1, edges: `["x"]>2`},
		vx{kind: Atom, typ: "int", value: "1"},
		vx{kind: Iface, typ: "any", value: "int", edges: ".(int)>4"},
		vx{kind: Atom, typ: "int", value: "1"},
	)
	fail := graph(t,
		root("m>1 i>3"),
		vx{kind: Map, typ: "map[string]int", len: 1, edges: `["y"]>2`},
		vx{kind: Atom, typ: "int", value: "1"},
		vx{kind: Iface, typ: "any", value: "string", edges: ".(string)>4"},
		vx{kind: Atom, typ: "string", value: `"a"`},
	)
	m := Match(pass, fail)
	want := []string{`i = "a" instead of 1`, `m["x"] (= 1) only in the passing run`, `m["y"] = 1 (only in the failing run)`}
	if got := describe(m); !slices.Equal(got, want) {
		t.Errorf("deltas %q, want %q", got, want)
	}
	ops := m.Plan(m.Deltas(), []int{0, 1, 2})
	var dos []string
	for _, o := range ops {
		dos = append(dos, o.Do+" "+strings.Join(o.Path, " "))
	}
	if !slices.Equal(dos, []string{"set i", `set m ["y"]`, `del m ["x"]`}) {
		t.Errorf("plan %q", dos)
	}
	if v := ops[0].Value; v.Type != "string" || v.Elem == nil || v.Elem.Atom != `"a"` {
		t.Errorf("interface value %+v", v)
	}
}

// TestIdentical: equal graphs have no deltas, whatever their addresses.
func TestIdentical(t *testing.T) {
	a, b := list(t, 1, 2, 3), list(t, 1, 2, 3)
	for i := range b.Vertices {
		b.Vertices[i].Addr += 0x1000
	}
	if ds := Match(a, b).Deltas(); len(ds) != 0 {
		t.Errorf("deltas between equal graphs: %q", describe(Match(a, b)))
	}
}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{`{`, `{"vertices":[]}`, `{"vertices":[{"id":0,"kind":"atom"}]}`,
		`{"vertices":[{"id":0,"kind":"root","edges":[{"op":"x","to":5}]}]}`, `{"vertices":[{"id":0,"kind":"root"},{"id":3,"kind":"atom"}]}`} {
		if _, err := Read([]byte(in)); err == nil {
			t.Errorf("Read(%s) = nil error", in)
		}
	}
}

func TestWindow(t *testing.T) {
	a := `"title = \"example\"\n[database]\nports = [ 8000, 8001, 8002 ]\nenabled = tru\n"`
	b := `"title = \"example\"\n[database]\nports = [ 8000, 8001, 8002 ]\nenabled = true\n"`
	x, y := Window(a, b)
	if x != `…]\nenabled = tru\n"` || y != `…]\nenabled = true\n"` {
		t.Errorf("Window = %s, %s", x, y)
	}
	if x, y := Window("90", "50"); x != "90" || y != "50" {
		t.Errorf("short values changed: %s %s", x, y)
	}
}

// TestApplyInputNames: the inputs' roots name their parts as users know
// them: lines of the standard input and of the files the arguments name
// from 1, environment variables as a shell writes them; other roots
// index as Go does.
func TestApplyInputNames(t *testing.T) {
	for _, c := range []struct{ parent, op, want string }{
		{Stdin, "[1]", "stdin line 2"},
		{Env, `["WIDTH"]`, "$WIDTH"},
		{Env, `["A B"]`, "$A B"},
		{"env", `["WIDTH"]`, `env["WIDTH"]`},
		{"m", "[0]", "m[0]"},
		{Files, `["1"]`, "file os.Args[1]"},
		{"file os.Args[1]", "[2]", "file os.Args[1] line 3"},
		{Files, `["$CONFIG"]`, "file $CONFIG"},
		{"file $CONFIG", "[0]", "file $CONFIG line 1"},
		{"file os.Args[1] line 3", "[0]", "file os.Args[1] line 3[0]"},
	} {
		if got := Apply(c.parent, c.op, false); got != c.want {
			t.Errorf("Apply(%q, %q) = %q, want %q", c.parent, c.op, got, c.want)
		}
	}
}

// TestNamedBy: the names Apply gives a file's parts say what names the
// file; other names do not.
func TestNamedBy(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{Apply(Files, `["1"]`, false), "os.Args[1]"},
		{Apply(Apply(Files, `["2"]`, false), "[4]", false), "os.Args[2]"},
		{Apply(Apply(Files, `["$CONFIG"]`, false), "[0]", false), "$CONFIG"},
		{"file", ""},
		{"file.lines[2]", ""},
		{"stdin line 2", ""},
	} {
		if got, ok := NamedBy(c.name); got != c.want || ok != (c.want != "") {
			t.Errorf("NamedBy(%q) = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}

// TestIsInput: the names of the program's input, as Name makes them, and
// names of its variables that only look alike.
func TestIsInput(t *testing.T) {
	for name, want := range map[string]bool{
		"stdin line 2": true, "os.Args[1]": true, "file os.Args[1] line 3": true, "file $CONFIG": true, "$HOME": true,
		"stdin": false, "(*sc).buf": false, "lines[1]": false, "filename": false, "args[0]": false,
	} {
		if IsInput(name) != want {
			t.Errorf("IsInput(%q) = %v", name, !want)
		}
	}
}
