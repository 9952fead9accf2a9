package schedule

import (
	"context"
	"slices"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// Beyond says how far past 1-minimality a reduction checks its result
// ("Simplifying and Isolating Failure-Inducing Input", TSE 2002, §2:
// a configuration is n-minimal when no subset of up to n of its changes
// can be removed with the failure still there; 1-minimality is what is
// affordable for large inputs, but a small result affords more). The
// checks are removals of several changes at once: every contiguous span
// of 2 to MaxSpan changes of every pass but the replacements (a few
// characters, tokens, lines or syntax tree transformations together,
// wherever they are), and at each unit's finest pass
// (the deletion of pieces with the most of them: characters) every set
// of up to MaxN changes. They run in this order, within Budget
// candidates in all: the spans, finest pass first, then the sets,
// pairs before triples.
type Beyond struct {
	// Budget bounds the candidates tested per check; zero turns the
	// checks off.
	Budget int
	// Grant, when set, gives the budget when the checks first run, after
	// the search (a budget tied to the search's own cost); Budget is
	// then ignored.
	Grant func() int
	// MaxSpan is the longest span removed at once (at least 2).
	MaxSpan int
	// MaxN is the largest set removed at the finest pass: 2 for pairs,
	// 3 for triples.
	MaxN int
}

// DefaultBeyond checks spans of up to 8 changes and pairs and triples,
// within the budget given.
func DefaultBeyond(budget int) Beyond { return Beyond{Budget: budget, MaxSpan: 8, MaxN: 3} }

// A Guarantee is what the checks past 1-minimality established of the
// result: no set of up to N changes of each unit's finest pass (Finest,
// its name), and no span of up to Span changes of any pass, can be
// removed with the failure still there. N is 1 and Span 0 where they
// established nothing more than 1-minimality.
type Guarantee struct {
	N      int
	Span   int
	Finest []string // the finest pass of each unit checked, in order, without duplicates
	// Spanned names the kinds of pieces whose spans were checked
	// ("lines", "characters", "syntax tree transformations"), coarse to
	// fine, without duplicates: set with Span.
	Spanned []string
}

// BeyondRemovals lists the removals past 1-minimality over the units as
// they are now, in the order of Beyond, at most b.Budget of them, and
// what it establishes when none of them fails. Candidates the plan
// rejects (unless the schedule admits them), those not simpler than the
// unit's content and duplicates are left out, as a search predicts or
// skips them.
func (s *Schedule[U]) BeyondRemovals(ctx context.Context, b Beyond) ([]Removal[U], Guarantee, error) {
	type unitPlans struct {
		u      Unit[U]
		src    []byte
		passes []decomp.Pass
		plans  []decomp.Plan
		finest int // index of the deleting pass with the most changes, or -1
	}
	var ups []unitPlans
	for pi := range s.Phases {
		ph := &s.Phases[pi]
		if ph.NoRemovals || ph.Units == nil {
			continue
		}
		for _, u := range ph.Units() {
			up := unitPlans{u: u, src: ph.Data(u), finest: -1}
			ps, err := ph.Passes(u)
			if err != nil {
				return nil, Guarantee{}, err
			}
			for _, p := range ps {
				dp, ok := p.(decomp.Pass)
				if !ok {
					continue
				}
				plan, err := dp.Plan(up.src)
				if err != nil {
					return nil, Guarantee{}, &PlanError{Unit: u.Name, Pass: p.Name(), Err: err}
				}
				up.passes, up.plans = append(up.passes, dp), append(up.plans, plan)
				// Passes come coarse to fine: of two as fine, the later.
				if decomp.Deletes(plan) && (up.finest < 0 || plan.Len() >= up.plans[up.finest].Len()) {
					up.finest = len(up.plans) - 1
				}
			}
			ups = append(ups, up)
		}
	}
	var rs []Removal[U]
	seen := map[string]bool{}
	// add adds the candidate of unit up without the changes in gone; it
	// reports false once the budget is spent.
	add := func(up *unitPlans, pass int, gone []int) bool {
		if len(rs) >= b.Budget {
			return false
		}
		plan := up.plans[pass]
		keep := make([]int, 0, plan.Len()-len(gone))
		for i, g := 0, 0; i < plan.Len(); i++ {
			if g < len(gone) && gone[g] == i {
				g++
				continue
			}
			keep = append(keep, i)
		}
		data, err := plan.Apply(keep)
		key := up.u.Name + "\x00" + string(data)
		if err != nil && !s.admit(err, data) || seen[key] || !Simpler(data, up.src) {
			return true
		}
		seen[key] = true
		rs = append(rs, Removal[U]{Unit: up.u, Pass: up.passes[pass].Name(), Index: gone[0], Of: plan.Len(), Data: data, Size: len(gone)})
		return true
	}
	g := Guarantee{N: 1}
	if b.Budget <= 0 {
		return nil, g, nil
	}
	// Sets of changes are checked only at a deleting pass: a unit
	// without one in any phase that has other changes to make (syntax
	// tree transformations only) leaves N at 1.
	deleting := map[string]bool{}
	for _, up := range ups {
		if up.finest >= 0 {
			deleting[up.u.Name] = true
			if !slices.Contains(g.Finest, up.passes[up.finest].Name()) {
				g.Finest = append(g.Finest, up.passes[up.finest].Name())
			}
		}
	}
	everyFinest, most := true, 0
	for _, up := range ups {
		if up.finest >= 0 {
			most = max(most, up.plans[up.finest].Len())
		}
		for i, plan := range up.plans {
			if !deleting[up.u.Name] && plan.Len() > 0 && !replaces(up.passes[i]) {
				everyFinest = false
			}
		}
	}
	setN := func(n int) {
		if everyFinest && most >= n {
			g.N = n
		}
	}
	// spans adds the spans of 2..MaxSpan changes, longest first, of the
	// passes of each unit that pick says; it reports false once the
	// budget is spent.
	spans := func(pick func(up *unitPlans, pass int) bool) bool {
		for i := range ups {
			up := &ups[i]
			for pass, plan := range up.plans {
				if !pick(up, pass) || replaces(up.passes[pass]) {
					continue // alternatives, not pieces: no span of them is a removal
				}
				for k := min(b.MaxSpan, plan.Len()); k >= 2; k-- {
					for at := 0; at+k <= plan.Len(); at++ {
						gone := make([]int, k)
						for j := range gone {
							gone[j] = at + j
						}
						if !add(up, pass, gone) {
							return false
						}
					}
				}
			}
		}
		return true
	}
	// sets adds the sets of n changes of each unit's finest pass that
	// are not spans; it reports false once the budget is spent.
	sets := func(n int) bool {
		for i := range ups {
			up := &ups[i]
			if up.finest < 0 {
				continue
			}
			ok := subsets(up.plans[up.finest].Len(), n, func(gone []int) bool {
				if contiguous(gone) && n <= b.MaxSpan {
					return true
				}
				return add(up, up.finest, slices.Clone(gone))
			})
			if !ok {
				return false
			}
		}
		return true
	}
	// Larger removals first: spans at the finest pass (the run of
	// characters a reduction by single ones cannot take), spans of the
	// coarser passes (runs of tokens, lines), then pairs at the finest
	// pass, whose count grows with the square of its changes, and
	// triples.
	finest := func(up *unitPlans, pass int) bool { return pass == up.finest }
	if b.MaxSpan < 2 || !spans(finest) {
		return rs, g, ctx.Err()
	}
	if !spans(func(up *unitPlans, pass int) bool { return pass != up.finest }) {
		return rs, g, ctx.Err()
	}
	// What the spans established: runs of up to MaxSpan of the pieces
	// there were at least two of.
	for _, up := range ups {
		for i, p := range up.passes {
			if n := up.plans[i].Len(); !replaces(p) && n >= 2 {
				g.Span = max(g.Span, min(b.MaxSpan, n))
				if k := kind(p); !slices.Contains(g.Spanned, k) {
					g.Spanned = append(g.Spanned, k)
				}
			}
		}
	}
	if b.MaxN >= 2 {
		if !sets(2) {
			return rs, g, ctx.Err()
		}
		setN(2)
	}
	for n := 3; n <= b.MaxN; n++ {
		if !sets(n) {
			return rs, g, ctx.Err()
		}
		setN(n)
	}
	return rs, g, ctx.Err()
}

// kind names the pieces of a pass as a verdict calls them.
func kind(p decomp.Pass) string {
	sp, ok := decomp.SplitterOf(p)
	if !ok {
		return "syntax tree transformations"
	}
	switch sp.(type) {
	case decomp.Lines:
		return "lines"
	case decomp.Brackets:
		return "bracket groups"
	case decomp.Blocks:
		return "indented blocks"
	case decomp.Tokens:
		return "tokens"
	case decomp.Runes:
		return "characters"
	case decomp.Bytes:
		return "bytes"
	}
	return "pieces"
}

// replaces reports whether a pass proposes smaller alternatives for
// pieces (words, numbers, characters) rather than removals.
func replaces(p decomp.Pass) bool {
	switch p.(type) {
	case decomp.Replacements, decomp.SmallerChars, decomp.MergeNames, decomp.Unwrap:
		return true
	}
	return false
}

// subsets calls f with every n-element subset of 0..m-1 in
// lexicographic order, until f returns false; it reports whether it
// went through all of them.
func subsets(m, n int, f func([]int) bool) bool {
	if n > m {
		return true
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for {
		if !f(idx) {
			return false
		}
		i := n - 1
		for i >= 0 && idx[i] == m-n+i {
			i--
		}
		if i < 0 {
			return true
		}
		idx[i]++
		for j := i + 1; j < n; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

func contiguous(s []int) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[i-1]+1 {
			return false
		}
	}
	return true
}

// RunBeyond runs the schedule to its fixpoint (Run) and then, while the
// result is 1-minimal, the checks past it (BeyondRemovals): test says
// which of the candidates, tried in order, is the first that fails (-1
// for none) and how many it tested; take takes it, and the schedule runs
// again from the smaller result. It reports Run's minimal and what the
// checks established of the result (Guarantee{N: 1} when they did not
// complete). The budget is spent over all the checks of the run.
func (s *Schedule[U]) RunBeyond(ctx context.Context, step Step[U], b Beyond, test func(ctx context.Context, rs []Removal[U]) (first, tested int, err error), take func(Removal[U])) (bool, Guarantee, error) {
	for {
		minimal, err := s.Run(ctx, step)
		if b.Grant != nil {
			b.Budget, b.Grant = b.Grant(), nil
		}
		if err != nil || !minimal || b.Budget <= 0 {
			return minimal, Guarantee{N: 1}, err
		}
		rs, g, err := s.BeyondRemovals(ctx, b)
		if err != nil {
			return minimal, Guarantee{N: 1}, err
		}
		first, tested, err := test(ctx, rs)
		b.Budget -= tested
		if err != nil {
			return minimal, Guarantee{N: 1}, err
		}
		if first < 0 {
			if len(rs) == 0 && g.N == 1 && g.Span == 0 {
				return minimal, Guarantee{N: 1}, nil
			}
			return minimal, g, nil
		}
		take(rs[first])
	}
}

// FirstFailing tests the candidates in order, up to parallel at a time,
// and returns the index of the first that fails and how many it tested:
// the answer testing them one at a time gives (a later one failing in
// the same batch does not count before an earlier one).
func FirstFailing(ctx context.Context, n, parallel int, test func(ctx context.Context, i int) (dd.Outcome, error)) (first, tested int, err error) {
	parallel = max(parallel, 1)
	for at := 0; at < n; at += parallel {
		if err := ctx.Err(); err != nil {
			return -1, tested, err
		}
		k := min(parallel, n-at)
		outs := make([]dd.Outcome, k)
		errs := make([]error, k)
		done := make(chan struct{}, k)
		for j := range k {
			go func() {
				outs[j], errs[j] = test(ctx, at+j)
				done <- struct{}{}
			}()
		}
		for range k {
			<-done
		}
		tested += k
		for j := range k {
			if errs[j] != nil {
				return -1, tested, errs[j]
			}
			if outs[j] == dd.Fail {
				return at + j, tested, nil
			}
		}
	}
	return -1, tested, nil
}
