package memgraph

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Op is one change to make in the passing run, in the order of §A.2.5:
// creating and setting values first, then adjusting pointers, then
// deleting. Paths are paths of G✓ (Graph.Path): the capturing runtime
// resolves them in the passing run at the same point, where they reach
// the same vertices.
type Op struct {
	// Do is "grow" (a slice to Len elements, new ones zero), "set" (the
	// value at Path to Value), "point" (the pointer at Path to the
	// vertex at Ref; a slice to Len elements starting there), "trunc" (a
	// slice to Len elements) or "del" (a map entry).
	Do    string   `json:"do"`
	Path  []string `json:"path"`
	Value *Value   `json:"value,omitempty"`
	Ref   []string `json:"ref,omitempty"`
	// Alt are other paths to Ref's vertex, for a slice: an array that
	// grew was copied, and only some of its names reach the copy.
	Alt [][]string `json:"alt,omitempty"`
	Len int        `json:"len,omitempty"`
}

// Value is a value to build in the passing run, taken from G✗: an atom
// (Atom, in Go syntax), nil, a struct's fields, the elements of an array
// or a slice, a map's entries, a pointer's pointee (Elem) or, where the
// failing run's pointer points to a vertex that the passing run has too,
// the path of that vertex in G✓ (Ref); an interface's dynamic type
// (Type) and value (Elem).
type Value struct {
	Kind   Kind       `json:"kind"`
	Type   string     `json:"type,omitempty"`
	Atom   string     `json:"atom,omitempty"`
	Nil    bool       `json:"nil,omitempty"`
	Fields []Field    `json:"fields,omitempty"`
	Elems  []*Value   `json:"elems,omitempty"`
	Keys   []Field    `json:"keys,omitempty"` // Name is the key in Go syntax
	Elem   *Value     `json:"elem,omitempty"`
	Ref    []string   `json:"ref,omitempty"`
	Alt    [][]string `json:"alt,omitempty"`
	Len    int        `json:"len,omitempty"`
}

// Field is a named part of a Value: a struct field or a map entry.
type Field struct {
	Name  string `json:"name"`
	Value *Value `json:"value"`
}

// Plan lists the operations that apply the deltas of subset to the
// passing run (§A.2.6: only what the chosen deltas create, point and
// delete).
func (m *Matching) Plan(deltas []Delta, subset []int) []Op {
	var grow, set, point, del []Op
	grows := map[int]int{}    // slice vertex -> new length
	truncs := map[int][]int{} // slice vertex -> indices deleted
	for _, i := range subset {
		d := deltas[i]
		path := append(append([]string{}, m.Pass.Path(d.Parent)...), d.Op)
		parent := &m.Pass.Vertices[d.Parent]
		switch d.Kind {
		case Change:
			set = append(set, Op{Do: "set", Path: path, Value: m.value(d.Fail, map[int]bool{})})
		case Add:
			if parent.Kind == Slice {
				if k, err := index(d.Op); err == nil && k+1 > grows[d.Parent] {
					grows[d.Parent] = k + 1
				}
			}
			set = append(set, Op{Do: "set", Path: path, Value: m.value(d.Fail, map[int]bool{})})
		case Delete:
			if parent.Kind == Slice {
				if k, err := index(d.Op); err == nil {
					truncs[d.Parent] = append(truncs[d.Parent], k)
				}
				continue
			}
			del = append(del, Op{Do: "del", Path: path})
		case Repoint:
			if parent.Kind == Slice && d.Target < 0 {
				set = append(set, Op{Do: "set", Path: m.Pass.Path(d.Parent), Value: m.value(m.ToFail[d.Parent], map[int]bool{})})
				continue
			}
			if parent.Kind == Slice {
				fail := &m.Fail.Vertices[m.ToFail[d.Parent]]
				point = append(point, Op{Do: "point", Path: m.Pass.Path(d.Parent), Ref: m.Pass.Path(d.Target), Alt: m.Pass.Paths(d.Target)[1:], Len: fail.Len})
				continue
			}
			if d.Target < 0 {
				set = append(set, Op{Do: "set", Path: path, Value: m.value(d.Fail, map[int]bool{})})
				continue
			}
			point = append(point, Op{Do: "point", Path: m.Pass.Path(d.Parent), Ref: m.Pass.Path(d.Target)})
		}
	}
	for _, v := range sortedKeys(grows) {
		grow = append(grow, Op{Do: "grow", Path: m.Pass.Path(v), Len: grows[v]})
	}
	for _, v := range sortedKeys(truncs) {
		// A slice can lose its last elements only: it is cut before the
		// first of the deleted indices from which all up to its end are
		// deleted.
		gone := map[int]bool{}
		for _, k := range truncs[v] {
			gone[k] = true
		}
		n := m.Pass.Vertices[v].Len
		for n > 0 && gone[n-1] {
			n--
		}
		if n < m.Pass.Vertices[v].Len {
			del = append(del, Op{Do: "trunc", Path: m.Pass.Path(v), Len: n})
		}
	}
	out := append(grow, set...)
	out = append(out, point...)
	return append(out, del...)
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// index reads an index operation "[k]".
func index(op string) (int, error) {
	return strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(op, "["), "]"))
}

// value is vertex x of G✗ as a Value to build; a pointee that the
// passing run has too (a matched vertex) is referred to, not copied, and
// a cycle among new vertices is cut (nil).
func (m *Matching) value(x int, seen map[int]bool) *Value {
	v := &m.Fail.Vertices[x]
	out := &Value{Kind: v.Kind, Type: v.Type, Nil: v.Nil, Len: v.Len}
	if v.Nil {
		return out
	}
	if seen[x] {
		return &Value{Kind: v.Kind, Type: v.Type, Nil: true}
	}
	seen[x] = true
	defer delete(seen, x)
	switch v.Kind {
	case Atom:
		out.Atom = v.Value
	case Iface:
		out.Type = v.Value
		if len(v.Edges) > 0 {
			out.Elem = m.value(v.Edges[0].To, seen)
		}
	case Ptr:
		if len(v.Edges) > 0 {
			t := v.Edges[0].To
			if p := m.ToPass[t]; p >= 0 {
				out.Ref = m.Pass.Path(p)
			} else {
				out.Elem = m.value(t, seen)
			}
		}
	case Struct:
		for _, e := range v.Edges {
			out.Fields = append(out.Fields, Field{Name: strings.TrimPrefix(e.Op, "."), Value: m.value(e.To, seen)})
		}
	case Array, Slice:
		if v.Kind == Slice && len(v.Edges) > 0 {
			if p := m.ToPass[v.Edges[0].To]; p >= 0 && m.sharesAll(v) {
				out.Ref, out.Alt = m.Pass.Path(p), m.Pass.Paths(p)[1:]
				return out
			}
		}
		for _, e := range v.Edges {
			out.Elems = append(out.Elems, m.value(e.To, seen))
		}
	case Map:
		for _, e := range v.Edges {
			out.Keys = append(out.Keys, Field{Name: strings.TrimSuffix(strings.TrimPrefix(e.Op, "["), "]"), Value: m.value(e.To, seen)})
		}
	}
	return out
}

// sharesAll says whether all elements of a failing run's slice are
// vertices the passing run has too (its array is one the passing run
// has).
func (m *Matching) sharesAll(v *Vertex) bool {
	for _, e := range v.Edges {
		if m.ToPass[e.To] < 0 {
			return false
		}
	}
	return true
}

// Encode writes a plan's operations as the capturing runtime reads them.
func Encode(ops []Op) []byte {
	b, _ := json.Marshal(ops)
	return b
}
