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
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot chain.
var Command = &command.Command{Name: "chain", Section: "Chain", Flags: flags}

// timelineCap bounds the failing run's timeline (4 bytes a step): cts
// looks at the steps it holds.
const timelineCap = 1 << 22

// lastSteps is how many of the failing run's last steps lastLink
// examines one by one.
const lastSteps = 8

// maxNearby is how many steps around an unmatched one cts tries before
// it takes the unmatched state.
const maxNearby = 8

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	c := &Chain{}
	fs.StringVar(&c.Pass, "pass", "", "the passing run's `ARGS` (split by the shell's quoting rules)")
	fs.StringVar(&c.Fail, "fail", "", "the failing run's `ARGS`")
	fs.StringVar(&c.PassStdin, "pass-stdin", "", "a `FILE` for the passing run's standard input")
	fs.StringVar(&c.FailStdin, "fail-stdin", "", "a `FILE` for the failing run's standard input")
	fs.Func("pass-env", "set the environment variable `NAME=VALUE` in the passing run (repeatable); the variables named by --pass-env and --fail-env are part of the state (env[\"NAME\"])", func(s string) error {
		return addEnv(&c.PassEnv, s)
	})
	fs.Func("fail-env", "set the environment variable `NAME=VALUE` in the failing run (repeatable)", func(s string) error {
		return addEnv(&c.FailEnv, s)
	})
	fs.Func("at", "examine the state at `FILE:LINE[#N]` (the N-th time the failing run reaches the line, 1 by default); repeat for a chain of your own moments (without --at, wynot chooses them and narrows the cause transitions)", func(s string) error {
		c.At = append(c.At, s)
		return nil
	})
	fs.StringVar(&c.PassOn, "pass-on", "", "the passing behavior is output matching this `REGEX` (with --fail-on: a run matching neither is unresolved)")
	fs.StringVar(&c.Observe, "observe", "all", "without --fail-on: what of the outputs tells the runs apart: all, stdout, stderr, exit, or a REGEX for the lines to compare")
	fs.IntVar(&c.MaxVertices, "max-vertices", 20000, "the most vertices of a memory graph; a state with more is cut (and says so)")
	fs.BoolVar(&c.GDB, "gdb", false, "PROGRAM is a C binary built with -g -O0, run under gdb (steps and moments by source line)")
	fs.Func("pkg", "probe only the packages these go list `PATTERNS` match (repeatable; default: every package of the program outside the standard library that does not use cgo: the main module's and its dependencies')", func(s string) error {
		c.Pkgs = append(c.Pkgs, strings.Fields(s)...)
		return nil
	})
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		fail := func(format string, args ...any) (command.Job, command.Workload, error) {
			return nil, command.Workload{}, command.UsageError(format, args...)
		}
		for _, name := range []string{"test", "precision", "convention"} {
			if inv.IsSet(name) {
				return fail("--%s does not apply: wynot chain runs the program itself (--fail-on and --pass-on state the behaviors)", name)
			}
		}
		if len(inv.Args) > 1 && len(inv.Argv) == 0 {
			// Go's flags end at the first word that is not one: an
			// unquoted --pass 21 0 leaves 0 and what follows as PKGDIRs.
			return fail("give one PKGDIR, after the flags; got %s. --pass and --fail take the arguments as one word: quote them, as --pass '21 0' --fail '20 0'", strings.Join(inv.Args, " "))
		}
		if len(inv.Args) != 1 || len(inv.Argv) > 0 {
			return fail("give the program: wynot chain [flags] --pass 'ARGS' --fail 'ARGS' PKGDIR (the directory of a Go main package), or --gdb BINARY")
		}
		// Runs that differ in their standard input only need no
		// arguments stated.
		byInput := inv.IsSet("pass-stdin") || inv.IsSet("fail-stdin") || len(c.PassEnv)+len(c.FailEnv) > 0
		if !byInput && (!inv.IsSet("pass") || !inv.IsSet("fail")) {
			return fail("give both runs: --pass 'ARGS' and --fail 'ARGS' (an empty string for no arguments), or their standard input with --pass-stdin and --fail-stdin, or their environments with --pass-env and --fail-env")
		}
		if c.GDB && len(c.PassEnv)+len(c.FailEnv) > 0 {
			return fail("--pass-env and --fail-env apply to Go programs, not with --gdb")
		}
		for _, e := range append(append([]string{}, c.PassEnv...), c.FailEnv...) {
			name, _, _ := strings.Cut(e, "=")
			if !slices.Contains(c.envNames, name) {
				c.envNames = append(c.envNames, name)
			}
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
			if inv.Test.PassOn, err = command.LineRegexp(c.PassOn); err != nil {
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
	// PassEnv and FailEnv are NAME=VALUE settings of each run's
	// environment (--pass-env, --fail-env).
	PassEnv, FailEnv []string
	At               []string
	PassOn           string
	Observe          string
	MaxVertices      int
	GDB              bool
	// Pkgs are go list patterns of the packages to probe (--pkg); none
	// for every package that can be.
	Pkgs []string

	obs                *runner.Observation
	passArgs, failArgs []string
	passIn, failIn     []byte
	envNames           []string // the variables of --pass-env and --fail-env
	at                 []at
	work, bin, root    string
	// instrumented and notInstrumented are the packages instrumented,
	// and what ran as it is (instrument.Built).
	instrumented, notInstrumented []string
	script, gdbConfig             string // --gdb
	pkg                           string
	prog                          *instrument.Program
	buildTime                     time.Duration

	timeline  []uint32
	complete  bool     // the timeline holds every step of the failing run
	ptimeline []uint32 // the passing run's steps
	// pedges are the passing run's steps from one statement to the next.
	pedges map[[2]uint32]bool
	// failOut is the failing run's output (stdout and stderr).
	failOut   []byte
	links     map[uint64]*link
	suggested *Suggestion
	order     []uint64 // the steps examined, in the order they were
	trans     []Transition
	captures  int
}

// addEnv adds a --pass-env or --fail-env setting.
func addEnv(to *[]string, s string) error {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" || strings.ContainsAny(name, "= \t\n") {
		return fmt.Errorf("want NAME=VALUE, not %q", s)
	}
	*to = append(*to, s)
	return nil
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
	b, err := instrument.Build(dir, c.work, "wynot chain", c.Pkgs, instrument.Probes, func(argv []string) ([]byte, []byte, bool, error) {
		cmd := runner.Command{Argv: argv, Timeout: 10 * time.Minute}
		r, err := cmd.Exec(ctx)
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
	inv.Say("%s (%s); built once in %.1fs", b.Summary(), report.Plural(len(c.prog.Stmts), "probe"), c.buildTime.Seconds())
	c.instrumented, c.notInstrumented = b.Instrumented, b.Uninstrumented()
	for _, l := range c.notInstrumented {
		inv.Say("%s", l)
	}
	return nil
}

// candidate is one run: its arguments, its standard input (the
// candidate's first file) and its plan (the second, named by
// StatePlanEnv as "{}.plan").
// Under gdb, the arguments are the plan's: gdb's own command line stays.
func (c *Chain) candidate(args []string, stdin []byte, env []string, p instrument.StatePlan) runner.Candidate {
	if args == nil {
		args = []string{}
	}
	p.Env, p.EnvNames = env, c.envNames
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
	return c.candidate(c.failArgs, c.failIn, c.FailEnv, p)
}
func (c *Chain) passing(p instrument.StatePlan) runner.Candidate {
	return c.candidate(c.passArgs, c.passIn, c.PassEnv, p)
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
		r, err := cmd.Exec(ctx)
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
	p := c.passing(instrument.StatePlan{Timeline: filepath.Join(c.work, "pass.timeline"), TimelineCap: timelineCap})
	return command.Begin{
		Failing:     c.failing(instrument.StatePlan{Timeline: filepath.Join(c.work, "fail.timeline"), TimelineCap: timelineCap}),
		What:        "failing run",
		Passing:     &p,
		PassingWhat: "the passing run",
		Unit:        "deltas",
		Algorithm:   "dd",
	}
}
