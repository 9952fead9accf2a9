package schedule

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// Search is the Step of a reduction whose test is a function: ddmin
// (dd.Run) over the changes of each decomp.Pass's plan. Candidates the
// plan rejects (unless the schedule admits them) and those not simpler
// than the unit are predicted unresolved without a test (Debugging Book,
// "Reducing Failure-Inducing Inputs": predicting test outcomes). Every
// smaller failing content the search steps to is taken at once (Set), so
// the unit holds the best one found whenever the search stops.
type Search[U any] struct {
	Schedule *Schedule[U]
	// Test decides a candidate content of unit u: Fail when the failure
	// still occurs.
	Test func(ctx context.Context, u Unit[U], data []byte) dd.Outcome
	// Set takes a simpler failing content of unit u.
	Set func(u Unit[U], data []byte)
	// Options are those of every ddmin (the algorithm is always ddmin).
	Options dd.Options
}

// Step runs ddmin over the changes of pass p's plan over unit u. A pass
// that is not a decomp.Pass does nothing.
func (s *Search[U]) Step(ctx context.Context, phase int, u Unit[U], p Pass) (Ran, error) {
	dp, ok := p.(decomp.Pass)
	if !ok {
		return Ran{}, nil
	}
	src := s.Schedule.Phases[phase].Data(u)
	plan, err := dp.Plan(src)
	if err != nil {
		return Ran{}, &PlanError{Unit: u.Name, Pass: p.Name(), Err: err}
	}
	ran := Ran{Changes: plan.Len(), Before: len(src)}
	if plan.Len() == 0 {
		ran.Minimal, ran.After = true, len(src)
		return ran, nil
	}
	var tests, predicted atomic.Int64
	var mu sync.Mutex
	ps := &PlanSearch{Plan: plan, Src: src, Admit: s.Schedule.Admit}
	cur := src
	take := func(c dd.Config) {
		data, ok := ps.Content(c)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if Simpler(data, cur) {
			cur = data
			s.Set(u, data)
		}
	}
	opts := s.Options
	opts.Algorithm = dd.Minimize
	next := opts.Observer
	opts.Observer = dd.ObserverFunc(func(e dd.Event) {
		if st, ok := e.(dd.Step); ok && (st.Rule == dd.ReduceToSubset || st.Rule == dd.ReduceToComplement) {
			take(st.Config)
		}
		if next != nil {
			next.Observe(e)
		}
	})
	res, err := dd.Run(ctx, plan.Len(), dd.TesterFunc(func(ctx context.Context, c dd.Config) dd.Outcome {
		if len(c) == plan.Len() {
			return dd.Fail // the unit as it is, which fails
		}
		data, err := ps.Candidate(c)
		if err != nil {
			predicted.Add(1)
			return dd.Unresolved
		}
		tests.Add(1)
		o := s.Test(ctx, u, data)
		if o == dd.Fail {
			ps.Failed(c, data)
		}
		return o
	}), opts)
	settled := true
	if res.Fail != nil {
		take(res.Fail)
		best, ok := ps.Content(res.Fail)
		mu.Lock()
		settled = ok && bytes.Equal(best, cur)
		mu.Unlock()
	}
	ran.Tests, ran.Predicted = int(tests.Load()), int(predicted.Load())
	ran.After = len(cur)
	ran.Minimal = err == nil && res.Minimal && settled
	ran.Shrank = !bytes.Equal(cur, src)
	return ran, err
}

// Reduced is what Reduce found.
type Reduced struct {
	Data []byte
	// Minimal says the last round's every pass completed: removing any
	// single change of any of the passes makes the failure go away.
	Minimal bool
	// Tests counts the calls of the test.
	Tests int
	Stats []Stat
	// Guarantee is what the checks past 1-minimality established
	// (ReduceBeyond).
	Guarantee Guarantee
}

// Reduce reduces one input held in memory, which must fail, by the
// passes of passes (asked afresh each round, as the input then is) until
// a round shrinks nothing, each pass by ddmin with test. It stops at the
// first error (a *dd.NotFailingError when the input the search holds
// stops failing: the test is not deterministic), with the smallest
// failing input found so far.
func Reduce(ctx context.Context, data []byte, passes func([]byte) []decomp.Pass, test func(context.Context, []byte) dd.Outcome, opts dd.Options) (Reduced, error) {
	return ReduceBeyond(ctx, data, passes, test, opts, Beyond{})
}

// ReduceBeyond is Reduce with the checks past 1-minimality of b
// (Schedule.RunBeyond), each candidate tested by test, opts.Parallel at a
// time.
func ReduceBeyond(ctx context.Context, data []byte, passes func([]byte) []decomp.Pass, test func(context.Context, []byte) dd.Outcome, opts dd.Options, b Beyond) (Reduced, error) {
	cur := data
	unit := Unit[struct{}]{Name: "input"}
	s := &Schedule[struct{}]{
		Phases: []Phase[struct{}]{{
			Name:   "text",
			Units:  func() []Unit[struct{}] { return []Unit[struct{}]{unit} },
			Passes: func(Unit[struct{}]) ([]Pass, error) { return List(passes(cur)), nil },
			Data:   func(Unit[struct{}]) []byte { return cur },
		}},
	}
	search := &Search[struct{}]{Schedule: s, Options: opts,
		Test: func(ctx context.Context, _ Unit[struct{}], data []byte) dd.Outcome { return test(ctx, data) },
		Set:  func(_ Unit[struct{}], data []byte) { cur = data },
	}
	beyondTests := 0
	minimal, g, err := s.RunBeyond(ctx, search.Step, b,
		func(ctx context.Context, rs []Removal[struct{}]) (int, int, error) {
			first, tested, err := FirstFailing(ctx, len(rs), opts.Parallel, func(ctx context.Context, i int) (dd.Outcome, error) {
				return test(ctx, rs[i].Data), nil
			})
			beyondTests += tested
			return first, tested, err
		},
		func(r Removal[struct{}]) { cur = r.Data })
	r := Reduced{Data: cur, Minimal: minimal, Stats: s.Stats, Guarantee: g, Tests: beyondTests}
	for _, st := range s.Stats {
		r.Tests += st.Tests
	}
	return r, err
}
