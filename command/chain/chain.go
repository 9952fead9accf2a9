// Package chain is wynot chain: given a passing and a failing run of a
// program, which part of the program state makes the difference, and
// where the cause moves from one variable to another ("Why Programs
// Fail", Appendix "Formal Definitions", §A.2 memory graphs and §A.3
// cause-effect chains; Zeller, "Isolating Cause-Effect Chains from
// Computer Programs", FSE 2002).
//
// The program (a Go main package) is instrumented once with a probe
// before every statement (package instrument) and built with an overlay.
// Every run of the binary follows a plan: record the probes passed
// (the failing run's timeline, which numbers its steps), capture the
// state at one step as a memory graph, or change the passing run's
// state there. At a step of the failing run, the state difference to
// the passing run's matching state (the same backtrace) is a set of
// deltas (package memgraph); dd isolates the relevant ones: the deltas
// that, transplanted into the passing run, make it fail ("Simplifying
// and Isolating Failure-Inducing Input", TSE 2002, Fig. 15). The
// cause transitions are narrowed by cts, divide and conquer over the
// failing run's steps (§A.3).
package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/domain/memgraph"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot chain.
var Command = &command.Command{Name: "chain", Section: "Chain", Flags: flags}

// timelineCap bounds the failing run's timeline (4 bytes a step): cts
// looks at the steps it holds.
const timelineCap = 1 << 22

// maxNearby is how many steps around an unmatched one cts tries before
// it takes the unmatched state.
const maxNearby = 8

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	c := &Chain{}
	fs.StringVar(&c.Pass, "pass", "", "the passing run's `ARGS` (split by the shell's quoting rules)")
	fs.StringVar(&c.Fail, "fail", "", "the failing run's `ARGS`")
	fs.StringVar(&c.PassStdin, "pass-stdin", "", "a `FILE` for the passing run's standard input")
	fs.StringVar(&c.FailStdin, "fail-stdin", "", "a `FILE` for the failing run's standard input")
	fs.Func("at", "examine the state at `FILE:LINE[#N]` (the N-th time the failing run reaches the line, 1 by default); repeat for a chain of your own moments (without --at, wynot chooses them and narrows the cause transitions)", func(s string) error {
		c.At = append(c.At, s)
		return nil
	})
	fs.StringVar(&c.PassOn, "pass-on", "", "the passing behavior is output matching this `REGEX` (with --fail-on: a run matching neither is unresolved)")
	fs.StringVar(&c.Observe, "observe", "all", "without --fail-on: what of the outputs tells the runs apart: all, stdout, stderr, exit, or a REGEX for the lines to compare")
	fs.IntVar(&c.MaxVertices, "max-vertices", 20000, "the most vertices of a memory graph; a state with more is cut (and says so)")
	fs.BoolVar(&c.GDB, "gdb", false, "PROGRAM is a C binary built with -g -O0, run under gdb (steps and moments by source line)")
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		fail := func(format string, args ...any) (command.Job, command.Workload, error) {
			return nil, command.Workload{}, command.UsageError(format, args...)
		}
		for _, name := range []string{"test", "precision", "convention"} {
			if inv.IsSet(name) {
				return fail("--%s does not apply: wynot chain runs the program itself (--fail-on and --pass-on state the behaviors)", name)
			}
		}
		if len(inv.Args) != 1 || len(inv.Argv) > 0 {
			return fail("give the program: wynot chain [flags] --pass 'ARGS' --fail 'ARGS' PKGDIR (the directory of a Go main package), or --gdb BINARY")
		}
		if !inv.IsSet("pass") || !inv.IsSet("fail") {
			return fail("give both runs: --pass 'ARGS' and --fail 'ARGS' (an empty string for no arguments)")
		}
		if c.PassOn != "" && inv.Flags.FailOn == "" {
			return fail("--pass-on needs --fail-on: state both behaviors, or neither (the runs' own outputs are then the references)")
		}
		if c.MaxVertices < 1 {
			return fail("--max-vertices must be at least 1")
		}
		var err error
		if c.passArgs, err = command.ShellSplit(c.Pass); err != nil {
			return fail("--pass: %v", err)
		}
		if c.failArgs, err = command.ShellSplit(c.Fail); err != nil {
			return fail("--fail: %v", err)
		}
		for _, in := range []struct {
			file string
			data *[]byte
			flag string
		}{{c.PassStdin, &c.passIn, "pass-stdin"}, {c.FailStdin, &c.failIn, "fail-stdin"}} {
			*in.data = []byte{}
			if in.file != "" {
				if *in.data, err = os.ReadFile(in.file); err != nil {
					return nil, command.Workload{}, command.InputError("--%s: %v", in.flag, err)
				}
			}
		}
		for _, a := range c.At {
			p, err := parseAt(a)
			if err != nil {
				return fail("--at %s: %v", a, err)
			}
			c.at = append(c.at, p)
		}
		if inv.Flags.FailOn == "" {
			obs, err := runner.ParseObservation(c.Observe)
			if err != nil {
				return fail("%v", err)
			}
			c.obs = &obs
		} else if inv.IsSet("observe") {
			return fail("--observe does not apply with --fail-on (the regular expressions state the behaviors)")
		}
		if c.PassOn != "" {
			if inv.Test.PassOn, err = regexp.Compile(c.PassOn); err != nil {
				return fail("--pass-on: %v", err)
			}
		}
		// Named by the rule of wynot's temporary files, so that a run
		// killed before it removes the folder leaves it to the next.
		work, err := runner.MkdirTemp(runner.WorkDirParent(0), "chain")
		if err != nil {
			return nil, command.Workload{}, err
		}
		inv.Defer(func() { os.RemoveAll(work) })
		c.work = work
		if c.GDB {
			err = c.prepareGDB(ctx, inv.Args[0], inv)
		} else {
			err = c.prepare(ctx, inv.Args[0], inv)
		}
		if err != nil {
			return nil, command.Workload{}, err
		}
		if err := c.resolveAt(); err != nil {
			return nil, command.Workload{}, err
		}
		cwd, err := os.Getwd()
		if err != nil {
			return nil, command.Workload{}, err
		}
		inv.Test.Argv = []string{c.bin}
		inv.Test.Env = append(os.Environ(), instrument.StatePlanEnv+"="+runner.Placeholder+".plan")
		if c.GDB {
			// One gdb per work slot, kept running: gdb's start is most
			// of what a test would cost (bench/RESULTS.md).
			inv.Test.Argv = instrument.GDBArgv(c.script)
			inv.Test.Env = append(inv.Test.Env, instrument.GDBChainEnv+"="+c.gdbConfig)
			inv.Test.Persistent = true
		}
		inv.Test.Dir = cwd
		inv.Test.Reproduce = c.obs
		return c, command.Workload{Files: 1}, nil
	}
}

// Chain is a run of wynot chain.
type Chain struct {
	Pass, Fail           string
	PassStdin, FailStdin string
	At                   []string
	PassOn               string
	Observe              string
	MaxVertices          int
	GDB                  bool

	obs                *runner.Observation
	passArgs, failArgs []string
	passIn, failIn     []byte
	at                 []at
	work, bin, root    string
	script, gdbConfig  string // --gdb
	pkg                string
	prog               *instrument.Program
	buildTime          time.Duration

	timeline []uint32
	links    map[uint64]*link
	order    []uint64 // the steps examined, in the order they were
	trans    []Transition
	captures int
}

// at is a --at moment: a line, and which time the failing run reaches it.
type at struct {
	file  string
	line  int
	n     int
	probe int // the probe on the line (resolveAt)
}

func parseAt(s string) (at, error) {
	loc, nth, hasN := strings.Cut(s, "#")
	i := strings.LastIndexByte(loc, ':')
	if i <= 0 {
		return at{}, errors.New("want FILE:LINE or FILE:LINE#N")
	}
	line, err := strconv.Atoi(loc[i+1:])
	if err != nil || line < 1 {
		return at{}, fmt.Errorf("%q is not a line number", loc[i+1:])
	}
	n := 1
	if hasN {
		if n, err = strconv.Atoi(nth); err != nil || n < 1 {
			return at{}, fmt.Errorf("%q is not a positive number", nth)
		}
	}
	return at{file: filepath.ToSlash(filepath.Clean(loc[:i])), line: line, n: n}, nil
}

// resolveAt finds the probe of each --at line: the first statement that
// starts on it.
func (c *Chain) resolveAt() error {
	for i := range c.at {
		a := &c.at[i]
		var files []string
		for _, s := range c.prog.Stmts {
			if s.File == a.file || strings.HasSuffix(s.File, "/"+a.file) || strings.HasSuffix(a.file, "/"+s.File) {
				files = append(files, s.File)
				if s.Line == a.line && a.probe == 0 {
					a.probe = s.ID
				}
			}
		}
		if len(files) == 0 {
			return command.InputError("--at %s:%d: %s is not a file of the program's module (its files: %s)", a.file, a.line, a.file, strings.Join(c.files(), ", "))
		}
		if a.probe == 0 {
			return command.InputError("--at %s:%d: no statement starts on that line", a.file, a.line)
		}
	}
	return nil
}

// files lists the files with statements, a few.
func (c *Chain) files() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range c.prog.Stmts {
		if !seen[s.File] {
			seen[s.File] = true
			out = append(out, s.File)
		}
	}
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return out
}

// prepare lists, instruments and builds the program.
func (c *Chain) prepare(ctx context.Context, dir string, inv *command.Invocation) error {
	start := time.Now()
	b, err := instrument.Build(dir, c.work, "wynot chain", instrument.Probes, func(argv []string) ([]byte, []byte, bool, error) {
		cmd := runner.Command{Argv: argv, Timeout: 10 * time.Minute}
		r, err := cmd.Exec(ctx, "", nil)
		return r.Stdout, r.Stderr, r.Clean(), err
	})
	if ie := (*instrument.InputError)(nil); errors.As(err, &ie) {
		return command.InputError("%v", ie)
	}
	if err != nil {
		return err
	}
	c.prog, c.root, c.bin, c.pkg = b.Program, b.Listing.Options.ModuleDir, b.Binary, b.Listing.ImportPath
	c.buildTime = time.Since(start)
	inv.Say("instrumented %s in %s (%s); built once in %.1fs", report.Plural(len(b.Listing.Packages), "package"), c.pkg,
		report.Plural(len(c.prog.Stmts), "probe"), c.buildTime.Seconds())
	return nil
}

// candidate is one run: its arguments, its standard input (the
// candidate's first file) and its plan (the second, named by
// StatePlanEnv as "{}.plan").
// Under gdb, the arguments are the plan's: gdb's own command line stays.
func (c *Chain) candidate(args []string, stdin []byte, p instrument.StatePlan) runner.Candidate {
	if args == nil {
		args = []string{}
	}
	files := func() []runner.File {
		return []runner.File{{Name: "stdin", Data: stdin}, {Name: "stdin.plan", Data: p.Encode()}}
	}
	if c.GDB {
		p.Args = args
		return runner.Candidate{Files: files()}
	}
	return runner.Candidate{Args: args, Files: files()}
}

func (c *Chain) failing(p instrument.StatePlan) runner.Candidate {
	return c.candidate(c.failArgs, c.failIn, p)
}
func (c *Chain) passing(p instrument.StatePlan) runner.Candidate {
	return c.candidate(c.passArgs, c.passIn, p)
}

// prepareGDB lists the lines of a C program with one run of gdb and
// writes the settings of the runs to come.
func (c *Chain) prepareGDB(ctx context.Context, binary string, inv *command.Invocation) error {
	st, err := os.Stat(binary)
	if err != nil {
		return command.InputError("%v", err)
	}
	if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return command.InputError("%s is not an executable program: --gdb explains a C program built with -g -O0", binary)
	}
	abs, _ := filepath.Abs(binary)
	start := time.Now()
	lines, err := instrument.ListGDBLines(abs, c.work, func(argv, env []string) (bool, string, error) {
		cmd := runner.Command{Argv: argv, Env: append(os.Environ(), env...), Timeout: 5 * time.Minute}
		r, err := cmd.Exec(ctx, "", nil)
		if errors.Is(err, runner.ErrStart) {
			return false, "", instrument.ErrNoGDB
		}
		return r.Clean(), r.Explain(), err
	})
	if errors.Is(err, instrument.ErrNoGDB) {
		return command.InputError("--gdb needs gdb, which is not on PATH (on Debian: apt-get install gdb)")
	}
	if err != nil {
		return command.InputError("%v", err)
	}
	c.script = filepath.Join(c.work, "chain.py")
	if err := os.WriteFile(c.script, instrument.GDBChainScript(), 0o644); err != nil {
		return err
	}
	js, err := json.Marshal(instrument.GDBConfig{Mode: "run", Binary: abs, Args: []string{}, Elements: lines, Serve: true})
	if err != nil {
		return err
	}
	c.gdbConfig = filepath.Join(c.work, "gdb.json")
	if err := os.WriteFile(c.gdbConfig, js, 0o644); err != nil {
		return err
	}
	cwd, _ := os.Getwd()
	c.prog, c.root, c.pkg = instrument.GDBProgram(lines, cwd), cwd, binary
	c.buildTime = time.Since(start)
	inv.Say("%s: %s with code, examined under gdb by line", binary, report.Plural(len(lines), "line"))
	return nil
}

// Begin starts from the failing run, recording its steps.
func (c *Chain) Begin() command.Begin {
	p := c.passing(instrument.StatePlan{})
	return command.Begin{
		Failing:     c.failing(instrument.StatePlan{Timeline: filepath.Join(c.work, "fail.timeline"), TimelineCap: timelineCap}),
		What:        "failing run",
		Passing:     &p,
		PassingWhat: "the passing run",
		Unit:        "deltas",
		Algorithm:   "dd",
	}
}

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
	// The first state, and the last one with a matching state in the
	// passing run that the failing difference makes fail.
	first, err := c.examine(ctx, s, 1)
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

// examine computes the relevant deltas at step t of the failing run.
func (c *Chain) examine(ctx context.Context, s *command.Session, t uint64) (*link, error) {
	if l, ok := c.links[t]; ok {
		return l, nil
	}
	probe := int(c.timeline[t-1])
	st := c.prog.Stmt(probe)
	l := &link{Link: Link{Step: t, File: st.File, Line: st.Line, Func: st.Func}, bot: true, probe: probe}
	c.links[t] = l
	c.order = append(c.order, t)
	where := fmt.Sprintf("%s:%d (step %d)", st.File, st.Line, t)
	s.Progress.Update(func(ps *report.Status) { ps.Pass = where })
	// The failing run's state.
	gs, err := c.capture(ctx, s, c.failing, []instrument.Moment{{Probe: probe, Step: t}}, fmt.Sprintf("f%d", t))
	if err != nil {
		return l, err
	}
	fg := gs[0]
	if fg == nil {
		l.Note = "the failing run did not reach this step when run again"
		return l, nil
	}
	l.Stack, l.FailVertices, l.Cut = fg.Point.Stack, fg.Size(), fg.Cut
	if l.Func == "" {
		l.Func = fg.Point.Func
	}
	l.depth = strings.Count(fg.Point.Stack, " < ")
	// The passing run's matching state: the same backtrace, as often.
	at := instrument.Moment{Probe: probe, Stack: fg.Point.Stack, Occurrence: fg.Point.Occurrence}
	gs, err = c.capture(ctx, s, c.passing, []instrument.Moment{at}, fmt.Sprintf("p%d", t))
	if err != nil {
		return l, err
	}
	pg := gs[0]
	if pg == nil {
		l.Note = "the passing run never reaches this state (no state with the same backtrace)"
		return l, nil
	}
	l.Matched = true
	l.PassVertices, l.Cut = pg.Size(), l.Cut || pg.Cut
	m := memgraph.Match(pg, fg)
	deltas := m.Deltas()
	l.Deltas = len(deltas)
	for _, d := range deltas[:min(len(deltas), 100)] {
		l.Differences = append(l.Differences, m.Describe(d))
	}
	if len(deltas) == 0 {
		l.Note = "the states do not differ (the cause is outside the captured state: callers' variables, other goroutines, files)"
		return l, nil
	}
	build := func(cfg dd.Config) runner.Candidate {
		a := at
		a.Ops = memgraph.Encode(m.Plan(deltas, cfg))
		return c.passing(instrument.StatePlan{At: []instrument.Moment{a}})
	}
	before := s.Stats().Tests()
	// dd needs the whole difference to make the passing run fail (a
	// run that does neither is no starting point either).
	all := make(dd.Config, len(deltas))
	for i := range all {
		all[i] = i
	}
	whole, err := s.TestOne(ctx, "all deltas at "+where, build(all))
	if err != nil {
		return l, err
	}
	if whole.Outcome != dd.Fail {
		l.Tests = s.Stats().Tests() - before
		how := whole.Outcome.String()
		if whole.Detail != "" {
			how += ": " + whole.Detail
		}
		l.Note = fmt.Sprintf("transplanting all %s into the passing run does not make it fail (%s)", report.Plural(len(deltas), "delta"), how)
		l.neither = whole.Outcome == dd.Unresolved
		return l, nil
	}
	s.StartProgress(len(deltas), "deltas at "+where)
	res, err := s.Search(ctx, "deltas at "+where, len(deltas), dd.Isolate, dd.Options{}, build, func(st dd.Step) {
		n := len(st.Config)
		s.Progress.Update(func(ps *report.Status) { ps.Size = n })
	})
	l.Tests = s.Stats().Tests() - before
	var nf *dd.NotFailingError
	var np *dd.NotPassingError
	switch {
	case errors.As(err, &nf):
		l.Note = fmt.Sprintf("transplanting all %s into the passing run does not make it fail", report.Plural(len(deltas), "delta"))
		return l, nil
	case errors.As(err, &np):
		l.Note = "the passing run does not pass here"
		return l, nil
	case err != nil:
		return l, err
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
	return l, nil
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
	gs, err := c.capture(ctx, s, c.failing, []instrument.Moment{{Probe: a.probe, Step: a.Step}, {Probe: b.probe, Step: b.Step}},
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
		if a.Relevant[i].New != b.Relevant[j].New {
			over = append(over, b.Relevant[j].Var)
		}
	}
	slices.Sort(over)
	return same, over, nil
}

// capture runs one side with a plan that captures the states at the
// moments, and reads them (nil for a moment the run never reached).
func (c *Chain) capture(ctx context.Context, s *command.Session, side func(instrument.StatePlan) runner.Candidate, at []instrument.Moment, tag string) ([]*memgraph.Graph, error) {
	var paths []string
	for i := range at {
		paths = append(paths, filepath.Join(c.work, fmt.Sprintf("%s.%d.graph", tag, i)))
		os.Remove(paths[i])
		at[i].Graph = paths[i]
	}
	c.captures++
	rec, err := s.TestOne(ctx, "capture", side(instrument.StatePlan{At: at, MaxVertices: c.MaxVertices}))
	if err != nil {
		return nil, err
	}
	out := make([]*memgraph.Graph, len(at))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			if rec.Cached {
				return nil, fmt.Errorf("a capture's outcome came from the cache, not from a run; run without --cache")
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if out[i], err = memgraph.Read(data); err != nil {
			return nil, err
		}
	}
	return out, nil
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
