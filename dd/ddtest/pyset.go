package ddtest

import "github.com/wynot/wynot/dd"

// This file emulates CPython 3.11 set objects holding small non-negative
// integers, whose hash is the integer itself. The Debugging Book's dd
// keeps configurations as Python sets and splits the difference
// c_fail - c_pass by iterating over it, so the subsets it tests follow the
// slot order of CPython's hash table, not the numeric order. The printed
// logs of the book (mystery: 24 tests; max_args: 8; min_arg_diff: 9) depend
// on that order. PyOrder replays the book's set operations on emulated
// sets so that dd's Partition can hand out the same subsets in the same
// order, which lets tests compare wynot with the book test by test.

const (
	pyEmpty      = -1
	pyDummy      = -2
	pyMinSize    = 8
	pyProbes     = 9 // LINEAR_PROBES
	pyPerturbShr = 5 // PERTURB_SHIFT
)

// pySet is the state of one CPython set: an open-addressing table of keys
// (pyEmpty, pyDummy or a key), fill (active + dummy slots) and used
// (active slots).
type pySet struct {
	table      []int
	fill, used int
}

func newPySet() *pySet { return &pySet{table: pyTable(pyMinSize)} }

func pyTable(n int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = pyEmpty
	}
	return t
}

func (s *pySet) mask() int { return len(s.table) - 1 }

// probe visits the slots CPython visits for key: ten consecutive slots
// when they fit in the table (one otherwise), then a perturbed jump. It
// stops when visit returns true.
func probe(mask, key int, visit func(slot int) bool) {
	perturb := uint64(key)
	i := uint64(key) & uint64(mask)
	for {
		n := 0
		if int(i)+pyProbes <= mask {
			n = pyProbes
		}
		for j := 0; j <= n; j++ {
			if visit(int(i) + j) {
				return
			}
		}
		perturb >>= pyPerturbShr
		i = (i*5 + 1 + perturb) & uint64(mask)
	}
}

// insertClean puts a key known to be absent into a table without dummies.
func insertClean(table []int, key int) {
	probe(len(table)-1, key, func(slot int) bool {
		if table[slot] == pyEmpty {
			table[slot] = key
			return true
		}
		return false
	})
}

// resize rebuilds the table with the smallest power-of-two size above
// minused, reinserting active keys in slot order (set_table_resize).
func (s *pySet) resize(minused int) {
	size := pyMinSize
	for size <= minused {
		size <<= 1
	}
	if size == pyMinSize && len(s.table) == pyMinSize && s.fill == s.used {
		return // the small table without dummies is left as it is
	}
	old := s.table
	s.table = pyTable(size)
	for _, k := range old {
		if k >= 0 {
			insertClean(s.table, k)
		}
	}
	s.fill = s.used
}

// add is set_add_entry: insert key if absent, growing the table when it
// is three fifths full.
func (s *pySet) add(key int) {
	mask := s.mask()
	at := -1
	present := false
	probe(mask, key, func(slot int) bool {
		switch s.table[slot] {
		case pyEmpty:
			at = slot
			return true
		case key:
			present = true
			return true
		}
		return false
	})
	if present {
		return
	}
	s.table[at] = key
	s.fill++
	s.used++
	if s.fill*5 < mask*3 {
		return
	}
	if s.used > 50000 {
		s.resize(s.used * 2)
	} else {
		s.resize(s.used * 4)
	}
}

func (s *pySet) find(key int) int {
	at := -1
	probe(s.mask(), key, func(slot int) bool {
		switch s.table[slot] {
		case pyEmpty:
			return true
		case key:
			at = slot
			return true
		}
		return false
	})
	return at
}

func (s *pySet) contains(key int) bool { return s.find(key) >= 0 }

func (s *pySet) discard(key int) {
	if at := s.find(key); at >= 0 {
		s.table[at] = pyDummy
		s.used--
	}
}

// list is list(s): the keys in slot order.
func (s *pySet) list() []int {
	var out []int
	for _, k := range s.table {
		if k >= 0 {
			out = append(out, k)
		}
	}
	return out
}

// merge is set_merge: s.update(other) for a set other.
func (s *pySet) merge(other *pySet) {
	if other == s || other.used == 0 {
		return
	}
	if (s.fill+other.used)*5 >= s.mask()*3 {
		s.resize((s.used + other.used) * 2)
	}
	if s.fill == 0 && s.mask() == other.mask() && other.fill == other.used {
		copy(s.table, other.table)
		s.fill, s.used = other.fill, other.used
		return
	}
	if s.fill == 0 {
		for _, k := range other.table {
			if k >= 0 {
				insertClean(s.table, k)
			}
		}
		s.fill, s.used = other.used, other.used
		return
	}
	for _, k := range other.table {
		if k >= 0 {
			s.add(k)
		}
	}
}

func (s *pySet) copy() *pySet {
	c := newPySet()
	c.merge(s)
	return c
}

// pyFromList is set(list): keys added one by one.
func pyFromList(keys []int) *pySet {
	s := newPySet()
	for _, k := range keys {
		s.add(k)
	}
	return s
}

// pyUnion is a | b.
func pyUnion(a, b *pySet) *pySet {
	r := a.copy()
	if a != b {
		r.merge(b)
	}
	return r
}

// pyDifference is a - b (set_difference).
func pyDifference(a, b *pySet) *pySet {
	if a.used>>2 > b.used {
		r := a.copy()
		for _, k := range b.table {
			if k >= 0 {
				r.discard(k)
			}
		}
		// More than a quarter dummies: resize them away.
		if r.fill-r.used > r.mask()/4 {
			if r.used > 50000 {
				r.resize(r.used * 2)
			} else {
				r.resize(r.used * 4)
			}
		}
		return r
	}
	r := newPySet()
	for _, k := range a.table {
		if k >= 0 && !b.contains(k) {
			r.add(k)
		}
	}
	return r
}

// PyOrder reproduces the subsets the Debugging Book's dd tests, in the
// book's order: install Partition as dd.Options.Partition and PyOrder as
// (part of) the Observer of the same run. It follows the book's dd: c_pass
// and c_fail start as set() and set(range(n)); each step the difference
// c_fail - c_pass is listed and cut into n runs, each turned into a set;
// the rules replace c_fail by c_pass | Δi or c_fail - Δi, and c_pass by
// c_pass | Δi or c_fail - Δi.
type PyOrder struct {
	cPass, cFail *pySet
	deltas       []*pySet
}

// Observe follows the run's steps.
func (p *PyOrder) Observe(e dd.Event) {
	switch e := e.(type) {
	case dd.Start:
		p.cPass = newPySet()
		r := make([]int, e.N)
		for i := range r {
			r[i] = i
		}
		p.cFail = pyFromList(r)
	case dd.Step:
		if e.Subset < 0 || e.Subset >= len(p.deltas) {
			return
		}
		d := p.deltas[e.Subset]
		switch e.Rule {
		case dd.ReduceToSubset:
			p.cFail = pyUnion(p.cPass, d)
		case dd.ReduceToComplement:
			p.cFail = pyDifference(p.cFail, d)
		case dd.IncreaseToSubset:
			p.cPass = pyUnion(p.cPass, d)
		case dd.IncreaseToComplement:
			p.cPass = pyDifference(p.cFail, d)
		}
	}
}

// Partition cuts the difference as the book's split() does on a set.
func (p *PyOrder) Partition(delta dd.Config, n int) []dd.Config {
	keys := pyDifference(p.cFail, p.cPass).list()
	if len(keys) != len(delta) {
		panic("ddtest: PyOrder is out of step with the run; is it installed as Observer too?")
	}
	k, m := len(keys)/n, len(keys)%n
	out := make([]dd.Config, n)
	p.deltas = make([]*pySet, n)
	for i := range out {
		run := keys[i*k+min(i, m) : (i+1)*k+min(i+1, m)]
		out[i] = append(dd.Config(nil), run...)
		p.deltas[i] = pyFromList(run)
	}
	return out
}
