package memgraph

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Matching is a common subgraph of a passing run's graph G✓ and a
// failing run's G✗: pairs of matching vertices, one to one.
type Matching struct {
	Pass, Fail *Graph
	// ToFail[v] is the vertex of G✗ matched to vertex v of G✓, or -1;
	// ToPass the other way.
	ToFail, ToPass []int
}

// match says whether two vertices match (§A.2.3): atoms of the same
// type and value; pointers (and slices, maps, interfaces, opaque values)
// of the same type that are both nil or both not (an interface also of
// the same dynamic type); records and arrays of the same type.
func match(v, x *Vertex) bool {
	if v.Kind != x.Kind || v.Type != x.Type || v.Nil != x.Nil {
		return false
	}
	switch v.Kind {
	case Atom, Iface:
		return v.Value == x.Value
	case Array:
		return v.Len == x.Len
	}
	return true
}

// Match computes the common subgraph by parallel traversal from the two
// roots (§A.2.4): from each matched pair, edges with the same operation
// whose targets match, and neither of which is matched yet, add the pair
// of targets. Where one run's vertex is already matched (an alias in one
// run that is not one in the other), the pair is not added: the
// matching stays one to one and the difference shows as a delta.
func Match(pass, fail *Graph) *Matching {
	m := &Matching{Pass: pass, Fail: fail, ToFail: make([]int, len(pass.Vertices)), ToPass: make([]int, len(fail.Vertices))}
	for i := range m.ToFail {
		m.ToFail[i] = -1
	}
	for i := range m.ToPass {
		m.ToPass[i] = -1
	}
	m.ToFail[0], m.ToPass[0] = 0, 0
	queue := [][2]int{{0, 0}}
	for len(queue) > 0 {
		v, x := queue[0][0], queue[0][1]
		queue = queue[1:]
		xs := edgesByOp(&fail.Vertices[x])
		for _, ev := range pass.Vertices[v].Edges {
			tx, ok := xs[ev.Op]
			if !ok {
				continue
			}
			tv := ev.To
			if m.ToFail[tv] >= 0 || m.ToPass[tx] >= 0 {
				continue
			}
			if match(&pass.Vertices[tv], &fail.Vertices[tx]) {
				m.ToFail[tv], m.ToPass[tx] = tx, tv
				queue = append(queue, [2]int{tv, tx})
			}
		}
	}
	return m
}

func edgesByOp(v *Vertex) map[string]int {
	out := make(map[string]int, len(v.Edges))
	for _, e := range v.Edges {
		out[e.Op] = e.To
	}
	return out
}

// DeltaKind says what a delta does to the passing run.
type DeltaKind string

// The kinds of deltas.
const (
	// Change sets a value that both runs have in the same place: an
	// atom's value, or a whole value built from G✗ where the two do not
	// match as a whole (nil and not nil, another dynamic type).
	Change DeltaKind = "change"
	// Add creates what only the failing run has: a slice element past
	// the passing run's length, a map entry.
	Add DeltaKind = "add"
	// Delete removes what only the passing run has.
	Delete DeltaKind = "delete"
	// Repoint makes a pointer (or a slice) of the passing run point to
	// the vertex that matches its target in the failing run: an alias
	// that only the failing run has, or one it does not have.
	Repoint DeltaKind = "repoint"
)

// Delta is one difference between the graphs, at the place where they
// part: under the matched vertices Parent (in G✓) and the edge Op.
type Delta struct {
	Kind DeltaKind
	// Parent is the matched vertex of G✓ the difference is under, Op the
	// edge from it; Pass and Fail the two runs' targets (-1 where that
	// run has none).
	Parent     int
	Op         string
	Pass, Fail int
	// Target, for Repoint, is the vertex of G✓ the pointer is made to
	// point to: the match of the failing run's target, or -1 when that
	// has no match (a copy of it is made).
	Target int
}

// Place is where the delta is, as a name of the passing run.
func (m *Matching) Place(d Delta) string {
	return Apply(m.Pass.Name(d.Parent), d.Op, d.Parent == 0)
}

// Var is the variable a delta affects (var(Δ) of §A.3): its place, or
// for a pointer made to point elsewhere its new target (a pointer delta
// names the target vertex, not the pointer).
func (m *Matching) Var(d Delta) string {
	if d.Kind == Repoint && d.Target >= 0 {
		return m.Pass.Name(d.Target)
	}
	return m.Place(d)
}

// Describe says what the delta is, in words: "s.Scores[2] = 90 instead
// of 50".
func (m *Matching) Describe(d Delta) string {
	place := m.Place(d)
	switch d.Kind {
	case Add:
		return fmt.Sprintf("%s = %s (only in the failing run)", place, m.Fail.Show(d.Fail))
	case Delete:
		return fmt.Sprintf("%s (= %s) only in the passing run", place, m.Pass.Show(d.Pass))
	case Repoint:
		to := "a value of its own"
		if d.Target >= 0 {
			to = m.Pass.Name(d.Target)
		}
		if m.Pass.Vertices[d.Parent].Kind == Slice {
			if d.Target < 0 {
				return fmt.Sprintf("%s has elements of its own, not those of %s", m.Pass.Name(d.Parent), m.Pass.Name(d.Pass))
			}
			return fmt.Sprintf("%s shares its elements with %s", m.Pass.Name(d.Parent), to)
		}
		if d.Op == "*" {
			return fmt.Sprintf("%s points to %s", m.Pass.Name(d.Parent), to)
		}
		return fmt.Sprintf("%s is %s", place, to)
	}
	neu, old := Window(m.Fail.Show(d.Fail), m.Pass.Show(d.Pass))
	return fmt.Sprintf("%s = %s instead of %s", place, neu, old)
}

// windowWidth is how much of two long values Window shows.
const windowWidth = 48

// Window shows two values as the output writes them: whole when short,
// else the part around where they first differ, the rest cut ("…").
func Window(a, b string) (string, string) {
	if len(a) <= windowWidth && len(b) <= windowWidth {
		return a, b
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	from := max(0, p-windowWidth/3)
	for from > 0 && from < len(a) && !utf8.RuneStart(a[from]) {
		from--
	}
	cut := func(s string) string {
		if from >= len(s) {
			return "…"
		}
		out := s[from:]
		if len(out) > windowWidth {
			n := windowWidth
			for n > 0 && !utf8.RuneStart(out[n]) {
				n--
			}
			out = out[:n] + "…"
		}
		if from > 0 {
			out = "…" + out
		}
		return out
	}
	return cut(a), cut(b)
}

// Old and New are the delta's values in the passing and the failing run
// as the output writes them ("" where the run has none).
func (m *Matching) Old(d Delta) string {
	if d.Pass < 0 {
		return ""
	}
	return m.Pass.Show(d.Pass)
}

// New is the failing run's value.
func (m *Matching) New(d Delta) string {
	if d.Fail < 0 {
		return ""
	}
	return m.Fail.Show(d.Fail)
}

// Deltas lists the differences (§A.2.5–A.2.6), breadth first from the
// base variables. Under a vertex that does not match as a whole, there
// are no further deltas: the Change builds the whole value.
//
// A vertex reached through several matched parents (the elements of two
// slices sharing an array) differs once: under its first parent.
func (m *Matching) Deltas() []Delta {
	var out []Delta
	seen := map[[2]int]bool{}
	add := func(d Delta) {
		if d.Kind == Change || d.Kind == Repoint && d.Op == "*" {
			k := [2]int{d.Pass, d.Fail}
			if seen[k] {
				return
			}
			seen[k] = true
		}
		out = append(out, d)
	}
	for v, x := range m.ToFail {
		if x < 0 {
			continue
		}
		pv, px := &m.Pass.Vertices[v], &m.Fail.Vertices[x]
		xs := edgesByOp(px)
		vs := edgesByOp(pv)
		sliceLike := pv.Kind == Slice
		if sliceLike && len(pv.Edges) > 0 && len(px.Edges) > 0 {
			// A slice whose first element, in the failing run, is a
			// vertex the passing run has elsewhere shares its elements
			// with that vertex's array: one Repoint for the slice.
			tv, tx := pv.Edges[0].To, px.Edges[0].To
			if m.ToFail[tv] != tx && m.ToPass[tx] >= 0 {
				add(Delta{Kind: Repoint, Parent: v, Op: pv.Edges[0].Op, Pass: tv, Fail: tx, Target: m.ToPass[tx]})
				continue
			}
			if m.ToFail[tv] >= 0 && m.ToFail[tv] != tx {
				// The passing run's slice shares another one's array,
				// the failing run's has one of its own: a copy.
				add(Delta{Kind: Repoint, Parent: v, Op: pv.Edges[0].Op, Pass: tv, Fail: tx, Target: -1})
				continue
			}
		}
		for _, ev := range pv.Edges {
			tv := ev.To
			tx, ok := xs[ev.Op]
			switch {
			case !ok:
				add(Delta{Kind: Delete, Parent: v, Op: ev.Op, Pass: tv, Fail: -1, Target: -1})
			case m.ToFail[tv] == tx:
			case m.ToPass[tx] >= 0 && (ev.Op == "*" || ev.Op == "@" || strings.HasPrefix(ev.Op, ".(")):
				add(Delta{Kind: Repoint, Parent: v, Op: ev.Op, Pass: tv, Fail: tx, Target: m.ToPass[tx]})
			case ev.Op == "*" && m.ToFail[tv] >= 0:
				// The passing run's pointee is matched elsewhere (an
				// alias there), the failing run's is a vertex of its
				// own: point to a copy of it.
				add(Delta{Kind: Repoint, Parent: v, Op: ev.Op, Pass: tv, Fail: tx, Target: -1})
			default:
				add(Delta{Kind: Change, Parent: v, Op: ev.Op, Pass: tv, Fail: tx, Target: -1})
			}
		}
		for _, ex := range px.Edges {
			if _, ok := vs[ex.Op]; !ok {
				add(Delta{Kind: Add, Parent: v, Op: ex.Op, Pass: -1, Fail: ex.To, Target: -1})
			}
		}
	}
	return out
}
