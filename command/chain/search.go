package chain

import (
	"bytes"
	"context"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/domain/memgraph"
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
	depth  int    // of the backtrace
	pstep  uint64 // the passing run's step at the matching state (0: unknown)
	// callers says that the states were captured with the callers'
	// variables; hidden that without them, they showed no difference
	// that makes the passing run fail.
	callers, hidden bool
	bot             bool // Δ = ⊥: no relevant deltas could be found
	// neither says that the whole difference, transplanted, gave
	// neither run's behavior.
	neither bool
	// lost says that the failing run's state could not be captured
	// again (it did not reach the step, or its capture timed out).
	lost bool
	// The relevant deltas' configurations, for the final confirmation.
	failing, passing runner.Candidate
	confirm          bool
}

// Search examines the states: the --at moments, or the first and last
// steps of the failing run and, by cts, the steps between where the
// cause moves.
func (c *Chain) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	if bytes.Contains(s.Original().Stderr, []byte("wynot chain runtime: ")) {
		return command.Found{}, fmt.Errorf("the instrumented failing run failed in wynot's own part of it (a bug in wynot chain; please report it with the program): %s", s.Original().Explain())
	}
	data, err := os.ReadFile(filepath.Join(c.work, "fail.timeline"))
	if err != nil {
		return command.Found{}, fmt.Errorf("reading the failing run's steps: %v (it ended with %s)", err, s.Original().Explain())
	}
	var complete bool
	c.timeline, complete = instrument.ReadTimeline(data)
	if !complete {
		s.Say("the failing run passed more than %d probes; only its first %d steps are examined", timelineCap, len(c.timeline))
	}
	c.complete = complete
	// The passing run's steps, to tell where the runs' control flow
	// parts (none when that run did not write them).
	if data, err := os.ReadFile(filepath.Join(c.work, "pass.timeline")); err == nil {
		c.ptimeline, _ = instrument.ReadTimeline(data)
	}
	if len(c.timeline) == 0 {
		return command.Found{}, command.InputError("the failing run executed no statement of %s (it ended with %s): are the arguments right?", c.pkg, s.Original().Describe())
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
	c.largeFiles(s, first)
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
	c.crash(s.Original())
	c.failOut = append(append([]byte(nil), s.Original().Stdout...), s.Original().Stderr...)
	c.suggest()
	return c.found(), nil
}

// largeFiles says, for a relevant difference of the first state that is
// an argument or environment variable naming a file too large for its
// lines to be state, why the cause is the name, and how to narrow it.
func (c *Chain) largeFiles(s *command.Session, l *link) {
	if c.GDB {
		return
	}
	for _, d := range l.Relevant {
		name := ""
		if k, ok := strings.CutPrefix(d.Var, "os.Args["); ok {
			if i, err := strconv.Atoi(strings.TrimSuffix(k, "]")); err == nil && i >= 1 && i <= len(c.failArgs) {
				name = c.failArgs[i-1]
			}
		} else if v, ok := strings.CutPrefix(d.Var, "$"); ok {
			for _, e := range c.FailEnv {
				if n, val, _ := strings.Cut(e, "="); n == v {
					name = val
				}
			}
		}
		if st, err := os.Stat(name); name != "" && err == nil && st.Mode().IsRegular() && st.Size() > instrument.MaxStateFile {
			s.Say("%s names %s, a file of %s: files larger than %d KiB are not part of the state by lines, so the cause at the first step is the name. To find the lines that matter, isolate the two files first (wynot isolate PASSING_FILE FAILING_FILE -- ...)",
				d.Var, name, fmt.Sprintf("%d KiB", st.Size()>>10), instrument.MaxStateFile>>10)
		}
	}
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
// relevant difference: from the end backwards, each of the last
// lastSteps steps, then two steps back, four, eight... until one has,
// then bisecting between it and the nearest later step that has none.
// The states with a relevant difference need not be one stretch: a
// cause held where the capture does not see (a range loop's copy of
// what it ranges over, a caller's local variables) leaves states
// without one between them, and a bisection across such a stretch stops
// before it. The last steps, where the failure's nearest cause is, are
// each examined so.
func (c *Chain) lastLink(ctx context.Context, s *command.Session) (*link, error) {
	bad := uint64(len(c.timeline))
	l, err := c.examine(ctx, s, bad)
	if err != nil || !l.bot {
		return l, err
	}
	var good *link
	for i, back := 1, uint64(1); bad > 1; i++ {
		if i >= lastSteps {
			back *= 2
		}
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
	case a.lost || b.lost:
		tr.Kind = "unseen"
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
// failing that, the first on whose way the passing run changed a
// variable of the cause that the failing run left as it was; failing
// that, the first where the cause leads the failing run where the
// passing run never goes: into a state it never reaches by a way it
// never takes, or, from the state a transition ends in, on to a
// statement it never goes to from there (the statement is a branch the
// cause decides); failing that, the first statement the failing run
// came to by a way the passing run never takes, where the cause
// appeared out of what the capture does not see (arrives); failing
// that, the crash (the statement at which the
// infection became the failure: a check missing there is a common
// defect); failing that, the first transition into a state the passing
// run never reaches only because a loop or a call ran more often in the
// failing run; failing that, the first where a statement, not a call
// or a return, moved the cause; failing that, the first branch where
// the cause leads the failing run on to report the failure (reports: an
// error message of the failing output made there; such a branch is where
// the program noticed the bad state, not where it went wrong, and ranks
// after the others). The suggested statement is the
// transition's first, or the branch where the runs parted on the way to
// it in its function (Parting): the cause decided a branch there,
// before it moved.
func (c *Chain) suggest() {
	sort.Slice(c.trans, func(i, j int) bool { return c.trans[i].FromStep < c.trans[j].FromStep })
	c.partings()
	type rule struct {
		want func(Transition) bool
		why  string
		// off: a transition with an offPath is named by that branch
		// (partings sets none on a transition of kind diverges).
		off bool
	}
	for _, r := range []rule{
		{func(t Transition) bool { return len(t.Overwritten) > 0 }, "the first statement that overwrote a variable carrying the cause", false},
		{func(t Transition) bool { return t.passOnly }, "the first transition on whose way the passing run changed a variable carrying the cause and the failing run did not", false},
		{func(t Transition) bool {
			return (t.Kind == "diverges" && len(t.Before) > 0 && c.offSteps(t) || t.offPath != nil) && !c.reports(t)
		}, "the first branch where the cause leads the failing run where the passing run never goes", true},
		{c.arrives, "the first statement the failing run came to by a way the passing run never takes, where the cause appeared out of state the chain does not capture", false},
		{func(t Transition) bool { return t.Kind == "crash" }, "the statement at which the failing run crashed, with the cause in its state", false},
		{func(t Transition) bool { return t.Kind == "diverges" && len(t.Before) > 0 && !c.reports(t) },
			"the first branch where the cause leads the failing run on more often than the passing run", false},
		{func(t Transition) bool { return t.Kind == "statement" && !fromInput(t) }, "the first statement that moved the cause", false},
		{func(t Transition) bool {
			return (t.Kind == "diverges" && len(t.Before) > 0 || t.offPath != nil) && c.reports(t)
		},
			"the first branch where the cause leads the failing run on to report the failure (where the bad state was noticed)", true},
		{func(Transition) bool { return len(c.trans) > 0 && c.lastState() != nil }, "", false},
		{func(Transition) bool { return true }, "the first cause transition", false},
	} {
		if r.why == "" && r.want(Transition{}) {
			// No statement of the program moved the cause but one that
			// read its input: the statement at the last state with
			// relevant deltas, where the cause leaves what the chain
			// captures (into the output, or a value returned).
			l := c.lastState()
			c.suggested = &Suggestion{Where: fmt.Sprintf("%s:%d", l.File, l.Line), Func: l.Func, Step: l.Step,
				Why: "the statement of the last state with a cause, where the cause leaves the captured state (for the output, or in a value returned): no statement but one reading the input moved it"}
			return
		}
		for i := range c.trans {
			t := &c.trans[i]
			if !r.want(*t) {
				continue
			}
			t.Suggested = true
			sg := &Suggestion{Where: strings.SplitN(t.Where, " → ", 2)[0], Func: t.Func, Step: t.FromStep, Why: r.why}
			switch {
			case t.Kind == "diverges":
				sg.Where = c.branch(t)
			case r.off && t.offPath != nil:
				sg.Where, sg.Step = t.offPath.Where, t.offPath.Step
				sg.Func = c.prog.Stmt(int(c.timeline[t.offPath.Step-1])).Func // the state's, past a return
				sg.Why = fmt.Sprintf("%s: with the cause in %s, the failing run went on to %s, where the passing run never goes from there", r.why, names(t.After), sameFile(t.offPath.Where, t.offPath.Fail))
				// The branch is the transition from that state on, where
				// the chain has one: the mark goes there, with the rule.
				for j := range c.trans {
					if c.trans[j].FromStep == t.offPath.Step {
						t.Suggested, c.trans[j].Suggested = false, true
						break
					}
				}
			case t.Kind == "statement" && t.Parting == nil:
				sg.Where = c.moved(t)
			case t.Kind == "hidden":
				sg.Where, sg.Func, sg.Step = strings.SplitN(t.Where, " → ", 2)[1], c.prog.Stmt(int(c.timeline[t.ToStep-1])).Func, t.ToStep
			case t.Kind == "crash":
				sg.Where, sg.Func, sg.Step = strings.SplitN(t.Where, " → ", 2)[1], c.prog.Stmt(int(c.timeline[t.ToStep-1])).Func, t.ToStep
			case t.Parting != nil:
				sg.Where, sg.Step = t.Parting.Where, t.Parting.Step
				sg.Why = fmt.Sprintf("the branch at which the runs parted on the way to %s (%s), while the cause was in %s: the failing run went on to %s, the passing run to %s",
					strings.SplitN(t.Where, " → ", 2)[0], r.why, names(t.Before), sameFile(t.Parting.Where, t.Parting.Fail), sameFile(t.Parting.Where, t.Parting.Pass))
			}
			c.suggested = sg
			return
		}
	}
}

// moved is the statement that moved the cause in a statement
// transition between consecutive steps: the one the first step is at,
// or, where the run went back to the start of a loop's body, the loop's
// header (its condition and post statement ran between the steps, as
// sc.Scan() in "for sc.Scan() {": the statement before it only ended
// the iteration).
func (c *Chain) moved(t *Transition) string {
	from := strings.SplitN(t.Where, " → ", 2)[0]
	if !t.Direct || int(t.ToStep) > len(c.timeline) {
		return from
	}
	a, b := c.prog.Stmt(int(c.timeline[t.FromStep-1])), c.prog.Stmt(int(c.timeline[t.ToStep-1]))
	if a.File == b.File && a.Func == b.Func && b.Line < a.Line && b.Guard > 0 && b.Guard < b.Line {
		return fmt.Sprintf("%s:%d", b.File, b.Guard)
	}
	return from
}

// fromInput says that a transition moved the cause out of the program's
// input only (standard input, arguments, files, the environment): the
// statement reads the input, which a defect rarely does wrong.
func fromInput(t Transition) bool {
	return len(t.Before) > 0 && !slices.ContainsFunc(t.Before, func(v string) bool { return !memgraph.IsInput(v) })
}

// lastState is the last state of the chain with relevant deltas, when
// it is past the first: nil otherwise.
func (c *Chain) lastState() *link {
	links := c.chain()
	for i := len(links) - 1; i > 0; i-- {
		if !links[i].bot {
			if links[i].Step > links[0].Step {
				return links[i]
			}
			break
		}
	}
	return nil
}

// branch is where a transition into a state the passing run never
// reaches was decided: the condition that let the failing run into the
// statement it went to (decided), where the passing run's next
// statement from the matching state is known, that too.
func (c *Chain) branch(t *Transition) string {
	from := strings.SplitN(t.Where, " → ", 2)[0]
	if t.FromStep == 0 || t.ToStep == 0 || int(t.ToStep) > len(c.timeline) {
		return from
	}
	at, fail := c.prog.Stmt(int(c.timeline[t.FromStep-1])), c.prog.Stmt(int(c.timeline[t.ToStep-1]))
	var pass *instrument.Stmt
	if l := c.links[t.FromStep]; l != nil && l.Matched && l.pstep > 0 && int(l.pstep) < len(c.ptimeline) {
		p := c.prog.Stmt(int(c.ptimeline[l.pstep]))
		pass = &p
	}
	return decided(at, fail, pass)
}

// decided is where two runs that both passed statement at went on to
// different statements (fail, and pass when known) was decided: the
// condition of at that let a run into its next statement (Stmt.Guard:
// an if's, else if's, case's or loop's), where at holds it (an if with
// else ifs is one statement, from its first line to its last); of two
// such conditions the earlier, which the other run passed the same way
// before it decided differently. Otherwise at itself.
func decided(at, fail instrument.Stmt, pass *instrument.Stmt) string {
	in := func(s instrument.Stmt) bool {
		return s.Guard >= at.Line && s.Guard <= at.EndLine && s.File == at.File && s.Func == at.Func
	}
	line := 0
	for _, s := range []*instrument.Stmt{&fail, pass} {
		if s != nil && in(*s) && (line == 0 || s.Guard < line) {
			line = s.Guard
		}
	}
	if line == 0 {
		line = at.Line
	}
	return fmt.Sprintf("%s:%d", at.File, line)
}

// partings sets each transition's Parting: the runs' control flow is
// compared on the way from the end of the transition before it (where
// the cause came to be where this one finds it) and within the
// transition itself; a parting counts only in the transition's
// function.
func (c *Chain) partings() {
	links := c.chain()
	last := c.lastState()
	for i := range c.trans {
		t := &c.trans[i]
		if t.Kind == "diverges" || t.Kind == "crash" {
			continue
		}
		a, b := c.links[t.FromStep], c.links[t.ToStep]
		if a == nil || b == nil {
			continue
		}
		var from *link
		if i > 0 {
			from = c.links[c.trans[i-1].ToStep]
		} else if len(links) > 0 {
			from = links[0]
		}
		// Matching states in a loop that runs more often in one run can
		// lie in different calls of the function in the other (the k-th
		// time at a line with the same backtrace): their steps are not
		// compared.
		aligned := c.oneCall(from, a) && c.oneCall(a, b)
		for _, p := range []*Parting{c.parting(from, a), c.parting(a, b)} {
			if p != nil && c.prog.Stmt(int(c.timeline[p.Step-1])).Func == t.Func && aligned {
				t.Parting = p
				break
			}
		}
		t.passOnly = t.Parting != nil && passOnly(from, a)
		if b != last {
			t.offPath = c.offPath(b)
		}

	}
}

// passOnly says that between two states of one call (the same
// backtrace) a variable that carries the cause at both kept its value in
// the failing run and changed in the passing run: the passing run did
// something to it that the failing run skipped.
func passOnly(a, b *link) bool {
	if a == nil || b == nil || a.bot || b.bot || a.Stack != b.Stack || a.Step >= b.Step {
		return false
	}
	for _, x := range a.Relevant {
		for _, y := range b.Relevant {
			if x.Var == y.Var && x.Kind == "change" && y.Kind == "change" && x.New == y.New && x.Old != y.Old {
				return true
			}
		}
	}
	return false
}

// oneCall says that the passing run's steps between the states
// matching a and b stay in the call they start in as the failing run's
// do: both runs return from a's function as often on the way (0 times,
// unless it recurses). A run that returns in between reached the
// second state in another call.
func (c *Chain) oneCall(a, b *link) bool {
	if a == nil || b == nil || !a.Matched || !b.Matched || a.pstep == 0 || b.pstep < a.pstep || b.Step < a.Step ||
		int(b.Step) > len(c.timeline) || int(b.pstep) > len(c.ptimeline) {
		return true
	}
	returns := func(steps []uint32) int {
		n := 0
		for _, id := range steps {
			if st := c.prog.Stmt(int(id)); st.Func == a.Func && strings.HasPrefix(st.Text, "return") {
				n++
			}
		}
		return n
	}
	return returns(c.timeline[a.Step-1:b.Step]) == returns(c.ptimeline[a.pstep-1:b.pstep])
}

// offPath is the branch at which the cause in state l leads the failing
// run from l's statement to one the passing run never goes to from it
// anywhere in its run: no alignment of the runs' steps is needed (a
// loop that runs more often in one run shifts every later step against
// the other's). Nil when the passing run also goes that way, or its
// steps are not known.
func (c *Chain) offPath(l *link) *Parting {
	if l == nil || l.bot || !l.Matched || len(c.ptimeline) == 0 || int(l.Step) >= len(c.timeline) || c.passes(l.Step) {
		return nil
	}
	at, next := c.prog.Stmt(int(c.timeline[l.Step-1])), c.prog.Stmt(int(c.timeline[l.Step]))
	return &Parting{Step: l.Step, Where: decided(at, next, nil), Fail: fmt.Sprintf("%s:%d", next.File, next.Line)}
}

// arrives says that the cause appeared where the failing run came by a
// way the passing run never takes: a transition between consecutive
// steps from a state whose captured difference does not make the
// passing run fail to one with relevant deltas, whose two statements
// follow each other nowhere in the passing run. The cause was in what
// the capture does not see (a range loop's copy of what it ranges
// over, a caller's variables) and decided where the run went.
func (c *Chain) arrives(t Transition) bool {
	return t.Kind == "hidden" && len(t.Before) == 0 && len(t.After) > 0 && t.Direct &&
		len(c.ptimeline) > 0 && int(t.ToStep) <= len(c.timeline) && !c.passes(t.FromStep)
}

// reports says that from the branch a divergence names, the failing
// run went on to a statement that reports the failure: its text holds a
// string literal (up to its first formatting verb, at least minReported
// bytes) that the failing run's output shows, as an error message
// returned or printed there. The program noticed the bad state there; a
// branch into its own report is where the failure shows, as a panic of
// the program's own is, and ranks with the divergences of a loop run
// more often.
func (c *Chain) reports(t Transition) bool {
	step := t.FromStep
	if t.Kind != "diverges" && t.offPath != nil {
		step = t.offPath.Step
	}
	if step == 0 || int(step) >= len(c.timeline) || len(c.failOut) == 0 {
		return false
	}
	var sc scanner.Scanner
	text := c.prog.Stmt(int(c.timeline[step])).Text
	sc.Init(token.NewFileSet().AddFile("", -1, len(text)), []byte(text), nil, 0)
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return false
		}
		if tok != token.STRING {
			continue
		}
		s, err := strconv.Unquote(lit)
		if err != nil {
			continue
		}
		if i := strings.IndexByte(s, '%'); i >= 0 {
			s = s[:i]
		}
		if len(s) >= minReported && bytes.Contains(c.failOut, []byte(s)) {
			return true
		}
	}
}

// minReported is the shortest literal reports takes for a message.
const minReported = 8

// offSteps says that on a transition's steps the failing run goes from
// a statement to one the passing run never goes to from it (true when
// the passing run's steps are not known): a transition into a state the
// passing run never reaches that is not one only by a loop running more
// often, or a function called more often.
func (c *Chain) offSteps(t Transition) bool {
	if len(c.ptimeline) == 0 {
		return true
	}
	for i := t.FromStep; i < t.ToStep && int(i) < len(c.timeline); i++ {
		if !c.passes(i) {
			return true
		}
	}
	return false
}

// passes says that the passing run, somewhere, goes from the statement
// of the failing run's step t to that of step t+1.
func (c *Chain) passes(t uint64) bool {
	if c.pedges == nil {
		c.pedges = map[[2]uint32]bool{}
		for i := 1; i < len(c.ptimeline); i++ {
			c.pedges[[2]uint32{c.ptimeline[i-1], c.ptimeline[i]}] = true
		}
	}
	return c.pedges[[2]uint32{c.timeline[t-1], c.timeline[t]}]
}

// sameFile is where, as "line N" when it is in the file of branch.
func sameFile(branch, where string) string {
	if file, _, ok := strings.Cut(branch, ":"); ok {
		if line, ok := strings.CutPrefix(where, file+":"); ok {
			return "line " + line
		}
	}
	return where
}

// parting is where the runs' control flow parts between two matched
// states of the failing run: its steps from a to b against the passing
// run's between the matching states (both start at the same statement).
// It is nil when they take the same path, or one is not known.
func (c *Chain) parting(a, b *link) *Parting {
	if a == nil || b == nil || !a.Matched || !b.Matched || a.pstep == 0 || b.pstep <= a.pstep || b.Step <= a.Step ||
		int(b.Step) > len(c.timeline) || int(b.pstep) > len(c.ptimeline) {
		return nil
	}
	f, p := c.timeline[a.Step-1:b.Step], c.ptimeline[a.pstep-1:b.pstep]
	i := 0
	for i < len(f) && i < len(p) && f[i] == p[i] {
		i++
	}
	if i == 0 || i >= len(f) || i >= len(p) {
		return nil // the same path (or one a part of the other's)
	}
	loc := func(id uint32) string {
		st := c.prog.Stmt(int(id))
		return fmt.Sprintf("%s:%d", st.File, st.Line)
	}
	pass := c.prog.Stmt(int(p[i]))
	return &Parting{Step: a.Step + uint64(i) - 1, Where: decided(c.prog.Stmt(int(f[i-1])), c.prog.Stmt(int(f[i])), &pass), Fail: loc(f[i]), Pass: loc(p[i])}
}

// crash adds the transition from the last state with relevant deltas to
// the statement at which the failing run crashed: its last step, when
// the run crashed in the runtime (an index out of range, a nil
// dereference, a signal; not a panic of the program's own) and its
// backtrace names that statement.
func (c *Chain) crash(orig runner.Run) {
	if !c.complete || len(c.timeline) == 0 {
		return
	}
	last := uint64(len(c.timeline))
	st := c.prog.Stmt(int(c.timeline[last-1]))
	if !runner.CrashedAt(orig, st.File, st.Line) {
		// No crash of the runtime's (a panic the program raised noticed
		// the bad state there), or the run went on past its last probe
		// (deferred calls, other goroutines).
		return
	}
	// From the last state before the crash with relevant deltas (the
	// crashing statement's own state may have some).
	var from *link
	for _, l := range c.chain() {
		if !l.bot && l.Step < last {
			from = l
		}
	}
	if from == nil {
		return
	}
	tr := Transition{FromStep: from.Step, ToStep: last, Func: from.Func, Kind: "crash", Direct: last == from.Step+1,
		Where: fmt.Sprintf("%s:%d → %s:%d", from.File, from.Line, st.File, st.Line)}
	for _, d := range from.Relevant {
		tr.Before = append(tr.Before, d.Var)
	}
	c.trans = append(c.trans, tr)
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
