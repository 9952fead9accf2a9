package inputs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/decomp"
	"github.com/wynot/wynot/internal/session"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// IsolateSplits are the values of --split for isolate and maximize.
var IsolateSplits = []string{"auto", "lines", "tokens", "runes", "bytes"}

// Isolation is `wynot isolate` and `wynot maximize`. Isolation narrows
// the difference between a passing and a failing input down to a
// 1-minimal failure-inducing one (dd, TSE 2002 Fig. 15): it maximizes the
// passing input while it minimizes the failing one, until any single
// change more on the passing side, or less on the failing side, makes it
// fail or pass. Maximization (ddmax) keeps the failing input and grows the
// passing one, starting from the empty input, to a 1-maximal passing
// input: the largest part of the failing input that passes.
//
// The changes are an edit script from the passing to the failing input,
// computed in passes from coarse to fine: lines, then tokens and
// characters within what still differs.
type Isolation struct {
	Passing  string // the passing input ("" with Maximize: the empty input)
	Failing  string // the failing input
	Maximize bool   // ddmax instead of dd
	// Args treats the inputs as argument lists, one argument per line,
	// for the command of Test.Argv, which must then be the program alone.
	Args   bool
	Test   Test
	Out    Output
	Split  string // one of IsolateSplits; "" is auto
	Jobs   int
	Output string // -o: a directory for the results
	// Variant is the test order of dd; Bisect makes dd a binary search
	// when outcomes are determinate (TSE 2002 Proposition 18).
	Variant dd.Variant
	Bisect  bool
}

// Run runs the isolation or maximization.
func (r *Isolation) Run(ctx context.Context) (*report.Summary, error) {
	cmdName, alg := "isolate", dd.Isolate
	if r.Maximize {
		cmdName, alg = "maximize", dd.Maximize
	}
	sum := &report.Summary{Command: cmdName, Algorithm: alg.String()}
	split := r.Split
	if split == "" {
		split = "auto"
	}
	if !contains(IsolateSplits, split) {
		return sum, session.InputError("unknown --split %q (want one of %s)", split, strings.Join(IsolateSplits, ", "))
	}
	fail, failReg, err := readInput(r.Failing, "failing input")
	if err != nil {
		return sum, err
	}
	if len(fail) == 0 {
		return sum, session.InputError("the failing input %s is empty: there is no difference to isolate", r.Failing)
	}
	var pass []byte
	passName := "the empty input"
	if !r.Maximize {
		if pass, _, err = readInput(r.Passing, "passing input"); err != nil {
			return sum, err
		}
		passName = "the passing input " + r.Passing
	}
	if bytes.Equal(pass, fail) {
		return sum, session.InputError("the passing and the failing input are the same")
	}
	if split == "runes" && !(utf8.Valid(pass) && utf8.Valid(fail)) {
		return sum, session.InputError("the inputs are not UTF-8 text, so they cannot be cut into runes; use --split bytes")
	}
	if r.Args {
		if r.Test.Script != "" || len(r.Test.Argv) != 1 {
			return sum, session.InputError("with --argv, give the program alone after --: the inputs hold its arguments, one per line")
		}
	}
	outDir, err := r.resultDir(failReg)
	if err != nil {
		return sum, err
	}
	s, err := session.Open(cmdName, r.Test, r.Out, r.Jobs, r.Args, 1, max(len(pass), len(fail)))
	if err != nil {
		return sum, err
	}
	defer s.Close()
	iso := &isolator{Isolation: r, s: s, sum: sum, name: filepath.Base(r.Failing), split: split, alg: alg,
		pass: pass, fail: fail, outDir: outDir, passName: passName}
	iso.chooseNames()
	return sum, iso.run(ctx)
}

// readInput reads an input; it need not be a regular file.
func readInput(path, what string) ([]byte, bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, session.InputError("%s %s: %v", what, path, errors.Unwrap(err))
	}
	if st.IsDir() {
		return nil, false, session.InputError("%s %s is a directory; give a file", what, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, session.InputError("%s %s: %v", what, path, err)
	}
	return data, st.Mode().IsRegular(), nil
}

// resultDir is where NAME.pass and NAME.fail go: -o, else next to the
// failing input when it is a regular file, else the current directory.
func (r *Isolation) resultDir(failReg bool) (string, error) {
	dir := r.Output
	switch {
	case dir != "":
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return "", session.InputError("-o %s: %v", dir, err)
			}
		}
	case failReg:
		dir = filepath.Dir(r.Failing)
	default:
		dir = "."
	}
	if err := session.CheckWritable(dir); err != nil {
		return "", session.InputError("cannot write the results to %s: %v; give -o DIR", dir, err)
	}
	return dir, nil
}

type isolator struct {
	*Isolation
	s          *session.Session
	sum        *report.Summary
	name       string // the candidate's file name
	split      string
	alg        dd.Algorithm
	pass, fail []byte
	passName   string
	outDir     string
	suffix     string // ".k" when NAME.pass or NAME.fail exist already
	finest     string
}

func (iso *isolator) candidate(data []byte) runner.Candidate {
	if iso.Args {
		return runner.Candidate{Args: argLines(data)}
	}
	return runner.Candidate{Files: []runner.File{{Name: iso.name, Data: data}}}
}

// argLines reads an argument list, one argument per line.
func argLines(data []byte) []string {
	args := []string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSuffix(l, "\r"); l != "" {
			args = append(args, l)
		}
	}
	return args
}

func (iso *isolator) passes() []decomp.Splitter {
	if iso.Args {
		return []decomp.Splitter{decomp.Lines{}}
	}
	chars := decomp.Chars(iso.pass, iso.fail)
	switch iso.split {
	case "lines":
		return []decomp.Splitter{decomp.Lines{}}
	case "tokens":
		return []decomp.Splitter{decomp.Tokens{}}
	case "runes", "bytes":
		return []decomp.Splitter{chars}
	}
	return []decomp.Splitter{decomp.Lines{}, decomp.Tokens{}, chars}
}

func (iso *isolator) run(ctx context.Context) error {
	s, sum := iso.s, iso.sum
	sum.SizeBefore = len(iso.fail)
	what := "failing input"
	if iso.Args {
		what = "failing command"
	}
	if err := s.CheckOriginal(ctx, iso.candidate(iso.fail), what); err != nil {
		return err
	}
	sum.Signature = s.Signature()
	// The passing side must pass.
	rec, err := s.Tester.Test(ctx, iso.candidate(iso.pass))
	if err != nil {
		return err
	}
	if rec.Outcome != dd.Pass {
		r, _ := s.Tester.Exec(ctx, iso.candidate(iso.pass))
		return session.NotReproduced("%s does not pass (%s): %s", iso.passName, rec.Outcome, session.DescribeRun(r))
	}
	s.StartProgress(len(iso.fail) - len(iso.pass))
	s.Say("the %s fails: %s; %s passes", what, sum.Signature, iso.passName)

	minimal := true
	interrupted := false
	for k, sp := range iso.passes() {
		ok, perr := iso.pass1(ctx, sp, k == 0)
		minimal = minimal && ok
		if perr != nil {
			err = perr
			interrupted = ctx.Err() != nil
			break
		}
	}
	werr := iso.write()
	if err == nil {
		err = werr
	}
	confirmed := false
	if err == nil {
		confirmed, err = iso.confirm(ctx)
		interrupted = interrupted || ctx.Err() != nil
	}
	iso.finish(minimal && err == nil, confirmed, interrupted)
	s.Progress.Close()
	iso.human()
	if interrupted {
		return &session.ExitError{Code: session.ExitInterrupted, Err: errors.New("interrupted; the closest passing and failing inputs so far are kept")}
	}
	return err
}

// pass1 runs one pass: the edit script between the current passing and
// failing inputs, at one granularity, searched by dd or ddmax.
func (iso *isolator) pass1(ctx context.Context, sp decomp.Splitter, first bool) (bool, error) {
	s := iso.s
	p, err := sp.Cut(iso.pass)
	if err != nil {
		return false, err
	}
	f, err := sp.Cut(iso.fail)
	if err != nil {
		return false, err
	}
	script := decomp.Diff(p, f)
	iso.finest = sp.Name()
	if first {
		iso.sum.ElementsBefore = script.Len()
	}
	iso.sum.ElementsAfter = script.Len()
	if script.Len() == 0 {
		return true, nil
	}
	s.Progress.Update(func(st *report.Status) { st.Pass, st.Granularity = sp.Name(), 0 })
	s.TestLog.Printf("Pass %s: %s\n", sp.Name(), report.Plural(script.Len(), "change"))
	s.Mu.Lock()
	runs0 := s.Runs
	s.Mu.Unlock()
	t0 := time.Now()
	before := len(iso.fail) - len(iso.pass)
	res, err := s.Search(ctx, sp.Name(), script.Len(), iso.alg, dd.Options{Variant: iso.Variant, Bisect: iso.Bisect},
		func(c dd.Config) runner.Candidate { return iso.candidate(script.Apply(c)) },
		func(st dd.Step) {
			n := st.Fail - st.Pass
			s.Progress.Update(func(ps *report.Status) { ps.Size = n })
		})
	// Keep what was found, also when the search was cut short.
	if res.Fail != nil {
		iso.pass, iso.fail = script.Apply(res.Pass), script.Apply(res.Fail)
		iso.sum.ElementsAfter = len(res.Delta)
	}
	s.Mu.Lock()
	runs := s.Runs - runs0
	s.Mu.Unlock()
	iso.sum.Passes = append(iso.sum.Passes, report.PassStats{Name: sp.Name(), Tests: runs,
		BytesBefore: before, BytesAfter: len(iso.fail) - len(iso.pass), Seconds: time.Since(t0).Seconds()})
	var nf *dd.NotFailingError
	var np *dd.NotPassingError
	switch {
	case errors.As(err, &nf):
		return false, session.NotReproduced("the input that failed before does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
	case errors.As(err, &np):
		return false, session.NotReproduced("the input that passed before does not pass any more (%s); the test is flaky: try --repeat 3", np.Outcome)
	}
	return err == nil && res.Minimal && script.Minimal, err
}

// paths of the results.
func (iso *isolator) passPath() string { return filepath.Join(iso.outDir, iso.name+iso.suffix+".pass") }
func (iso *isolator) failPath() string { return filepath.Join(iso.outDir, iso.name+iso.suffix+".fail") }

// chooseNames picks the result names: NAME.pass and NAME.fail, or, when
// either exists, the first NAME.k.pass and NAME.k.fail of which neither
// does, so that no file is written over.
func (iso *isolator) chooseNames() {
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	for k := 1; exists(iso.passPath()) || !iso.Maximize && exists(iso.failPath()); k++ {
		iso.suffix = fmt.Sprintf(".%d", k)
	}
	if iso.suffix != "" {
		taken, ours := iso.name+".pass or "+iso.name+".fail", iso.name+iso.suffix+".pass and .fail"
		if iso.Maximize {
			taken, ours = iso.name+".pass", iso.name+iso.suffix+".pass"
		}
		fmt.Fprintf(messages(iso.Out), "wynot: %s exists in %s already; writing %s instead\n", taken, iso.outDir, ours)
	}
}

func (iso *isolator) write() error {
	if err := session.WriteAtomic(iso.passPath(), iso.pass, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", iso.passPath(), err)
	}
	if !iso.Maximize {
		if err := session.WriteAtomic(iso.failPath(), iso.fail, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", iso.failPath(), err)
		}
	}
	return nil
}

// confirm runs both results once more, without the cache.
func (iso *isolator) confirm(ctx context.Context) (bool, error) {
	ok := true
	for _, c := range []struct {
		data []byte
		want dd.Outcome
		what string
	}{{iso.pass, dd.Pass, "passing"}, {iso.fail, dd.Fail, "failing"}} {
		rec, err := iso.s.Tester.Retest(ctx, iso.candidate(c.data))
		iso.s.Mu.Lock()
		iso.s.Checks++
		iso.s.Mu.Unlock()
		if err != nil {
			return false, err
		}
		if rec.Outcome != c.want {
			iso.s.Say("warning: run again, the %s result gave %s (%s); the test may be flaky", c.what, rec.Outcome, rec.Detail)
			ok = false
		}
	}
	return ok, nil
}

// diff renders the failure-inducing difference as a unified diff of lines.
func (iso *isolator) diff() string {
	p, _ := decomp.Lines{}.Cut(iso.pass)
	f, _ := decomp.Lines{}.Cut(iso.fail)
	return decomp.Diff(p, f).Unified(iso.passPath(), iso.failPath(), 2)
}

func (iso *isolator) finish(minimal, confirmed, interrupted bool) {
	s, sum := iso.s, iso.sum
	s.Mu.Lock()
	defer s.Mu.Unlock()
	sum.Tests, sum.Checks, sum.CacheHits, sum.Flaky, sum.Outcomes = s.Runs+s.Checks, s.Checks, s.CacheHits, s.Flaky, s.Outcomes
	sum.SizeAfter = len(iso.fail)
	ps, fs := len(iso.pass), len(iso.fail)
	sum.PassSize, sum.FailSize = &ps, &fs
	sum.Granularity = iso.finest
	sum.Minimal, sum.Confirmed, sum.Interrupted = minimal, confirmed, interrupted
	sum.Seconds = time.Since(s.Start).Seconds()
	sum.Result = iso.passPath()
	sum.Files = []string{iso.passPath()}
	if !iso.Maximize {
		sum.Result = iso.failPath()
		sum.Files = append(sum.Files, iso.failPath())
		sum.Diff = iso.diff()
	}
}

func (iso *isolator) human() {
	s, sum := iso.s, iso.sum
	if s.Quiet {
		return
	}
	w := s.Stderr
	if iso.Maximize {
		fmt.Fprintf(w, "wynot: the largest passing part of %s has %s of %s (%s), found in %s, %.1fs\n", iso.Failing,
			report.Plural(len(iso.pass), "byte"), report.Plural(len(iso.fail), "byte"),
			report.Percent(100*float64(len(iso.pass))/float64(max(len(iso.fail), 1))), report.Plural(sum.Tests, "test"), sum.Seconds)
	} else {
		fmt.Fprintf(w, "wynot: isolated a difference of %s in %s, %.1fs; the common context is %s\n",
			report.Plural(sum.ElementsAfter, unitWord(iso.finest)), report.Plural(sum.Tests, "test"), sum.Seconds,
			report.Plural(len(iso.pass), "byte"))
		fmt.Fprint(w, iso.diff())
	}
	switch {
	case sum.Interrupted:
		fmt.Fprintf(w, "wynot: interrupted: not 1-minimal\n")
	case sum.Minimal && iso.Maximize:
		fmt.Fprintf(w, "wynot: the result is 1-maximal: adding any single one of the missing %s makes it fail\n", granularityWord(iso.finest))
	case sum.Minimal:
		fmt.Fprintf(w, "wynot: the difference is 1-minimal: with any one change less, the failing input passes; with any one more, the passing input fails\n")
	default:
		fmt.Fprintf(w, "wynot: the result is not certified minimal\n")
	}
	if !sum.Interrupted && !sum.Confirmed {
		fmt.Fprintf(w, "wynot: warning: the results did not behave the same when rerun; the test may be flaky\n")
	}
	if iso.Maximize {
		fmt.Fprintf(w, "wynot: result written to %s\n", iso.passPath())
	} else {
		fmt.Fprintf(w, "wynot: results written to %s (passes) and %s (fails)\n", iso.passPath(), iso.failPath())
	}
}

// unitWord names one piece of a split: "character", "line", ...
func unitWord(split string) string {
	switch split {
	case "runes":
		return "character"
	case "lines", "tokens", "bytes":
		return strings.TrimSuffix(split, "s")
	}
	return "change"
}

func granularityWord(split string) string {
	switch split {
	case "runes":
		return "characters"
	case "lines", "tokens", "bytes":
		return split
	}
	return split
}
