package inputs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/wynot/wynot/corpus"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/decomp"
	"github.com/wynot/wynot/internal/session"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Fuzz is `wynot fuzz`: it reduces an entry of a Go fuzz target's corpus
// (testdata/fuzz/FuzzXxx/ENTRY) on which the target fails. The package's
// tests are compiled once (go test -c) and the test binary runs each
// candidate entry; every value of the entry is reduced in turn (strings
// and byte slices by lines, tokens and characters, numbers towards zero,
// bools to false), until none changes (Debugging Book, process_args). The
// result is written as a new corpus file next to the original.
type Fuzz struct {
	Package string // the package directory, e.g. ./parser
	Target  string // FuzzXxx
	Entry   string // the corpus file's name; "" when there is only one (Run then sets it)
	Test    session.Test
	Out     session.Output
	Jobs    int
}

// Run runs the reduction.
func (r *Fuzz) Run(ctx context.Context) (*report.Summary, error) {
	sum := &report.Summary{Command: "fuzz", Algorithm: dd.Minimize.String()}
	if !regexp.MustCompile(`^Fuzz[A-Za-z0-9_]*$`).MatchString(r.Target) {
		return sum, session.InputError("%q is not the name of a fuzz target (FuzzXxx)", r.Target)
	}
	st, err := os.Stat(r.Package)
	if err != nil || !st.IsDir() {
		return sum, session.InputError("the package directory %s does not exist", r.Package)
	}
	dir := filepath.Join(r.Package, "testdata", "fuzz", r.Target)
	entry, err := r.pickEntry(dir)
	if err != nil {
		return sum, err
	}
	r.Entry = entry
	path := filepath.Join(dir, entry)
	data, err := os.ReadFile(path)
	if err != nil {
		return sum, session.InputError("%v", err)
	}
	values, err := corpus.Parse(data)
	if err != nil {
		return sum, session.InputError("%s: %v", path, err)
	}
	if len(r.Test.Argv) > 0 || r.Test.Script != "" {
		return sum, session.InputError("wynot fuzz runs the fuzz target itself: give no command or --test")
	}

	// Compile the tests once.
	bindir, err := runner.MkdirTemp(runner.WorkDirParent(0), "fuzzbin")
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(bindir)
	bin := filepath.Join(bindir, "fuzz.test")
	pkg := r.Package
	if !filepath.IsAbs(pkg) && !strings.HasPrefix(pkg, ".") {
		pkg = "./" + pkg
	}
	if !r.Out.Quiet {
		fmt.Fprintf(r.Out.Stderr, "wynot: compiling the tests of %s\n", r.Package)
	}
	build := runner.Command{Argv: []string{"go", "test", "-c", "-o", bin, pkg}, Timeout: 10 * time.Minute}
	run, err := build.Exec(ctx, "", nil)
	if ctx.Err() != nil {
		return sum, &session.ExitError{Code: session.ExitInterrupted, Err: errors.New("interrupted while compiling the tests")}
	}
	if err != nil {
		return sum, session.InputError("go test -c: %v", err)
	}
	if !run.Clean() {
		return sum, session.InputError("go test -c %s failed: %s", pkg, session.DescribeRun(run))
	}

	t := r.Test
	t.Argv = []string{bin, "-test.run=^" + r.Target + "$/^wynot$", "-test.count=1"}
	s, err := session.Open("fuzz", t, r.Out, r.Jobs, false, 2, len(data))
	if err != nil {
		return sum, err
	}
	defer s.Close()
	f := &fuzzer{Fuzz: r, s: s, sum: sum, values: values}
	sum.SizeBefore, sum.ElementsBefore = corpus.Size(values), len(values)
	if err := s.CheckOriginal(ctx, f.candidate(values), "corpus entry "+path); err != nil {
		return sum, err
	}
	sum.Signature = s.Signature()
	s.StartProgress(sum.SizeBefore)
	s.Say("the corpus entry %s fails: %s", path, sum.Signature)
	minimal, err := f.reduce(ctx)
	interrupted := ctx.Err() != nil
	out := session.FreePath(filepath.Join(dir, entry+"-min"), "")
	if werr := session.WriteAtomic(out, corpus.Format(f.values), 0o644); werr != nil && err == nil {
		err = werr
	}
	confirmed := false
	if err == nil {
		rec, cerr := s.Tester.Retest(ctx, f.candidate(f.values))
		confirmed, err = cerr == nil && rec.Outcome == dd.Fail, cerr
	}
	s.Progress.Close()
	s.Mu.Lock()
	sum.Tests, sum.Checks, sum.CacheHits, sum.Flaky, sum.Outcomes = s.Runs+s.Checks+1, s.Checks+1, s.CacheHits, s.Flaky, s.Outcomes
	s.Mu.Unlock()
	sum.SizeAfter, sum.ElementsAfter = corpus.Size(f.values), len(f.values)
	sum.Minimal, sum.Confirmed, sum.Interrupted = minimal && err == nil && !interrupted, confirmed, interrupted
	sum.Seconds = time.Since(s.Start).Seconds()
	sum.Result, sum.Files = out, []string{out}
	if !s.Quiet {
		w := s.Stderr
		fmt.Fprintf(w, "wynot: reduced the entry from %s to %s in %s, %.1fs:\n", report.Plural(sum.SizeBefore, "byte"),
			report.Plural(sum.SizeAfter, "byte"), report.Plural(sum.Tests, "test"), sum.Seconds)
		for _, v := range f.values {
			fmt.Fprintf(w, "\t%s\n", v)
		}
		switch {
		case interrupted:
			fmt.Fprintf(w, "wynot: interrupted: not minimal\n")
		case sum.Minimal:
			fmt.Fprintf(w, "wynot: 1-minimal: removing any single character of a string, or moving a number closer to zero, makes the failure go away\n")
		}
		if err == nil && !confirmed {
			fmt.Fprintf(w, "wynot: warning: the result did not fail again when rerun; the test may be flaky\n")
		}
		fmt.Fprintf(w, "wynot: written to %s (the original is kept); go test -run=%s/%s %s reproduces it\n", out, r.Target, filepath.Base(out), pkg)
	}
	if interrupted {
		return sum, &session.ExitError{Code: session.ExitInterrupted, Err: errors.New("interrupted; the smallest failing entry so far is written")}
	}
	return sum, err
}

// pickEntry names the entry: the one given, or the only one there is.
func (r *Fuzz) pickEntry(dir string) (string, error) {
	if r.Entry != "" {
		if _, err := os.Stat(filepath.Join(dir, r.Entry)); err != nil {
			return "", session.InputError("no corpus entry %s in %s", r.Entry, dir)
		}
		return r.Entry, nil
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return "", session.InputError("no corpus for %s: %s does not exist", r.Target, dir)
	}
	var names []string
	for _, e := range es {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	switch len(names) {
	case 0:
		return "", session.InputError("the corpus %s is empty", dir)
	case 1:
		return names[0], nil
	}
	sort.Strings(names)
	return "", session.InputError("%s holds %d entries; name one: %s", dir, len(names), strings.Join(names, ", "))
}

type fuzzer struct {
	*Fuzz
	s      *session.Session
	sum    *report.Summary
	values []corpus.Value
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
	rec, err := f.s.Tester.Test(ctx, f.candidate(vs))
	return err == nil && rec.Outcome == dd.Fail, err
}

// reduce reduces the values in turns until none changes.
func (f *fuzzer) reduce(ctx context.Context) (bool, error) {
	for round := 0; ; round++ {
		changed, minimal := false, true
		for i := range f.values {
			before := f.values[i].String()
			m, err := f.reduceValue(ctx, i)
			if err != nil {
				return false, err
			}
			minimal = minimal && m
			if f.values[i].String() != before {
				changed = true
				f.s.Progress.Update(func(st *report.Status) { st.Size = corpus.Size(f.values) })
			}
		}
		if !changed {
			return minimal, nil
		}
	}
}

func (f *fuzzer) reduceValue(ctx context.Context, i int) (bool, error) {
	v := f.values[i]
	name := fmt.Sprintf("value %d (%s)", i+1, v.Type)
	switch v.Kind() {
	case "bytes":
		minimal := true
		for _, sp := range []decomp.Splitter{decomp.Lines{}, decomp.Tokens{}, decomp.Chars(v.Bytes)} {
			p, err := sp.Cut(f.values[i].Bytes)
			if err != nil || p.Len() == 0 {
				continue
			}
			f.s.Progress.Update(func(st *report.Status) { st.Pass, st.Granularity = name+" "+sp.Name(), 0 })
			res, err := f.s.Search(ctx, name+" "+sp.Name(), p.Len(), dd.Minimize, dd.Options{},
				func(c dd.Config) runner.Candidate {
					nv := f.values[i]
					nv.Bytes = p.Join(c)
					return f.candidate(f.with(i, nv))
				}, nil)
			if res.Fail != nil {
				f.values[i].Bytes = p.Join(res.Fail)
			}
			var nf *dd.NotFailingError
			if errors.As(err, &nf) {
				return false, session.NotReproduced("the entry that failed before does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
			}
			if err != nil {
				return false, err
			}
			minimal = res.Minimal
		}
		if len(f.values[i].Bytes) == 0 {
			return true, nil
		}
		return minimal, nil
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
