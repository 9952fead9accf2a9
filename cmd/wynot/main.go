package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/wynot/wynot/changes"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/inputs"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
	"github.com/wynot/wynot/versions"
)

//go:embed doc.go
var docSource string

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one wynot command: its help section and what it runs.
type command struct {
	section string // heading in doc.go
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"reduce":   {"Reduce", runReduce},
	"isolate":  {"Isolate", runIsolate},
	"maximize": {"Maximize", runMaximize},
	"changes":  {"Changes", runChanges},
	"fuzz":     {"Fuzz", runFuzz},
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return inputs.ExitInput
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "wynot: no help for %q: not a command\n\n%s", args[1], usage())
				return inputs.ExitInput
			}
			fmt.Fprint(stdout, section(c.section))
			return 0
		}
		fmt.Fprint(stdout, manual())
		return 0
	case "version", "--version":
		fmt.Fprintln(stdout, "wynot", version())
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "wynot: unknown command %q\n\n%s", args[0], usage())
		return inputs.ExitInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first interrupt, a second one ends wynot at once; but
		// not within a second of the first, since a signal sent to a
		// process group (as timeout(1) does) often arrives twice.
		<-ctx.Done()
		time.Sleep(time.Second)
		stop()
	}()
	return c.run(ctx, args[1:], stdout, stderr)
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// manual is the package documentation of doc.go, as plain text.
func manual() string {
	var b strings.Builder
	for _, l := range docLines() {
		b.WriteString(strings.TrimPrefix(l, "# ") + "\n")
	}
	return b.String()
}

// docLines are the lines of the comment in doc.go, code indented by four
// spaces, headings still marked "# ".
func docLines() []string {
	var out []string
	in := false
	for _, l := range strings.Split(docSource, "\n") {
		switch {
		case strings.HasPrefix(l, "/*"):
			in = true
			continue
		case strings.HasPrefix(l, "*/"):
			return out
		}
		if in {
			if strings.HasPrefix(l, "\t") {
				l = "    " + l[1:]
			}
			out = append(out, l)
		}
	}
	return out
}

// usage is the manual up to the first section.
func usage() string {
	var b strings.Builder
	for _, l := range docLines() {
		if strings.HasPrefix(l, "# ") {
			break
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// section is the part of the manual under the heading "# name", up to the
// next heading.
func section(name string) string {
	var b strings.Builder
	in := false
	for _, l := range docLines() {
		if strings.HasPrefix(l, "# ") {
			if in {
				break
			}
			in = l == "# "+name
		}
		if in {
			b.WriteString(strings.TrimPrefix(l, "# ") + "\n")
		}
	}
	if !in {
		return manual()
	}
	return b.String()
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
// "-j4" is read as "-j 4", as make and C-Reduce users write it.
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
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// testFlags are the flags that say how to test, shared by the commands.
type testFlags struct {
	jobs       int
	timeout    time.Duration
	precision  string
	failOn     string
	script     string
	convention string
	repeat     int
	cache      string
	json       bool
	log        string
	verbose    bool
	events     string
	quiet      bool
	output     string
	report     string
	recorder   *report.Recorder

	fs *flag.FlagSet
}

func (f *testFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.IntVar(&f.jobs, "j", runtime.NumCPU(), "tests run at once")
	fs.DurationVar(&f.timeout, "timeout", 0, "time limit per test (default: calibrated from the original run)")
	fs.StringVar(&f.precision, "precision", "message", "exit, message, stack or exact")
	fs.StringVar(&f.failOn, "fail-on", "", "the failure is output matching this regular expression")
	fs.StringVar(&f.script, "test", "", "test script, run in the candidate's directory")
	fs.StringVar(&f.convention, "convention", "creduce", "creduce or bisect: how the test script's exit status reads")
	fs.IntVar(&f.repeat, "repeat", 1, "run each test this many times")
	fs.StringVar(&f.cache, "cache", "", "keep outcomes in this file across runs")
	fs.BoolVar(&f.json, "json", false, "print a JSON summary on standard output")
	fs.StringVar(&f.log, "log", "", "write the test log to this file")
	fs.BoolVar(&f.verbose, "v", false, "write the test log to standard error")
	fs.StringVar(&f.events, "events", "", "write one JSON line per test to this file")
	fs.BoolVar(&f.quiet, "q", false, "no progress and no summary, only errors")
	fs.StringVar(&f.output, "o", "", "write the result to this path and leave the inputs alone")
	fs.StringVar(&f.report, "report", "", "write an HTML report of the run into this directory")
}

// setup turns the flags into a test description and output settings.
// The returned close function closes the files it opened.
func (f *testFlags) setup(argv []string, stderr io.Writer) (inputs.Test, inputs.Output, func(), error) {
	t := inputs.Test{Argv: argv, Script: f.script, Timeout: f.timeout, Repeat: f.repeat, CacheFile: f.cache}
	out := inputs.Output{Stderr: stderr, Quiet: f.quiet}
	if file, ok := stderr.(*os.File); ok {
		out.TTY = report.IsTerminal(file)
	}
	var closers []io.Closer
	closeAll := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	var err error
	if t.Precision, err = runner.ParsePrecision(f.precision); err != nil {
		return t, out, closeAll, err
	}
	if t.Convention, err = runner.ParseConvention(f.convention); err != nil {
		return t, out, closeAll, err
	}
	if f.failOn != "" {
		if t.FailOn, err = regexp.Compile(f.failOn); err != nil {
			return t, out, closeAll, fmt.Errorf("--fail-on: %v", err)
		}
	}
	if f.jobs < 1 || f.jobs > maxJobs {
		return t, out, closeAll, fmt.Errorf("-j must be between 1 and %d", maxJobs)
	}
	if f.repeat < 1 || f.repeat > 100 {
		return t, out, closeAll, fmt.Errorf("--repeat must be between 1 and 100")
	}
	if f.timeout < 0 {
		return t, out, closeAll, fmt.Errorf("--timeout %s is negative; give a time limit per test, or leave it out to have it calibrated from the original run", f.timeout)
	}
	// Flags that contradict each other, or that nothing would read.
	switch {
	case f.quiet && f.verbose:
		return t, out, closeAll, fmt.Errorf("-q and -v contradict each other")
	case f.failOn != "" && isSet(f.fs, "precision"):
		return t, out, closeAll, fmt.Errorf("--precision applies to failures matched by their signature; --fail-on states the failure itself: give one of them")
	case isSet(f.fs, "convention") && f.script == "" && f.fs.Name() != "wynot changes":
		return t, out, closeAll, fmt.Errorf("--convention says how a --test script's exit status reads; there is no --test")
	}
	open := func(path string) (io.Writer, error) {
		w, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		closers = append(closers, w)
		return w, nil
	}
	if f.log != "" {
		if out.Log, err = open(f.log); err != nil {
			return t, out, closeAll, fmt.Errorf("--log: %v", err)
		}
	} else if f.verbose {
		out.Log = stderr
	}
	if f.events != "" {
		if out.Events, err = open(f.events); err != nil {
			return t, out, closeAll, fmt.Errorf("--events: %v", err)
		}
	}
	if f.report != "" {
		// One rule for every path wynot writes to: its directory must
		// exist (as for -o); the report's own directory is made.
		if parent := filepath.Dir(filepath.Clean(f.report)); !isDir(parent) {
			return t, out, closeAll, fmt.Errorf("--report %s: the directory %s does not exist", f.report, parent)
		}
		if err := os.MkdirAll(f.report, 0o755); err != nil {
			return t, out, closeAll, fmt.Errorf("--report: %v", err)
		}
		f.recorder = &report.Recorder{}
		out.Report = f.recorder
	}
	return t, out, closeAll, nil
}

// maxJobs bounds -j: each test in flight has a work directory.
const maxJobs = 1024

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// writeReport writes the HTML report of a run, if asked for.
func (f *testFlags) writeReport(sum *report.Summary, original string, stderr io.Writer) {
	if f.recorder == nil || sum == nil {
		return
	}
	path, err := f.recorder.WriteReport(f.report, sum, original)
	if err != nil {
		fmt.Fprintf(stderr, "wynot: writing the report: %v\n", err)
		return
	}
	if !f.quiet {
		fmt.Fprintf(stderr, "wynot: report written to %s\n", path)
	}
}

// finish prints the JSON summary if asked, reports err, and returns the
// exit status.
func finish(sum *report.Summary, err error, asJSON bool, stdout, stderr io.Writer) int {
	if asJSON && sum != nil && sum.Tests > 0 {
		if werr := sum.WriteJSON(stdout); werr != nil && err == nil {
			err = werr
		}
	}
	if err == nil {
		return 0
	}
	code := inputs.ExitInput
	var ee *inputs.ExitError
	if errors.As(err, &ee) {
		code = ee.Code
	} else if errors.Is(err, context.Canceled) {
		code = inputs.ExitInterrupted
	}
	fmt.Fprintf(stderr, "wynot: %v\n", err)
	return code
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func flagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("wynot "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func usageError(name string, err error, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		return -1
	}
	fmt.Fprintf(stderr, "wynot %s: %v\nRun \"wynot %s --help\" for usage.\n", name, err, name)
	return inputs.ExitInput
}

// fileList is a repeatable flag of file names.
type fileList []string

func (l *fileList) String() string { return strings.Join(*l, ", ") }

func (l *fileList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func runReduce(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	own, argv := splitCommand(args)
	fs := flagSet("reduce", stderr)
	var f testFlags
	f.register(fs)
	split := fs.String("split", "auto", "auto, text, go, tree:LANG (c, javascript, python, html, json), lines, brackets, tokens, runes or bytes")
	typeCheck := fs.Bool("typecheck", false, "predict Go candidates with new type errors (go/types) unresolved, without a test")
	variant := fs.String("variant", "book", "book or tse: the test order of ddmin")
	argsMode := fs.Bool("argv", false, "reduce the command's arguments")
	var with fileList
	fs.Var(&with, "with", "a `FILE` the test needs beside the candidate, copied unchanged into every test's directory (repeatable)")
	files, err := parseInterleaved(fs, own)
	if err != nil {
		if code := usageError("reduce", err, stderr); code >= 0 {
			return code
		}
		fmt.Fprint(stdout, section("Reduce"))
		return 0
	}
	if *argsMode && !isSet(fs, "j") {
		// Tests of --argv run in the current directory, where parallel
		// runs of a compiler could overwrite each other's files.
		f.jobs = 1
	}
	t, out, closeFiles, err := f.setup(argv, stderr)
	defer closeFiles()
	if err != nil {
		return usageError("reduce", err, stderr)
	}
	r := &inputs.Reduction{Files: files, Args: *argsMode, Test: t, Out: out, Split: *split, TypeCheck: *typeCheck, With: with, Jobs: f.jobs, Output: f.output}
	if r.Variant, err = parseVariant(*variant); err != nil {
		return usageError("reduce", err, stderr)
	}
	sum, err := r.Run(ctx)
	original := ""
	if len(files) == 1 {
		original = files[0] + ".orig"
		if f.output != "" {
			original = files[0]
		}
	}
	f.writeReport(sum, original, stderr)
	return finish(sum, err, f.json, stdout, stderr)
}

func parseVariant(name string) (dd.Variant, error) {
	switch name {
	case "book":
		return dd.Book, nil
	case "tse":
		return dd.TSE, nil
	}
	return 0, fmt.Errorf("unknown --variant %q (want book or tse)", name)
}

func runIsolate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return isolation(ctx, "isolate", args, stdout, stderr)
}

func runMaximize(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return isolation(ctx, "maximize", args, stdout, stderr)
}

func isolation(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	own, argv := splitCommand(args)
	fs := flagSet(name, stderr)
	var f testFlags
	f.register(fs)
	split := fs.String("split", "auto", "auto, lines, tokens, runes or bytes")
	variant := fs.String("variant", "book", "book or tse: the test order of the algorithm")
	bisect := fs.Bool("bisect", true, "act on the first determinate outcome at granularity 2 (binary search)")
	argsMode := fs.Bool("argv", false, "the inputs are argument lists, one argument per line")
	files, err := parseInterleaved(fs, own)
	if err != nil {
		if code := usageError(name, err, stderr); code >= 0 {
			return code
		}
		fmt.Fprint(stdout, section(strings.ToUpper(name[:1])+name[1:]))
		return 0
	}
	want := 2
	usage := "PASSING FAILING"
	if name == "maximize" {
		want, usage = 1, "FILE"
	}
	if len(files) != want {
		return usageError(name, fmt.Errorf("want %s, got %d file arguments", usage, len(files)), stderr)
	}
	if *argsMode && !isSet(fs, "j") {
		f.jobs = 1
	}
	t, out, closeFiles, err := f.setup(argv, stderr)
	defer closeFiles()
	if err != nil {
		return usageError(name, err, stderr)
	}
	v, err := parseVariant(*variant)
	if err != nil {
		return usageError(name, err, stderr)
	}
	r := &inputs.Isolation{Failing: files[len(files)-1], Maximize: name == "maximize", Args: *argsMode, Test: t, Out: out,
		Split: *split, Jobs: f.jobs, Output: f.output, Variant: v, Bisect: *bisect}
	if name == "isolate" {
		r.Passing = files[0]
	}
	sum, err := r.Run(ctx)
	f.writeReport(sum, "", stderr)
	return finish(sum, err, f.json, stdout, stderr)
}

func runChanges(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	own, argv := splitCommand(args)
	fs := flagSet("changes", stderr)
	var f testFlags
	f.register(fs)
	git := fs.Bool("git", false, "OLD and NEW are git revisions")
	repo := fs.String("C", "", "the git repository")
	dirty := fs.Bool("allow-dirty", false, "run although the worktree has uncommitted changes")
	context := fs.Int("context", 2, "unchanged lines that separate hunks")
	group := fs.String("group", "auto", "none, dirs, files, decls, idents or auto")
	algorithm := fs.String("algorithm", "dd", "dd, ddplus or ddmin")
	noResolve := fs.Bool("no-resolve", false, "test configurations as they are: no changes added from the source or from build messages")
	noRefine := fs.Bool("no-refine", false, "do not split hunks into single lines")
	pos, err := parseInterleaved(fs, own)
	if err != nil {
		if code := usageError("changes", err, stderr); code >= 0 {
			return code
		}
		fmt.Fprint(stdout, section("Changes"))
		return 0
	}
	if len(pos) != 2 {
		what := "OLD_DIR NEW_DIR"
		if *git {
			what = "GOOD BAD"
		}
		return usageError("changes", fmt.Errorf("want %s, got %d arguments", what, len(pos)), stderr)
	}
	if !isSet(fs, "convention") {
		f.convention = "bisect"
	}
	t, out, closeFiles, err := f.setup(argv, stderr)
	defer closeFiles()
	if err != nil {
		return usageError("changes", err, stderr)
	}
	t.ExitStatus = t.FailOn == nil && !isSet(fs, "precision")
	if *context < 0 {
		return usageError("changes", fmt.Errorf("--context must be at least 0"), stderr)
	}
	r := &versions.Changes{Old: pos[0], New: pos[1], Git: *git, Repo: *repo, AllowDirty: *dirty, Test: t, Out: out,
		Jobs: f.jobs, Context: *context, NoResolve: *noResolve, NoRefine: *noRefine, Output: f.output}
	var ok bool
	if r.Group, ok = changes.ParseGrouping(*group); !ok {
		return usageError("changes", fmt.Errorf("unknown --group %q (want none, dirs, files, decls, idents or auto)", *group), stderr)
	}
	if r.Algorithm, ok = versions.Algorithms[*algorithm]; !ok {
		return usageError("changes", fmt.Errorf("unknown --algorithm %q (want dd, ddplus or ddmin)", *algorithm), stderr)
	}
	if *repo != "" && !*git {
		return usageError("changes", fmt.Errorf("-C is for --git"), stderr)
	}
	sum, err := r.Run(ctx)
	f.writeReport(sum, "", stderr)
	return finish(sum, err, f.json, stdout, stderr)
}

func runFuzz(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	own, argv := splitCommand(args)
	fs := flagSet("fuzz", stderr)
	var f testFlags
	f.register(fs)
	pos, err := parseInterleaved(fs, own)
	if err != nil {
		if code := usageError("fuzz", err, stderr); code >= 0 {
			return code
		}
		fmt.Fprint(stdout, section("Fuzz"))
		return 0
	}
	if len(pos) < 2 || len(pos) > 3 {
		return usageError("fuzz", fmt.Errorf("want PACKAGE_DIR FuzzXxx [ENTRY], got %d arguments", len(pos)), stderr)
	}
	if f.output != "" {
		return usageError("fuzz", fmt.Errorf("-o does not apply: the result is written beside the entry as ENTRY-min"), stderr)
	}
	t, out, closeFiles, err := f.setup(argv, stderr)
	defer closeFiles()
	if err != nil {
		return usageError("fuzz", err, stderr)
	}
	if !isSet(fs, "precision") {
		// The same panic at the same place: message and top frames.
		t.Precision = runner.Stack
	}
	r := &inputs.Fuzz{Package: pos[0], Target: pos[1], Test: t, Out: out, Jobs: f.jobs}
	if len(pos) == 3 {
		r.Entry = pos[2]
	}
	sum, err := r.Run(ctx)
	original := ""
	if r.Entry != "" {
		original = filepath.Join(pos[0], "testdata", "fuzz", pos[1], r.Entry)
	}
	f.writeReport(sum, original, stderr)
	return finish(sum, err, f.json, stdout, stderr)
}
