package reduce

import (
	"context"
	"fmt"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/report"
)

// The phases of a reduction's schedule.
const (
	entriesPhase = "files and directories"
	treePhase    = "syntax trees"
	textPhase    = "text"
)

// entries is the pass over the files and directories at one depth of a
// tree (entryPass).
type entries int

func (d entries) Name() string {
	if d == 0 {
		return "files and directories at the top"
	}
	return fmt.Sprintf("files and directories at depth %d", int(d)+1)
}

// schedule is the order of the reduction's passes, run in rounds until
// one shrinks nothing, so that the result is minimal for every pass: in
// a tree, whole files and directories first, top down; then each unit's
// tree passes until none shrinks it (an input's, or a tree's Go package's
// as a whole); then each input's text passes. Every input gets its
// coarse passes before any gets its fine ones, which cost the most
// tests. The removals that 1-minimality says must not fail come from the
// same schedule.
func (rd *reducer) schedule() *schedule.Schedule[unit] {
	list := func(us []unit) []schedule.Unit[unit] {
		out := make([]schedule.Unit[unit], len(us))
		for i, u := range us {
			out[i] = schedule.Unit[unit]{Name: u.label(), Of: u}
		}
		return out
	}
	data := func(u schedule.Unit[unit]) []byte { return u.Of.data() }
	passes := func(tree bool) func(schedule.Unit[unit]) ([]schedule.Pass, error) {
		return func(u schedule.Unit[unit]) ([]schedule.Pass, error) {
			t, x, err := u.Of.passes()
			if !tree {
				t = x
			}
			return schedule.List(t), err
		}
	}
	s := &schedule.Schedule[unit]{Admit: rd.tested}
	if rd.tree != nil {
		s.Phases = append(s.Phases, schedule.Phase[unit]{Name: entriesPhase, NoRemovals: true,
			Units: func() []schedule.Unit[unit] {
				us := make([]schedule.Unit[unit], filetree.Levels(rd.paths()))
				for d := range us {
					us[d].Of.depth = d
				}
				return us
			},
			Passes: func(u schedule.Unit[unit]) ([]schedule.Pass, error) { return []schedule.Pass{entries(u.Of.depth)}, nil },
		})
	}
	s.Phases = append(s.Phases,
		schedule.Phase[unit]{Name: treePhase, Settle: true, Units: func() []schedule.Unit[unit] { return list(rd.treeUnits()) },
			Passes: passes(true), Data: data,
			Start: func(ctx context.Context) error {
				if rd.probed {
					return nil
				}
				// After a tree's first removals of whole files, so
				// that the probes are made on what is left of it.
				rd.probed = true
				return rd.probeTypes(ctx)
			}},
		schedule.Phase[unit]{Name: textPhase, Units: func() []schedule.Unit[unit] { return list(rd.textUnits()) },
			Passes: passes(false), Data: data})
	s.OnRound = func(round int) {
		rd.s.Logf("Round %d done: %s\n", round, report.Plural(rd.size(), "byte"))
	}
	return s
}

// step runs one pass of the schedule: ddmin over a tree's entries at one
// depth, or over the changes of a unit's pass; a syntax tree's
// transformations and replacements test each alone first when they are
// few.
func (rd *reducer) step(s *schedule.Schedule[unit]) schedule.Step[unit] {
	return func(ctx context.Context, phase int, u schedule.Unit[unit], p schedule.Pass) (schedule.Ran, error) {
		if d, ok := p.(entries); ok {
			return rd.entryPass(ctx, int(d))
		}
		sp := p.(decomp.Pass)
		_, replace := sp.(decomp.Replacements)
		if _, smaller := sp.(decomp.SmallerChars); smaller {
			replace = true
		}
		return rd.pass(ctx, u.Of, sp, s.Phases[phase].Name == treePhase || replace)
	}
}

// passStats are the statistics of the schedule's passes as the summary
// shows them.
func passStats(ss []schedule.Stat) []report.PassStats {
	ps := make([]report.PassStats, len(ss))
	for i, st := range ss {
		ps[i] = report.PassStats{Name: st.Pass, File: st.Unit, Tests: st.Tests, Predicted: st.Predicted,
			BytesBefore: st.Before, BytesAfter: st.After, Seconds: st.Seconds}
	}
	return ps
}
