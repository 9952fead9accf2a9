// Package memgraph holds program states as memory graphs, compares the
// states of a passing and a failing run, and computes what must be
// changed in the passing run to transplant a subset of the differences:
// "Why Programs Fail", Appendix "Formal Definitions", §A.2 (memory
// graphs: structure, unfolding, matching vertices and edges, the common
// subgraph by parallel traversal, graph differences, applying partial
// state changes).
//
// A graph is captured by the program itself (the runtime that package
// instrument adds to a Go program, or the gdb script for C) and written
// as JSON in the form of Graph; this package reads it and never runs
// anything.
//
// Differences are located where the two graphs part: for every pair of
// matching vertices, an edge of the same operation (the same field,
// index, map key or dereference) whose targets do not match is one
// delta. A delta thus pairs the failing run's vertex with the passing
// run's vertex it replaces (the appendix's deltas δ_v for the vertex
// only in G✓ and δ_x for the one only in G✗, taken together where they
// sit at the same place), so that "Scores[2] = 90 instead of 50" is one
// difference and not two.
package memgraph

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Kind is what a vertex holds.
type Kind string

// The kinds of vertices.
const (
	Atom   Kind = "atom"   // a number, boolean, string, or a []byte as a string
	Struct Kind = "struct" // fields, edges ".Name"
	Array  Kind = "array"  // elements, edges "[i]"
	Slice  Kind = "slice"  // elements, edges "[i]"; Len
	Map    Kind = "map"    // values, edges "[key]" in key order; Len
	Ptr    Kind = "ptr"    // edge "*" to the pointee unless Nil ("@" to the heap block of a C pointer, as an array)
	Iface  Kind = "iface"  // edge ".(T)" to the dynamic value unless Nil
	Opaque Kind = "opaque" // channels, functions, unsafe pointers: nil or not
	Root   Kind = "root"   // the root vertex: edges to the base variables
)

// Vertex is one value in memory: (val, tp, addr) of §A.2.1, with its
// outgoing edges.
type Vertex struct {
	ID    int    `json:"id"`
	Kind  Kind   `json:"kind"`
	Type  string `json:"type,omitempty"`
	Value string `json:"value,omitempty"` // atoms: Go syntax; iface: the dynamic type
	Addr  uint64 `json:"addr,omitempty"`  // 0 where the value has no address of its own
	Nil   bool   `json:"nil,omitempty"`
	Len   int    `json:"len,omitempty"`
	Edges []Edge `json:"edges,omitempty"`
}

// Edge leads from a vertex to one of its parts. Op is the operation
// that makes the part's name from the parent's: a base variable's name
// (from the root), ".f", "[i]", "[key]", "*" or ".(T)".
type Edge struct {
	Op string `json:"op"`
	To int    `json:"to"`
}

// Point is where and when a state was captured.
type Point struct {
	Stmt  int    `json:"stmt"`  // the probe's statement
	File  string `json:"file"`  // relative to the module's root
	Line  int    `json:"line"`  //
	Func  string `json:"func"`  // the function the statement is in
	Stack string `json:"stack"` // the backtrace, callers' call sites included
	// Occurrence numbers the captures with this statement and backtrace
	// in the run, from 1; Step is the probe's place among all probes the
	// run executed, from 1.
	Occurrence int    `json:"occurrence"`
	Step       uint64 `json:"step"`
}

// Graph is a memory graph: Vertices[0] is the root.
type Graph struct {
	Point    Point    `json:"point"`
	Vertices []Vertex `json:"vertices"`
	// Cut says that the capture stopped at its vertex limit: the graph
	// holds the vertices nearest to the base variables.
	Cut bool `json:"cut,omitempty"`

	names []string
	paths [][]string
}

// Read decodes a graph as the capturing runtime writes it and checks
// that it is one.
func Read(data []byte) (*Graph, error) {
	var g Graph
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("memory graph: %v", err)
	}
	if len(g.Vertices) == 0 || g.Vertices[0].Kind != Root {
		return nil, fmt.Errorf("memory graph: no root vertex")
	}
	for i, v := range g.Vertices {
		if v.ID != i {
			return nil, fmt.Errorf("memory graph: vertex %d has id %d", i, v.ID)
		}
		for _, e := range v.Edges {
			if e.To <= 0 || e.To >= len(g.Vertices) {
				return nil, fmt.Errorf("memory graph: vertex %d has an edge to %d", i, e.To)
			}
		}
	}
	g.name()
	return &g, nil
}

// name gives every vertex its name and path: by the operations on the
// first path that reaches it breadth first from the root (§A.2.1,
// "Names": among several parents, one is chosen; the nearest gives the
// shortest name).
func (g *Graph) name() {
	g.names = make([]string, len(g.Vertices))
	g.paths = make([][]string, len(g.Vertices))
	seen := make([]bool, len(g.Vertices))
	seen[0] = true
	queue := []int{0}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range g.Vertices[v].Edges {
			if seen[e.To] {
				continue
			}
			seen[e.To] = true
			g.paths[e.To] = append(append([]string{}, g.paths[v]...), e.Op)
			g.names[e.To] = Apply(g.names[v], e.Op, v == 0)
			queue = append(queue, e.To)
		}
	}
}

// Name is a vertex's name: the expression that reaches it.
func (g *Graph) Name(v int) string { return g.names[v] }

// Lookup finds the vertex with the given name, or -1.
func (g *Graph) Lookup(name string) int {
	for i, n := range g.names {
		if n == name && i > 0 {
			return i
		}
	}
	return -1
}

// Path is the operations that reach a vertex from the root, the first
// being a base variable's name.
func (g *Graph) Path(v int) []string { return g.paths[v] }

// Apply makes a part's name from its parent's by an edge operation
// (the function op of §A.2.1); root says that the parent is the root, so
// op is a base variable's name. A dereferenced name is parenthesized
// before a selector or an index: (*s).Scores[2].
func Apply(parent, op string, root bool) string {
	switch {
	case root:
		return op
	case op == "@":
		// The heap block a C pointer points to, as an array: its
		// elements are named by indexing the pointer.
		return parent
	case op == "*":
		return "*" + parent
	case strings.HasPrefix(parent, "*"):
		return "(" + parent + ")" + op
	case parent == Stdin && strings.HasPrefix(op, "["):
		// The lines of the standard input, counted from 1.
		if k, err := strconv.Atoi(strings.Trim(op, "[]")); err == nil {
			return fmt.Sprintf("stdin line %d", k+1)
		}
	case parent == Files && strings.HasPrefix(op, "["):
		// A file an argument names, by the argument's index.
		if k, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(op, "["), "]")); err == nil {
			if strings.HasPrefix(k, "$") {
				return "file " + k
			}
			return "file os.Args[" + k + "]"
		}
	case strings.HasPrefix(parent, "file ") && !strings.Contains(parent, " line ") && strings.HasPrefix(op, "["):
		// Its lines, counted from 1.
		if k, err := strconv.Atoi(strings.Trim(op, "[]")); err == nil {
			return fmt.Sprintf("%s line %d", parent, k+1)
		}
	case parent == Env && strings.HasPrefix(op, "["):
		// An environment variable, as a shell names it.
		if name, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(op, "["), "]")); err == nil {
			return "$" + name
		}
	}
	return parent + op
}

// Env names the root of the environment variables that are part of a
// program's state, a map by name.
const Env = "$env"

// Stdin names the root of a program's standard input, by lines, while
// the program has read nothing of it.
const Stdin = "stdin"

// Files names the root of the files a program's arguments and
// environment variables name, a map from the argument's index in
// os.Args ("1") or the variable's name ("$CONFIG") to the file's lines.
const Files = "files"

// NamedBy says, of the name of a file of Files or of a part of one
// ("file os.Args[1] line 3", as Apply names them), what names the file:
// the argument or variable ("os.Args[1]", "$CONFIG").
func NamedBy(name string) (string, bool) {
	v, ok := strings.CutPrefix(name, "file ")
	if !ok || !strings.HasPrefix(v, "os.Args[") && !strings.HasPrefix(v, "$") {
		return "", false
	}
	by, _, _ := strings.Cut(v, " line ")
	return by, true
}

// IsInput says that a name, as Name makes it, is of the program's
// input: a line of its standard input, an argument, a file one names,
// an environment variable ("stdin line 2", "os.Args[1]", "file $CONFIG
// line 3", "$HOME").
func IsInput(name string) bool {
	for _, p := range []string{"stdin line ", "os.Args[", "file ", "$"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Paths lists the paths that reach v through each of its parents, the
// first being Path(v).
func (g *Graph) Paths(v int) [][]string {
	out := [][]string{g.paths[v]}
	for p, pv := range g.Vertices {
		if p != 0 && g.paths[p] == nil {
			continue
		}
		for _, e := range pv.Edges {
			if e.To != v {
				continue
			}
			q := append(append([]string{}, g.paths[p]...), e.Op)
			if strings.Join(q, "\x00") != strings.Join(g.paths[v], "\x00") {
				out = append(out, q)
			}
		}
	}
	return out
}

// Size is the number of vertices, the root not counted.
func (g *Graph) Size() int { return len(g.Vertices) - 1 }

// Names lists the names of the vertices reachable from a base variable
// whose edges lead to v (aliases): several names for one vertex.
func (g *Graph) Names(v int) []string {
	var out []string
	for p, pv := range g.Vertices {
		for _, e := range pv.Edges {
			if e.To == v && g.names[p] != "" || e.To == v && p == 0 {
				out = append(out, Apply(g.names[p], e.Op, p == 0))
			}
		}
	}
	return out
}

// Show is a vertex's value as the output writes it: an atom's value,
// nil, {…} for a struct, [n]{…} for arrays, slices and maps, &… for a
// pointer.
func (g *Graph) Show(v int) string {
	x := g.Vertices[v]
	if x.Nil {
		return "nil"
	}
	switch x.Kind {
	case Atom:
		return x.Value
	case Struct:
		return x.Type + "{…}"
	case Array, Slice:
		return fmt.Sprintf("%s (len %d)", x.Type, x.Len)
	case Map:
		return fmt.Sprintf("%s (len %d)", x.Type, x.Len)
	case Ptr:
		if len(x.Edges) > 0 {
			return "&" + g.Show(x.Edges[0].To)
		}
		return "non-nil " + x.Type
	case Iface:
		if len(x.Edges) > 0 {
			return g.Show(x.Edges[0].To)
		}
		return x.Value
	case Opaque:
		return "non-nil " + x.Type
	}
	return "?"
}
