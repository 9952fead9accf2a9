package dd

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"
)

// TestInfo describes the test a Tester is asked to run.
type TestInfo struct {
	Test        int  // the test's number, as in TestStarted
	Speculative bool // started ahead of need by parallel evaluation
}

type testInfoKey struct{}

// InfoFrom returns the TestInfo of the test a Tester's context belongs to.
func InfoFrom(ctx context.Context) (TestInfo, bool) {
	ti, ok := ctx.Value(testInfoKey{}).(TestInfo)
	return ti, ok
}

// A cand is a candidate configuration in a form that costs O(|sub|) to
// identify: base ∪ sub (plus) or base − sub, where sub is disjoint from base
// (plus) or a subset of it (minus). It is materialized only when needed.
type cand struct {
	key  key
	base []int
	sub  []int
	plus bool
}

func (c cand) build() Config {
	if c.plus {
		return union(make(Config, 0, len(c.base)+len(c.sub)), c.base, c.sub)
	}
	return minus(make(Config, 0, max(len(c.base)-len(c.sub), 0)), c.base, c.sub)
}

// unionCand is c'✓ ∪ Δi (or ci ∪ r); minusCand is c'✗ − Δi (or (c ∪ r) − ci).
func unionCand(base []int, kb key, sub []int) cand {
	return cand{key: kb.plus(keyOf(sub)), base: base, sub: sub, plus: true}
}

func minusCand(base []int, kb key, sub []int) cand {
	return cand{key: kb.minus(keyOf(sub)), base: base, sub: sub}
}

func configCand(c Config) cand { return cand{key: keyOf(c), base: c, plus: true} }

// A check is one rule test of a step: if the candidate's outcome is want,
// the algorithm applies rule to subset.
type check struct {
	c      cand
	want   Outcome
	rule   Rule
	subset int
}

// entry is the cache's record of one configuration: a test in flight or
// done, or an outcome the algorithm has looked up.
type entry struct {
	key         key
	ctx         context.Context
	cancel      context.CancelFunc
	test        int // test number, 0 if none ran
	outcome     Outcome
	tested      Config // the configuration a ResolvingTester tested instead; nil if the same
	source      Source
	done        bool // outcome known (or the test was cancelled or skipped)
	consumed    bool // the algorithm has looked this outcome up
	speculative bool
	canceled    bool
	skipped     bool // a speculative start that found its outcome predictable
}

// engine holds what every algorithm needs: the Tester, the outcome cache,
// monotony and prediction, parallel evaluation, the observer and the
// statistics. Algorithms ask for outcomes only through lookup, in the order
// the sequential algorithm needs them; parallel evaluation runs the checks
// of the current round ahead of that order (see begin).
type engine struct {
	ctx  context.Context
	opts Options
	t    Tester
	n    int
	par  int

	mu      sync.Mutex
	cond    *sync.Cond // broadcast when a test finishes
	cache   map[key]*entry
	running int // tests in flight (or starting)
	tests   int // test numbers handed out

	round    func(j int) check // the current round's checks; nil outside rounds
	roundLen int
	ahead    int      // next check index to consider for speculation
	pos      int      // the check the algorithm looks up now
	looked   int      // checks looked up in this round
	flights  []*entry // speculative entries started in this round

	// Decayed counts of steps decided and checks looked up, which estimate
	// how likely a check is to decide its step, and so how far ahead
	// speculation pays (see depth).
	decided, checked float64

	passed, failed []Config // looked-up outcomes, for monotony

	obsMu sync.Mutex
	stats Stats
}

// maxMonotone bounds the outcomes kept for monotony inference; older ones
// are forgotten, which only costs inferences, never correctness.
const maxMonotone = 256

func newEngine(ctx context.Context, n int, t Tester, opts Options) *engine {
	e := &engine{ctx: ctx, opts: opts, t: t, n: n, par: max(opts.Parallel, 1), cache: make(map[key]*entry)}
	e.cond = sync.NewCond(&e.mu)
	return e
}

func (e *engine) emit(ev Event) {
	if e.opts.Observer == nil {
		return
	}
	e.obsMu.Lock()
	defer e.obsMu.Unlock()
	e.opts.Observer.Observe(ev)
}

// begin starts a round of n checks: the rule tests of one step, in the
// order the algorithm will look them up (with lookup(at(j).c, j) for
// j = 0, 1, ...) until one decides. With Parallel > 1, the candidates are
// tested ahead in that order, at most Parallel at a time.
func (e *engine) begin(n int, at func(j int) check) {
	if e.par < 2 {
		return
	}
	e.mu.Lock()
	e.round, e.roundLen, e.ahead, e.pos, e.looked = at, n, 0, 0, 0
	e.fill()
	e.mu.Unlock()
}

// end closes the round; decided says whether one of its checks decided
// the step. Speculative tests still running are cancelled, since their
// outcomes belong to candidates of a finished step. Finished speculative
// outcomes stay cached for later steps.
func (e *engine) end(decided bool) {
	if e.par < 2 {
		return
	}
	e.mu.Lock()
	if e.round != nil {
		e.decided, e.checked = 0.9*e.decided, 0.9*e.checked+float64(e.looked)
		if decided {
			e.decided++
		}
	}
	for _, f := range e.flights {
		if !f.done && !f.consumed {
			f.cancel()
			if e.cache[f.key] == f {
				delete(e.cache, f.key)
			}
		}
	}
	e.round, e.roundLen, e.flights = nil, 0, e.flights[:0]
	e.mu.Unlock()
}

// depth is how many checks beyond the one looked up now are worth
// testing ahead. If a check decides its step with probability p, the
// check k places ahead is still needed with probability (1-p)^k; testing
// it ahead pays (on busy processors) while that is at least one half. p
// is estimated from the decayed counts of earlier rounds, starting at 1/2.
// Only speculation depends on it, never a decision.
func (e *engine) depth() int {
	p := (e.decided + 1) / (e.checked + 2)
	if p >= 1 {
		return 0
	}
	d := int(math.Log(0.5) / math.Log(1-p))
	return min(max(d, 0), e.par-1)
}

// fill starts speculative tests of the current round while slots are free.
// Called with e.mu held.
func (e *engine) fill() {
	limit := e.pos + e.depth()
	for e.round != nil && e.running < e.par && e.ahead < e.roundLen && e.ahead <= limit && e.ctx.Err() == nil {
		ch := e.round(e.ahead)
		e.ahead++
		if e.cache[ch.c.key] != nil {
			continue
		}
		f := e.start(ch.c.key, true)
		e.flights = append(e.flights, f)
		go e.speculate(f, ch.c)
	}
}

// start registers a test about to run and takes a slot. Called with e.mu held.
func (e *engine) start(k key, speculative bool) *entry {
	f := &entry{key: k, speculative: speculative, source: Tested}
	if e.par < 2 {
		f.ctx = e.ctx
	} else {
		f.ctx, f.cancel = context.WithCancel(e.ctx)
	}
	e.cache[k] = f
	e.running++
	if speculative {
		e.stats.Speculative++
	}
	return f
}

// speculate runs a test ahead of need, unless its outcome will be predicted
// or inferred when it is looked up, in which case no test is spent on it.
func (e *engine) speculate(f *entry, c cand) {
	cfg := c.build()
	if _, _, ok := e.known(cfg); ok {
		e.mu.Lock()
		f.done, f.skipped = true, true
		e.stats.Speculative--
		e.running--
		if e.cache[f.key] == f {
			delete(e.cache, f.key)
		}
		e.fill()
		e.cond.Broadcast()
		e.mu.Unlock()
		return
	}
	e.run(f, cfg)
}

// known answers from the predictor or, with monotony, from earlier outcomes.
func (e *engine) known(cfg Config) (Outcome, Source, bool) {
	if p := e.opts.Predict; p != nil {
		if o, ok := p.Predict(cfg); ok {
			return o, Predicted, true
		}
	}
	if e.opts.Monotone {
		e.mu.Lock()
		passed, failed := e.passed, e.failed
		e.mu.Unlock()
		for i := len(passed) - 1; i >= 0; i-- {
			if subset(cfg, passed[i]) {
				return Pass, Inferred, true
			}
		}
		for i := len(failed) - 1; i >= 0; i-- {
			if subset(failed[i], cfg) {
				return Fail, Inferred, true
			}
		}
	}
	return 0, 0, false
}

// run calls the Tester. It is called without e.mu held.
func (e *engine) run(f *entry, cfg Config) {
	e.mu.Lock()
	e.tests++
	f.test = e.tests
	e.mu.Unlock()
	e.emit(TestStarted{Test: f.test, Config: cfg, Speculative: f.speculative})
	t0 := time.Now()
	ctx := context.WithValue(f.ctx, testInfoKey{}, TestInfo{Test: f.test, Speculative: f.speculative})
	var o Outcome
	var tested Config
	if rt, ok := e.t.(ResolvingTester); ok {
		o, tested = rt.TestResolved(ctx, cfg)
		tested = e.checkTested(cfg, tested, &o)
	} else {
		o = e.t.Test(ctx, cfg)
	}
	d := time.Since(t0)

	e.mu.Lock()
	f.done = true
	f.outcome = o
	f.tested = tested
	f.canceled = f.ctx.Err() != nil
	e.running--
	if f.canceled {
		e.stats.Canceled++
		if e.cache[f.key] == f {
			delete(e.cache, f.key)
		}
	} else {
		e.stats.Tests++
		switch o {
		case Pass:
			e.stats.Pass++
		case Fail:
			e.stats.Fail++
		default:
			e.stats.Unresolved++
		}
		if tested != nil {
			e.stats.Resolved++
		}
	}
	e.fill()
	e.cond.Broadcast()
	e.mu.Unlock()
	e.emit(TestFinished{Test: f.test, Config: cfg, Tested: tested, Outcome: o, Duration: d, Speculative: f.speculative, Canceled: f.canceled})
}

// checkTested validates the configuration a ResolvingTester reports it
// tested for cfg: nil when it is cfg itself; a sorted superset of cfg
// within 0..n-1 otherwise. Anything else breaks the Tester's contract:
// the outcome cannot be credited to any configuration and becomes
// Unresolved.
func (e *engine) checkTested(cfg, tested Config, o *Outcome) Config {
	if tested == nil || slices.Equal(cfg, tested) {
		return nil
	}
	valid := len(tested) > len(cfg) && subset(cfg, tested)
	for i, x := range tested {
		if x < 0 || x >= e.n || i > 0 && tested[i-1] >= x {
			valid = false
		}
	}
	if !valid {
		*o = Unresolved
		return nil
	}
	return slices.Clone(tested)
}

// lookup returns the outcome of candidate c for the algorithm: from the
// cache, the predictor, monotony, a test already run ahead, or a new test.
// j is the index of c's check in the current round (-1 outside rounds); it
// keeps speculation ahead of the algorithm. The only error is the run's
// context ending.
//
// When a ResolvingTester tested a larger configuration than c, the
// outcome belongs to that configuration, which lookup returns as tested
// (nil when the outcome is c's own). The algorithms credit a failure to
// the configuration that failed, never to c.
func (e *engine) lookup(c cand, j int) (Outcome, Config, error) {
	if err := e.ctx.Err(); err != nil {
		return Unresolved, nil, err
	}
	e.mu.Lock()
	if e.round != nil && j >= 0 {
		e.pos = j
		e.looked++
		if e.ahead < j+1 {
			e.ahead = j + 1
		}
	}
	e.stats.Lookups++
	if f := e.cache[c.key]; f != nil && f.consumed {
		e.stats.CacheHits++
		o, test, tested := f.outcome, f.test, f.tested
		e.mu.Unlock()
		if e.opts.Observer != nil {
			e.emit(Lookup{Config: c.build(), Tested: tested, Outcome: o, Source: Cached, Test: test})
		}
		return o, tested, nil
	}
	e.fill()
	e.mu.Unlock()

	cfg := c.build()
	if o, src, ok := e.known(cfg); ok {
		e.mu.Lock()
		if src == Predicted {
			e.stats.Predicted++
		} else {
			e.stats.Inferred++
		}
		if f := e.cache[c.key]; f != nil {
			// A speculative test of the same configuration is superseded:
			// the sequential algorithm would not have run it.
			if !f.done {
				f.cancel()
			} else if f.speculative && !f.consumed && !f.canceled && !f.skipped {
				e.stats.Discarded++
			}
			delete(e.cache, c.key)
		}
		if !e.opts.NoCache {
			e.cache[c.key] = &entry{key: c.key, outcome: o, source: src, done: true, consumed: true}
		}
		e.remember(cfg, o)
		e.mu.Unlock()
		e.emit(Lookup{Config: cfg, Outcome: o, Source: src})
		return o, nil, nil
	}

	e.mu.Lock()
	var f *entry
	for {
		f = e.cache[c.key]
		if f == nil || (f.done && (f.skipped || f.canceled)) {
			if e.running >= e.par {
				// Wait for a slot, then look again: a speculative test of
				// this very configuration may have started meanwhile.
				e.cond.Wait()
				continue
			}
			f = e.start(c.key, false)
			if e.par < 2 {
				e.mu.Unlock()
				e.run(f, cfg)
				e.mu.Lock()
			} else {
				go e.run(f, cfg)
			}
		}
		for !f.done {
			e.cond.Wait()
		}
		if f.canceled && e.ctx.Err() != nil {
			e.mu.Unlock()
			return Unresolved, nil, e.ctx.Err()
		}
		if !f.skipped && !f.canceled {
			break
		}
	}
	f.consumed = true
	o, tested := f.outcome, f.tested
	ran := cfg
	if tested != nil {
		ran = tested
	}
	contradiction := e.contradiction(ran, o)
	e.remember(ran, o)
	if e.opts.NoCache {
		delete(e.cache, c.key)
	}
	e.fill()
	e.mu.Unlock()
	e.emit(Lookup{Config: cfg, Tested: tested, Outcome: o, Source: Tested, Test: f.test})
	if contradiction != nil {
		e.emit(*contradiction)
	}
	return o, tested, nil
}

// contradiction finds a kept outcome that the tested outcome o of cfg
// contradicts under monotony (Options.WatchMonotony), or nil. Called with
// e.mu held.
func (e *engine) contradiction(cfg Config, o Outcome) *Contradiction {
	if !e.opts.WatchMonotony {
		return nil
	}
	switch o {
	case Fail:
		for _, p := range e.passed {
			if subset(cfg, p) {
				return &Contradiction{Failed: cfg, Passed: p}
			}
		}
	case Pass:
		for _, f := range e.failed {
			if subset(f, cfg) {
				return &Contradiction{Failed: f, Passed: cfg}
			}
		}
	}
	return nil
}

// remember keeps a looked-up outcome for monotony. Called with e.mu held;
// cfg is owned by the engine.
func (e *engine) remember(cfg Config, o Outcome) {
	if !e.opts.Monotone && !e.opts.WatchMonotony {
		return
	}
	switch o {
	case Pass:
		e.passed = appendBounded(e.passed, cfg)
	case Fail:
		e.failed = appendBounded(e.failed, cfg)
	}
}

func appendBounded(list []Config, c Config) []Config {
	if len(list) == maxMonotone {
		// Copy rather than reslice so that readers holding the old slice
		// header keep a consistent view.
		list = append([]Config(nil), list[1:]...)
	}
	return append(list, c)
}

// finish cancels what still runs and waits until no test is in flight, so
// that no test outlives the run, then completes the statistics.
func (e *engine) finish() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, f := range e.cache {
		if !f.done && f.cancel != nil {
			f.cancel()
		}
	}
	for _, f := range e.flights {
		if !f.done && f.cancel != nil {
			f.cancel()
		}
	}
	for e.running > 0 {
		e.cond.Wait()
	}
	for _, f := range e.cache {
		if f.speculative && f.done && !f.consumed && !f.canceled && !f.skipped {
			e.stats.Discarded++
		}
	}
	return e.stats
}
