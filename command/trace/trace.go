// Package trace is wynot trace: which executed statement instances of a
// program matter for its output. It skips subsets of them, reruns the
// program, and keeps only the instances without which the observed
// output changes: the critical slice of "Finding Failure Causes through
// Automated Testing" (AADEBUG 2000, §6, STRIPE), 1-minimal by ddmin
// ("Simplifying and Isolating Failure-Inducing Input", TSE 2002, Fig. 5).
//
// Go programs are instrumented once (package instrument) and built with
// an overlay; every test runs that one binary with a plan of instances to
// skip. To make long runs practical, whole calls and loop iterations are
// reduced first, then the statement instances inside the survivors
// (hierarchical delta debugging over the executed units; --flat turns
// it off).
package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot trace.
var Command = &command.Command{Name: "trace", Section: "Trace", Flags: flags}

// hierarchyFrom is the size of a run (statement instances) from which
// --hierarchy auto reduces calls and iterations first.
const hierarchyFrom = 10000

// timelineCap bounds the timeline a run records (4 bytes each): beyond
// it, instances are ordered by statement rather than by time.
const timelineCap = 1 << 22

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	t := &Trace{}
	fs.StringVar(&t.StdinFile, "stdin", "", "a `FILE` for the program's standard input")
	fs.StringVar(&t.Pass, "pass", "", "the `ARGS` of a run whose output is right (split by the shell's quoting rules; '' for none): every test runs it too, with the same instances skipped, and must reproduce its output as well")
	fs.StringVar(&t.PassStdin, "pass-stdin", "", "a `FILE` for the standard input of the run --pass names (default: that of --stdin)")
	fs.StringVar(&t.Observe, "observe", "all", "what must be reproduced: all (stdout, stderr and exit status), stdout, stderr, exit, or a REGEX (the output lines matching it)")
	fs.StringVar(&t.Hierarchy, "hierarchy", "auto", "on: reduce calls and loop iterations first, then statement instances; off: all statement instances at once; auto: on for runs of 10,000 statement instances or more")
	fs.BoolVar(&t.Flat, "flat", false, "the same as --hierarchy off")
	fs.BoolVar(&t.GDB, "gdb", false, "trace a C program (built with -g -O0) under gdb, by source line")
	fs.Func("pkg", "instrument only the packages these go list `PATTERNS` match (repeatable; default: every package of the program outside the standard library that does not use cgo: the main module's and its dependencies')", func(s string) error {
		t.Pkgs = append(t.Pkgs, strings.Fields(s)...)
		return nil
	})
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		for _, name := range []string{"fail-on", "test", "precision", "convention"} {
			if inv.IsSet(name) {
				return nil, command.Workload{}, command.UsageError("--%s does not apply: wynot trace asks whether a partial run reproduces the original run's output (--observe says which part)", name)
			}
		}
		if len(inv.Args) > 1 && len(inv.Argv) == 0 {
			return nil, command.Workload{}, command.UsageError("the program's arguments go after --: wynot trace [flags] %s -- %s", inv.Args[0], strings.Join(inv.Args[1:], " "))
		}
		if len(inv.Args) != 1 {
			return nil, command.Workload{}, command.UsageError("give the program: wynot trace [flags] PKGDIR -- ARG... (a Go main package's directory), or wynot trace --gdb [flags] BINARY -- ARG...")
		}
		t.Output = inv.Flags.Output
		switch {
		case t.Flat && inv.IsSet("hierarchy") && t.Hierarchy != "off":
			return nil, command.Workload{}, command.UsageError("--flat and --hierarchy %s contradict each other", t.Hierarchy)
		case t.Flat:
			t.Hierarchy = "off"
		case t.Hierarchy != "auto" && t.Hierarchy != "on" && t.Hierarchy != "off":
			return nil, command.Workload{}, command.UsageError("unknown --hierarchy %q (want auto, on or off)", t.Hierarchy)
		}
		obs, err := runner.ParseObservation(t.Observe)
		if err != nil {
			return nil, command.Workload{}, command.UsageError("%v", err)
		}
		t.obs = obs
		t.paired = inv.IsSet("pass") || inv.IsSet("pass-stdin")
		if t.passArgs, err = command.ShellSplit(t.Pass); err != nil {
			return nil, command.Workload{}, command.UsageError("--pass: %v", err)
		}
		if t.paired && !inv.IsSet("pass") {
			t.passArgs = inv.Argv
		}
		if t.StdinFile != "" {
			if t.input, err = os.ReadFile(t.StdinFile); err != nil {
				return nil, command.Workload{}, command.InputError("--stdin: %v", err)
			}
		} else {
			t.input = []byte{}
		}
		t.passInput = t.input
		if t.PassStdin != "" {
			if t.passInput, err = os.ReadFile(t.PassStdin); err != nil {
				return nil, command.Workload{}, command.InputError("--pass-stdin: %v", err)
			}
		}
		if t.paired && slices.Equal(t.passArgs, inv.Argv) && bytes.Equal(t.passInput, t.input) {
			return nil, command.Workload{}, command.UsageError("the run --pass names is the traced run itself (the same arguments and standard input): give the arguments of a run whose output is right")
		}
		// Named by the rule of wynot's temporary files, so that a run
		// killed before it removes the folder leaves it to the next.
		work, err := runner.MkdirTemp(runner.WorkDirParent(0), "trace")
		if err != nil {
			return nil, command.Workload{}, err
		}
		inv.Defer(func() { os.RemoveAll(work) })
		t.work = work
		cwd, err := os.Getwd()
		if err != nil {
			return nil, command.Workload{}, err
		}
		if t.GDB {
			if err := t.prepareGDB(ctx, inv.Args[0], inv.Argv, cwd, inv); err != nil {
				return nil, command.Workload{}, err
			}
			inv.Test.Argv = instrument.GDBArgv(t.script)
			inv.Test.Env = append(os.Environ(), instrument.GDBEnv+"="+t.gdbConfig, instrument.PlanEnv+"="+runner.Placeholder)
			inv.Test.Persistent = true
			if t.paired {
				inv.Test.Paired = &runner.Command{Argv: instrument.GDBArgv(t.script), Persistent: true, File: passPlan, Name: "the passing run (--pass)",
					Env: append(os.Environ(), instrument.GDBEnv+"="+t.gdbPassConfig, instrument.PlanEnv+"="+runner.Placeholder)}
			}
		} else {
			if err := t.prepare(ctx, inv.Args[0], inv); err != nil {
				return nil, command.Workload{}, err
			}
			inv.Test.Argv = append([]string{t.bin}, inv.Argv...)
			inv.Test.Env = append(os.Environ(), instrument.PlanEnv+"="+runner.Placeholder)
			inv.Test.Input = t.input
			if t.paired {
				inv.Test.Paired = &runner.Command{Argv: append([]string{t.bin}, t.passArgs...), Dir: cwd, Input: t.passInput,
					Env: append(os.Environ(), instrument.PlanEnv+"="+runner.Placeholder), File: passPlan, Name: "the passing run (--pass)"}
			}
		}
		inv.Test.Dir = cwd
		inv.Test.Reproduce = &t.obs
		return t, command.Workload{Files: 1}, nil
	}
}

// Trace is a run of wynot trace.
type Trace struct {
	StdinFile string
	// Pass and PassStdin are the arguments and standard input of a run
	// whose output is right (--pass, --pass-stdin): with either set,
	// each test runs it too with the same instances skipped, and it must
	// reproduce its own output as well.
	Pass, PassStdin string
	Observe         string
	Hierarchy       string // auto, on or off
	Flat            bool
	GDB             bool
	// Pkgs are go list patterns of the packages to instrument (--pkg);
	// none for every package that can be.
	Pkgs   []string
	Output string // -o: where the slice is written

	obs       runner.Observation
	input     []byte
	paired    bool // --pass: every test runs the passing run too
	passArgs  []string
	passInput []byte
	// passLimit bounds the passing run's instances as the reference
	// run's counts bound the failing run's: its counts when recorded
	// with what the levels so far skip.
	passLimit []uint32
	work      string // the build, plans' record files
	bin       string
	script    string // --gdb: the gdb script and its settings
	gdbConfig string
	// gdbPassConfig are the settings of the passing run under gdb
	// (--pass).
	gdbPassConfig string
	prog          *instrument.Program
	pkg           string // the main package's import path
	root          string // what the elements' file names are relative to
	// instrumented and notInstrumented are the packages instrumented,
	// and what ran as it is (instrument.Built).
	instrumented, notInstrumented []string
	buildTime                     time.Duration

	origCounts []uint32
	before     int
	hierarchy  bool
	levels     []Level
	renumbered bool             // Detail.Renumbered
	skip       map[int][]uint32 // what the result's plan skips
	kept       []inst           // the result's statement instances
}

// inst is one instance: the k-th execution of element id.
type inst struct {
	id int
	k  uint32
}

// prepare lists, instruments and builds the program.
func (t *Trace) prepare(ctx context.Context, dir string, inv *command.Invocation) error {
	start := time.Now()
	b, err := instrument.Build(dir, t.work, "wynot trace", t.Pkgs, instrument.Instrument, goExec(ctx))
	if ie := (*instrument.InputError)(nil); errors.As(err, &ie) {
		return command.InputError("%v", ie)
	}
	if err != nil {
		return err
	}
	t.prog, t.root, t.bin, t.pkg = b.Program, b.Listing.Options.ModuleDir, b.Binary, b.Listing.ImportPath
	t.buildTime = time.Since(start)
	inv.Say("%s (%s); built once in %.1fs", b.Summary(), report.Plural(len(t.prog.Stmts), "guarded element"), t.buildTime.Seconds())
	t.instrumented, t.notInstrumented = b.Instrumented, b.Uninstrumented()
	for _, l := range t.notInstrumented {
		inv.Say("%s", l)
	}
	return nil
}

// source is the absolute path of an element's file.
func (t *Trace) source(file string) string {
	if path := t.prog.Source(file); filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(t.root, file)
}

// goExec runs go list and go build for instrument.Build.
func goExec(ctx context.Context) instrument.Exec {
	return func(argv []string) ([]byte, []byte, bool, error) {
		c := runner.Command{Argv: argv, Timeout: 10 * time.Minute}
		r, err := c.Exec(ctx)
		return r.Stdout, r.Stderr, r.Clean(), err
	}
}

// gdbExec runs a command for instrument.ListGDBLines.
func gdbExec(ctx context.Context) func(argv, env []string) (bool, string, error) {
	return func(argv, env []string) (bool, string, error) {
		c := runner.Command{Argv: argv, Env: append(os.Environ(), env...), Timeout: 5 * time.Minute}
		r, err := c.Exec(ctx)
		if errors.Is(err, runner.ErrStart) {
			return false, "", instrument.ErrNoGDB
		}
		return r.Clean(), r.Explain(), err
	}
}

// prepareGDB lists the lines of a C program built with debugging
// information, with one run of gdb, and writes the settings of the runs
// to come.
func (t *Trace) prepareGDB(ctx context.Context, binary string, args []string, cwd string, inv *command.Invocation) error {
	st, err := os.Stat(binary)
	if err != nil {
		return command.InputError("%v", err)
	}
	if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return command.InputError("%s is not an executable program: --gdb traces a C program built with -g -O0", binary)
	}
	abs, _ := filepath.Abs(binary)
	start := time.Now()
	lines, err := instrument.ListGDBLines(abs, t.work, gdbExec(ctx))
	if errors.Is(err, instrument.ErrNoGDB) {
		return command.InputError("--gdb needs gdb, which is not on PATH (on Debian: apt-get install gdb)")
	}
	if err != nil {
		return command.InputError("%v", err)
	}
	t.script = filepath.Join(t.work, "trace.py")
	if err := os.WriteFile(t.script, instrument.GDBScript(), 0o644); err != nil {
		return err
	}
	cfg := instrument.GDBConfig{Mode: "list", Binary: abs, Args: append([]string{}, args...)}
	if t.StdinFile != "" {
		cfg.Stdin, _ = filepath.Abs(t.StdinFile)
	}
	t.gdbConfig = filepath.Join(t.work, "gdb.json")
	write := func() error {
		js, err := json.Marshal(cfg)
		if err != nil {
			return err
		}
		return os.WriteFile(t.gdbConfig, js, 0o644)
	}
	// One gdb per work slot, kept running: it runs the program for each
	// test (runner.Command.Persistent).
	cfg.Mode, cfg.ElementsFile, cfg.Elements, cfg.Serve = "run", "", lines, true
	if err := write(); err != nil {
		return err
	}
	if t.paired {
		// The passing run's settings: its arguments and input.
		cfg.Args = append([]string{}, t.passArgs...)
		if t.PassStdin != "" {
			cfg.Stdin, _ = filepath.Abs(t.PassStdin)
		}
		t.gdbPassConfig = filepath.Join(t.work, "gdb-pass.json")
		js, err := json.Marshal(cfg)
		if err != nil {
			return err
		}
		if err := os.WriteFile(t.gdbPassConfig, js, 0o644); err != nil {
			return err
		}
	}
	t.prog, t.root = instrument.GDBProgram(lines, cwd), cwd
	t.pkg = binary
	t.buildTime = time.Since(start)
	files := map[string]bool{}
	for _, l := range lines {
		files[l.File] = true
	}
	inv.Say("%s: %s with code in %s, traced under gdb by line", binary, report.Plural(len(lines), "line"), report.Plural(len(files), "source file"))
	return nil
}

// alone is a run without its paired run.
func alone(r runner.Run) runner.Run {
	r.Paired = nil
	return r
}

// passPlan is the name of the passing run's plan among a candidate's
// files (--pass).
const passPlan = "pass-plan"

// candidate is the test of one plan: its file in the work directory,
// named by PlanEnv; with --pass, the passing run's plan beside it, which
// skips the same instances, within the passing run's own counts, and
// records its counts beside the failing run's when that does.
func (t *Trace) candidate(p instrument.Plan) runner.Candidate {
	c := runner.Candidate{Files: []runner.File{{Name: "plan", Data: p.Encode()}}}
	if t.paired {
		q := instrument.Plan{Skip: p.Skip, Limit: t.passLimit}
		if p.Record != "" {
			q.Record = strings.TrimSuffix(p.Record, ".counts") + ".pass.counts"
		}
		c.Files = append(c.Files, runner.File{Name: passPlan, Data: q.Encode()})
	}
	return c
}

// passCounts reads the passing run's counts recorded beside the failing
// run's under tag (--pass).
func (t *Trace) passCounts(tag string) ([]uint32, error) {
	return t.counts(tag + ".pass.counts")
}

// counts reads a recording run's counts from the file name in the work
// directory: one per element.
func (t *Trace) counts(name string) ([]uint32, error) {
	data, err := os.ReadFile(filepath.Join(t.work, name))
	if err != nil {
		return nil, err
	}
	counts := instrument.ReadCounts(data)
	if len(counts) != len(t.prog.Stmts)+1 {
		return nil, fmt.Errorf("the run recorded %d counts for %d elements", len(counts), len(t.prog.Stmts))
	}
	return counts, nil
}

// record is a plan that records counts and the timeline into files
// named after tag.
func (t *Trace) record(tag string, p instrument.Plan) instrument.Plan {
	p.Record, p.Timeline, p.TimelineCap = filepath.Join(t.work, tag+".counts"), filepath.Join(t.work, tag+".timeline"), timelineCap
	return p
}

// recording is what a recording run wrote: its counts per element and,
// when complete, the order it executed them in.
type recording struct {
	counts, timeline []uint32
	complete         bool
}

// recorded reads what a recording run wrote.
func (t *Trace) recorded(tag string) (recording, error) {
	counts, err := t.counts(tag + ".counts")
	if err != nil {
		return recording{}, err
	}
	r := recording{counts: counts}
	if tl, err := os.ReadFile(filepath.Join(t.work, tag+".timeline")); err == nil {
		r.timeline, r.complete = instrument.ReadTimeline(tl)
	}
	return r, nil
}

// instances lists the instances of the elements whose kind want accepts:
// in the order they ran when the timeline is complete (the i-th is then
// the i-th of those kinds in time), else by element.
func (t *Trace) instances(r recording, want func(instrument.Kind) bool) []inst {
	var out []inst
	if r.complete {
		seen := make([]uint32, len(r.counts))
		for _, id := range r.timeline {
			if int(id) >= len(r.counts) || id == 0 {
				continue
			}
			seen[id]++
			if want(t.prog.Stmt(int(id)).Kind) {
				out = append(out, inst{int(id), seen[id]})
			}
		}
		return out
	}
	for id := 1; id < len(r.counts); id++ {
		if !want(t.prog.Stmt(id).Kind) {
			continue
		}
		for k := uint32(1); k <= r.counts[id]; k++ {
			out = append(out, inst{id, k})
		}
	}
	return out
}

// plan is the plan that skips base and the groups not in c, within the
// reference run's counts.
func plan(base map[int][]uint32, groups [][]inst, c dd.Config, limit []uint32) instrument.Plan {
	skip := map[int][]uint32{}
	for id, ks := range base {
		skip[id] = append(skip[id], ks...)
	}
	in := make([]bool, len(groups))
	for _, i := range c {
		in[i] = true
	}
	for i, g := range groups {
		if !in[i] {
			for _, x := range g {
				skip[x.id] = append(skip[x.id], x.k)
			}
		}
	}
	return instrument.Plan{Skip: skip, Limit: limit}
}

// A level of the hierarchy says what its elements are: every instance of
// one guarded element (whole), or single instances; of units (function
// and loop bodies) or of statements.
type level struct {
	name  string
	kinds func(instrument.Kind) bool
	whole bool
}

// levels are the levels of the hierarchy, coarse to fine (hierarchical
// delta debugging, Misherghi and Su, ICSE 2006, over the levels of a
// run): whole functions and loops, then single calls and iterations,
// then whole statements, then single statement instances. Each level
// reduces what the one before left; only the last one is flat ddmin.
var levels = []level{
	{"functions and loops", isUnit, true},
	{"calls and iterations", isUnit, false},
	{"statements", isStmt, true},
	{"statement instances", isStmt, false},
}

// groups are a level's elements in a recorded run.
func (t *Trace) groups(r recording, l level) [][]inst {
	all := t.instances(r, l.kinds)
	if !l.whole {
		out := make([][]inst, len(all))
		for i, x := range all {
			out[i] = []inst{x}
		}
		return out
	}
	var out [][]inst
	at := map[int]int{} // element id -> its group, in order of first instance
	for _, x := range all {
		g, ok := at[x.id]
		if !ok {
			g = len(out)
			at[x.id] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], x)
	}
	return out
}

func isUnit(k instrument.Kind) bool { return k != instrument.Statement }
func isStmt(k instrument.Kind) bool { return k == instrument.Statement }

// Begin starts from the original run, recording what it executes.
func (t *Trace) Begin() command.Begin {
	return command.Begin{Failing: t.candidate(t.record("original", instrument.Plan{})), What: "original run", Unit: "instances", Algorithm: "ddmin"}
}

// Search reduces the calls and loop iterations, then the statement
// instances that still run.
func (t *Trace) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	if bytes.Contains(s.Original().Stderr, []byte("wynot trace runtime: ")) {
		return command.Found{}, fmt.Errorf("the instrumented original run failed in wynot's own part of it (a bug in wynot trace; please report it with the program): %s", s.Original().Explain())
	}
	orig, err := t.recorded("original")
	if err != nil {
		return command.Found{}, fmt.Errorf("reading what the original run executed: %v; the run ended with %s", err, s.Original().Explain())
	}
	t.origCounts = orig.counts
	if o := s.Original(); t.paired && o.Paired != nil && (&runner.OutputOracle{Observe: t.obs}).Same(alone(o), *o.Paired) {
		s.Say("the run --pass names gives what the traced run gives (%s, as --observe compares them): it is no passing run of this failure, and the slice keeps what both need for that one output", o.Paired.Describe())
	}
	if t.paired {
		if t.passLimit, err = t.passCounts("original"); err != nil {
			how := "it did not run"
			if p := s.Original().Paired; p != nil {
				how = "it ended with " + p.Explain()
			}
			return command.Found{}, fmt.Errorf("reading what the passing run executed: %v; %s", err, how)
		}
	}
	stmts := t.instances(orig, isStmt)
	t.before = len(stmts)
	if t.before == 0 {
		return command.Found{}, command.InputError("the original run executed none of the statements of %s (it ended with %s): are the arguments right?", t.pkg, s.Original().Describe())
	}
	if o := s.Original(); !o.Clean() && !runner.Crashed(o) && t.before < 10 {
		// An exit at once, not a crash: perhaps a usage message.
		s.Say("the original run executed %s and ended with %s\nif that is not the run you meant, check the arguments after --",
			report.Plural(t.before, "statement instance"), o.Explain())
	}
	// The hierarchy pays off on long runs, where whole calls and
	// iterations go at once; on short ones, where most of them matter,
	// it costs more tests than it saves (bench/RESULTS.md).
	t.hierarchy = t.Hierarchy == "on" || t.Hierarchy == "auto" && t.before >= hierarchyFrom
	todo := levels[len(levels)-1:]
	if t.hierarchy {
		todo = levels
	}
	ref := orig               // the run instances are numbered in
	var base map[int][]uint32 // what earlier levels skip
	var groups [][]inst
	var res dd.Result
	for i, l := range todo {
		last := i == len(todo)-1
		groups = t.groups(ref, l)
		if !last && len(groups) < 2 {
			continue
		}
		n := 0
		for _, g := range groups {
			n += len(g)
		}
		before := s.Stats().Tests()
		s.StartProgress(len(groups), l.name)
		opts := dd.Options{}
		if l.whole && len(groups) <= 16 {
			// A few functions, loops or statements, most of which
			// probably matter: each alone first (dd.Options.Start).
			opts.Start = len(groups)
		}
		res, err = s.Search(ctx, command.Search{Name: l.name, N: len(groups), Algorithm: dd.Minimize, Options: opts,
			Build: func(c dd.Config) runner.Candidate { return t.candidate(plan(base, groups, c, ref.counts)) },
			OnStep: func(st dd.Step) {
				n := len(st.Config)
				s.Status(func(ps *report.Status) { ps.Size = n })
			}})
		kept := len(groups)
		if res.Fail != nil {
			kept = len(res.Fail)
		}
		t.levels = append(t.levels, Level{Name: l.name, Before: len(groups), After: kept, Tests: s.Stats().Tests() - before})
		if err != nil && !last {
			// Interrupted before the statement instances: the slice is
			// what the run executes without what the levels done so far
			// found unneeded.
			t.kept, t.skip = t.instances(ref, isStmt), base
			t.levels[len(t.levels)-1].Interrupted = true
			if base == nil {
				return command.Found{Kept: "no statement instance was reduced yet"}, err
			}
			return command.Found{Kept: "the slice so far is what the run executes without the " + t.levelsDone() + " found unneeded"}, err
		}
		if last {
			break
		}
		if kept == len(groups) {
			continue
		}
		// Renumber: record the run without what this level skips.
		p := plan(base, groups, res.Fail, ref.counts)
		tag := fmt.Sprintf("level%d", i)
		rec, err := s.TestOne(ctx, "recording", t.candidate(t.record(tag, p)))
		if err != nil {
			return command.Found{}, err
		}
		var r2 recording
		var pass2 []uint32
		if rec.Outcome == dd.Fail {
			r2, err = t.recorded(tag)
		}
		if err == nil && rec.Outcome == dd.Fail && t.paired {
			pass2, err = t.passCounts(tag)
		}
		if rec.Outcome != dd.Fail || err != nil {
			s.Say("the run without the %s found unneeded did not reproduce the output when recorded (%s); going on without that level", l.name, rec.Detail)
			continue
		}
		base, ref, t.renumbered = p.Skip, r2, true
		if t.paired {
			t.passLimit = pass2
		}
	}
	insts := make([]inst, len(groups)) // the last level's: one instance each
	for i, g := range groups {
		insts[i] = g[0]
	}
	limit := ref.counts
	keep := res.Fail
	if keep == nil {
		keep = make(dd.Config, len(insts))
		for i := range keep {
			keep[i] = i
		}
	}
	t.kept = make([]inst, len(keep))
	for i, x := range keep {
		t.kept[i] = insts[x]
	}
	final := plan(base, groups, keep, limit)
	t.skip = final.Skip
	if err != nil {
		return command.Found{Kept: "the smallest slice found so far is shown"}, err
	}
	found := command.Found{Minimal: res.Minimal, Kept: "the smallest slice found so far is shown",
		Confirm: []command.Check{{Candidate: t.candidate(t.record("result", final)), Want: dd.Fail, What: "the critical slice"}}}
	for i, x := range t.kept {
		rest := slices.Delete(slices.Clone(keep), i, i+1)
		found.Removals = append(found.Removals, command.Removal{Candidate: t.candidate(plan(base, groups, rest, limit)),
			What: fmt.Sprintf("skipping %s", t.name(x, 0))})
	}
	return found, nil
}

// levelsDone names the levels above the statement instances whose
// reductions the search recorded ("functions and loops, calls and
// iterations and statements").
func (t *Trace) levelsDone() string {
	var names []string
	for _, l := range t.levels[:max(len(t.levels)-1, 0)] {
		if l.After < l.Before && !l.Interrupted {
			names = append(names, l.Name)
		}
	}
	if len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}

// name is an instance as the output writes it: file:line, then the
// time subscript (the seed's line_time) or #k.
func (t *Trace) name(x inst, time int) string {
	st := t.prog.Stmt(x.id)
	if time > 0 {
		return fmt.Sprintf("%s:%d%s", st.File, st.Line, subscript(time))
	}
	return fmt.Sprintf("%s:%d#%d", st.File, st.Line, x.k)
}

func subscript(n int) string {
	var b strings.Builder
	for _, r := range fmt.Sprint(n) {
		b.WriteRune('₀' + (r - '0'))
	}
	return b.String()
}
