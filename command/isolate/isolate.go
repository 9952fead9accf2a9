// Package isolate is wynot isolate and wynot maximize. Isolation narrows
// the difference between a passing and a failing input down to a
// 1-minimal failure-inducing one (dd, "Simplifying and Isolating
// Failure-Inducing Input", TSE 2002, Fig. 15): it maximizes the passing
// input while it minimizes the failing one, until any single change more
// on the passing side, or less on the failing side, makes it fail or
// pass. Maximization (ddmax) keeps the failing input and grows the
// passing one, starting from the empty input, to a 1-maximal passing
// input: the largest part of the failing input that passes.
//
// The changes are an edit script from the passing to the failing input,
// computed in passes from coarse to fine: lines, then tokens and
// characters within what still differs (package decomp). For
// maximization they are the pieces of the failing input that the passing
// part lacks, so that every candidate is a part of the failing input.
package isolate

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/internal/enum"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Isolate is wynot isolate.
var Isolate = &command.Command{Name: "isolate", Section: "Isolate", Flags: func(fs *flag.FlagSet, f *command.Flags) command.Maker {
	return flags(fs, false)
}}

// Maximize is wynot maximize.
var Maximize = &command.Command{Name: "maximize", Section: "Maximize", Flags: func(fs *flag.FlagSet, f *command.Flags) command.Maker {
	return flags(fs, true)
}}

func flags(fs *flag.FlagSet, maximize bool) command.Maker {
	r := &Isolation{Maximize: maximize}
	fs.TextVar(&r.Split, "split", Auto, "auto, lines, tokens, runes or bytes")
	fs.TextVar(&r.Variant, "variant", dd.Book, "book or tse: the test order of the algorithm")
	fs.BoolVar(&r.Bisect, "bisect", true, "act on the first determinate outcome at granularity 2 (binary search)")
	fs.BoolVar(&r.Args, "argv", false, "the inputs are argument lists, one argument per line")
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		want, usage := 2, "PASSING FAILING"
		if maximize {
			want, usage = 1, "FILE"
		}
		if len(inv.Args) != want {
			return nil, command.Workload{}, command.UsageError("want %s, got %d file arguments", usage, len(inv.Args))
		}
		if r.Args && !inv.IsSet("j") {
			inv.Flags.Jobs = 1
		}
		r.Failing = inv.Args[len(inv.Args)-1]
		if !maximize {
			r.Passing = inv.Args[0]
		}
		r.Test, r.Out, r.Output = inv.Test, inv.Output, inv.Flags.Output
		return r.job()
	}
}

// Split is how the inputs are cut: the values of --split.
type Split int

// The kinds of split.
const (
	Auto   Split = iota // lines, then tokens, then characters
	Lines               // lines only
	Tokens              // tokens only
	Runes               // characters only
	Bytes               // bytes only
)

var splitNames = []string{"auto", "lines", "tokens", "runes", "bytes"}

func (sp Split) String() string { return enum.Name(splitNames, sp, "Split") }

// MarshalText returns the split's name.
func (sp Split) MarshalText() ([]byte, error) { return []byte(sp.String()), nil }

// UnmarshalText reads a split by name.
func (sp *Split) UnmarshalText(b []byte) (err error) {
	*sp, err = enum.Parse[Split](splitNames, string(b))
	return err
}

// Isolation is wynot isolate, or with Maximize wynot maximize.
type Isolation struct {
	Passing  string // the passing input ("" with Maximize: the empty input)
	Failing  string // the failing input
	Maximize bool   // ddmax instead of dd
	// Args treats the inputs as argument lists, one argument per line,
	// for the command of Test.Argv, which must then be the program alone.
	Args   bool
	Test   command.Test
	Out    command.Output
	Split  Split
	Output string // -o: a directory for the results
	// Variant is the test order of dd; Bisect makes dd a binary search
	// when outcomes are determinate (TSE 2002 Proposition 18).
	Variant dd.Variant
	Bisect  bool
}

// job reads the inputs, decides where the results go and makes the job.
func (r *Isolation) job() (command.Job, command.Workload, error) {
	alg := dd.Isolate
	if r.Maximize {
		alg = dd.Maximize
	}
	fail, failReg, err := readInput(r.Failing, "failing input")
	if err != nil {
		return nil, command.Workload{}, err
	}
	if len(fail) == 0 {
		return nil, command.Workload{}, command.InputError("the failing input %s is empty: there is no difference to isolate", keep.Quote(r.Failing))
	}
	var pass []byte
	passName := "the empty input"
	if !r.Maximize {
		if pass, _, err = readInput(r.Passing, "passing input"); err != nil {
			return nil, command.Workload{}, err
		}
		passName = "the passing input " + r.Passing
	}
	if bytes.Equal(pass, fail) {
		return nil, command.Workload{}, command.InputError("the passing and the failing input are the same")
	}
	if r.Split == Runes && !(utf8.Valid(pass) && utf8.Valid(fail)) {
		return nil, command.Workload{}, command.InputError("the inputs are not UTF-8 text, so they cannot be cut into runes; use --split bytes")
	}
	if r.Args {
		if r.Test.Script != "" || len(r.Test.Argv) != 1 {
			return nil, command.Workload{}, command.InputError("with --argv, give the program alone after --: the inputs hold its arguments, one per line")
		}
	}
	outDir, err := r.resultDir(failReg)
	if err != nil {
		return nil, command.Workload{}, err
	}
	iso := &isolator{Isolation: r, name: filepath.Base(r.Failing), alg: alg,
		pass: pass, fail: fail, pass0: pass, fail0: fail, size0: len(fail), outDir: outDir, passName: passName}
	iso.chooseNames()
	return iso, command.Workload{InPlace: r.Args, Files: 1, Size: max(len(pass), len(fail)), Inputs: []string{r.Failing}}, nil
}

// readInput reads an input; it need not be a regular file.
func readInput(path, what string) ([]byte, bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, command.InputError("%s %s: %v", what, keep.Quote(path), errors.Unwrap(err))
	}
	if st.IsDir() {
		return nil, false, command.InputError("%s %s is a directory; give a file", what, keep.Quote(path))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, command.InputError("%s %s: %v", what, keep.Quote(path), keep.UnwrapPath(err))
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
				return "", command.InputError("-o %s: %v", keep.Quote(dir), keep.UnwrapPath(err))
			}
		}
	case failReg:
		dir = filepath.Dir(r.Failing)
	default:
		dir = "."
	}
	if err := keep.CheckWritable(dir); err != nil {
		return "", command.InputError("cannot write the results to %s: %v; give -o DIR", keep.Quote(dir), keep.UnwrapPath(err))
	}
	return dir, nil
}

type isolator struct {
	*Isolation
	s          *command.Session
	name       string // the candidate's file name
	alg        dd.Algorithm
	pass, fail []byte
	searched   bool   // Search ran before (it runs again when a flaky test undid a result)
	pass0      []byte // the passing input at the start
	fail0      []byte // the failing input at the start
	size0      int    // the failing input's size at the start
	passName   string
	outDir     string
	suffix     string // ".k" when NAME.pass or NAME.fail exist already
	finest     string
	elements0  int                // changes at the coarsest level
	elements   int                // changes left
	passes     []report.PassStats // one per level
	kept       [][2]int           // with Maximize, the spans of fail that pass is: the part grows within it
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

func (iso *isolator) splitters() []decomp.Splitter {
	if iso.Args {
		return []decomp.Splitter{decomp.Lines{}}
	}
	chars := decomp.Chars(iso.pass, iso.fail)
	switch iso.Split {
	case Lines:
		return []decomp.Splitter{decomp.Lines{}}
	case Tokens:
		return []decomp.Splitter{decomp.Tokens{}}
	case Runes, Bytes:
		return []decomp.Splitter{chars}
	}
	return []decomp.Splitter{decomp.Lines{}, decomp.Tokens{}, chars}
}

// Begin starts from the failing input, which must fail, and the passing
// one, which must pass.
func (iso *isolator) Begin() command.Begin {
	what := "failing input"
	if iso.Args {
		what = "failing command"
	}
	pass := iso.candidate(iso.pass)
	// The progress line shows the difference left, or with Maximize the
	// passing part's size against the failing input's.
	size := len(iso.fail) - len(iso.pass)
	if iso.Maximize {
		size = len(iso.fail)
	}
	return command.Begin{Failing: iso.candidate(iso.fail), What: what, Passing: &pass, PassingWhat: iso.passName,
		Size: size, Algorithm: iso.alg.String()}
}

// Restart goes back to the inputs the search began from, when its
// results did not hold up (a flaky test).
func (iso *isolator) Restart() error {
	iso.pass, iso.fail, iso.kept, iso.passes = iso.pass0, iso.fail0, nil, nil
	return nil
}

// Search runs the passes from coarse to fine and writes the results.
func (iso *isolator) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	iso.s = s
	if !iso.searched {
		s.Say("%s passes", iso.passName)
	}
	iso.searched = true
	minimal := true
	var err error
	for k, sp := range iso.splitters() {
		ok, perr := iso.pass1(ctx, sp, k == 0)
		minimal = minimal && ok
		if perr != nil {
			err = perr
			break
		}
	}
	if werr := iso.write(); err == nil {
		err = werr
	}
	found := command.Found{Minimal: minimal, Kept: "the closest passing and failing inputs so far are kept",
		Confirm: []command.Check{{Candidate: iso.candidate(iso.pass), Want: dd.Pass, What: "the passing result"}}}
	if !iso.Maximize {
		found.Confirm = append(found.Confirm, command.Check{Candidate: iso.candidate(iso.fail), Want: dd.Fail, What: "the failing result"})
	}
	return found, err
}

// script returns the changes of a pass at the granularity of sp. For dd
// they are the edit script between the current passing and failing
// inputs. For ddmax they are the pieces of the failing input missing
// from the passing part, which is a subsequence of it: an edit script
// between the two, each cut on its own, may also delete pieces of the
// passing part (where the cut depends on the context, as a token does),
// and a set of its changes that inserts without the matching deletion
// tests bytes twice, which is no part of the input.
func (iso *isolator) script(sp decomp.Splitter) (*decomp.Script, error) {
	f, err := sp.Cut(iso.fail)
	if err != nil {
		return nil, err
	}
	if iso.Maximize {
		return decomp.Grow(f, iso.kept), nil
	}
	p, err := sp.Cut(iso.pass)
	if err != nil {
		return nil, err
	}
	return decomp.Diff(p, f), nil
}

// pass1 runs one pass: the changes between the current passing and
// failing inputs, at one granularity, searched by dd or ddmax.
func (iso *isolator) pass1(ctx context.Context, sp decomp.Splitter, first bool) (bool, error) {
	s := iso.s
	script, err := iso.script(sp)
	if err != nil {
		return false, err
	}
	iso.finest = sp.Name()
	if first {
		iso.elements0 = script.Len()
	}
	iso.elements = script.Len()
	if script.Len() == 0 {
		return true, nil
	}
	s.Status(func(st *report.Status) {
		st.Pass, st.Granularity = sp.Name(), 0
		if iso.Maximize {
			st.Size = len(iso.pass)
		}
	})
	s.Logf("Pass %s: %s\n", sp.Name(), report.Plural(script.Len(), "change"))
	runs0 := s.Stats().Runs
	t0 := time.Now()
	before := len(iso.fail) - len(iso.pass)
	if !iso.Maximize {
		before = changeBytes(script, nil)
	}
	res, err := s.Search(ctx, command.Search{Name: sp.Name(), N: script.Len(), Algorithm: iso.alg, Options: dd.Options{Variant: iso.Variant, Bisect: iso.Bisect},
		Build: func(c dd.Config) runner.Candidate { return iso.candidate(script.Apply(c)) },
		OnStep: func(st dd.Step) {
			if n, ok := iso.shown(script, st); ok {
				s.Status(func(ps *report.Status) { ps.Size = n })
			}
		}})
	// Keep what was found, also when the search was cut short.
	if res.Fail != nil {
		iso.take(script, res.Pass, res.Fail)
		iso.elements = len(res.Delta)
	}
	runs := s.Stats().Runs - runs0
	after := len(iso.fail) - len(iso.pass)
	if !iso.Maximize {
		after = before
		if res.Fail != nil {
			after = changeBytes(script, res.Delta)
		}
	}
	iso.passes = append(iso.passes, report.PassStats{Name: sp.Name(), Tests: runs,
		BytesBefore: before, BytesAfter: after, Seconds: time.Since(t0).Seconds()})
	if nr := command.Unreproduced(err, "the input", "the input"); nr != nil {
		return false, nr
	}
	return err == nil && res.Minimal && script.Minimal, err
}

// changeBytes is what the changes c of script hold, the bytes they
// delete and insert (all of its changes for nil): the size of the
// difference they make, whichever input is longer.
func changeBytes(script *decomp.Script, c []int) int {
	if c == nil {
		c = dd.All(script.Len())
	}
	n := 0
	for _, k := range c {
		if insert, piece := script.Change(k); insert {
			n += len(script.F.Piece(piece))
		} else {
			n += len(script.P.Piece(piece))
		}
	}
	return n
}

// shown is the size the progress line shows after a step of the search
// over script, and false when the step leaves it as it is: the changes
// left, or with Maximize the bytes of the passing part as it grows.
func (iso *isolator) shown(script *decomp.Script, st dd.Step) (int, bool) {
	if !iso.Maximize {
		return st.Fail - st.Pass, true
	}
	if st.Rule != dd.IncreaseToSubset && st.Rule != dd.IncreaseToComplement {
		return 0, false
	}
	return len(script.Apply(st.Config)), true
}

// take keeps what a pass found: the passing and failing inputs that the
// configurations pass and fail of its script give.
func (iso *isolator) take(script *decomp.Script, pass, fail dd.Config) {
	iso.pass, iso.fail = script.Apply(pass), script.Apply(fail)
	if iso.Maximize {
		iso.kept = script.Spans(pass)
	}
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
		if !iso.Out.Quiet && iso.Out.Stderr != nil {
			fmt.Fprintf(iso.Out.Stderr, "wynot: %s exists in %s already; writing %s instead\n", taken, iso.outDir, ours)
		}
	}
}

func (iso *isolator) write() error {
	paths, data := []string{iso.passPath(), iso.failPath()}, [][]byte{iso.pass, iso.fail}
	if iso.Maximize {
		paths = paths[:1]
	}
	for i, p := range paths {
		err := keep.WriteAtomic(p, data[i], 0o644)
		switch {
		case keep.Full(err) && iso.Output != "":
			return keep.NoRoom(err, "-o "+keep.Quote(iso.Output), p, "a result")
		case keep.Full(err) && iso.outDir == ".":
			return keep.NoRoom(err, "the current directory", p, "a result")
		case keep.Full(err):
			return keep.NoRoom(err, "the failing input "+keep.Quote(iso.Failing), p, "a result")
		case err != nil:
			return fmt.Errorf("writing %s: %w", keep.Quote(p), keep.UnwrapPath(err))
		}
	}
	return nil
}

// diff renders the failure-inducing difference as a unified diff of lines.
func (iso *isolator) diff() string {
	return decomp.UnifiedLines(iso.pass, iso.fail, iso.passPath(), iso.failPath(), 2)
}

// Close fills in the summary and shows the difference.
func (iso *isolator) Close(sum *report.Summary, end command.End) command.Closing {
	sum.SizeBefore = iso.size0
	sum.SizeAfter = len(iso.fail)
	sum.ElementsBefore, sum.ElementsAfter = iso.elements0, iso.elements
	ps, fs := len(iso.pass), len(iso.fail)
	sum.Detail = Detail{PassSize: &ps, FailSize: &fs}
	sum.Passes = iso.passes
	sum.Granularity = iso.finest
	sum.Result = iso.passPath()
	sum.Files = []string{iso.passPath()}
	c := command.Closing{
		Page: func() report.Page { return report.Page{Result: string(iso.pass)} }}
	if !iso.Maximize {
		sum.Result = iso.failPath()
		sum.Files = append(sum.Files, iso.failPath())
		sum.Diff = iso.diff()
		diff := sum.Diff
		c.Page = func() report.Page { return report.Page{Result: string(iso.fail), Diff: diff} }
	}
	if iso.Maximize {
		c.Head = []string{fmt.Sprintf("the largest passing part of %s has %s of %s (%s), found in %s, %.1fs", keep.Quote(iso.Failing),
			report.Plural(len(iso.pass), "byte"), report.Plural(len(iso.fail), "byte"),
			report.Percent(100*float64(len(iso.pass))/float64(max(len(iso.fail), 1))), report.Plural(sum.Tests, "test"), sum.Seconds)}
		c.Tail = []string{"result written to " + keep.Quote(iso.passPath())}
	} else {
		c.Head = []string{fmt.Sprintf("isolated a difference of %s in %s, %.1fs; the common context is %s",
			report.Plural(sum.ElementsAfter, unitWord(iso.finest)), report.Plural(sum.Tests, "test"), sum.Seconds,
			report.Plural(len(iso.pass), "byte"))}
		// The terminal shows a window of long lines and a hex dump of
		// binary inputs; the result files and the JSON summary hold all.
		if report.IsBinary(iso.pass) || report.IsBinary(iso.fail) {
			c.Text = report.HexDiff(iso.pass, iso.fail, iso.passPath(), iso.failPath())
		} else {
			c.Text = report.ShowDiff(sum.Diff)
		}
		c.Tail = []string{fmt.Sprintf("results written to %s (passes) and %s (fails)", keep.Quote(iso.passPath()), keep.Quote(iso.failPath()))}
	}
	switch {
	case end.Interrupted:
		c.Verdict = []string{"interrupted: not 1-minimal"}
	case end.Minimal && iso.Maximize:
		c.Verdict = []string{fmt.Sprintf("the result is 1-maximal: adding any single one of the missing %s makes it fail", granularityWord(iso.finest))}
	case end.Minimal:
		c.Verdict = []string{"the difference is 1-minimal: " + iso.neighbours()}
	default:
		c.Verdict = []string{"the result is not certified minimal"}
	}
	return c
}

// neighbours says what the inputs one change from the results did, as
// the search tested them: the failing result with any one change less
// does not fail, the passing one with any one more does not pass; each
// side says "passes" ("fails") only when every such input did, and how
// many were unresolved otherwise (another failure, or no run at all).
func (iso *isolator) neighbours() string {
	var sp decomp.Splitter
	for _, s := range iso.splitters() {
		if s.Name() == iso.finest {
			sp = s
		}
	}
	script, err := iso.script(sp)
	if sp == nil || err != nil || script.Len() == 0 {
		return "with any one change less, the failing input does not fail; with any one more, the passing input does not pass"
	}
	const untested = 3
	var less, more [4]int // by outcome, and untested
	count := func(n *[4]int, c []int) {
		if o, ok := iso.s.Known(iso.candidate(script.Apply(c))); ok {
			n[o]++
		} else {
			n[untested]++
		}
	}
	for k := range script.Len() {
		count(&less, dd.AllBut(script.Len(), k))
		count(&more, []int{k})
	}
	side := func(n [4]int, want dd.Outcome, all, not, did string) string {
		if n[want] == script.Len() {
			return all
		}
		s := fmt.Sprintf("%s (%d of %d %s, %d unresolved", not, n[want], script.Len(), did, n[dd.Unresolved])
		if n[untested] > 0 {
			s += fmt.Sprintf(", %d not run", n[untested])
		}
		return s + ")"
	}
	return "with any one change less, the failing input " + side(less, dd.Pass, "passes", "does not fail", "passed") +
		"; with any one more, the passing input " + side(more, dd.Fail, "fails", "does not pass", "failed")
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
