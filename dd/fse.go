package dd

import "slices"

// fse runs FSE 1999 Algorithm 1 (Interference) or Algorithm 2 (Plus) on
// all changes, after checking Axiom 1: test(∅) = ✓ ("yesterday") and
// test(C) = ✗ ("today").
func (e *engine) fse() (Config, error) {
	c := All(e.n)
	o, _, err := e.lookup(configCand(Config{}), -1)
	if err != nil {
		return c, err
	}
	if o != Pass {
		return c, &NotPassingError{Config: Config{}, N: e.n, Outcome: o}
	}
	o, _, err = e.lookup(configCand(c), -1)
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

// step reports a step of dd2 or dd3 on the search space c with the
// changes applied kept applied; held is the configuration the step makes
// the one held as failing (nil when it keeps the current one).
func (e *engine) step(r Rule, subset int, c, applied Config, n int, held Config) {
	e.stats.Steps++
	e.emit(Step{Rule: r, Subset: subset, Granularity: n, Pass: len(applied), Fail: len(c), Config: held})
}

// reduced returns the search space that a failing lookup makes of the
// configuration c ∪ r held as failing: when the candidate sub ∪ r
// failed as it is, sub; when a ResolvingTester tested a larger
// configuration that failed, that configuration less r, since the
// failure belongs to it (it may hold changes from outside c). It
// reports false when the failing configuration is not smaller than
// c ∪ r: resolution added back what the step removed, which gains
// nothing, and the outcome counts as unresolved. Every configuration
// the FSE algorithms hold as failing has thus failed in a real run, and
// each reduction makes it smaller, so the search ends.
func reduced(sub, r, tested Config, held int) (Config, bool) {
	if tested == nil {
		return sub, true
	}
	if len(tested) >= held {
		return nil, false
	}
	return minus(make(Config, 0, len(tested)-len(r)), tested, r), true
}

// dd2 is FSE 1999 Algorithm 1: it returns the failure-inducing changes in
// c while the changes r remain applied.
//
// Invariant: test(r) = ✓ and test(c ∪ r) = ✗, where c ∪ r failed in a
// real run (see reduced). Split c into halves c1, c2.
// If c1 ∪ r fails, the cause is in c1; else if c2 ∪ r fails, it is in c2;
// otherwise the failure needs changes from both halves (interference), so
// each half is searched with the other half applied, and the union of both
// answers is the result. On interruption it returns what is known so far:
// the changes found plus the parts not yet searched.
func (e *engine) dd2(c, r Config) (Config, error) {
	for {
		if len(c) <= 1 {
			if len(c) == 1 {
				e.step(Found, -1, c, r, 1, nil)
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
		var next Config
		for j := range 2 {
			o, tested, err := e.lookup(at(j).c, j)
			if err != nil {
				e.end(false)
				return c, err
			}
			if o == Fail {
				var ok bool
				if next, ok = reduced(parts[j], r, tested, len(c)+len(r)); ok {
					found = j
					break
				}
			}
		}
		e.end(found >= 0)
		if found >= 0 {
			e.step(FoundIn, found, c, r, 2, unionOf(next, r))
			c = next
			continue
		}
		e.step(Interfere, -1, c, r, 2, nil)
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
// Invariant: test(r) ≠ ✗, test(c ∪ r) = ✗ in a real run (see reduced;
// the paper only needs ≠ ✓), n ≤ |c|. Split c into c1..cn,
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
//
// Try again keeps the configuration held as failing one that failed: c ∪ r
// when no complement failed, the failing complement when one did. When
// several complements failed (and their subsets did not pass), the paper
// continues in their intersection, which unambiguity (Def. 7) lets it
// assume fails; here the intersection is tested first, and if it does
// not fail, the search continues in the first failing complement.
func (e *engine) dd3(c, r Config, n int) (Config, error) {
	for {
		switch len(c) {
		case 0:
			e.step(NothingFound, -1, c, r, n, nil)
			return c, nil
		case 1:
			e.step(Found, -1, c, r, 1, nil)
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
		held := len(c) + len(r)
		t := make([]Outcome, n)
		found := -1
		var next Config
		for i := range n {
			o, tested, err := e.lookup(at(i).c, i)
			if err != nil {
				e.end(false)
				return c, err
			}
			if o == Fail {
				var ok bool
				if next, ok = reduced(parts[i], r, tested, held); ok {
					t[i], found = o, i
					break
				}
				o = Unresolved
			}
			t[i] = o
		}
		if found >= 0 {
			e.end(true)
			e.step(FoundIn, found, c, r, n, unionOf(next, r))
			c, n = next, 2
			continue
		}
		tbar := make([]Outcome, n)
		failed := make([]Config, n) // the failing configuration of each failing complement
		interference, preference := -1, -1
		for i := range n {
			if preference >= 0 && t[i] != Pass {
				continue
			}
			o, tested, err := e.lookup(at(n+i).c, n+i)
			if err != nil {
				e.end(false)
				return c, err
			}
			if o == Fail {
				if tested == nil {
					failed[i] = at(n + i).c.build()
				} else if len(tested) < held {
					failed[i] = tested
				} else {
					o = Unresolved
				}
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
			e.step(Interfere, interference, c, r, n, nil)
			ci := parts[interference]
			cbar := minus(nil, c, ci)
			d1, err := e.dd3(ci, unionOf(cbar, r), 2)
			if err != nil {
				return unionOf(d1, cbar), err
			}
			d2, err := e.dd3(cbar, unionOf(ci, r), 2)
			return unionOf(d1, d2), err
		case preference >= 0:
			e.step(Prefer, preference, c, r, n, nil)
			ci := parts[preference]
			r = unionOf(minus(nil, c, ci), r)
			c, n = ci, 2
			continue
		}
		var drop, apply []int
		var fails []Config // the failing complements whose subsets are dropped
		for i := range n {
			if tbar[i] == Fail || t[i] == Pass {
				drop = append(drop, parts[i]...)
			}
			if t[i] == Pass {
				apply = append(apply, parts[i]...)
			} else if tbar[i] == Fail {
				fails = append(fails, failed[i])
			}
		}
		r2 := unionOf(r, sorted(apply))
		next = minus(nil, c, sorted(drop))
		switch {
		case len(fails) == 1 && len(fails[0]) != len(next)+len(r2):
			// A resolved complement: its failing configuration holds
			// changes from outside c ∪ r.
			next = minus(nil, fails[0], r2)
		case len(fails) > 1:
			var err error
			if next, err = e.intersect(fails, r2, held); err != nil {
				return c, err
			}
		}
		if n >= len(c) {
			e.step(NothingLeft, -1, c, r, n, unionOf(next, r2))
			return next, nil
		}
		e.step(TryAgain, -1, c, r, n, unionOf(next, r2))
		r = r2
		c, n = next, min(len(next), 2*n)
	}
}

// intersect returns the search space of try again when several
// complements failed: their intersection less r if it fails in a test
// (or through resolution, a smaller configuration than held), else the
// first failing complement less r.
func (e *engine) intersect(fails []Config, r Config, held int) (Config, error) {
	in := fails[0]
	for _, f := range fails[1:] {
		in = intersection(in, f)
	}
	o, tested, err := e.lookup(configCand(in), -1)
	if err != nil {
		return nil, err
	}
	if o == Fail {
		if tested == nil {
			return minus(nil, in, r), nil
		}
		if len(tested) < held {
			return minus(nil, tested, r), nil
		}
	}
	return minus(nil, fails[0], r), nil
}

func unionOf(a, b Config) Config { return union(make(Config, 0, len(a)+len(b)), a, b) }

// sorted sorts a concatenation of sorted, disjoint parts in place.
func sorted(c []int) []int {
	slices.Sort(c)
	return c
}
