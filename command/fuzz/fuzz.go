// Package fuzz is wynot fuzz: it reduces an entry of a Go fuzz target's
// corpus (testdata/fuzz/FuzzXxx/ENTRY, read and written by package
// corpus) on which the target fails. The package's tests are compiled
// once (go test -c) and the test binary runs each candidate entry; every
// value of the entry is reduced in turn (strings and byte slices by
// the text ladder's lines, tokens and characters, numbers towards zero,
// bools to false), until none changes (Debugging Book, "Reducing Failure-Inducing
// Inputs", process_args). The result is written as a new corpus file
// next to the original.
package fuzz

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/corpus"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot fuzz.
var Command = &command.Command{Name: "fuzz", Section: "Fuzz", Flags: flags}

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	// The same panic at the same place: message and top frames.
	f.Precision = runner.Stack
	// A target's message that quotes its input (t.Fatalf("… %q", s))
	// changes as the entry shrinks: the quoted strings are set aside.
	f.QuotedAside = true
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		if len(inv.Args) < 2 || len(inv.Args) > 3 {
			return nil, command.Workload{}, command.UsageError("want PACKAGE_DIR FuzzXxx [ENTRY], got %d arguments", len(inv.Args))
		}
		if inv.Flags.Output != "" {
			return nil, command.Workload{}, command.UsageError("-o does not apply: the result is written beside the entry as ENTRY-min")
		}
		r := &Fuzz{Package: inv.Args[0], Target: inv.Args[1], Test: inv.Test, Out: inv.Output}
		if len(inv.Args) == 3 {
			r.Entry = inv.Args[2]
		}
		return r.job(ctx, inv)
	}
}

// Fuzz is wynot fuzz.
type Fuzz struct {
	Package string // the package directory, e.g. ./parser
	Target  string // FuzzXxx
	Entry   string // the corpus file's name; "" when there is only one
	Test    command.Test
	Out     command.Output
}

// job reads the entry, compiles the tests and makes the job.
func (r *Fuzz) job(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
	none := command.Workload{}
	if !regexp.MustCompile(`^Fuzz[A-Za-z0-9_]*$`).MatchString(r.Target) {
		return nil, none, command.InputError("%q is not the name of a fuzz target (FuzzXxx)", r.Target)
	}
	st, err := os.Stat(r.Package)
	switch {
	case err != nil:
		return nil, none, command.InputError("the package directory %s does not exist", r.Package)
	case !st.IsDir():
		return nil, none, command.InputError("%s is a file, not a package directory: give the directory that holds the package's tests (%s)", r.Package, filepath.Dir(r.Package))
	}
	dir := filepath.Join(r.Package, "testdata", "fuzz", r.Target)
	entry, err := r.pickEntry(dir)
	if err != nil {
		return nil, none, err
	}
	r.Entry = entry
	path := filepath.Join(dir, entry)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, none, command.InputError("%v", err)
	}
	values, err := corpus.Parse(data)
	if err != nil {
		return nil, none, command.InputError("%s: %v", path, err)
	}
	if len(r.Test.Argv) > 0 || r.Test.Script != "" {
		return nil, none, command.InputError("wynot fuzz runs the fuzz target itself: give no command or --test")
	}

	// Compile the tests once.
	bindir, err := runner.MkdirTemp(runner.WorkDirParent(0), "fuzzbin")
	if err != nil {
		return nil, none, err
	}
	inv.Defer(func() { os.RemoveAll(bindir) })
	bin := filepath.Join(bindir, "fuzz.test")
	pkg := r.Package
	if !filepath.IsAbs(pkg) && !strings.HasPrefix(pkg, ".") {
		pkg = "./" + pkg
	}
	inv.Say("compiling the tests of %s", r.Package)
	// In the package's directory (Command.Dir: run there, nothing
	// written), so that its module is found wherever wynot was started.
	build := runner.Command{Argv: []string{"go", "test", "-c", "-o", bin, "."}, Dir: r.Package, Timeout: 10 * time.Minute}
	run, err := build.Exec(ctx)
	if ctx.Err() != nil {
		return nil, none, &command.ExitError{Code: command.ExitInterrupted, Err: errors.New("interrupted while compiling the tests")}
	}
	if err != nil {
		return nil, none, command.InputError("go test -c: %v", err)
	}
	if !run.Clean() {
		return nil, none, command.InputError("go test -c %s failed: %s", pkg, run.Explain())
	}
	inv.Test.Argv = []string{bin, "-test.run=^" + r.Target + "$/^wynot$", "-test.count=1"}
	f := &fuzzer{Fuzz: r, values: values, values0: append([]corpus.Value(nil), values...), path: path, dir: dir, pkg: pkg}
	f.size0, f.count0 = corpus.Size(values), len(values)
	return f, command.Workload{Files: 2, Size: len(data)}, nil
}

// pickEntry names the entry: the one given, or the only one there is.
func (r *Fuzz) pickEntry(dir string) (string, error) {
	if r.Entry != "" {
		if _, err := os.Stat(filepath.Join(dir, r.Entry)); err != nil {
			return "", command.InputError("no corpus entry %s in %s", r.Entry, dir)
		}
		return r.Entry, nil
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return "", command.InputError("no corpus for %s: %s does not exist", r.Target, dir)
	}
	var names []string
	for _, e := range es {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	switch len(names) {
	case 0:
		return "", command.InputError("the corpus %s is empty", dir)
	case 1:
		return names[0], nil
	}
	sort.Strings(names)
	return "", command.InputError("%s holds %d entries; name one: %s", dir, len(names), strings.Join(names, ", "))
}

// fuzzer is the job of wynot fuzz.
type fuzzer struct {
	*Fuzz
	s             *command.Session
	values        []corpus.Value
	values0       []corpus.Value // the entry's values at the start
	path, dir     string         // the entry, and its directory
	pkg           string         // the package as go test names it
	out           string         // where the result goes
	size0, count0 int            // the entry's size and its number of values at the start
}

// Begin starts from the entry.
func (f *fuzzer) Begin() command.Begin {
	return command.Begin{Failing: f.candidate(f.values), What: "corpus entry " + f.path, Size: f.size0, Algorithm: dd.Minimize.String()}
}

// Restart goes back to the entry's values, when the result did not hold
// up (a flaky test).
func (f *fuzzer) Restart() error {
	f.values = append([]corpus.Value(nil), f.values0...)
	return nil
}

// Search reduces the values and writes the result beside the entry.
func (f *fuzzer) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	f.s = s
	minimal, err := f.reduce(ctx)
	if f.out == "" {
		f.out = keep.FreePath(filepath.Join(f.dir, f.Entry+"-min"), "")
	}
	if werr := keep.WriteAtomic(f.out, corpus.Format(f.values), 0o644); werr != nil && err == nil {
		err = werr
		if keep.Full(werr) {
			err = keep.NoRoom(werr, "the corpus "+keep.Quote(f.dir), f.out, "the smallest entry")
		}
	}
	return command.Found{Minimal: minimal, Kept: "the smallest failing entry so far is written",
		Confirm: []command.Check{{Candidate: f.candidate(f.values), Want: dd.Fail, What: "the result"}}}, err
}

// Close fills in the summary and shows the values.
func (f *fuzzer) Close(sum *report.Summary, end command.End) command.Closing {
	sum.SizeBefore, sum.ElementsBefore = f.size0, f.count0
	sum.SizeAfter, sum.ElementsAfter = corpus.Size(f.values), len(f.values)
	sum.Result, sum.Files = f.out, []string{f.out}
	c := command.Closing{
		Page: func() report.Page { return report.Page{Result: string(corpus.Format(f.values))} }}
	c.Head = []string{fmt.Sprintf("reduced the entry from %s to %s in %s, %.1fs:", report.Plural(sum.SizeBefore, "byte"),
		report.Plural(sum.SizeAfter, "byte"), report.Plural(sum.Tests, "test"), sum.Seconds)}
	for _, v := range f.values {
		c.Text += fmt.Sprintf("\t%s\n", v)
	}
	switch {
	case end.Interrupted:
		c.Verdict = []string{"interrupted: not minimal"}
	case end.Minimal:
		c.Verdict = []string{"1-minimal: removing any single character of a string, or moving a number closer to zero, makes the failure go away"}
	}
	how := fmt.Sprintf("go test -run=%s/%s .", f.Target, filepath.Base(f.out))
	if f.pkg != "./." && f.pkg != "." {
		how = fmt.Sprintf("(cd %s && %s)", f.Package, how)
	}
	c.Tail = []string{fmt.Sprintf("written to %s (the original is kept); %s reproduces it", f.out, how)}
	return c
}

// candidate is an entry as the test binary reads it: the corpus file
// testdata/fuzz/FuzzXxx/wynot in the work directory, where it runs.
func (f *fuzzer) candidate(vs []corpus.Value) runner.Candidate {
	return runner.Candidate{Files: []runner.File{{Name: filepath.Join("testdata", "fuzz", f.Target, "wynot"), Data: corpus.Format(vs)}}}
}

// with returns the entry with value i replaced.
func (f *fuzzer) with(i int, v corpus.Value) []corpus.Value {
	vs := append([]corpus.Value(nil), f.values...)
	vs[i] = v
	return vs
}

func (f *fuzzer) fails(ctx context.Context, vs []corpus.Value) (bool, error) {
	rec, err := f.s.Test(ctx, f.candidate(vs))
	return err == nil && rec.Outcome == dd.Fail, err
}

// zero is the pass over a value that is not a string or byte slice:
// a number brought towards zero, a bool made false.
type zero struct{}

func (zero) Name() string { return "towards zero" }

// ladder is the text ladder's rungs for the strings and byte slices of
// an entry.
var ladder = schedule.Ladder{Rungs: schedule.Lines | schedule.Tokens | schedule.Chars}

// reduce reduces the values in turns until none changes (a schedule of
// one phase whose units are the values).
func (f *fuzzer) reduce(ctx context.Context) (bool, error) {
	s := &schedule.Schedule[int]{Phases: []schedule.Phase[int]{{
		Name: "values",
		Units: func() []schedule.Unit[int] {
			us := make([]schedule.Unit[int], len(f.values))
			for i := range us {
				us[i] = schedule.Unit[int]{Name: fmt.Sprintf("value %d (%s)", i+1, f.values[i].Type), Of: i}
			}
			return us
		},
		Passes: func(u schedule.Unit[int]) ([]schedule.Pass, error) {
			if v := f.values[u.Of]; v.Kind() == "bytes" {
				return schedule.List(ladder.Passes(v.Bytes)), nil
			}
			return []schedule.Pass{zero{}}, nil
		},
		Data: func(u schedule.Unit[int]) []byte { return f.values[u.Of].Bytes },
	}}}
	return s.Run(ctx, func(ctx context.Context, _ int, u schedule.Unit[int], p schedule.Pass) (schedule.Ran, error) {
		i := u.Of
		before := f.values[i].String()
		var ran schedule.Ran
		var err error
		if sp, ok := p.(decomp.Pass); ok {
			ran, err = f.reduceBytes(ctx, u, sp)
		} else {
			ran.Changes = 1
			ran.Minimal, err = f.reduceValue(ctx, i)
		}
		if f.values[i].String() != before {
			ran.Shrank = true
			f.s.Status(func(st *report.Status) { st.Size = corpus.Size(f.values) })
		}
		return ran, err
	})
}

// reduceBytes runs ddmin over the pieces of a string or byte slice.
func (f *fuzzer) reduceBytes(ctx context.Context, u schedule.Unit[int], sp decomp.Pass) (schedule.Ran, error) {
	i := u.Of
	p, err := sp.Plan(f.values[i].Bytes)
	if err != nil || p.Len() == 0 {
		return schedule.Ran{}, nil
	}
	name := u.Name + " " + sp.Name()
	f.s.Status(func(st *report.Status) { st.Pass, st.Granularity = name, 0 })
	join := func(c dd.Config) []byte {
		b, _ := p.Apply(c) // cut pieces join without error
		return b
	}
	res, err := f.s.Search(ctx, command.Search{Name: name, N: p.Len(), Algorithm: dd.Minimize,
		Build: func(c dd.Config) runner.Candidate {
			nv := f.values[i]
			nv.Bytes = join(c)
			return f.candidate(f.with(i, nv))
		}})
	if res.Fail != nil {
		f.values[i].Bytes = join(res.Fail)
	}
	if nr := command.Unreproduced(err, "the entry", ""); nr != nil {
		return schedule.Ran{}, nr
	}
	return schedule.Ran{Changes: p.Len(), Minimal: err == nil && res.Minimal || len(f.values[i].Bytes) == 0}, err
}

// reduceValue brings a number towards zero, or a bool to false, and
// reports whether the value is 1-minimal.
func (f *fuzzer) reduceValue(ctx context.Context, i int) (bool, error) {
	v := f.values[i]
	switch v.Kind() {
	case "bool":
		if !v.Bool {
			return true, nil
		}
		nv := v
		nv.Bool = false
		ok, err := f.fails(ctx, f.with(i, nv))
		if ok {
			f.values[i] = nv
		}
		return true, err
	case "float":
		if v.Float == 0 {
			return true, nil
		}
		nv := v
		nv.Float = 0
		ok, err := f.fails(ctx, f.with(i, nv))
		if ok {
			f.values[i] = nv
		}
		return true, err
	}
	// Integers: a binary search between zero (which passes, or is taken)
	// and the value, for the one closest to zero that still fails.
	mag, neg := v.Uint, false
	if v.Kind() == "int" {
		mag, neg = uint64(v.Int), v.Int < 0
		if neg {
			mag = uint64(-v.Int)
		}
	}
	set := func(m uint64) corpus.Value {
		nv := v
		if v.Kind() == "uint" {
			nv.Uint = m
		} else if neg {
			nv.Int = -int64(m)
		} else {
			nv.Int = int64(m)
		}
		return nv
	}
	lo, hi := uint64(0), mag // hi fails; lo is not known to fail
	for lo < hi {
		mid := lo + (hi-lo)/2
		ok, err := f.fails(ctx, f.with(i, set(mid)))
		if err != nil {
			return false, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	f.values[i] = set(hi)
	return true, nil
}
