package chain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// link is one examined state of the failing run.
type link struct {
	Link
	probe int
	// fnames are the names, in the failing run's graph, of the vertices
	// of the relevant deltas (var(Δ) is made of them, by address).
	fnames []string
	depth  int  // of the backtrace
	bot    bool // Δ = ⊥: no relevant deltas could be found
	// neither says that the whole difference, transplanted, gave
	// neither run's behavior.
	neither bool
	// The relevant deltas' configurations, for the final confirmation.
	failing, passing runner.Candidate
	confirm          bool
}

// Search examines the states: the --at moments, or the first and last
// steps of the failing run and, by cts, the steps between where the
// cause moves.
func (c *Chain) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	if bytes.Contains(s.Original.Stderr, []byte("wynot chain runtime: ")) {
		return command.Found{}, fmt.Errorf("the instrumented failing run failed in wynot's own part of it (a bug in wynot chain; please report it with the program): %s", s.Original.Explain())
	}
	data, err := os.ReadFile(filepath.Join(c.work, "fail.timeline"))
	if err != nil {
		return command.Found{}, fmt.Errorf("reading the failing run's steps: %v (it ended with %s)", err, s.Original.Explain())
	}
	var complete bool
	c.timeline, complete = instrument.ReadTimeline(data)
	if !complete {
		s.Say("the failing run passed more than %d probes; only its first %d steps are examined", timelineCap, len(c.timeline))
	}
	if len(c.timeline) == 0 {
		return command.Found{}, command.InputError("the failing run executed no statement of %s (it ended with %s): are the arguments right?", c.pkg, s.Original.Describe())
	}
	c.links = map[uint64]*link{}
	if len(c.at) > 0 {
		return c.searchAt(ctx, s)
	}
	// The first state (in main.main: package initializers run before
	// it, and with a library's packages probed its init functions would
	// be the first steps), and the last one with a matching state in the
	// passing run that the failing difference makes fail.
	first, err := c.examine(ctx, s, c.firstStep())
	if err != nil {
		return c.found(), err
	}
	last, err := c.lastLink(ctx, s)
	if err != nil {
		return c.found(), err
	}
	if last == nil || last.Step <= first.Step {
		s.Say("no later state of the failing run has a relevant difference: the chain is the first state only")
		return c.found(), nil
	}
	if err := c.cts(ctx, s, first, last); err != nil {
		return c.found(), err
	}
	c.suggest()
	return c.found(), nil
}

// firstStep is the failing run's first step in main.main, or 1 when
// none is (a C program's main under gdb).
func (c *Chain) firstStep() uint64 {
	for i, id := range c.timeline {
		if c.prog.Stmt(int(id)).Func == "main.main" {
			return uint64(i + 1)
		}
	}
	return 1
}

// searchAt examines the --at moments.
func (c *Chain) searchAt(ctx context.Context, s *command.Session) (command.Found, error) {
	var steps []uint64
	for _, a := range c.at {
		n := 0
		var step uint64
		for i, id := range c.timeline {
			if int(id) == a.probe {
				if n++; n == a.n {
					step = uint64(i + 1)
					break
				}
			}
		}
		if step == 0 {
			st := c.prog.Stmt(a.probe)
			if n == 0 {
				return command.Found{}, command.InputError("--at %s:%d: the failing run never reaches that line", st.File, st.Line)
			}
			return command.Found{}, command.InputError("--at %s:%d#%d: the failing run reaches that line %s only", st.File, st.Line, a.n, report.Plural(n, "time"))
		}
		steps = append(steps, step)
	}
	slices.Sort(steps)
	var prev *link
	for _, t := range slices.Compact(steps) {
		l, err := c.examine(ctx, s, t)
		if err != nil {
			return c.found(), err
		}
		if prev != nil {
			same, over, err := c.same(ctx, s, prev, l)
			if err != nil {
				return c.found(), err
			}
			if !same {
				c.trans = append(c.trans, c.transition(prev, l, over))
			}
		}
		prev = l
	}
	if len(steps) > 0 && c.links[steps[0]].Note == "the passing run never reaches this state (no state with the same backtrace)" && len(c.at) == 1 {
		return c.found(), command.NotReproduced("--at %s: the passing run never reaches that state (no state with the same backtrace)", c.At[0])
	}
	c.suggest()
	return c.found(), nil
}

// lastLink is the last step of the failing run whose state has a
// relevant difference: from the end backwards, one step, two, four...
// until one has, then bisecting between it and the nearest later step
// that has none.
func (c *Chain) lastLink(ctx context.Context, s *command.Session) (*link, error) {
	bad := uint64(len(c.timeline))
	l, err := c.examine(ctx, s, bad)
	if err != nil || !l.bot {
		return l, err
	}
	var good *link
	for back := uint64(1); bad > 1; back *= 2 {
		t := bad - min(back, bad-1)
		l, err := c.examine(ctx, s, t)
		if err != nil {
			return nil, err
		}
		if !l.bot {
			good = l
			break
		}
		bad = t
	}
	if good == nil {
		return nil, nil
	}
	for bad-good.Step > 1 {
		l, err := c.examine(ctx, s, good.Step+(bad-good.Step)/2)
		if err != nil {
			return nil, err
		}
		if l.bot {
			bad = l.Step
		} else {
			good = l
		}
	}
	return good, nil
}

// cts narrows the cause transitions between two examined states with
// dd.Transitions: a state between two steps is examined by middle, and
// two states compare by same (the variables any of them overwrote are
// kept for the transition's description).
func (c *Chain) cts(ctx context.Context, s *command.Session, a, b *link) error {
	over := map[[2]uint64][]string{}
	pairs, err := dd.Transitions(ctx, a, b,
		func(ctx context.Context, a, b *link) (*link, bool, error) {
			if b.Step-a.Step <= 1 {
				return nil, false, nil
			}
			m, err := c.middle(ctx, s, a.Step, b.Step)
			return m, err == nil, err
		},
		func(ctx context.Context, a, b *link) (bool, error) {
			same, o, err := c.same(ctx, s, a, b)
			over[[2]uint64{a.Step, b.Step}] = o
			return same, err
		})
	for _, p := range pairs {
		c.trans = append(c.trans, c.transition(p[0], p[1], over[[2]uint64{p[0].Step, p[1].Step}]))
	}
	return err
}

// middle examines the state halfway between two steps; when it has no
// relevant deltas (no matching state, or the whole difference does not
// make the passing run fail), it tries a few steps around it first.
func (c *Chain) middle(ctx context.Context, s *command.Session, from, to uint64) (*link, error) {
	m := from + (to-from)/2
	var first *link
	for i := 0; i < maxNearby; i++ {
		t := m + uint64((i+1)/2)
		if i%2 == 1 {
			t = m - uint64((i+1)/2)
		}
		if t <= from || t >= to {
			continue
		}
		l, err := c.examine(ctx, s, t)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = l
		}
		if !l.bot {
			return l, nil
		}
	}
	return first, nil
}

// transition describes the cause transition between two examined
// states.
func (c *Chain) transition(a, b *link, over []string) Transition {
	tr := Transition{FromStep: a.Step, ToStep: b.Step, Func: a.Func, Direct: b.Step == a.Step+1, Overwritten: over,
		Where: fmt.Sprintf("%s:%d → %s:%d", a.File, a.Line, b.File, b.Line)}
	for _, d := range a.Relevant {
		tr.Before = append(tr.Before, d.Var)
	}
	for _, d := range b.Relevant {
		tr.After = append(tr.After, d.Var)
	}
	switch {
	case !a.Matched || !b.Matched:
		tr.Kind = "diverges"
	case a.bot || b.bot:
		tr.Kind = "hidden"
	case b.depth > a.depth:
		tr.Kind = "call"
	case b.depth < a.depth:
		tr.Kind = "return"
	case a.Func != b.Func:
		tr.Kind = "call"
	default:
		tr.Kind = "statement"
	}
	return tr
}

// suggest marks the transition suggested as the defect's location: the
// first one where a statement overwrote a variable that carried the
// cause with another wrong value (the infection spreading in place,
// rather than a value passed on or a variable ceasing to matter);
// failing that, the first where the cause leads the failing run where
// the passing run never goes (the statement is a branch the cause
// decides); failing that, the first where a statement, not a call or a
// return, moved the cause.
func (c *Chain) suggest() {
	sort.Slice(c.trans, func(i, j int) bool { return c.trans[i].FromStep < c.trans[j].FromStep })
	for _, want := range []func(Transition) bool{
		func(t Transition) bool { return len(t.Overwritten) > 0 },
		func(t Transition) bool { return t.Kind == "diverges" && len(t.Before) > 0 },
		func(t Transition) bool { return t.Kind == "statement" },
		func(Transition) bool { return true },
	} {
		for i := range c.trans {
			if want(c.trans[i]) {
				c.trans[i].Suggested = true
				return
			}
		}
	}
}

// chain is the examined states in the failing run's order.
func (c *Chain) chain() []*link {
	var out []*link
	for _, t := range c.order {
		out = append(out, c.links[t])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Step < out[j].Step })
	return out
}

// found is what the search found: the relevant deltas of every state,
// to confirm once more without the cache.
func (c *Chain) found() command.Found {
	f := command.Found{Minimal: true, Kept: "the chain found so far is shown"}
	sort.Slice(c.trans, func(i, j int) bool { return c.trans[i].FromStep < c.trans[j].FromStep })
	for _, l := range c.chain() {
		if l.bot {
			continue
		}
		if !l.confirm {
			f.Minimal = false
		}
		where := fmt.Sprintf("%s:%d (step %d)", l.File, l.Line, l.Step)
		f.Confirm = append(f.Confirm,
			command.Check{Candidate: l.failing, Want: dd.Fail, What: "the relevant deltas at " + where},
			command.Check{Candidate: l.passing, Want: dd.Pass, What: "the passing state without them at " + where})
	}
	return f
}
