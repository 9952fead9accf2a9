package dd

// general is the general delta debugging procedure dd of TSE 2002 Fig. 15
// in the three modes of the Debugging Book: Minimize ("-", which is ddmin,
// Fig. 5), Maximize ("+", ddmax) and Isolate ("+-"). It returns (c'✓, c'✗).
//
// Invariant, before every step: c'✓ ⊆ c'✗, test(c'✓) = ✓ unless only
// minimizing (then c'✓ = ∅), test(c'✗) = ✗ unless only maximizing (then
// c'✗ = c✗), both in real runs (with a ResolvingTester, c'✗ and c'✓ are
// configurations it tested; see creditable), and 2 ≤ n ≤ |Δ| where
// Δ = c'✗ − c'✓ is split into n subsets
// Δ1..Δn. Each step either applies one rule, which shrinks Δ, or doubles n;
// when n = |Δ| and no rule applies, every single change has been tried
// and Δ is 1-minimal (Prop. 16).
func (e *engine) general() (pass, fail Config, err error) {
	alg := e.opts.Algorithm
	minimizing, maximizing := alg.minimizes(), alg.maximizes()
	cPass, cFail := Config{}, All(e.n)
	kPass, kFail := key{}, keyOf(cFail)

	// Preconditions (TSE 2002 Axiom 4), in the Debugging Book's order.
	o, tested, err := e.lookup(configCand(cPass), -1)
	if err != nil {
		return cPass, cFail, err
	}
	if o == Fail {
		if maximizing {
			return cPass, cFail, &NotPassingError{Config: cPass, N: e.n, Outcome: o}
		}
		// The empty configuration already fails: it is the minimum (or,
		// through resolution, what the test added to it).
		if tested != nil {
			return cPass, tested, nil
		}
		return cPass, cPass, nil
	}
	if maximizing && o != Pass {
		return cPass, cFail, &NotPassingError{Config: cPass, N: e.n, Outcome: o}
	}
	o, _, err = e.lookup(configCand(cFail), -1)
	if err != nil {
		return cPass, cFail, err
	}
	if o == Pass {
		if minimizing {
			return cPass, cFail, &NotFailingError{Config: cFail, N: e.n, Outcome: o}
		}
		// Everything passes: it is the maximum.
		return cFail, cFail, nil
	}
	if minimizing && o != Fail {
		return cPass, cFail, &NotFailingError{Config: cFail, N: e.n, Outcome: o}
	}

	n, offset := max(2, e.opts.Start), 0
	for {
		delta := cFail // configurations are never modified, so sharing is safe
		if len(cPass) > 0 {
			delta = minus(make(Config, 0, len(cFail)-len(cPass)), cFail, cPass)
		}
		if len(delta) < 2 {
			// |Δ| = 1 (after a step at n = 2 that left one change): a
			// single change is a 1-minimal difference by definition.
			return cPass, cFail, nil
		}
		n = min(n, len(delta))
		deltas, err := e.partition(delta, n)
		if err != nil {
			return cPass, cFail, err
		}
		e.emit(Granularity{N: n, Delta: len(delta)})

		sub := func(i int) cand { return unionCand(cPass, kPass, deltas[i]) }
		comp := func(i int) cand { return minusCand(cFail, kFail, deltas[i]) }
		p := e.plan(n, offset, minimizing, maximizing)
		at := func(j int) check {
			ch := p.at(j)
			if ch.plus {
				ch.c = sub(ch.subset)
			} else {
				ch.c = comp(ch.subset)
			}
			return ch.check
		}

		e.begin(p.len(), at)
		applied := false
		for j := range p.len() {
			ch := at(j)
			o, tested, err := e.lookup(ch.c, j)
			if err != nil {
				e.end(false)
				return cPass, cFail, err
			}
			if o != ch.want || tested != nil && !creditable(ch.rule, tested, cFail) {
				continue
			}
			e.end(true)
			i := ch.subset
			switch ch.rule {
			case ReduceToSubset:
				cFail = union(make(Config, 0, len(cPass)+len(deltas[i])), cPass, deltas[i])
				n = 2
			case IncreaseToComplement:
				cPass = minus(make(Config, 0, len(cFail)-len(deltas[i])), cFail, deltas[i])
				n = 2
			case IncreaseToSubset:
				cPass = union(make(Config, 0, len(cPass)+len(deltas[i])), cPass, deltas[i])
				n = max(n-1, 2)
			case ReduceToComplement:
				cFail = minus(make(Config, 0, len(cFail)-len(deltas[i])), cFail, deltas[i])
				n = max(n-1, 2)
			}
			// The new configuration is the candidate just looked up (or
			// the larger one a ResolvingTester tested): take its key.
			k := ch.c.key
			if tested != nil {
				k = keyOf(tested)
			}
			if ch.rule == ReduceToSubset || ch.rule == ReduceToComplement {
				if tested != nil {
					cFail = tested
				}
				kFail = k
			} else {
				if tested != nil {
					cPass = tested
				}
				kPass = k
			}
			if e.opts.Variant == Book {
				// Book: start the next step at the subset just used, so
				// reductions spread over the input (offset = i, not 0).
				offset = i
			}
			e.stats.Steps++
			ev := Step{Rule: ch.rule, Subset: i, Granularity: n, Pass: len(cPass), Fail: len(cFail), Config: cPass}
			if ch.rule == ReduceToSubset || ch.rule == ReduceToComplement {
				ev.Config = cFail
			}
			e.emit(ev)
			applied = true
			break
		}
		if applied {
			continue
		}
		e.end(false)
		if n >= len(delta) {
			// Every single change was tried without effect: done.
			return cPass, cFail, nil
		}
		n = min(2*n, len(delta))
		e.emit(Step{Rule: IncreaseGranularity, Subset: -1, Granularity: n, Pass: len(cPass), Fail: len(cFail)})
	}
}

// creditable reports whether an outcome that a ResolvingTester found for
// a larger configuration tested than the candidate can apply rule: the
// tested configuration takes the candidate's place, so a reduction must
// leave a smaller c'✗ than now (otherwise resolution added back what the
// rule would remove: the rule does not apply, as if the outcome were
// unresolved), and an increase a c'✓ strictly inside c'✗. Every c'✗ the
// procedure holds has thus failed in a real run.
func creditable(rule Rule, tested, cFail Config) bool {
	if rule == ReduceToSubset || rule == ReduceToComplement {
		return len(tested) < len(cFail)
	}
	return len(tested) < len(cFail) && subset(tested, cFail)
}

// ruleCheck is a check whose candidate is built per round: subset (plus)
// or complement of subset.
type ruleCheck struct {
	check
	plus bool // the candidate is c'✓ ∪ Δi; otherwise c'✗ − Δi
}

// plan is the order in which one step at granularity n tries its rule
// tests: either every rule for one subset before the next subset
// (subset-major, from subset offset on), or one rule for every subset
// before the next rule. It costs O(1) memory whatever n is.
type plan struct {
	rules       []ruleCheck
	n, offset   int
	subsetMajor bool
}

func (p plan) len() int { return len(p.rules) * p.n }

func (p plan) at(j int) ruleCheck {
	var r ruleCheck
	if p.subsetMajor {
		r = p.rules[j%len(p.rules)]
		r.subset = (j/len(p.rules) + p.offset) % p.n
	} else {
		r = p.rules[j/p.n]
		r.subset = j % p.n
	}
	return r
}

// plan returns the rule tests of one step at granularity n, in the order
// the variant tries them.
func (e *engine) plan(n, offset int, minimizing, maximizing bool) plan {
	rule := func(plus bool, want Outcome, r Rule) ruleCheck {
		return ruleCheck{check: check{want: want, rule: r}, plus: plus}
	}
	p := plan{n: n, offset: offset, subsetMajor: true}
	if n == 2 && minimizing && maximizing && e.opts.Bisect {
		// Proposition 18: at n = 2, c'✓ ∪ Δi = c'✗ − Δ(other), so one
		// determinate outcome decides. The complement rules test the
		// same two configurations and cannot add anything.
		p.rules = []ruleCheck{rule(true, Fail, ReduceToSubset), rule(true, Pass, IncreaseToSubset)}
		if e.opts.Variant != Book {
			p.offset = 0
		}
		return p
	}
	if e.opts.Variant == Book {
		// Debugging Book: for each subset in turn, the rules in the order
		// reduce to subset, increase to complement (both only at n = 2),
		// reduce to complement, increase to subset.
		if minimizing && n == 2 {
			p.rules = append(p.rules, rule(true, Fail, ReduceToSubset))
		}
		if maximizing && n == 2 {
			p.rules = append(p.rules, rule(false, Pass, IncreaseToComplement))
		}
		if minimizing {
			p.rules = append(p.rules, rule(false, Fail, ReduceToComplement))
		}
		if maximizing {
			p.rules = append(p.rules, rule(true, Pass, IncreaseToSubset))
		}
		return p
	}
	// TSE 2002 Fig. 15 (Fig. 5 when only minimizing): each rule for all
	// subsets before the next rule, always from the first subset. At n = 2
	// each complement is the other subset, so the rules on complements
	// repeat the rules on subsets (and vice versa); the repeats are left
	// out, as Fig. 6 does.
	p.subsetMajor, p.offset = false, 0
	if minimizing {
		p.rules = append(p.rules, rule(true, Fail, ReduceToSubset))
	}
	if maximizing {
		p.rules = append(p.rules, rule(false, Pass, IncreaseToComplement))
	}
	if maximizing && n > 2 {
		p.rules = append(p.rules, rule(true, Pass, IncreaseToSubset))
	}
	if minimizing && n > 2 {
		p.rules = append(p.rules, rule(false, Fail, ReduceToComplement))
	}
	return p
}
