package dd

import "slices"

// fse runs FSE 1999 Algorithm 1 (Interference) or Algorithm 2 (Plus) on
// all changes, after checking Axiom 1: test(∅) = ✓ ("yesterday") and
// test(C) = ✗ ("today").
func (e *engine) fse() (Config, error) {
	c := All(e.n)
	o, err := e.lookup(configCand(Config{}), -1)
	if err != nil {
		return c, err
	}
	if o != Pass {
		return c, &NotPassingError{Config: Config{}, N: e.n, Outcome: o}
	}
	o, err = e.lookup(configCand(c), -1)
	if err != nil {
		return c, err
	}
	if o != Fail {
		return c, &NotFailingError{Config: c, N: e.n, Outcome: o}
	}
	if e.opts.Algorithm == Interference {
		return e.dd2(c, Config{})
	}
	return e.dd3(c, Config{}, 2)
}

func (e *engine) step(r Rule, subset int, c, applied Config, n int) {
	e.stats.Steps++
	e.emit(Step{Rule: r, Subset: subset, Granularity: n, Pass: len(applied), Fail: len(c)})
}

// dd2 is FSE 1999 Algorithm 1: it returns the failure-inducing changes in
// c while the changes r remain applied.
//
// Invariant: test(r) = ✓ and test(c ∪ r) = ✗. Split c into halves c1, c2.
// If c1 ∪ r fails, the cause is in c1; else if c2 ∪ r fails, it is in c2;
// otherwise the failure needs changes from both halves (interference), so
// each half is searched with the other half applied, and the union of both
// answers is the result. On interruption it returns what is known so far:
// the changes found plus the parts not yet searched.
func (e *engine) dd2(c, r Config) (Config, error) {
	for {
		if len(c) <= 1 {
			if len(c) == 1 {
				e.step(Found, -1, c, r, 1)
			}
			return c, nil
		}
		parts, err := e.partition(c, 2)
		if err != nil {
			return c, err
		}
		kr := keyOf(r)
		at := func(j int) check {
			return check{c: unionCand(r, kr, parts[j]), want: Fail, rule: FoundIn, subset: j}
		}
		e.begin(2, at)
		found := -1
		for j := range 2 {
			o, err := e.lookup(at(j).c, j)
			if err != nil {
				e.end(false)
				return c, err
			}
			if o == Fail {
				found = j
				break
			}
		}
		e.end(found >= 0)
		if found >= 0 {
			e.step(FoundIn, found, c, r, 2)
			c = parts[found]
			continue
		}
		e.step(Interfere, -1, c, r, 2)
		c1, c2 := parts[0], parts[1]
		d1, err := e.dd2(c1, unionOf(c2, r))
		if err != nil {
			return unionOf(d1, c2), err
		}
		d2, err := e.dd2(c2, unionOf(c1, r))
		return unionOf(d1, d2), err
	}
}

// dd3 is FSE 1999 Algorithm 2 (dd+): it returns the failure-inducing
// changes in c while the changes r remain applied, with n subsets.
//
// Invariant: test(r) ≠ ✗, test(c ∪ r) ≠ ✓, n ≤ |c|. Split c into c1..cn,
// let c̄i = c − ci, ti = test(ci ∪ r), t̄i = test(c̄i ∪ r). The cases, in
// order:
//
//	found:        |c| = 1: c is the answer.
//	found in ci:  ti = ✗: continue in ci with n = 2.
//	interference: ti = ✓ and t̄i = ✓: answer dd3(ci, c̄i ∪ r) ∪ dd3(c̄i, ci ∪ r).
//	preference:   ti = ? and t̄i = ✓: continue in ci with c̄i applied.
//	try again:    n < |c|: drop every ci whose complement fails, apply
//	              every ci that passes, and continue with 2n subsets.
//	nothing left: return what try again would continue with.
//
// The ti are tested in order until one fails; then the t̄i in order, but
// once a preference is found only the complements that could still make
// an interference (ti = ✓), since interference takes precedence. A passing
// ci is not only applied but also taken out of the search space (§5: "all
// ci that passed the test can be excluded from c, since they cannot be
// failure-inducing"); the formula of Algorithm 2 leaves it in c, where it
// would be tested again with no effect.
func (e *engine) dd3(c, r Config, n int) (Config, error) {
	for {
		switch len(c) {
		case 0:
			e.step(NothingFound, -1, c, r, n)
			return c, nil
		case 1:
			e.step(Found, -1, c, r, 1)
			return c, nil
		}
		n = min(max(n, 2), len(c))
		parts, err := e.partition(c, n)
		if err != nil {
			return c, err
		}
		cr := unionOf(c, r)
		kr, kcr := keyOf(r), keyOf(cr)
		at := func(j int) check {
			if j < n {
				return check{c: unionCand(r, kr, parts[j]), want: Fail, rule: FoundIn, subset: j}
			}
			return check{c: minusCand(cr, kcr, parts[j-n]), want: Pass, rule: Interfere, subset: j - n}
		}
		e.begin(2*n, at)
		t := make([]Outcome, n)
		found := -1
		for i := range n {
			o, err := e.lookup(at(i).c, i)
			if err != nil {
				e.end(false)
				return c, err
			}
			t[i] = o
			if o == Fail {
				found = i
				break
			}
		}
		if found >= 0 {
			e.end(true)
			e.step(FoundIn, found, c, r, n)
			c, n = parts[found], 2
			continue
		}
		tbar := make([]Outcome, n)
		interference, preference := -1, -1
		for i := range n {
			if preference >= 0 && t[i] != Pass {
				continue
			}
			o, err := e.lookup(at(n+i).c, n+i)
			if err != nil {
				e.end(false)
				return c, err
			}
			tbar[i] = o
			if t[i] == Pass && o == Pass {
				interference = i
				break
			}
			if t[i] == Unresolved && o == Pass && preference < 0 {
				preference = i
			}
		}
		e.end(interference >= 0 || preference >= 0)
		switch {
		case interference >= 0:
			e.step(Interfere, interference, c, r, n)
			ci := parts[interference]
			cbar := minus(nil, c, ci)
			d1, err := e.dd3(ci, unionOf(cbar, r), 2)
			if err != nil {
				return unionOf(d1, cbar), err
			}
			d2, err := e.dd3(cbar, unionOf(ci, r), 2)
			return unionOf(d1, d2), err
		case preference >= 0:
			e.step(Prefer, preference, c, r, n)
			ci := parts[preference]
			r = unionOf(minus(nil, c, ci), r)
			c, n = ci, 2
			continue
		}
		var drop, apply []int
		for i := range n {
			if tbar[i] == Fail || t[i] == Pass {
				drop = append(drop, parts[i]...)
			}
			if t[i] == Pass {
				apply = append(apply, parts[i]...)
			}
		}
		next := minus(nil, c, sorted(drop))
		if n >= len(c) {
			e.step(NothingLeft, -1, c, r, n)
			return next, nil
		}
		e.step(TryAgain, -1, c, r, n)
		r = unionOf(r, sorted(apply))
		c, n = next, min(len(next), 2*n)
	}
}

func unionOf(a, b Config) Config { return union(make(Config, 0, len(a)+len(b)), a, b) }

// sorted sorts a concatenation of sorted, disjoint parts in place.
func sorted(c []int) []int {
	slices.Sort(c)
	return c
}
