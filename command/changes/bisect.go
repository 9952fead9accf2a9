package changes

import "github.com/wynot/wynot/dd"

// span is the state of a binary search over a line of revisions v_0 ...
// v_n, where v_k is the tree after the first k commits of the line: v_lo
// passes and v_hi fails, each tested or, at the ends of a merged branch,
// presumed until tested. The search ends at two adjacent revisions, both
// tested: commit hi is then failure-inducing (its parent passes, it
// fails), whatever the prediction that guided the search.
//
// The prediction is which commits can change the outcome (candidate):
// a commit that changes no file the test's build reads gives its
// parent's outcome. The search splits the candidates between lo and hi
// in half and tests the last revision before the upper half's first
// candidate, so that each test halves the candidates and the last
// passing test is the parent of the commit named. Where a test
// contradicts the prediction (the outcome changed across commits it
// passed over), the search goes on over every commit in between, as a
// plain binary search does. Revisions that do not build (unresolved)
// are passed over as git bisect skip does: the search may end with a
// range of commits whose revisions before hi could not be tested.
type span struct {
	n                  int
	candidate          func(k int) bool // commit k, 1 ≤ k ≤ n, may change the outcome
	weight             func(k int) int  // how many commits commit k brings (a merge: its branch too); nil: 1 each
	lo, hi             int
	loTested, hiTested bool
	unresolved         map[int]bool
}

// newSpan starts a search of n commits; tested says whether v_0 and v_n
// were tested already.
func newSpan(n int, candidate func(k int) bool, tested bool) *span {
	return &span{n: n, candidate: candidate, lo: 0, hi: n, loTested: tested, hiTested: tested, unresolved: map[int]bool{}}
}

// next returns the revision to test next, or -1 when the search is over.
func (s *span) next() int {
	free := func(k int) bool { return k > s.lo && k < s.hi && !s.unresolved[k] }
	var cands []int
	for k := s.lo + 1; k <= s.hi; k++ {
		if s.candidate(k) {
			cands = append(cands, k)
		}
	}
	switch {
	case len(cands) >= 2:
		// Any revision from the last candidate of the lower half to the
		// one before the first of the upper half splits them alike; the
		// latest is the parent of that first one.
		k := s.split(cands)
		for p := cands[k] - 1; p >= cands[k-1]; p-- {
			if free(p) {
				return p
			}
		}
		if p := s.nearest(cands[k]-1, free); p >= 0 {
			return p
		}
	case len(cands) == 1:
		c := cands[0]
		if free(c - 1) {
			return c - 1
		}
		if free(c) {
			return c
		}
	}
	if p := s.nearest((s.lo+s.hi)/2, free); p >= 0 {
		return p
	}
	if !s.loTested {
		return s.lo
	}
	if !s.hiTested {
		return s.hi
	}
	return -1
}

// split returns where to split the candidates (between cands[k-1] and
// cands[k]): where the commits they bring are halved, as git bisect
// weighs the commits of merged branches (each commit equally likely to
// be the culprit); the earlier of two equal splits.
func (s *span) split(cands []int) int {
	w := func(k int) int { return 1 }
	if s.weight != nil {
		w = s.weight
	}
	total := 0
	for _, c := range cands {
		total += w(c)
	}
	best, bestGap, cum := 1, -1, 0
	for k := 1; k < len(cands); k++ {
		cum += w(cands[k-1])
		gap := 2*cum - total
		if gap < 0 {
			gap = -gap
		}
		if bestGap < 0 || gap < bestGap {
			best, bestGap = k, gap
		}
	}
	return best
}

// nearest returns the revision closest to p for which ok holds, the
// earlier one on a tie, or -1 when there is none between lo and hi.
func (s *span) nearest(p int, ok func(int) bool) int {
	for d := 0; d <= s.hi-s.lo; d++ {
		if ok(p - d) {
			return p - d
		}
		if ok(p + d) {
			return p + d
		}
	}
	return -1
}

// record takes the outcome of revision p. It returns false when p is a
// presumed end that did not give the outcome presumed: then the search
// cannot go on.
func (s *span) record(p int, o dd.Outcome) bool {
	switch {
	case p == s.lo && !s.loTested:
		s.loTested = o == dd.Pass
		return s.loTested
	case p == s.hi && !s.hiTested:
		s.hiTested = o == dd.Fail
		return s.hiTested
	case o == dd.Pass:
		s.lo, s.loTested = p, true
	case o == dd.Fail:
		s.hi, s.hiTested = p, true
	default:
		s.unresolved[p] = true
	}
	return true
}
