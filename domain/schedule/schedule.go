// Package schedule is the order in which a reduction runs its passes:
// phases of passes over units, repeated until a whole round shrinks
// nothing, so that the result is 1-minimal for every pass of the last
// round ("Simplifying and Isolating Failure-Inducing Input", TSE 2002,
// Def. 10, for each decomposition in turn; the hierarchical passes of
// "HDD: Hierarchical Delta Debugging", ICSE 2006, coarse before fine). It
// keeps each pass's statistics and derives, from the same phases, the
// removals that 1-minimality says must not fail (the candidates a final
// check reruns).
//
// A schedule runs nothing itself: what a pass does to a unit is a
// callback (Step), usually ddmin over the changes of the pass's plan
// (Search runs it with dd.Run over inputs held in memory), and the units
// and passes are asked for afresh each round, as the input is then. The
// text ladder (Ladder) is the passes every input without a syntax of its
// own gets: lines, bracket groups, tokens, characters, replacements.
//
// The reductions built on it differ in their passes, and so in what
// their 1-minimality says. wynot reduce's result is 1-minimal for every
// pass of its schedule: no single line, bracket group, token, character
// or replacement of a text, no single syntax tree transformation (a
// candidate that does not parse, or type-check, counting as not
// failing) and, in a tree, no single file or directory can be taken out
// with the failure still there. wynot fuzz's strings and byte slices
// are 1-minimal by characters, its numbers the closest to zero that
// still fail (a binary search), its bools false where they can be.
// wynottest.Minimize's input is 1-minimal by characters, and each
// argument of a Call by its elements, the others fixed.
package schedule

import (
	"bytes"
	"context"
	"slices"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// A Unit is what one pass reduces: an input, or several reduced as one
// (the caller's bundle), as the caller's value Of. Name identifies it
// among the units of its phase and shows in statistics.
type Unit[U any] struct {
	Name string
	Of   U
}

// A Pass proposes candidates over a unit as it is now. A decomp.Pass
// does so by a plan of changes that ddmin leaves in or takes out, and
// gives removals; any other named pass (the files at one depth of a
// tree, a number brought towards zero) is the Step's own business.
type Pass interface {
	Name() string
}

// A Phase is one kind of passes over a kind of units: in each round, for
// every unit the phase lists, every pass it lists for that unit, coarse
// to fine.
type Phase[U any] struct {
	// Name names the phase in statistics.
	Name string
	// Start, when set, runs each round before the phase's passes.
	Start func(context.Context) error
	// Units are the units the phase reduces, as the input is now.
	Units func() []Unit[U]
	// Passes are the passes of unit u as it is now, coarse to fine.
	Passes func(u Unit[U]) ([]Pass, error)
	// Data is the content of unit u now (for the removals, and for
	// Search).
	Data func(u Unit[U]) []byte
	// Settle runs a unit's passes again and again until they no longer
	// shrink it, before the next unit. In the repetitions a pass that
	// found nothing when it last ran is skipped unless a pass before it
	// has shrunk the unit since (a change deeper in a syntax tree seldom
	// makes one higher up possible; the next round runs every pass).
	Settle bool
	// Restart, instead of going on to the next unit after one has
	// shrunk, goes back to the first unit (the others are due again)
	// and leaves out only the unit just reduced, until every unit has
	// been reduced without change since the last shrink (the Debugging
	// Book's process_args in "Reducing Failure-Inducing Inputs"). Such
	// a phase is a fixpoint of its own: a schedule of it alone runs one
	// round.
	Restart bool
	// NoRemovals says the phase's passes give no removals.
	NoRemovals bool
}

// Ran is what one pass did to one unit, as its Step reports it.
type Ran struct {
	// Changes is the size of the pass's plan over the unit; a pass with
	// none did nothing and is not counted in the statistics.
	Changes int
	// Minimal says the search completed: the unit is 1-minimal for
	// this pass (no single change of it can be undone and still fail).
	Minimal bool
	// Shrank says the unit changed: it became simpler.
	Shrank bool
	// Tests and Predicted count the tests run and the outcomes known
	// without a test; Before and After are the unit's sizes.
	Tests, Predicted int
	Before, After    int
	// Seconds is the time the pass took, when the Step measures it.
	Seconds float64
}

// A Stat is one pass's statistics: where it ran and what it did.
type Stat struct {
	Round int
	Phase string
	Unit  string // its name
	Pass  string
	Ran
}

// Step runs pass p of phase over unit u: usually ddmin over the changes
// of p's plan (Search.Step), taking each smaller failing content.
type Step[U any] func(ctx context.Context, phase int, u Unit[U], p Pass) (Ran, error)

// A Schedule is the phases of a reduction, run in rounds until a round
// shrinks nothing.
type Schedule[U any] struct {
	Phases []Phase[U]
	// Admit says a candidate that the plan rejected with err (it does not
	// parse, say) is tested all the same; nil admits none. Rejected
	// candidates are otherwise predicted unresolved, and are no removals.
	Admit func(err error, data []byte) bool
	// OnRound, when set, is told the end of each round that shrank
	// something.
	OnRound func(round int)

	// Stats are the statistics of every pass that ran, in order.
	Stats []Stat

	// gen counts the shrinks of the current Run; done holds, for each
	// pass over a unit that completed its search (see Run), the gen and
	// the unit's content it left.
	gen  int
	done map[doneKey]doneAt
}

// doneKey names a pass over a unit of a phase.
type doneKey struct{ phase, unit, pass string }

type doneAt struct {
	gen  int
	data string
}

// Run runs rounds of the phases until one shrinks nothing, and reports
// whether that last round's every pass completed its search: then the
// result is 1-minimal for every pass of the schedule. On an error it
// stops at once and reports false.
//
// A decomp.Pass that completed its search over a unit is not run again
// while no unit has changed since: the unit is 1-minimal for it as it
// is. That holds when the pass shrank nothing (its plan was cut from the
// unit as it still is), and when it shrank the unit by pieces that cut
// again give back the pieces kept (decomp.Recut: lines, characters), so
// that its last step tested every single one of them; tokens, bracket
// groups and finished plans run again after they shrank.
func (s *Schedule[U]) Run(ctx context.Context, step Step[U]) (minimal bool, err error) {
	s.gen, s.done = 0, map[doneKey]doneAt{}
	for round := 1; ; round++ {
		changed, allMinimal := false, true
		for pi := range s.Phases {
			ph := &s.Phases[pi]
			if ph.Start != nil {
				if err := ph.Start(ctx); err != nil {
					return false, err
				}
			}
			if ph.Units == nil {
				continue
			}
			shrank, min, err := s.phase(ctx, round, pi, step)
			changed, allMinimal = changed || shrank, allMinimal && min
			if err != nil {
				return false, err
			}
		}
		if !changed || len(s.Phases) == 1 && s.Phases[0].Restart {
			// A phase that restarts is a fixpoint of its own.
			return allMinimal, nil
		}
		if s.OnRound != nil {
			s.OnRound(round)
		}
	}
}

// phase runs one phase of one round.
func (s *Schedule[U]) phase(ctx context.Context, round, pi int, step Step[U]) (changed, minimal bool, err error) {
	ph := &s.Phases[pi]
	minimal = true
	units := ph.Units()
	if ph.Restart {
		// Units due, in order; after a shrink, all but the one shrunk.
		todo := slices.Clone(units)
		for len(todo) > 0 {
			u := todo[0]
			shrank, min, err := s.unit(ctx, round, pi, u, step)
			changed, minimal = changed || shrank, minimal && min
			if err != nil {
				return changed, false, err
			}
			if shrank {
				todo = slices.Clone(ph.Units())
			}
			todo = slices.DeleteFunc(todo, func(v Unit[U]) bool { return v.Name == u.Name })
		}
		return changed, minimal, nil
	}
	for _, u := range units {
		shrank, min, err := s.unit(ctx, round, pi, u, step)
		changed, minimal = changed || shrank, minimal && min
		if err != nil {
			return changed, false, err
		}
	}
	return changed, minimal, nil
}

// unit runs the phase's passes over one unit (until they settle, when
// the phase says so).
func (s *Schedule[U]) unit(ctx context.Context, round, pi int, u Unit[U], step Step[U]) (changed, minimal bool, err error) {
	ph := &s.Phases[pi]
	minimal = true
	quiet := map[string]bool{}
	for rep := 0; ; rep++ {
		ps, err := ph.Passes(u)
		if err != nil {
			return changed, false, err
		}
		shrankHere, above := false, false
		for _, p := range ps {
			if rep > 0 && !above && quiet[p.Name()] {
				continue
			}
			key := doneKey{ph.Name, u.Name, p.Name()}
			if s.known(ph, u, p, key) {
				// Nothing changed since this pass completed over
				// this unit as it is: it is 1-minimal for the pass.
				quiet[p.Name()] = true
				continue
			}
			ran, err := step(ctx, pi, u, p)
			if ran.Changes > 0 {
				s.Stats = append(s.Stats, Stat{Round: round, Phase: ph.Name, Unit: u.Name, Pass: p.Name(), Ran: ran})
			}
			shrankHere = shrankHere || ran.Shrank
			minimal = minimal && (ran.Minimal || ran.Changes == 0)
			if ran.Shrank {
				s.gen++
			}
			if ran.Minimal && ph.Data != nil && (!ran.Shrank || recut(p)) {
				s.done[key] = doneAt{s.gen, string(ph.Data(u))}
			}
			quiet[p.Name()] = !ran.Shrank
			above = above || ran.Shrank
			if err != nil {
				return changed || shrankHere, false, err
			}
		}
		changed = changed || shrankHere
		if !ph.Settle || !shrankHere {
			return changed, minimal, nil
		}
	}
}

// known says that pass p over unit u need not run: it completed its
// search over the unit as it is now, and no unit has changed since.
func (s *Schedule[U]) known(ph *Phase[U], u Unit[U], p Pass, key doneKey) bool {
	d, ok := s.done[key]
	if !ok || d.gen != s.gen || ph.Data == nil {
		return false
	}
	_, ok = p.(decomp.Pass)
	return ok && d.data == string(ph.Data(u))
}

// recut says that a pass that shrank a unit and completed its search
// has tested every single change of the plan of the unit as it left
// it: cutting the content it kept again gives back the pieces it kept
// (lines, characters, bytes; not tokens, which merge, nor a finished
// plan, which reprints).
func recut(p Pass) bool {
	dp, ok := p.(decomp.Pass)
	if !ok {
		return false
	}
	return decomp.Recut(dp)
}

// A Removal is a unit's content with one change of one pass taken out
// (for a syntax tree's transformation, made): a candidate that
// 1-minimality says must not fail.
type Removal[U any] struct {
	Unit  Unit[U]
	Pass  string
	Index int // the change, from 0 (the first, when several go at once)
	Of    int // the changes of the pass's plan
	Data  []byte
	// Size is how many changes go at once past 1-minimality (a span,
	// a pair, a triple: BeyondRemovals); 0 for one.
	Size int
}

// Removals are the removals of the schedule's passes over the units as
// they are now: for every phase that gives them, every unit and every
// decomp.Pass, the content with each single change taken out. Candidates
// the plan rejects (unless admitted), the unit's content itself, those
// not simpler than it (Simpler) and duplicates are left out, as a search
// predicts or skips them. With more than max of them, Removals returns
// none and false (max < 0: no bound).
func (s *Schedule[U]) Removals(ctx context.Context, max int) ([]Removal[U], bool, error) {
	var rs []Removal[U]
	over := false
	seen := map[string]bool{}
	err := s.oneLess(ctx, nil, func(r Removal[U], err error) bool {
		if err != nil && !s.admit(err, r.Data) || seen[string(r.Data)] {
			return true
		}
		seen[string(r.Data)] = true
		if max >= 0 && len(rs) == max {
			over = true
			return false
		}
		rs = append(rs, r)
		return true
	})
	if err != nil || over {
		return nil, false, err
	}
	return rs, true, nil
}

// Rejected are the removals that the plans reject and Removals leaves
// out, of the passes that passes chooses for a unit (nil: all), those
// that pick chooses (by the plan's error and the candidate), max at
// most: the candidates a search predicted, to test after all.
func (s *Schedule[U]) Rejected(ctx context.Context, max int, passes func(u Unit[U], pass string) bool, pick func(err error, data []byte) bool) ([]Removal[U], error) {
	var rs []Removal[U]
	seen := map[string]bool{}
	err := s.oneLess(ctx, passes, func(r Removal[U], err error) bool {
		if err != nil && r.Data != nil && !s.admit(err, r.Data) && !seen[string(r.Data)] && pick(err, r.Data) {
			seen[string(r.Data)] = true
			rs = append(rs, r)
		}
		return len(rs) < max
	})
	return rs, err
}

// oneLess calls f with each removal of the schedule's passes (those
// that passes chooses, all when nil) over the units as they are now, and the error of the plan that made it (nil
// when the plan accepts it), until f returns false: for every phase
// that gives them, every unit and every decomp.Pass, the content with
// each single change taken out; those not simpler than the unit's
// content (Simpler: a removal that the language's printing undoes, white
// space in Go, is no removal) left out.
func (s *Schedule[U]) oneLess(ctx context.Context, passes func(u Unit[U], pass string) bool, f func(r Removal[U], err error) bool) error {
	for pi := range s.Phases {
		ph := &s.Phases[pi]
		if ph.NoRemovals || ph.Units == nil {
			continue
		}
		for _, u := range ph.Units() {
			src := ph.Data(u)
			ps, err := ph.Passes(u)
			if err != nil {
				return err
			}
			for _, p := range ps {
				dp, ok := p.(decomp.Pass)
				if !ok || passes != nil && !passes(u, p.Name()) {
					continue
				}
				plan, err := dp.Plan(src)
				if err != nil {
					return &PlanError{Unit: u.Name, Pass: p.Name(), Err: err}
				}
				all := dd.All(plan.Len())
				for i := range plan.Len() {
					if err := ctx.Err(); err != nil {
						return err
					}
					data, err := plan.Apply(slices.Delete(slices.Clone(all), i, i+1))
					if !Simpler(data, src) {
						continue
					}
					if !f(Removal[U]{Unit: u, Pass: p.Name(), Index: i, Of: plan.Len(), Data: data}, err) {
						return nil
					}
				}
			}
		}
	}
	return nil
}

func (s *Schedule[U]) admit(err error, data []byte) bool {
	return s.Admit != nil && data != nil && s.Admit(err, data)
}

// PlanError is a pass that could not plan its changes over a unit.
type PlanError struct {
	Unit string // its name
	Pass string
	Err  error
}

func (e *PlanError) Error() string { return e.Unit + ": " + e.Pass + ": " + e.Err.Error() }

func (e *PlanError) Unwrap() error { return e.Err }

// Simpler orders the contents of a unit as a reduction goes: a shorter
// one first, and of the same length the one that sorts first. Every
// content a reduction takes is simpler than the one before, so a
// replacement of the same length (4 by 0) is taken, and no pass can go
// round in a circle.
func Simpler(a, b []byte) bool {
	return len(a) < len(b) || len(a) == len(b) && bytes.Compare(a, b) < 0
}
