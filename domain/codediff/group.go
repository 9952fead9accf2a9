package codediff

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/internal/enum"
)

// Grouping is how changes are grouped (FSE 1999 §6, AADEBUG 2000 §4):
// related changes stay in one subset as long as the granularity allows,
// which avoids testing inconsistent configurations.
type Grouping int

const (
	// NoGroups splits the list of changes (ordered by path) evenly.
	NoGroups Grouping = iota
	// ByDirs groups changes by directory.
	ByDirs
	// ByFiles groups by directory, then by file.
	ByFiles
	// ByDecls groups by directory, file, then for Go files by top-level
	// declaration (go/ast) touched.
	ByDecls
	// ByIdents groups by directory, file, then by common identifiers:
	// hunks of a file that mention the same rare identifier stay together.
	ByIdents
	// Auto groups by directory, file, and then declarations for Go files
	// and identifiers for other text.
	Auto
)

var groupingNames = []string{"none", "dirs", "files", "decls", "idents", "auto"}

func (g Grouping) String() string { return enum.Name(groupingNames, g, "Grouping") }

// MarshalText returns the grouping's name.
func (g Grouping) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a grouping by name.
func (g *Grouping) UnmarshalText(b []byte) (err error) {
	*g, err = enum.Parse[Grouping](groupingNames, string(b))
	return err
}

// Group is a node of a hierarchy of related changes.
type Group struct {
	Name    string
	Changes []int    // all changes under this group, sorted
	Kids    []*Group // subgroups; none for a leaf
	// Atomic marks changes that need each other (see Join): Partition
	// cuts them apart only when nothing else is left to cut.
	Atomic bool
}

// Join regroups the hierarchy by the needs between changes (Set.Needs;
// FSE 1999 §6, "grouping related changes"): the changes connected by
// needs, in either direction, become one group, placed where the first
// of them was, and within it the changes that need each other (a cycle:
// a renamed field and its uses, an import and its only users) are one
// atomic group. A change is thus tried with the changes it belongs with
// before it is tried alone.
func (g *Group) Join(needs [][]int) {
	n := len(needs)
	find, join := unionFind(n)
	for i, ns := range needs {
		for _, j := range ns {
			if j >= 0 && j < n {
				join(i, j)
			}
		}
	}
	comps := map[int][]int{}
	for i := range n {
		comps[find(i)] = append(comps[find(i)], i)
	}
	scc := stronglyConnected(needs)
	// Each node's own changes: those not under one of its kids.
	own := map[*Group][]int{}
	var collect func(h *Group)
	collect = func(h *Group) {
		under := map[int]bool{}
		for _, k := range h.Kids {
			collect(k)
			for _, x := range k.Changes {
				under[x] = true
			}
		}
		for _, x := range h.Changes {
			if !under[x] {
				own[h] = append(own[h], x)
			}
		}
	}
	collect(g)
	holder := map[int]*Group{}
	for h, xs := range own {
		for _, x := range xs {
			holder[x] = h
		}
	}
	moved := map[int]bool{}
	var roots []int
	for r, members := range comps {
		if len(members) > 1 && holder[members[0]] != nil {
			roots = append(roots, r)
		}
	}
	sort.Slice(roots, func(a, b int) bool { return comps[roots[a]][0] < comps[roots[b]][0] })
	for _, r := range roots {
		members := comps[r]
		h := holder[members[0]]
		grp := &Group{Name: "needs of " + h.Name, Changes: members}
		bySCC := map[int][]int{}
		var order []int
		for _, x := range members {
			moved[x] = true
			if _, ok := bySCC[scc[x]]; !ok {
				order = append(order, scc[x])
			}
			bySCC[scc[x]] = append(bySCC[scc[x]], x)
		}
		for _, c := range order {
			grp.Kids = append(grp.Kids, &Group{Name: grp.Name, Changes: bySCC[c], Atomic: len(bySCC[c]) > 1})
		}
		if len(grp.Kids) == 1 {
			grp = grp.Kids[0]
		}
		h.Kids = append(h.Kids, grp)
	}
	// Recompute every node's changes: its own (less the moved ones) and
	// its kids'; drop nodes left empty.
	var rebuild func(h *Group) bool
	rebuild = func(h *Group) bool {
		if h.Atomic || strings.HasPrefix(h.Name, "needs of ") && len(h.Kids) == 0 {
			return true
		}
		var cs []int
		for _, x := range own[h] {
			if !moved[x] {
				cs = append(cs, x)
			}
		}
		var kids []*Group
		for _, k := range h.Kids {
			if rebuild(k) {
				kids = append(kids, k)
				cs = append(cs, k.Changes...)
			}
		}
		sort.Ints(cs)
		h.Changes, h.Kids = slices.Compact(cs), kids
		sort.Slice(h.Kids, func(i, j int) bool { return h.Kids[i].Changes[0] < h.Kids[j].Changes[0] })
		return len(h.Changes) > 0
	}
	rebuild(g)
}

// stronglyConnected numbers the strongly connected components of the
// graph of needs (Tarjan's algorithm, without recursion): scc[i] is the
// component of change i.
func stronglyConnected(needs [][]int) []int {
	n := len(needs)
	index, low, scc := make([]int, n), make([]int, n), make([]int, n)
	for i := range index {
		index[i], scc[i] = -1, -1
	}
	var stack []int
	onStack := make([]bool, n)
	next, comp := 0, 0
	type frame struct{ v, k int }
	for s := range n {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		onStack[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.k < len(needs[v]) {
				w := needs[v][f.k]
				f.k++
				if w < 0 || w >= n {
					continue
				}
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					scc[w] = comp
					if w == v {
						break
					}
				}
				comp++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	return scc
}

// Groups builds the hierarchy of the changes of s for grouping g.
func (s *Set) Groups(g Grouping) *Group {
	root := &Group{Name: "."}
	all := make([]int, s.Len())
	for i := range all {
		all[i] = i
	}
	root.Changes = all
	if g == NoGroups {
		return root
	}
	// Directories and files: a tree of path components.
	nodes := map[string]*Group{".": root}
	var node func(p string) *Group
	node = func(p string) *Group {
		if n, ok := nodes[p]; ok {
			return n
		}
		parent := node(path.Dir(p))
		n := &Group{Name: p}
		parent.Kids = append(parent.Kids, n)
		nodes[p] = n
		return n
	}
	for i, c := range s.Changes {
		p := c.Path
		if g == ByDirs {
			p = path.Dir(p)
		}
		n := node(p)
		n.Changes = append(n.Changes, i)
	}
	// Inner groups of a file.
	if g == ByDecls || g == ByIdents || g == Auto {
		for p, n := range nodes {
			if len(n.Kids) > 0 || len(n.Changes) < 2 || s.Old.Files[p] == nil {
				continue
			}
			var decls []syntax.Decl
			if g == ByDecls || g == Auto {
				decls = syntax.OutlineOf(p, s.Old.Files[p].Data)
			}
			switch {
			case len(decls) > 1:
				n.Kids = s.declGroups(p, decls, n.Changes)
			case g == ByIdents || g == Auto || syntax.LangOf(p) != "":
				// A file of a language that does not parse, or has no
				// declarations, is grouped by identifiers.
				n.Kids = s.identGroups(n.Changes)
			}
		}
	}
	// Every node holds the changes of its subtree.
	var fill func(n *Group) []int
	fill = func(n *Group) []int {
		for _, k := range n.Kids {
			if n != root {
				n.Changes = append(n.Changes, fill(k)...)
			} else {
				fill(k)
			}
		}
		sort.Ints(n.Changes)
		n.Changes = slices.Compact(n.Changes)
		sort.Slice(n.Kids, func(i, j int) bool { return n.Kids[i].Changes[0] < n.Kids[j].Changes[0] })
		return n.Changes
	}
	fill(root)
	return root
}

// declGroups groups the hunks of a file by the top-level declaration of
// the old file each one starts in (decls, its outline: Language's
// Outliner); a hunk between declarations goes with the one it comes
// before, one after the last to a group of its own.
func (s *Set) declGroups(p string, decls []syntax.Decl, idx []int) []*Group {
	return bucket(idx, func(_, i int) (string, string) {
		c := &s.Changes[i]
		key := "header"
		if c.Kind == Hunk {
			key = "end"
			for _, d := range decls {
				if c.OldStart <= d.End {
					key = d.Name
					break
				}
			}
		}
		return key, p + ":" + key
	})
}

// identGroups groups hunks that share an identifier appearing in few of
// them (the lexical criterion of FSE 1999 §6): connected components of
// hunks linked by identifiers found in at most a quarter of the hunks
// (and at most 8), so that common words link nothing.
func (s *Set) identGroups(idx []int) []*Group {
	if len(idx) < 2 {
		return nil
	}
	users := map[string][]int{} // identifier → positions in idx
	for k, i := range idx {
		c := &s.Changes[i]
		seen := map[string]bool{}
		for _, l := range append(append([][]byte{}, c.Old...), c.New...) {
			for _, id := range identifiers(l) {
				if !seen[id] {
					seen[id] = true
					users[id] = append(users[id], k)
				}
			}
		}
	}
	find, join := unionFind(len(idx))
	limit := min(max(len(idx)/4, 2), 8)
	for _, us := range users {
		if len(us) < 2 || len(us) > limit {
			continue
		}
		for _, u := range us[1:] {
			join(u, us[0])
		}
	}
	return bucket(idx, func(k, i int) (int, string) { return find(k), s.Changes[i].String() })
}

// bucket groups the changes idx by the key that key gives each (with its
// position in idx), in the order the keys first appear, each group named
// as its first change's key says. It returns nil when all share one key:
// there is nothing to group.
func bucket[K comparable](idx []int, key func(k, i int) (K, string)) []*Group {
	groups := map[K]*Group{}
	var out []*Group
	for k, i := range idx {
		kk, name := key(k, i)
		g, ok := groups[kk]
		if !ok {
			g = &Group{Name: name}
			groups[kk] = g
			out = append(out, g)
		}
		g.Changes = append(g.Changes, i)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// identifiers lists the identifiers (letters, digits, _; not starting
// with a digit; at least 3 characters) in a line.
func identifiers(line []byte) []string {
	var out []string
	for i := 0; i < len(line); {
		if !isIdentByte(line[i]) || line[i] >= '0' && line[i] <= '9' {
			i++
			continue
		}
		j := i
		for j < len(line) && isIdentByte(line[j]) {
			j++
		}
		if j-i >= 3 {
			out = append(out, string(line[i:j]))
		}
		i = j
	}
	return out
}

func isIdentByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// Partition divides delta (sorted change indices) into n subsets that
// keep groups together as far as possible: the largest group is split
// into its subgroups until there are at least n, and the groups, in
// order, are then dealt into n runs of about equal size. Groups that
// cannot be split further are cut like a plain list. It is meant for
// dd.Options.Partition.
func (g *Group) Partition(delta []int, n int) [][]int {
	in := make(map[int]bool, len(delta))
	for _, x := range delta {
		in[x] = true
	}
	// The hierarchy restricted to delta.
	var restrict func(h *Group) *Group
	restrict = func(h *Group) *Group {
		r := &Group{Name: h.Name, Atomic: h.Atomic}
		for _, x := range h.Changes {
			if in[x] {
				r.Changes = append(r.Changes, x)
			}
		}
		if len(r.Changes) == 0 {
			return nil
		}
		covered := 0
		for _, k := range h.Kids {
			if rk := restrict(k); rk != nil {
				r.Kids = append(r.Kids, rk)
				covered += len(rk.Changes)
			}
		}
		if len(r.Kids) > 0 && covered < len(r.Changes) {
			// The group's own changes (files of a directory that also has
			// subdirectories) form a leaf of their own.
			own := &Group{Name: h.Name}
			inKids := make(map[int]bool, covered)
			for _, k := range r.Kids {
				for _, x := range k.Changes {
					inKids[x] = true
				}
			}
			for _, x := range r.Changes {
				if !inKids[x] {
					own.Changes = append(own.Changes, x)
				}
			}
			r.Kids = append(r.Kids, own)
			sort.Slice(r.Kids, func(i, j int) bool { return r.Kids[i].Changes[0] < r.Kids[j].Changes[0] })
		}
		if len(r.Kids) == 1 {
			return r.Kids[0] // a chain collapses
		}
		return r
	}
	root := restrict(g)
	if root == nil {
		return nil
	}
	frontier := []*Group{root}
	for len(frontier) < n {
		// Split the largest group that has more than one change, an
		// atomic one only when no other is left.
		best := -1
		for k, h := range frontier {
			if len(h.Changes) < 2 {
				continue
			}
			if best < 0 || frontier[best].Atomic && !h.Atomic ||
				h.Atomic == frontier[best].Atomic && len(h.Changes) > len(frontier[best].Changes) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		h := frontier[best]
		kids := h.Kids
		if len(kids) == 0 || h.Atomic {
			// A leaf of several changes: halve it like a list.
			half := (len(h.Changes) + 1) / 2
			kids = []*Group{{Changes: h.Changes[:half]}, {Changes: h.Changes[half:]}}
		}
		frontier = slices.Concat(frontier[:best], kids, frontier[best+1:])
	}
	// Deal the groups in order into n runs of about equal size; each run
	// takes at least one group and leaves one for each run after it.
	out := make([][]int, 0, n)
	remaining, k := len(delta), 0
	for b := 0; b < n; b++ {
		left := n - b
		var run []int
		if left == 1 {
			for ; k < len(frontier); k++ {
				run = append(run, frontier[k].Changes...)
			}
		} else {
			target := float64(remaining) / float64(left)
			for k < len(frontier) && len(frontier)-k > left-1 {
				size := float64(len(run) + len(frontier[k].Changes))
				if len(run) > 0 && abs(size-target) > abs(float64(len(run))-target) {
					break
				}
				run = append(run, frontier[k].Changes...)
				k++
			}
		}
		remaining -= len(run)
		sort.Ints(run)
		out = append(out, run)
	}
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// unionFind returns the find and join of a disjoint-set forest over
// 0..n-1 (with path halving): find(i) names i's set, join(i, j) merges
// the sets of i and j.
func unionFind(n int) (find func(int) int, join func(int, int)) {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	join = func(i, j int) { parent[find(i)] = find(j) }
	return find, join
}
