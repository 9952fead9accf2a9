package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is one wynot command: its name, its section of the manual, and
// how its command line becomes a job. What every command does besides
// (the shared flags, opening the session, the run, the JSON summary, the
// report, the exit status) Main does once for all.
type Command struct {
	Name    string // as typed: "reduce"
	Section string // the heading of its section in the manual
	// Flags declares the command's own flags on fs (the shared ones are
	// declared already, and a command may change their defaults in f)
	// and returns what makes the job once the command line is parsed.
	Flags func(fs *flag.FlagSet, f *Flags) Maker
}

// Maker makes a command's job from the parsed command line. It may read
// the inputs and prepare what the job needs; it says how the session
// runs the job's tests.
type Maker func(ctx context.Context, inv *Invocation) (Job, Workload, error)

// Workload says how the tests of a job run.
type Workload struct {
	// InPlace runs the tests in the current directory (candidates are
	// argument lists).
	InPlace bool
	// Files is how many files a candidate has (a single one goes to the
	// test's standard input when the command names no {}).
	Files int
	// Size is the size of the largest candidate in bytes.
	Size int
	// Tree, for candidates that are trees, is the directory whose layout
	// they have (the repository's top, the new version's directory) and
	// InTree says whether a path relative to it is in them: a relative
	// path of the test command that names such a path names the
	// candidate's own copy, and is made relative to the candidate tree,
	// where the test runs; other relative paths are made absolute.
	Tree   []string
	InTree func(rel string) bool
	// Inputs are the paths of the candidate's files as the user gave
	// them (the inputs, and files given with them): a test command that
	// names one of them reads the candidate by its file name, so it runs
	// in the private work directory that holds the candidate under that
	// name (the C-Reduce convention) rather than where wynot was started.
	Inputs []string
	// Copies, for candidates that are trees, are the work directories'
	// copies of the tree (filetree.Workspaces): the session says how a
	// copy that takes long goes.
	Copies CopiedTrees
}

// Flags are the flags every command shares: how to test, and where
// messages and results go.
type Flags struct {
	Jobs      int
	Timeout   time.Duration
	Precision runner.Precision
	// QuotedAside, set by a command (not a flag), compares failure
	// messages with their quoted strings aside (runner.SignatureOracle).
	QuotedAside bool
	FailOn      string
	Script      string
	Convention  runner.Convention
	Repeat      Repeat
	Cache       string
	JSON        bool
	Log         string
	Verbose     bool
	Events      string
	Quiet       bool
	Output      string // -o
	Report      string
	// ConventionForCommand says that --convention also reads the exit
	// status of the command after -- (wynot changes), not only that of a
	// --test script.
	ConventionForCommand bool
	ExecFlags
}

func (f *Flags) register(fs *flag.FlagSet) {
	f.Precision = runner.Message
	fs.IntVar(&f.Jobs, "j", runtime.NumCPU(), "tests run at once")
	fs.DurationVar(&f.Timeout, "timeout", 0, "time limit per test (default: calibrated from the original run)")
	fs.TextVar(&f.Precision, "precision", runner.Message, "exit, message, stack or exact")
	fs.StringVar(&f.FailOn, "fail-on", "", "the failure is output matching this regular expression")
	fs.StringVar(&f.Script, "test", "", "test script, run in the candidate's directory")
	fs.TextVar(&f.Convention, "convention", runner.CReduce, "creduce or bisect: how the test script's exit status reads")
	fs.TextVar(&f.Repeat, "repeat", Repeat(0), "auto, or run each test this many times")
	fs.StringVar(&f.Cache, "cache", "", "keep outcomes in this file across runs")
	fs.BoolVar(&f.JSON, "json", false, "print a JSON summary on standard output")
	fs.StringVar(&f.Log, "log", "", "write the test log to this file")
	fs.BoolVar(&f.Verbose, "v", false, "write the test log to standard error")
	fs.StringVar(&f.Events, "events", "", "write one JSON line per test to this file")
	fs.BoolVar(&f.Quiet, "q", false, "no progress and no summary, only errors")
	fs.StringVar(&f.Output, "o", "", "write the result to this path and leave the inputs alone")
	fs.StringVar(&f.Report, "report", "", "write an HTML report of the run into this directory")
	f.ExecFlags.register(fs)
}

// Repeat is how many times each test runs: the value of --repeat. Zero is
// auto: once, until the test shows itself flaky, then AutoRepeat times.
type Repeat int

// MarshalText returns "auto" or the number.
func (r Repeat) MarshalText() ([]byte, error) {
	if r == 0 {
		return []byte("auto"), nil
	}
	return []byte(strconv.Itoa(int(r))), nil
}

// UnmarshalText reads "auto" or a number from 1 to 100.
func (r *Repeat) UnmarshalText(b []byte) error {
	if string(b) == "auto" {
		*r = 0
		return nil
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return fmt.Errorf("want auto or a number from 1 to 100")
	}
	if n < 1 || n > 100 {
		return fmt.Errorf("--repeat must be between 1 and 100, or auto")
	}
	*r = Repeat(n)
	return nil
}

// MinTimeout is the shortest --timeout: under it, a test cannot even be
// started and run, so every test would time out and, the hang taken for
// the failure, every candidate would "fail".
const MinTimeout = 100 * time.Millisecond

// CheckTimeout is the one rule for --timeout, in every command: zero
// (calibrate it from the original run), or at least MinTimeout.
func CheckTimeout(d time.Duration) error {
	switch {
	case d < 0:
		return fmt.Errorf("--timeout %s is negative; give a time limit per test, or leave it out to have it calibrated from the original run", d)
	case d > 0 && d < MinTimeout:
		return fmt.Errorf("--timeout %s is too short to run a test (at least %s); give a longer time limit per test, or leave it out to have it calibrated from the original run", d, MinTimeout)
	}
	return nil
}

// maxJobs bounds -j: each test in flight has a work directory.
const maxJobs = 1024

// Invocation is a parsed command line, as a Maker sees it.
type Invocation struct {
	Args  []string // the positional arguments
	Argv  []string // the test command after "--"
	Flags *Flags
	// Test is the test, from the flags; a Maker may complete it (the
	// session runs the test as it is when the Maker returns).
	Test   Test
	Output Output // where messages go

	fs       *flag.FlagSet
	cleanups []func()
	// whole are the words after the first "--", as a test command
	// reads them (CommandOnly).
	whole []string
}

// CommandOnly reads the command line as one that gives no inputs: every
// word after the first "--" is the test command's, a "--" among them
// too (wynot reduce --argv -- cargo run -- x), and none is an input.
func (inv *Invocation) CommandOnly() {
	if inv.whole != nil {
		inv.Args, inv.Argv = nil, inv.whole
		inv.Test.Argv = inv.whole
	}
}

// IsSet reports whether the flag was given on the command line.
func (inv *Invocation) IsSet(name string) bool {
	set := false
	inv.fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// Defer runs f when the command ends.
func (inv *Invocation) Defer(f func()) { inv.cleanups = append(inv.cleanups, f) }

// Lock locks what the command uses, its inputs and where it writes,
// until it ends (keep.Lock): when another live run of wynot holds one of
// them in a way that conflicts, this one stops at once with a message
// that names that run (exit status 1); what a run that was killed held
// is taken over, as it says. A Maker locks before it reads anything.
func (inv *Invocation) Lock(uses []keep.Use) error {
	l, notes, err := keep.Lock(uses)
	if err != nil {
		return InputError("%w", err)
	}
	for _, n := range notes {
		inv.Say("%s", n)
	}
	inv.Defer(l.Release)
	return nil
}

// Say writes a message line before the session opens (unless quiet).
func (inv *Invocation) Say(format string, args ...any) {
	if !inv.Output.Quiet && inv.Output.Stderr != nil {
		fmt.Fprintf(inv.Output.Stderr, "wynot: "+format+"\n", args...)
	}
}

// Env is what a command runs with besides its arguments.
type Env struct {
	Stdout, Stderr io.Writer
	// Help returns the section of the manual under a heading.
	Help func(section string) string
	// Fake, if set, stands in for every run of the test (Config.Fake).
	Fake func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error)
}

// Main runs the command with its arguments (after the command's name)
// and returns the exit status.
func (c *Command) Main(ctx context.Context, args []string, env Env) int {
	own, argv := splitCommand(args)
	fs := flag.NewFlagSet("wynot "+c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f Flags
	f.register(fs)
	maker := c.Flags(fs, &f)
	pos, err := parseInterleaved(fs, own)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(env.Stdout, env.Help(c.Section))
		return ExitOK
	}
	whole := argv // the words after the first "--"
	if err == nil {
		pos, argv = endOfFlags(pos, argv)
	}
	if err != nil && (argv != nil || commandStart(pos) < 0) {
		return c.usageError(suggestFlag(fs, err), env.Stderr)
	}
	// A test command typed without the "--" before it: its words are
	// taken for inputs, and its flags for wynot's.
	if argv == nil && f.Script == "" {
		if i := commandStart(pos); i >= 0 {
			// The command is every word from its start on, flags too.
			cmd := strings.Join(pos[i:], " ")
			if k := slices.Index(own, pos[i]); k >= 0 {
				cmd = strings.Join(own[k:], " ")
			}
			return c.usageError(fmt.Errorf("no test command: did you forget the -- before it? %q looks like the start of a command, not an input (wynot %s [flags] %s -- %s)",
				cmd, c.Name, strings.Join(pos[:i], " "), cmd), env.Stderr)
		}
	}
	inv := &Invocation{Args: pos, Argv: argv, Flags: &f, fs: fs, whole: whole}
	defer func() {
		for i := len(inv.cleanups) - 1; i >= 0; i-- {
			inv.cleanups[i]()
		}
	}()
	var recorder *report.Recorder
	if err := inv.setup(env.Stderr); err != nil {
		return c.usageError(err, env.Stderr)
	}
	if f.Report != "" {
		recorder = &report.Recorder{}
		inv.Output.Report = recorder
	}
	sum := &report.Summary{Command: c.Name}
	job, work, err := maker(ctx, inv)
	if err == nil && ctx.Err() != nil {
		// Interrupted while the job was made: nothing to open a
		// session for.
		err = ctx.Err()
	}
	var page func() report.Page
	var exec runner.Executor
	doing := "" // what the session did before its search, if it opened
	if err == nil {
		exec, err = inv.executor(ctx, inv.Say)
	}
	if err == nil {
		err = inv.sandbox(ctx, inv.Say)
	}
	if err == nil {
		limitMemory(work.Size)
		var s *Session
		s, err = Open(Config{Command: c.Name, Test: inv.Test, Output: inv.Output, Jobs: f.Jobs,
			InPlace: work.InPlace, Files: work.Files, Size: work.Size, Inputs: work.Inputs,
			Tree: work.Tree, InTree: work.InTree, Fake: env.Fake, Executor: exec, Copies: work.Copies})
		if err == nil {
			err = s.checkExecutor(ctx)
		}
		if err == nil {
			page, err = s.Run(ctx, job, sum)
			if sm, ok := exec.(runner.Summarizer); ok && !f.Quiet && sm.Summary() != "" {
				fmt.Fprintf(env.Stderr, "wynot: %s\n", sm.Summary())
			}
		}
		if s != nil {
			doing = s.Doing()
			s.Close()
		}
	}
	if exec != nil {
		exec.Close()
	}
	var usage *usageErr
	if errors.As(err, &usage) {
		return c.usageError(usage.err, env.Stderr)
	}
	if recorder != nil && sum.Tests > 0 {
		var p report.Page
		if page != nil {
			p = page()
		}
		p.Summary = sum
		path, rerr := recorder.WriteReport(f.Report, p)
		switch {
		case rerr != nil:
			fmt.Fprintf(env.Stderr, "wynot: writing the report: %v\n", rerr)
		case !f.Quiet:
			fmt.Fprintf(env.Stderr, "wynot: report written to %s\n", path)
		}
	}
	if f.JSON && sum.Tests > 0 {
		if werr := sum.WriteJSON(env.Stdout); werr != nil && err == nil {
			err = werr
		}
	}
	var ee *ExitError
	if ctx.Err() != nil && err != nil && !(errors.As(err, &ee) && ee.Code == ExitInterrupted) {
		// Interrupted before the session's run began (reading the
		// inputs, a build, the executor): whatever failed of it, the
		// interruption is the cause.
		err = interruptedBefore(doing)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "wynot: %v\n", err)
	}
	return ExitCode(err)
}

// limitMemory sets a soft limit on the Go heap for large inputs (at
// least 32 MB): four times the input, so that the garbage collector works
// harder rather than let a reduction take many times its input in memory.
// A GOMEMLIMIT the user set stands.
func limitMemory(size int) {
	if size < 32<<20 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(int64(size) * 4)
}

// usageErr is a mistake in the command line found by a Maker.
type usageErr struct{ err error }

func (e *usageErr) Error() string { return e.err.Error() }

// UsageError says the command line is wrong: wynot says so and points
// to the command's help (exit status 1).
func UsageError(format string, args ...any) error {
	return &usageErr{fmt.Errorf(format, args...)}
}

func (c *Command) usageError(err error, stderr io.Writer) int {
	fmt.Fprintf(stderr, "wynot %s: %v\nRun \"wynot %s --help\" for usage.\n", c.Name, flagMessage(err), c.Name)
	return ExitInput
}

// flagMessage rewrites the flag package's message for a typed choice
// ("invalid value "x" for flag -group: want none, dirs or files") the
// way wynot says it: unknown --group "x" (want none, dirs or files).
func flagMessage(err error) error {
	var value, name, why string
	if n, _ := fmt.Sscanf(err.Error(), "invalid value %q for flag -%s", &value, &name); n == 2 {
		name = strings.TrimSuffix(name, ":")
		_, why, _ = strings.Cut(err.Error(), ": ")
		if strings.HasPrefix(why, "want ") {
			return fmt.Errorf("unknown --%s %q (%s)", name, value, why)
		}
		if strings.HasPrefix(why, "--") {
			return errors.New(why)
		}
		return fmt.Errorf("--%s %s: %s", name, value, why)
	}
	return err
}

// LineRegexp compiles a REGEX of --fail-on or --pass-on as grep reads
// one: ^ and $ match at the start and end of every line of the output,
// so that a line written out whole ('^FAIL$') matches it.
func LineRegexp(expr string) (*regexp.Regexp, error) {
	return regexp.Compile("(?m)" + expr)
}

// Shown is a REGEX of --fail-on or --pass-on as the user wrote it.
func Shown(re *regexp.Regexp) string { return strings.TrimPrefix(re.String(), "(?m)") }

// setup turns the shared flags into the test and the output settings,
// opening the files they name.
func (inv *Invocation) setup(stderr io.Writer) error {
	f := inv.Flags
	t := Test{Argv: inv.Argv, Script: f.Script, Timeout: f.Timeout, Repeat: int(f.Repeat), CacheFile: f.Cache,
		Precision: f.Precision, QuotedAside: f.QuotedAside, Convention: f.Convention}
	out := Output{Stderr: stderr, Quiet: f.Quiet}
	if file, ok := stderr.(*os.File); ok {
		out.TTY = report.IsTerminal(file)
	}
	var err error
	if f.FailOn != "" {
		if t.FailOn, err = LineRegexp(f.FailOn); err != nil {
			return fmt.Errorf("--fail-on: %v", err)
		}
	}
	if err := inv.checkExecFlags(); err != nil {
		return err
	}
	if f.Jobs < 1 || f.Jobs > maxJobs {
		return fmt.Errorf("-j must be between 1 and %d", maxJobs)
	}
	if err := CheckTimeout(f.Timeout); err != nil {
		return err
	}
	// Flags that contradict each other, or that nothing would read.
	switch {
	case f.Quiet && f.Verbose:
		return fmt.Errorf("-q and -v contradict each other")
	case f.FailOn != "" && inv.IsSet("precision"):
		return fmt.Errorf("--precision applies to failures matched by their signature; --fail-on states the failure itself: give one of them")
	case inv.IsSet("convention") && f.Script == "" && !f.ConventionForCommand:
		return fmt.Errorf("--convention says how a --test script's exit status reads; there is no --test")
	}
	open := func(path string) (io.Writer, error) {
		w, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		inv.Defer(func() { w.Close() })
		return w, nil
	}
	if f.Log != "" {
		if out.Log, err = open(f.Log); err != nil {
			return fmt.Errorf("--log: %v", err)
		}
	} else if f.Verbose {
		out.Log = stderr
	}
	if f.Events != "" {
		if out.Events, err = open(f.Events); err != nil {
			return fmt.Errorf("--events: %v", err)
		}
	}
	if f.Report != "" {
		// One rule for every path wynot writes to: its directory must
		// exist (as for -o); the report's own directory is made.
		if parent := filepath.Dir(filepath.Clean(f.Report)); !isDir(parent) {
			return fmt.Errorf("--report %s: the directory %s does not exist", f.Report, parent)
		}
		if err := os.MkdirAll(f.Report, 0o755); err != nil {
			return fmt.Errorf("--report: %v", err)
		}
	}
	inv.Test, inv.Output = t, out
	return nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// commandStart returns the index of the first positional argument that
// starts a test command given without the "--" before it: {} in it, or
// the name of a program on $PATH that is no file here. -1 when there is
// none. The first argument is always taken for an input.
func commandStart(pos []string) int {
	for i := 1; i < len(pos); i++ {
		a := pos[i]
		if strings.Contains(a, "{}") {
			// The command starts before the {}: at a program, else at
			// the word before it if that is no file.
			for j := 1; j < i; j++ {
				if onPath(pos[j]) || executable(pos[j]) {
					return j
				}
			}
			if _, err := os.Stat(pos[i-1]); err != nil && i > 1 {
				return i - 1
			}
			return i
		}
		if onPath(a) {
			return i
		}
	}
	return -1
}

// onPath reports whether name is no file or directory here but a program
// on $PATH.
func onPath(name string) bool {
	if name == "" || strings.ContainsRune(name, '/') {
		return false
	}
	if _, err := os.Stat(name); err == nil {
		return false
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0 {
			return true
		}
	}
	return false
}

// executable reports whether name is an executable file here.
func executable(name string) bool {
	st, err := os.Stat(name)
	return err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0
}

// flagAliases are the names other tools and habit give wynot's flags.
var flagAliases = map[string]string{
	"output": "o", "out": "o", "jobs": "j", "n": "j", "parallel": "j", "parallelism": "j", "threads": "j",
	"verbose": "v", "quiet": "q", "silent": "q", "script": "test", "interesting": "test", "interestingness-test": "test",
	"time-limit": "timeout", "cache-file": "cache", "regex": "fail-on", "fail": "fail-on", "match": "fail-on", "html": "report",
}

// suggestFlag adds to the flag package's "flag provided but not defined"
// the flag the user may have meant: a known alias, or a flag whose name
// is one or two edits away or starts the same way.
func suggestFlag(fs *flag.FlagSet, err error) error {
	var name string
	if n, _ := fmt.Sscanf(err.Error(), "flag provided but not defined: %s", &name); n != 1 {
		return err
	}
	name = strings.TrimLeft(name, "-")
	best, dist := "", 3
	if a, ok := flagAliases[name]; ok && fs.Lookup(a) != nil {
		best, dist = a, 0
	}
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < dist || d == dist && best != "" && f.Name < best {
			best, dist = f.Name, d
		}
		if dist > 0 && len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			best, dist = f.Name, 1
		}
	})
	if best == "" {
		return fmt.Errorf("unknown flag --%s", name)
	}
	dash := "--"
	if len(best) == 1 {
		dash = "-"
	}
	return fmt.Errorf("unknown flag --%s; did you mean %s%s (%s)?", name, dash, best, fs.Lookup(best).Usage)
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// endOfFlags reads the first "--" as the end of wynot's flags, not as the
// start of the test command, when a second "--" follows it and either no
// input comes before it or the word after it starts with "-" (no test
// command does): the words between the two are inputs, whatever they
// start with (wynot reduce -- -n.txt -- CMD), and the command follows
// the second. Otherwise the first "--" starts the command, which may
// hold a "--" of its own (wynot reduce main.rs -- cargo run -- {}).
func endOfFlags(pos, argv []string) (inputs, cmd []string) {
	j := slices.Index(argv, "--")
	if j < 0 || len(pos) > 0 && !strings.HasPrefix(argv[0], "-") {
		return pos, argv
	}
	return append(slices.Clip(pos), argv[:j]...), argv[j+1:]
}

// splitCommand separates wynot's arguments from the test command after "--".
func splitCommand(args []string) (own, cmd []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// parseInterleaved parses flags anywhere among the positional arguments.
// "-j4" is read as "-j 4", as make and C-Reduce users write it. On an
// error it returns the positional arguments read before it.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	args = append([]string(nil), args...)
	for i, a := range args {
		if len(a) > 2 && strings.HasPrefix(a, "-j") && strings.Trim(a[2:], "0123456789") == "" {
			args[i] = "-j=" + a[2:]
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return pos, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
