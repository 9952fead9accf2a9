package dd

import (
	"fmt"
	"time"
)

// An Observer is told what a run does: tests started and finished,
// outcomes looked up, and the algorithm's steps. Logs, progress displays
// and reports are built on it outside this package.
type Observer interface {
	Observe(Event)
}

// ObserverFunc adapts a function to an Observer.
type ObserverFunc func(Event)

// Observe calls f(e).
func (f ObserverFunc) Observe(e Event) { f(e) }

// An Event is one of Start, TestStarted, TestFinished, Lookup, Step and
// Granularity.
type Event interface{ event() }

// Start begins a run over N changes.
type Start struct {
	Algorithm Algorithm
	Variant   Variant
	N         int
}

// TestStarted is sent when the Tester is called. Test numbers count tests
// in the order they start, from 1.
type TestStarted struct {
	Test        int
	Config      Config
	Speculative bool // started ahead of need by parallel evaluation
}

// TestFinished is sent when the Tester returns. Tested is the
// configuration a ResolvingTester tested instead of Config, to which
// Outcome belongs; nil when it tested Config itself.
type TestFinished struct {
	Test        int
	Config      Config
	Tested      Config
	Outcome     Outcome
	Duration    time.Duration
	Speculative bool // started ahead of need by parallel evaluation
	Canceled    bool // stopped because its outcome was no longer needed; Outcome is meaningless
}

// Source says where the outcome of a Lookup came from.
type Source int8

const (
	Tested    Source = iota // a test was run for this lookup
	Cached                  // an earlier lookup of the same configuration
	Predicted               // the Predictor
	Inferred                // monotony: a superset passed or a subset failed earlier
)

var sourceNames = [...]string{"tested", "cached", "predicted", "inferred"}

func (s Source) String() string {
	if s >= 0 && int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("Source(%d)", int(s))
}

// Lookup is sent each time the algorithm takes the outcome of a
// configuration, in the algorithm's order: the same sequence for any
// Parallel. Test is the number of the test that produced the outcome, or
// 0 when it was predicted or inferred. Tested is the configuration a
// ResolvingTester tested instead of Config, to which Outcome belongs;
// nil when the outcome is Config's own.
type Lookup struct {
	Config  Config
	Tested  Config
	Outcome Outcome
	Source  Source
	Test    int
}

// Contradiction says that the tested outcomes contradict monotony
// (Options.WatchMonotony): Failed failed, although it lies inside Passed,
// which passed.
type Contradiction struct {
	Failed, Passed Config
}

// Rule names a step of an algorithm.
type Rule int

const (
	// The rules of the general dd (TSE 2002 §3.2, §5.2). They are named
	// after the configuration that becomes the new c'✗ (reduce) or c'✓
	// (increase): subset c'✓ ∪ Δi, complement c'✗ − Δi. (The Debugging
	// Book prints the two increase rules with their names swapped.)
	ReduceToSubset       Rule = iota + 1 // c'✓ ∪ Δi fails: c'✗ := c'✓ ∪ Δi, n := 2
	ReduceToComplement                   // c'✗ − Δi fails: c'✗ := c'✗ − Δi, n := max(n−1, 2)
	IncreaseToSubset                     // c'✓ ∪ Δi passes: c'✓ := c'✓ ∪ Δi, n := max(n−1, 2)
	IncreaseToComplement                 // c'✗ − Δi passes: c'✓ := c'✗ − Δi, n := 2
	IncreaseGranularity                  // no rule applied: n := min(2n, |Δ|)

	// The cases of FSE 1999 Algorithms 1 and 2.
	Found        // |c| = 1: the change is failure-inducing
	FoundIn      // ci ∪ r fails: continue in ci
	Interfere    // ci ∪ r and c̄i ∪ r both pass: search both, each with the other applied
	Prefer       // ci ∪ r unresolved, c̄i ∪ r passes: search ci with c̄i applied
	TryAgain     // nothing decided: continue with twice as many subsets
	NothingLeft  // nothing decided and no finer split possible
	NothingFound // the search space became empty (only with inconsistent outcomes)
)

var ruleNames = [...]string{
	"", "reduce to subset", "reduce to complement", "increase to subset", "increase to complement",
	"increase granularity", "found", "found in subset", "interference", "preference", "try again",
	"nothing left", "nothing found",
}

// String returns the rule's name as the papers write it, e.g. "reduce to complement".
func (r Rule) String() string {
	if r > 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// Step is sent when the algorithm applies a rule. Subset is the index of
// the subset Δi (or ci) the rule applied to, -1 if none. For the general
// dd, Pass and Fail are the sizes of c'✓ and c'✗ after the step and
// Granularity the n after it; for the FSE algorithms, Fail is the size of
// the search space c and Pass the size of the applied set r, before the step.
type Step struct {
	Rule        Rule
	Subset      int
	Granularity int
	Pass, Fail  int
	// Config is the configuration the rule made the new c'✗ (reduce
	// rules) or c'✓ (increase rules) of the general dd; for the FSE
	// algorithms, the configuration c ∪ r held as failing after a step
	// that changes it (found in, try again, nothing left); nil otherwise.
	// Like every Config in an event, it is only valid during the call.
	Config Config
}

// Granularity is sent when the general dd starts looking at a new
// difference: Delta is |c'✗ − c'✓| and N the number of subsets.
type Granularity struct {
	N, Delta int
}

func (Start) event()         {}
func (TestStarted) event()   {}
func (TestFinished) event()  {}
func (Lookup) event()        {}
func (Contradiction) event() {}
func (Step) event()          {}
func (Granularity) event()   {}
