package chain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/domain/memgraph"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// examine computes the relevant deltas at step t of the failing run. A
// Go program's state there is its function's variables (with the
// package variables, os.Args and unread standard input); when they show
// no difference that makes the passing run fail, the state is captured
// again with the callers' parameters (instrument.Moment.Callers), which
// cost a run's calls more while they are recorded and make larger
// graphs: only where they are needed.
func (c *Chain) examine(ctx context.Context, s *command.Session, t uint64) (*link, error) {
	if l, ok := c.links[t]; ok {
		return l, nil
	}
	probe := int(c.timeline[t-1])
	l := &link{probe: probe}
	c.links[t] = l
	c.order = append(c.order, t)
	tests := s.Stats().Tests()
	err := c.examineState(ctx, s, l, t, false)
	if err == nil && l.bot && l.hidden && !c.GDB && l.depth > 0 {
		err = c.examineState(ctx, s, l, t, true)
	}
	l.Tests = s.Stats().Tests() - tests
	return l, err
}

// examineState is examine, with or without the callers' variables.
func (c *Chain) examineState(ctx context.Context, s *command.Session, l *link, t uint64, callers bool) error {
	probe := l.probe
	st := c.prog.Stmt(probe)
	*l = link{Link: Link{Step: t, File: st.File, Line: st.Line, Func: st.Func}, bot: true, probe: probe, callers: callers}
	where := fmt.Sprintf("%s:%d (step %d)", st.File, st.Line, t)
	s.Status(func(ps *report.Status) { ps.Pass = where })
	// The failing run's state.
	files := c.atStart(t)
	gs, why, err := c.capture(ctx, s, c.failing, []instrument.Moment{{Probe: probe, Step: t, Callers: callers, Files: files}}, fmt.Sprintf("f%d", t))
	if err != nil {
		return err
	}
	fg := gs[0]
	if fg == nil {
		l.Note = cmp.Or(why, "the failing run did not reach this step when run again")
		l.lost = true
		return nil
	}
	l.Stack, l.FailVertices, l.Cut = fg.Point.Stack, fg.Size(), fg.Cut
	if l.Func == "" {
		l.Func = fg.Point.Func
	}
	l.depth = strings.Count(fg.Point.Stack, " < ")
	// The passing run's matching state: the same backtrace, as often.
	at := instrument.Moment{Probe: probe, Stack: fg.Point.Stack, Occurrence: fg.Point.Occurrence, Callers: callers, Files: files}
	gs, why, err = c.capture(ctx, s, c.passing, []instrument.Moment{at}, fmt.Sprintf("p%d", t))
	if err != nil {
		return err
	}
	pg := gs[0]
	if pg == nil {
		l.Note = cmp.Or(why, "the passing run never reaches this state (no state with the same backtrace)")
		return nil
	}
	l.Matched, l.pstep = true, pg.Point.Step
	l.PassVertices, l.Cut = pg.Size(), l.Cut || pg.Cut
	m := memgraph.Match(pg, fg)
	deltas := contents(m, m.Deltas())
	l.Deltas = len(deltas)
	for _, d := range deltas[:min(len(deltas), 100)] {
		l.Differences = append(l.Differences, m.Describe(d))
	}
	if len(deltas) == 0 {
		outside := "callers' local variables, other goroutines, files"
		if c.GDB {
			outside = "memory that no variable of the program's own functions reaches, files"
		}
		l.Note = "the states do not differ (the cause is outside the captured state: " + outside + ")" + c.cutNote(l)
		l.hidden = true
		return nil
	}
	// Deltas the passing run cannot take (a value of a type it cannot
	// make there) are set aside and named; the rest are searched.
	deltas, untransplantable, whole, err := c.transplantable(ctx, s, m, at, deltas, where)
	if err != nil {
		return err
	}
	l.Untransplantable = untransplantable
	build := func(cfg dd.Config) runner.Candidate { return c.transplant(m, at, deltas, cfg) }
	if whole.Outcome != dd.Fail {
		how := whole.Outcome.String()
		if whole.Detail != "" {
			how += ": " + whole.Detail
		}
		l.Note = fmt.Sprintf("transplanting all %s into the passing run does not make it fail (%s)%s", report.Plural(len(deltas), "delta"), how, c.cutNote(l))
		l.neither, l.hidden = whole.Outcome == dd.Unresolved, true
		return nil
	}
	s.StartProgress(len(deltas), "deltas at "+where)
	res, err := s.Search(ctx, command.Search{Name: "deltas at " + where, N: len(deltas), Algorithm: dd.Isolate, Build: build,
		OnStep: func(st dd.Step) {
			n := len(st.Config)
			s.Status(func(ps *report.Status) { ps.Size = n })
		}})
	var nf *dd.NotFailingError
	var np *dd.NotPassingError
	switch {
	case errors.As(err, &nf):
		l.Note = fmt.Sprintf("transplanting all %s into the passing run does not make it fail%s", report.Plural(len(deltas), "delta"), c.cutNote(l))
		l.hidden = true
		return nil
	case errors.As(err, &np):
		l.Note = "the passing run does not pass here"
		return nil
	case err != nil:
		return err
	}
	l.bot = false
	for _, i := range res.Delta {
		d := deltas[i]
		fname := failName(m, d)
		rd := Delta{Kind: string(d.Kind), Var: m.Var(d), Old: m.Old(d), New: m.New(d), Text: m.Describe(d)}
		if v := fg.Lookup(fname); v >= 0 {
			for _, n := range fg.Names(v) {
				if n != fname && n != rd.Var && !slices.Contains(rd.Aliases, n) {
					rd.Aliases = append(rd.Aliases, n)
				}
			}
		}
		l.Relevant = append(l.Relevant, rd)
		l.fnames = append(l.fnames, fname)
	}
	l.failing, l.passing, l.confirm = build(res.Fail), build(res.Pass), res.Minimal
	return nil
}

// atStart says whether step t of the failing run is at its start (in
// main.main's first statement, or before it), where the files its
// arguments name are part of its state: it has not read them yet.
func (c *Chain) atStart(t uint64) bool { return !c.GDB && t <= c.firstStep() }

// contents leaves out of the deltas an argument's or environment
// variable's difference where the files the two runs' values name differ
// in their lines: the lines are the difference the program reads (a
// transplant of them gives the passing run a file of its own in that
// value's place), where the name would take the whole file along.
func contents(m *memgraph.Matching, deltas []memgraph.Delta) []memgraph.Delta {
	lines := map[string]bool{} // the names whose files' lines differ
	for _, d := range deltas {
		if by, ok := memgraph.NamedBy(m.Var(d)); ok {
			lines[by] = true
		}
	}
	if len(lines) == 0 {
		return deltas
	}
	return slices.DeleteFunc(deltas, func(d memgraph.Delta) bool { return lines[m.Var(d)] })
}

// transplant is the passing run with the changes of the deltas of cfg
// made at the moment at.
func (c *Chain) transplant(m *memgraph.Matching, at instrument.Moment, deltas []memgraph.Delta, cfg dd.Config) runner.Candidate {
	at.Ops = memgraph.Encode(m.Plan(deltas, cfg))
	return c.passing(instrument.StatePlan{At: []instrument.Moment{at}})
}

// maxUntransplantable bounds the deltas set aside at one state, each
// found by one run.
const maxUntransplantable = 4

// cannotRe is how the runtime says that it could not make a change.
var cannotRe = regexp.MustCompile(`wynot chain runtime: cannot (\w+) (.*?): (.*)`)

// transplantable tests all the deltas in the passing run; while that
// run ends by saying that it cannot make one of their changes, the
// deltas that change that place are set aside (named, with why) and the
// rest tested again.
func (c *Chain) transplantable(ctx context.Context, s *command.Session, m *memgraph.Matching, at instrument.Moment, deltas []memgraph.Delta, where string) ([]memgraph.Delta, []string, runner.Test, error) {
	var aside []string
	for {
		all := make(dd.Config, len(deltas))
		for i := range all {
			all[i] = i
		}
		whole, err := s.TestOne(ctx, "all deltas at "+where, c.transplant(m, at, deltas, all))
		if err != nil || whole.Outcome == dd.Fail || len(aside) == maxUntransplantable {
			return deltas, aside, whole, err
		}
		mm := cannotRe.FindSubmatch(whole.Run.Stderr)
		if mm == nil {
			return deltas, aside, whole, nil
		}
		var keep []memgraph.Delta
		for i, d := range deltas {
			hit := false
			for _, o := range m.Plan(deltas, dd.Config{i}) {
				hit = hit || strings.Join(o.Path, " ") == string(mm[2])
			}
			if hit {
				aside = append(aside, fmt.Sprintf("%s (%s)", m.Describe(d), mm[3]))
			} else {
				keep = append(keep, d)
			}
		}
		if len(keep) == len(deltas) || len(keep) == 0 {
			return deltas, aside, whole, nil
		}
		deltas = keep
	}
}

// failName is the name of a delta's vertex in the failing run's graph:
// its new value, or for a pointer made to point elsewhere its target;
// for a deletion, its place.
func failName(m *memgraph.Matching, d memgraph.Delta) string {
	switch {
	case d.Kind == memgraph.Repoint && d.Target >= 0:
		return m.Fail.Name(m.ToFail[d.Target])
	case d.Fail >= 0:
		return m.Fail.Name(d.Fail)
	}
	return m.Place(d)
}

// same says whether two examined states have the same relevant
// variables (var(Δ) of §A.3), and which variables of both the failing
// run overwrote between them. A variable is its memory: the two states
// are captured again in one run of the failing program, where the
// vertices of the same address (and type) are the same variable
// whatever their names (a slice passed to a function, a pointer); a
// vertex without an address of its own (a map's value) is its name in
// its function.
func (c *Chain) same(ctx context.Context, s *command.Session, a, b *link) (bool, []string, error) {
	if a.bot || b.bot {
		return a.bot == b.bot || len(a.Relevant) == len(b.Relevant), nil, nil
	}
	gs, _, err := c.capture(ctx, s, c.failing, []instrument.Moment{{Probe: a.probe, Step: a.Step, Callers: a.callers, Files: c.atStart(a.Step)}, {Probe: b.probe, Step: b.Step, Callers: b.callers, Files: c.atStart(b.Step)}},
		fmt.Sprintf("j%d-%d", a.Step, b.Step))
	if err != nil {
		return false, nil, err
	}
	key := func(g *memgraph.Graph, l *link, i int) string {
		if g != nil {
			if v := g.Lookup(l.fnames[i]); v >= 0 && g.Vertices[v].Addr != 0 {
				return fmt.Sprintf("@%x %s", g.Vertices[v].Addr, g.Vertices[v].Type)
			}
		}
		return l.Func + " " + l.Relevant[i].Var
	}
	ka, kb := map[string]int{}, map[string]int{}
	for i := range a.Relevant {
		ka[key(gs[0], a, i)] = i
	}
	for i := range b.Relevant {
		kb[key(gs[1], b, i)] = i
	}
	same := len(ka) == len(kb)
	var over []string
	for k, j := range kb {
		i, ok := ka[k]
		if !ok {
			same = false
			continue
		}
		if before, after := a.Relevant[i].New, b.Relevant[j].New; before != after && !extends(before, after) {
			over = append(over, b.Relevant[j].Var)
		}
	}
	slices.Sort(over)
	return same, over, nil
}

// capture runs one side with a plan that captures the states at the
// moments, and reads them (nil for a moment the run never reached). Where
// a state is missing because of how the run ended (it timed out, or was
// lost), why says so; it is "" when the run ended as its own runs do.
func (c *Chain) capture(ctx context.Context, s *command.Session, side func(instrument.StatePlan) runner.Candidate, at []instrument.Moment, tag string) (out []*memgraph.Graph, why string, err error) {
	var paths []string
	for i := range at {
		paths = append(paths, filepath.Join(c.work, fmt.Sprintf("%s.%d.graph", tag, i)))
		os.Remove(paths[i])
		at[i].Graph = paths[i]
	}
	c.captures++
	rec, err := s.TestOne(ctx, "capture", side(instrument.StatePlan{At: at, MaxVertices: c.MaxVertices}))
	if err != nil {
		return nil, "", err
	}
	out = make([]*memgraph.Graph, len(at))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			if rec.Cached {
				return nil, "", fmt.Errorf("a capture's outcome came from the cache, not from a run; run without --cache")
			}
			why = captureLost(rec.Run, s.Timeout())
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if out[i], err = memgraph.Read(data); err != nil {
			return nil, "", err
		}
	}
	return out, why, nil
}

// cutNote says, of a state that was cut, that its deltas are not all
// of the difference.
func (c *Chain) cutNote(l *link) string {
	if !l.Cut {
		return ""
	}
	return fmt.Sprintf("; but the state had more than %d vertices and was cut, so the difference may lie in what was cut (--max-vertices raises the limit)", c.MaxVertices)
}

// extends says that a string's or byte slice's value after is its value
// before with more appended (as quoted by memgraph): the wrong part it
// carried is kept and passed on, not overwritten (a buffer written to).
func extends(before, after string) bool {
	if len(before) < 2 || before[0] != '"' || before[len(before)-1] != '"' || strings.HasSuffix(before, `\"`) {
		return false
	}
	open := before[:len(before)-1]
	return len(after) > len(before) && strings.HasPrefix(after, open)
}

// captureLost says why a run that was to capture a state did not, when
// the way it ended explains it: a time limit (capturing a state far
// along a run takes longer than the run), or a run an executor lost.
func captureLost(r runner.Run, limit time.Duration) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("the run that captures this state timed out (%s): no state to compare; --timeout longer than %s gives it time (capturing a state far along a run takes longer than the run)", r.Describe(), limit)
	case r.Lost != "":
		return "the run that captures this state was lost (" + r.Lost + ")"
	}
	return ""
}
