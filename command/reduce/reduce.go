// Package reduce is wynot reduce: it simplifies failing input files,
// or the argument list of a failing command, to a 1-minimal one (ddmin,
// "Simplifying and Isolating Failure-Inducing Input", TSE 2002, Fig. 5),
// cutting each input by its syntax where it has one (package syntax) and
// by lines, bracket groups, tokens and characters otherwise (package
// decomp).
package reduce

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/split"
	"github.com/wynot/wynot/domain/syntax"
	_ "github.com/wynot/wynot/domain/syntax/all" // registers every language in the table of languages
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot reduce.
var Command = &command.Command{Name: "reduce", Section: "Reduce", Flags: flags}

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	var r Reduction
	fs.TextVar(&r.Split, "split", split.Split{}, "auto (each input in its language by its name: "+strings.Join(syntax.Names(), ", ")+"), text, go, tree:LANG (a tree-sitter grammar), lines, brackets, tokens, runes or bytes")
	fs.BoolVar(&r.TypeCheck, "typecheck", true, "predict candidates their language rejects beyond parsing (Go: a new type error; SQL: a table the script no longer creates) unresolved, without a test, once the first few such candidates did not fail (--typecheck=false tests them all)")
	fs.TextVar(&r.Variant, "variant", dd.Book, "book or tse: the test order of ddmin")
	fs.IntVar(&r.Beyond, "n-minimal", -1, "tests for the checks past 1-minimality: every span of 2 to 8 pieces, and pairs and triples of characters, removed at once (0: none; default: on a result of at most 32 bytes, half as many as the search ran, at least 50)")
	fs.BoolVar(&r.Args, "argv", false, "reduce the command's arguments")
	fs.Func("with", "a `FILE` the test needs beside the candidate, copied unchanged into every test's directory (repeatable)",
		func(s string) error { r.With = append(r.With, s); return nil })
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		if r.Args {
			// No inputs: a "--" after the first is the command's.
			inv.CommandOnly()
		}
		if r.Args && !inv.IsSet("j") {
			// Tests of --argv run in the current directory, where parallel
			// runs of a compiler could overwrite each other's files.
			inv.Flags.Jobs = 1
		}
		r.Files, r.Test, r.Out, r.Output, r.jobs = inv.Args, inv.Test, inv.Output, inv.Flags.Output, inv.Flags.Jobs
		r.typeCheckAsked = inv.IsSet("typecheck") && r.TypeCheck
		if err := inv.Lock(r.uses()); err != nil {
			return nil, command.Workload{}, err
		}
		return r.job(ctx)
	}
}

// Languages says, for wynot version, which languages inputs are reduced
// in as syntax trees, and which ones this wynot lacks (syntax.Absent)
// and reduces as text, and why: "languages: go; as text: c, cpp, …
// (this wynot was built without cgo, …)".
func Languages() string {
	s := "languages: " + strings.Join(syntax.Names(), ", ")
	var why []string
	byWhy := map[string][]string{}
	for _, a := range syntax.Absents() {
		if _, ok := byWhy[a.Why]; !ok {
			why = append(why, a.Why)
		}
		byWhy[a.Why] = append(byWhy[a.Why], a.Name)
	}
	for _, w := range why {
		s += fmt.Sprintf("; as text: %s (%s)", strings.Join(byWhy[w], ", "), w)
	}
	return s
}

// Reduction is wynot reduce: it simplifies failing input files (or, with
// Args, the argument list of the failing command) to a 1-minimal one.
type Reduction struct {
	Files []string // the input files
	Args  bool     // reduce the arguments of Test.Argv instead of files
	Test  command.Test
	Out   command.Output
	Split split.Split
	// TypeCheck predicts Go candidates with new type errors (go/types)
	// Unresolved without running the test, once the first few of them
	// were run and did not fail (on by default: on the Go cases of
	// bench/RESULTS.md it saves half the tests or more).
	TypeCheck bool
	// typeCheckAsked says --typecheck was given on the command line
	// (an error when no input is Go).
	typeCheckAsked bool
	// With are files the test needs beside the candidate, copied
	// unchanged into every test's directory.
	With   []string
	Output string // -o: where results go instead of replacing the inputs
	// Variant is the test order of ddmin.
	Variant dd.Variant
	// Beyond bounds the tests of the checks past 1-minimality
	// (schedule.Beyond): 0 for none, -1 for half as many as the search
	// ran, at least minBeyond.
	Beyond int
	jobs   int // tests at once, for the room a directory's copies need
}

// uses are what the reduction reads and writes, for its lock
// (command.Invocation.Lock): an input it reduces in place, a file or a
// tree, it writes; one whose result goes elsewhere it only reads; -o it
// writes.
func (r *Reduction) uses() []keep.Use {
	var us []keep.Use
	for _, p := range r.Files {
		st, err := os.Stat(p)
		tree := err == nil && st.IsDir()
		switch {
		case tree && r.Output == "":
			us = append(us, keep.Use{Path: p, Write: true, Doing: "reduces the tree " + keep.Quote(p) + " in place"})
		case tree:
			us = append(us, keep.Use{Path: p, Doing: "reads the tree " + keep.Quote(p)})
		case r.Output == "" && keep.Replaceable(p):
			us = append(us, keep.Use{Path: p, Write: true, Doing: "reduces " + keep.Quote(p) + " in place"})
		default:
			us = append(us, keep.Use{Path: p, Doing: "reads " + keep.Quote(p)})
		}
	}
	if r.Output != "" {
		us = append(us, keep.Use{Path: r.Output, Write: true, Doing: "writes its result to " + keep.Quote(r.Output) + " (-o)"})
	}
	return us
}

// input is one file being reduced: where its result goes, its original
// and the smallest failing content so far (keep.Entry).
type input struct {
	*keep.Entry
	syn *syntax.Syntax // the input's language, when it is reduced as a syntax tree
	// whole says a file of a directory is only ever removed as a whole
	// (a link, a binary or empty file), never cut.
	whole bool
}

// job reads the inputs, decides where the results go and makes the job.
func (r *Reduction) job(ctx context.Context) (command.Job, command.Workload, error) {
	if r.Args {
		if len(r.Files) > 0 {
			return nil, command.Workload{}, command.InputError("--argv reduces the command's arguments; give no input files")
		}
		if r.Test.Script != "" || len(r.Test.Argv) < 2 {
			return nil, command.Workload{}, command.InputError("--argv needs a command with arguments after --")
		}
		return &argReducer{Reduction: r, args: r.Test.Argv[1:]}, command.Workload{InPlace: true}, nil
	}
	if len(r.Files) == 0 {
		return nil, command.Workload{}, command.InputError("no input file to reduce")
	}
	var ins []*input
	var t *dirTree
	var err error
	wl := command.Workload{Files: len(r.Files)}
	if st, serr := os.Stat(r.Files[0]); serr == nil && st.IsDir() {
		// A directory: its files are reduced together.
		if len(r.Files) > 1 {
			return nil, command.Workload{}, command.InputError("input %s is a directory: give one directory, or files", keep.Quote(r.Files[0]))
		}
		ins, t, err = r.openTree(ctx, r.Files[0])
		wl.Files = 0
		// go test ./pkg typed in the tree tests the candidate's ./pkg.
		wl.Tree = []string{r.Files[0]}
		wl.InTree = func(rel string) bool {
			return slices.ContainsFunc(ins, func(in *input) bool { return in.Name == rel || strings.HasPrefix(in.Name, rel+"/") })
		}
	} else {
		ins, err = r.openInputs(ctx)
	}
	if err != nil {
		return nil, command.Workload{}, err
	}
	with, err := r.readWith(ins, t != nil)
	if err != nil {
		return nil, command.Workload{}, err
	}
	for _, in := range ins {
		wl.Size += in.Size
	}
	if t == nil {
		wl.Inputs = append(append(wl.Inputs, r.Files...), r.With...)
	} else {
		wl.Copies = t.ws
	}
	return newReducer(r, ins, with, t), wl, nil
}

// reducer is the job of wynot reduce on files.
type reducer struct {
	*Reduction
	s         *command.Session
	ins       []*input
	res       *keep.Result  // the inputs' results, as written
	with      []runner.File // files beside the candidate (--with)
	passes    []report.PassStats
	guarantee schedule.Guarantee // what the checks past 1-minimality established
	formatted []string           // results printed by their language's formatter
	elements0 int                // the finest pieces of the originals
	searched  bool               // Search ran before (it runs again when a flaky test undid a result)
	mu        sync.Mutex
	// typesOff says where a candidate with a new type error failed when
	// tested (probeTypes): the test does not compile the code there, and
	// type errors there predict nothing. The key is the package
	// directory of the error in a tree, "" for files on their own.
	typesOff map[string]bool
	probed   bool
	// tree is the directory reduced as a whole, when the input is one.
	tree *dirTree
	// unsimpler counts the candidates predicted because they would not
	// have made their input simpler.
	unsimpler atomic.Int64
	// gen counts the changes of the inputs' contents: a unit's bundle
	// made at another generation is made again (unit.data).
	gen atomic.Uint64
}

// newReducer is the reducer of the inputs ins, of the directory t when
// one is reduced as a whole.
func newReducer(r *Reduction, ins []*input, with []runner.File, t *dirTree) *reducer {
	rd := &reducer{Reduction: r, ins: ins, with: with, tree: t, res: &keep.Result{}}
	for _, in := range ins {
		rd.res.Entries = append(rd.res.Entries, in.Entry)
	}
	if t != nil {
		rd.res.Tree = t.result
		rd.relayerAll()
	}
	return rd
}

func (rd *reducer) candidate(fi int, data []byte) runner.Candidate {
	if rd.tree != nil {
		var ch map[int][]byte
		if fi >= 0 {
			ch = map[int][]byte{fi: data}
		}
		return rd.treeCandidate(ch, nil)
	}
	// The other inputs as they are now: a search's steps write them
	// (improve) while its speculative tests are being made.
	files := make([]runner.File, len(rd.ins))
	rd.mu.Lock()
	for i, in := range rd.ins {
		files[i] = runner.File{Name: in.Name, Data: in.Data}
	}
	rd.mu.Unlock()
	if fi >= 0 {
		files[fi].Data = data
	}
	return runner.Candidate{Files: append(files, rd.with...)}
}

func (rd *reducer) size() int { return rd.res.Size() }

func (rd *reducer) what() string {
	if rd.tree != nil {
		return "original tree"
	}
	if len(rd.ins) > 1 {
		return "original inputs"
	}
	return "original input"
}

// Begin starts from the inputs as they are.
func (rd *reducer) Begin() command.Begin {
	return command.Begin{Failing: rd.candidate(-1, nil), What: rd.what(), Size: rd.size(), Algorithm: "ddmin",
		Empty: rd.empty(), EmptyWhat: "the empty " + map[bool]string{true: "tree", false: "input"}[rd.tree != nil]}
}

// empty is the smallest candidate a reduction could reach: every input
// empty, or for a tree every file removed (the files given with --with
// stay as they are).
func (rd *reducer) empty() *runner.Candidate {
	var c runner.Candidate
	if rd.tree != nil {
		gone := map[int]bool{}
		for i := range rd.ins {
			gone[i] = true
		}
		c = rd.treeCandidate(nil, gone)
	} else {
		for _, in := range rd.ins {
			c.Files = append(c.Files, runner.File{Name: in.Name})
		}
		c.Files = append(c.Files, rd.with...)
	}
	return &c
}

// Search keeps the originals and runs the rounds of passes until none
// shrinks an input; then the result is formatted and written.
func (rd *reducer) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	rd.s = s
	found := command.Found{Kept: "the smallest failing input so far is kept"}
	if rd.tree != nil {
		found.Kept = "the smallest failing tree so far is kept"
		command.WatchTree(s, rd.tree.ws)
		rd.tree.result.Progress = rd.writing
	}
	if err := rd.res.KeepOriginals(); err != nil {
		return command.Found{}, command.InputError("%w", err) // nothing was written
	}
	defer rd.res.DropBackups()
	if !rd.searched { // the inputs are the originals
		rd.elements0 = rd.elements()
		s.Say("reducing %s, %s at a time, %s per test at most", report.Plural(rd.size(), "byte"),
			report.Plural(s.Jobs, "test"), s.Timeout())
	}
	rd.searched = true

	var certified bool
	var g schedule.Guarantee
	var err error
	for again := true; again; {
		sched := rd.schedule()
		var beyond report.PassStats
		certified, g, beyond, err = rd.run(ctx, sched)
		rd.passes = append(rd.passes, passStats(sched.Stats)...)
		if beyond.Tests > 0 {
			rd.passes = append(rd.passes, beyond)
		}
		again = false
		if certified && err == nil {
			// A small result whose language rejected removals that no
			// longer parse: tested once; one that fails makes the input
			// text, reduced again.
			again, err = rd.probeParse(ctx)
			if !again && err == nil {
				again, err = rd.probeTypesAgain(ctx)
			}
		}
	}
	rd.guarantee = g
	if err == nil {
		err = rd.format(ctx)
	}
	for _, in := range rd.ins {
		if werr := rd.flush(in); werr != nil && err == nil {
			err = werr
		}
	}
	if rd.tree == nil {
		// Tests that get the input by {} or on standard input run where
		// wynot was started: say what candidates wrote there (the
		// original's runs did not), but for the result and the original
		// kept beside it.
		for _, in := range rd.ins {
			s.Own(keep.LineageDir(), in.Dest, in.Backup)
		}
		s.SayWritesDuring()
	}
	if nr := (*keep.NoRoomError)(nil); errors.As(err, &nr) && !slices.ContainsFunc(rd.ins, func(in *input) bool { return in.Written() }) {
		found.Kept = "" // no result could be written: the inputs are as they were
	}
	found.Minimal = certified
	// What to confirm is the result as it is now, after the search.
	found.Confirm = []command.Check{{Candidate: rd.candidate(-1, nil), Want: dd.Fail, What: "the result"}}
	if certified && err == nil {
		found.Removals, err = rd.removals(ctx)
	}
	return found, err
}

// minBeyond is the least budget of the checks past 1-minimality when
// half the search's tests are fewer: enough for the spans and pairs of a
// result of about eight characters.
const minBeyond = 50

// maxBeyondSize is the largest result the checks past 1-minimality run
// on by default: their candidates grow as the square and the cube of
// the result's characters, and on larger results (a JSON document of 54
// bytes: 197 tests, nothing found) they cost more than they pay.
const maxBeyondSize = 32

// run runs the schedule to its fixpoint and, while the result is
// 1-minimal, the checks past it (schedule.RunBeyond), within the budget
// of --n-minimal: the candidates, up to s.Jobs at a time, through the
// session; a smaller one that fails is taken and the schedule runs again
// from it. It returns what the checks established, and their statistics
// as a pass.
func (rd *reducer) run(ctx context.Context, sched *schedule.Schedule[unit]) (bool, schedule.Guarantee, report.PassStats, error) {
	s := rd.s
	st := report.PassStats{Name: "n-minimality: spans, pairs, triples", BytesBefore: -1}
	b := schedule.DefaultBeyond(rd.Beyond)
	if rd.Beyond < 0 {
		b.Grant = func() int {
			if rd.size() > maxBeyondSize {
				return 0
			}
			return max(minBeyond, s.Stats().Runs/2)
		}
	}
	minimal, g, err := sched.RunBeyond(ctx, rd.step(sched), b,
		func(ctx context.Context, rs []schedule.Removal[unit]) (int, int, error) {
			if len(rs) == 0 {
				return -1, 0, nil
			}
			if st.BytesBefore < 0 {
				st.BytesBefore = rd.size()
			}
			s.Status(func(ps *report.Status) { ps.Pass, ps.Granularity = "n-minimality", 0 })
			s.Logf("Pass n-minimality: %s\n", report.Plural(len(rs), "candidate"))
			t0 := time.Now()
			defer func() { st.Seconds += time.Since(t0).Seconds() }()
			first, tested, err := schedule.FirstFailing(ctx, len(rs), s.Jobs, func(ctx context.Context, i int) (dd.Outcome, error) {
				rec, err := s.TestOne(ctx, "n-minimality", rs[i].Unit.Of.candidate(rs[i].Data))
				return rec.Outcome, err
			})
			st.Tests += tested
			return first, tested, err
		},
		func(r schedule.Removal[unit]) {
			s.Logf("Pass n-minimality: %d of %s of %s at once still fail\n", r.Size, r.Pass, r.Unit.Of.label())
			r.Unit.Of.improve(r.Data)
		})
	st.BytesAfter = rd.size()
	if st.BytesBefore < 0 {
		st.BytesBefore = st.BytesAfter
	}
	return minimal, g, st, err
}

// Restart goes back to the originals: the inputs' results are written
// back to what the search began from.
func (rd *reducer) Restart() error {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	err := rd.res.Restart()
	rd.gen.Add(1)
	rd.relayerAll()
	if err != nil {
		return err
	}
	size := rd.size()
	rd.s.Status(func(st *report.Status) { st.Size = size })
	return nil
}

// maxRemovals bounds the removals rechecked before a result is called
// 1-minimal; a larger result is taken as the search certified it, unless
// the test has shown itself flaky.
const maxRemovals = 5000

// removals are the result with one change less, for each change of each
// pass of the schedule (and, in a tree, each file less): what
// 1-minimality says must not fail. Candidates a pass rejects (they do not
// parse) are left out, as the search predicted them; so are duplicates
// and the result itself.
func (rd *reducer) removals(ctx context.Context) ([]command.Removal, error) {
	var rs []command.Removal
	if rd.tree != nil {
		rs = rd.treeRemovals()
	}
	if len(rs) > maxRemovals {
		return nil, nil // too many to recheck: as the search certified it
	}
	ss, ok, err := rd.schedule().Removals(ctx, maxRemovals-len(rs))
	if err != nil || !ok {
		return nil, err
	}
	for _, r := range ss {
		u := r.Unit.Of
		what := fmt.Sprintf("removing %s %d of %d", r.Pass, r.Index+1, r.Of)
		if l := u.label(); l != "" {
			what += " in " + l
		}
		rs = append(rs, command.Removal{Candidate: u.candidate(r.Data), What: what, Take: func() { u.improve(r.Data) }})
	}
	return rs, nil
}

// format prints each input in a language with a formatter (Go: gofmt)
// as the formatter would, and keeps that form when it still fails. The
// token and character passes leave text unformatted; formatting changes
// no syntax tree, so the result stays minimal.
func (rd *reducer) format(ctx context.Context) error {
	for fi, in := range rd.ins {
		if in.Removed || in.syn == nil || in.syn.Format == nil {
			continue
		}
		out, err := in.syn.Format(in.Data)
		if err != nil || string(out) == string(in.Data) {
			continue
		}
		rec, err := rd.s.TestOne(ctx, "format", rd.candidate(fi, out))
		if err != nil {
			return err
		}
		if rec.Outcome != dd.Fail {
			rd.s.Say("the formatted form of %s does not fail (%s); keeping it unformatted", keep.Quote(in.Name), rec.Outcome)
			continue
		}
		rd.mu.Lock()
		in.Data, in.Dirty = out, true
		rd.gen.Add(1)
		rd.relayer([]*input{in})
		rd.mu.Unlock()
		rd.formatted = append(rd.formatted, in.Dest)
	}
	return nil
}

// granularity names the finest pieces of the split.
func (rd *reducer) granularity() string {
	var texts [][]byte
	for _, in := range rd.ins {
		if !in.whole {
			texts = append(texts, in.Data)
		}
	}
	return rd.Split.Granularity(texts)
}

// elements counts the finest pieces of all inputs.
func (rd *reducer) elements() int {
	n, g := 0, rd.granularity()
	for _, in := range rd.ins {
		if !in.Removed && !in.whole {
			n += split.Count(g, in.Data)
		}
	}
	return n
}

// singlesFirst is the most transformations of a syntax tree pass (or of
// replacements) for which ddmin starts by testing each alone
// (dd.Options.Start).
const singlesFirst = 16

// pass runs ddmin on one unit decomposed by one pass. It reports, for
// the schedule, whether the search completed (the result is 1-minimal
// for this decomposition), whether the unit shrank (became simpler:
// see schedule.Simpler), and the pass's statistics. Candidates the plan
// rejects (they do not parse) are predicted Unresolved without a test
// (Debugging Book, "Reducing Failure-Inducing Inputs": predicting test
// outcomes), and so are those that would not make the input simpler.
func (rd *reducer) pass(ctx context.Context, u unit, sp decomp.Pass, transforms bool) (schedule.Ran, error) {
	s := rd.s
	src := u.data()
	plan, err := sp.Plan(src)
	if err != nil {
		return schedule.Ran{}, fmt.Errorf("%s: %s: %w", u.name, sp.Name(), err)
	}
	if plan.Len() == 0 {
		return schedule.Ran{Minimal: true}, nil
	}
	before := u.size()
	name := sp.Name()
	if l := u.label(); l != "" {
		name += " of " + l
	}
	s.Status(func(st *report.Status) { st.Pass, st.Granularity = name, 0 })
	s.Logf("Pass %s: %s\n", name, report.Plural(plan.Len(), "change"))
	st0 := s.Stats()
	t0 := time.Now()

	ps := &schedule.PlanSearch{Plan: plan, Src: src, Admit: rd.tested}
	opts := dd.Options{Variant: rd.Variant}
	if transforms && plan.Len() <= singlesFirst {
		// A level of a syntax tree, or replacements, with few
		// transformations: test each alone first (most levels of a deep
		// tree have none to make).
		opts.Start = plan.Len()
	}
	res, err := s.Search(ctx, command.Search{Name: name, N: plan.Len(), Algorithm: dd.Minimize, Options: opts,
		Test: func(ctx context.Context, c dd.Config) (runner.Test, error) {
			data, err := ps.Candidate(c)
			if err != nil {
				if errors.Is(err, schedule.ErrNotSimpler) {
					rd.unsimpler.Add(1)
				}
				return s.Predict(err.Error()), nil
			}
			t, err := s.Test(ctx, u.candidate(data))
			if err == nil && t.Outcome == dd.Fail {
				ps.Failed(c, data)
			}
			return t, err
		},
		OnStep: func(st dd.Step) {
			if st.Rule == dd.ReduceToSubset || st.Rule == dd.ReduceToComplement {
				if data, ok := ps.Content(st.Config); ok {
					u.improve(data)
				}
			}
		}})
	// The result so far is the best even when the search was cut short.
	settled := true
	if res.Fail != nil {
		best, ok := ps.Content(res.Fail)
		if ok && schedule.Simpler(best, u.data()) {
			u.improve(best)
		}
		// The search ended where the input is now, unless a step it
		// took was not simpler than one taken before it (tests run in
		// parallel): then this pass is not known to be done.
		settled = ok && bytes.Equal(best, u.data())
	}
	st1 := s.Stats()
	ran := schedule.Ran{Changes: plan.Len(), Tests: st1.Runs - st0.Runs, Predicted: st1.Predicted - st0.Predicted,
		Before: before, After: u.size(), Seconds: time.Since(t0).Seconds()}
	s.Logf("Pass %s done: %s, %d predicted, %s removed\n", name, report.Plural(ran.Tests, "test"), ran.Predicted,
		report.Plural(before-ran.After, "byte"))
	if nr := command.Unreproduced(err, "the input", ""); nr != nil {
		return ran, nr
	}
	ran.Minimal = err == nil && res.Minimal && settled
	ran.Shrank = !bytes.Equal(u.data(), src)
	return ran, err
}

// improve records a smaller failing content and writes it out at once,
// atomically, so that the file holds the smallest failing input found
// whenever wynot stops, even by SIGKILL (keep.Result.Save).
func (rd *reducer) improve(in *input, data []byte) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !schedule.Simpler(data, in.Data) {
		return
	}
	in.Data, in.Dirty = data, true
	rd.gen.Add(1)
	rd.commitLocked([]*input{in})
}

// flush writes the input's result, synced, unless it is written already.
func (rd *reducer) flush(in *input) error {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.res.Flush(in.Entry)
}

// writing shows, on the progress line, how far a write of many files
// of a tree (keep.Tree.Progress) has got.
func (rd *reducer) writing(what string, done, total int) {
	if done%256 != 0 && done != total {
		return
	}
	doing := ""
	if done < total {
		doing = fmt.Sprintf("%s: %d of %s", what, done, report.Plural(total, "file"))
	}
	rd.s.Status(func(st *report.Status) { st.Doing = doing })
}

// commitLocked writes the inputs in changed, a smaller failing result
// (in a tree, one that may change several files at once), as one change
// (keep.Result.SaveTogether). The caller holds rd.mu and has set the
// inputs' new data or removal.
func (rd *reducer) commitLocked(changed []*input) {
	es := make([]*keep.Entry, len(changed))
	for i, in := range changed {
		es[i] = in.Entry
	}
	rd.relayer(changed)
	if err := rd.res.SaveTogether(es); err != nil {
		rd.s.SetFatal(err)
	}
	size := rd.size()
	rd.s.Status(func(st *report.Status) { st.Size = size })
}
