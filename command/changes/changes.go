// Package changes is wynot changes: it finds the failure-inducing code
// changes between a working and a failing version of a program ("Yesterday,
// my program worked. Today, it does not. Why?", FSE 1999). The changes
// are the hunks of the diff between two source trees, or first the
// commits between two git revisions and then the hunks of the
// failure-inducing commit; they are searched by dd with interference or
// dd+, grouped by directory, file and declaration, with a
// failure-resolution loop for configurations that do not build, and then
// refined to single changed lines. The changes themselves (diffs, groups,
// what a change needs to build, trees and workspaces) are package
// codediff.
package changes

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/internal/enum"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot changes.
var Command = &command.Command{Name: "changes", Section: "Changes", Flags: flags}

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	// The test's exit status reads as git bisect run reads it, unless the
	// failure is stated otherwise.
	f.Convention = runner.Bisect
	f.ConventionForCommand = true
	r := &Changes{Group: codediff.Auto, Algorithm: DD}
	fs.BoolVar(&r.Git, "git", false, "OLD and NEW are git revisions")
	fs.StringVar(&r.Repo, "C", "", "the git repository")
	fs.BoolVar(&r.AllowDirty, "allow-dirty", false, "run although the worktree has uncommitted changes")
	fs.Func("paths", "with --git: only commits that change these files, directories or patterns (comma-separated, from the repository's top) are candidates, as with git bisect start -- PATHS; . takes every commit", func(v string) error {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				r.Paths = append(r.Paths, p)
			}
		}
		return nil
	})
	fs.IntVar(&r.Context, "context", 2, "unchanged lines that separate hunks")
	fs.TextVar(&r.Group, "group", codediff.Auto, "none, dirs, files, decls, idents or auto")
	fs.TextVar(&r.Algorithm, "algorithm", DD, "dd, ddplus or ddmin")
	fs.BoolVar(&r.NoResolve, "no-resolve", false, "test configurations as they are: no changes added from the source or from build messages")
	fs.BoolVar(&r.NoRefine, "no-refine", false, "do not split hunks into single lines")
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		none := command.Workload{}
		if len(inv.Args) != 2 {
			what := "OLD_DIR NEW_DIR"
			if r.Git {
				what = "GOOD BAD"
			}
			return nil, none, command.UsageError("want %s, got %d arguments", what, len(inv.Args))
		}
		if r.Context < 0 {
			return nil, none, command.UsageError("--context must be at least 0")
		}
		if r.Repo != "" && !r.Git {
			return nil, none, command.UsageError("-C is for --git")
		}
		if len(r.Paths) > 0 && !r.Git {
			return nil, none, command.UsageError("--paths is for --git")
		}
		inv.Test.ExitStatus = inv.Test.FailOn == nil && !inv.IsSet("precision")
		r.Old, r.New = inv.Args[0], inv.Args[1]
		r.Test, r.Out, r.Output = inv.Test, inv.Output, inv.Flags.Output
		return r.job(ctx)
	}
}

// Algorithm is the search over the changes: the values of --algorithm.
type Algorithm int

// The algorithms.
const (
	DD     Algorithm = iota // dd with interference (FSE 1999 Fig. 6)
	DDPlus                  // dd+ (FSE 1999 Fig. 8)
	DDMin                   // ddmin (TSE 2002 Fig. 5)
)

var algorithmNames = []string{"dd", "ddplus", "ddmin"}

func (a Algorithm) String() string { return enum.Name(algorithmNames, a, "Algorithm") }

// MarshalText returns the algorithm's name.
func (a Algorithm) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads an algorithm by name.
func (a *Algorithm) UnmarshalText(b []byte) (err error) {
	*a, err = enum.Parse[Algorithm](algorithmNames, string(b))
	return err
}

// dd is the engine's algorithm.
func (a Algorithm) dd() dd.Algorithm {
	return [...]dd.Algorithm{dd.Interference, dd.Plus, dd.Minimize}[a]
}

// Changes is `wynot changes`.
type Changes struct {
	// Old and New are the working and the failing version: directories,
	// or with Git revisions of the repository at Repo.
	Old, New string
	Git      bool
	Repo     string // with Git: a directory in the repository ("" is the current one)
	// Paths, with Git, are the only files whose changes can change the
	// outcome, as git bisect start -- PATHS takes them: a commit that
	// changes none of them is not a candidate (its parent and it are
	// still tested before it is named). Without Paths, the commits that
	// change only files no build reads are not candidates
	// (codediff.Reads).
	Paths []string
	// AllowDirty runs on a repository whose worktree has uncommitted
	// changes (they are not part of either revision).
	AllowDirty bool

	Test command.Test
	Out  command.Output

	// Context is how many unchanged lines at least separate two hunks
	// (FSE 1999 §8 used 2).
	Context   int
	Group     codediff.Grouping
	Algorithm Algorithm
	NoResolve bool   // no failure-resolution loop
	NoRefine  bool   // stop at hunks; do not split them into single lines
	Output    string // -o: write the failure-inducing patch here
}

// job checks the command line, reads the versions and makes the job.
func (r *Changes) job(ctx context.Context) (command.Job, command.Workload, error) {
	if r.Output != "" {
		if st, err := os.Stat(r.Output); err == nil && st.IsDir() {
			return nil, command.Workload{}, command.InputError("-o %s is a directory; give a file for the patch", r.Output)
		}
		if err := command.CheckWritable(filepath.Dir(r.Output)); err != nil {
			return nil, command.Workload{}, command.InputError("-o %s: %v", r.Output, err)
		}
	}
	if r.Git {
		return r.gitJob(ctx)
	}
	return r.dirJob()
}

// readDir reads a version given as a directory.
func readDir(dir, what string) (*codediff.Tree, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, command.InputError("the %s version %s: %v", what, dir, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return nil, command.InputError("the %s version %s is not a directory", what, dir)
	}
	t, err := filetree.ReadTree(dir)
	if err != nil {
		return nil, command.InputError("reading the %s version: %v", what, err)
	}
	return t, nil
}

// dirJob makes the job for two directories.
func (r *Changes) dirJob() (command.Job, command.Workload, error) {
	none := command.Workload{}
	old, err := readDir(r.Old, "old")
	if err != nil {
		return nil, none, err
	}
	nw, err := readDir(r.New, "new")
	if err != nil {
		return nil, none, err
	}
	set := codediff.Compare(old, nw, r.Context)
	if set.Len() == 0 {
		return nil, none, command.InputError("the old and the new version are the same: no changes to search")
	}
	e := &search{Changes: r, ws: filetree.NewWorkspaces(old)}
	base := map[string]*codediff.File{}
	pass := e.hunkCandidate(set, base, nil)
	e.begin = command.Begin{Failing: e.hunkCandidate(set, base, dd.All(set.Len())), What: "new version",
		Passing: &pass, PassingWhat: "the old version"}
	e.run = func(ctx context.Context) error { return e.hunks(ctx, set, base, r.Old) }
	return e, workload(old, nw), nil
}

// workload says how the tests run: in work directories sized for the
// larger tree.
func workload(trees ...*codediff.Tree) command.Workload {
	size := 0
	for _, t := range trees {
		n := 0
		for _, f := range t.Files {
			n += len(f.Data)
		}
		size = max(size, n)
	}
	return command.Workload{Size: size}
}

// search is the job of wynot changes.
type search struct {
	*Changes
	s     *command.Session
	ws    *filetree.Workspaces
	begin command.Begin
	// run searches once the versions were checked: the hunks between
	// two directories, or the commits and then the hunks (--git).
	run func(ctx context.Context) error

	// What was found, for the summary.
	res     *outcome
	patch   string // res as a patch
	oldName string // the old side the patch applies to
	changes int    // changes between the versions searched last
	detail  Detail

	mu          sync.Mutex
	outputs     map[runner.Key][]byte // build output of unresolved tests, for resolution
	resolutions int
	resolved    int
	completed   int // configurations tested with the changes they need added (Set.Needs)

	// good names the good revision of --git when the changes searched
	// start from a later one (the culprit's parent): the patch is then
	// also tried on the good revision itself.
	good string
}

// candidate makes the candidate for a tree given as the workspace base
// with content in place: identified by that content, labeled for the log.
func (e *search) candidate(content map[string]*codediff.File, label string) runner.Candidate {
	// Paths that hold what the base holds are left out, so that the
	// same tree is always the same candidate.
	for p, f := range content {
		if filetree.Same(f, e.ws.Base().Files[p]) {
			delete(content, p)
		}
	}
	return runner.Candidate{
		Files: []runner.File{{Name: "\x00tree", Data: filetree.Identity(content)}},
		Setup: func(dir string) error { return command.RoomHint(e.ws.Sync(dir, content), dir) },
		Label: label,
	}
}

// hunkCandidate is the tree of set's old version, itself base with
// content in place, with the changes c applied.
func (e *search) hunkCandidate(set *codediff.Set, base map[string]*codediff.File, c []int) runner.Candidate {
	content := maps(base, set.Content(c))
	return e.candidate(content, report.Draw(c, set.Len()))
}

// maps merges b over a.
func maps(a, b map[string]*codediff.File) map[string]*codediff.File {
	out := make(map[string]*codediff.File, len(a)+len(b))
	for p, f := range a {
		out[p] = f
	}
	for p, f := range b {
		out[p] = f
	}
	return out
}

// Begin starts from the new version, which must fail, and the old one,
// which must pass.
func (e *search) Begin() command.Begin {
	e.begin.Algorithm, e.begin.Unit = e.Algorithm.String(), "changes"
	return e.begin
}

// Search runs the search; what it found is kept for Close.
func (e *search) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	e.s = s
	command.WatchTree(s, e.ws)
	err := e.run(ctx)
	f := command.Found{Kept: "the changes found so far are shown"}
	if e.res != nil {
		f.Minimal, f.Verified = e.res.minimal, e.res.verified
	}
	return f, err
}

// testWithResolution tests configuration c of set; when the outcome is
// level is one granularity of a search: the changes between the old
// version (the workspace base with base in place) and a failing tree,
// and the configurations of them that failed in real runs.
type level struct {
	name, unit string // "hunks" and "change", "lines" and "line change", ...
	set        *codediff.Set
	base       map[string]*codediff.File
	needs      [][]int // which changes need which to build (codediff.Set.Needs); nil without resolution

	mu     sync.Mutex
	failed []dd.Config // configurations that failed in a test, in the order they finished
}

// level makes a level of the search over set, whose old side is the
// workspace base with base in place; with resolution and syntactic
// grouping (--group auto or decls), it works out which changes need
// which (codediff.Set.Needs).
func (e *search) level(name, unit string, set *codediff.Set, base map[string]*codediff.File) *level {
	lv := &level{name: name, unit: unit, set: set, base: base}
	if !e.NoResolve && (e.Group == codediff.Auto || e.Group == codediff.ByDecls) {
		lv.needs = set.Needs(&codediff.Tree{Files: maps(e.ws.Base().Files, base)})
	}
	return lv
}

// testWithResolution tests configuration c of the level; when the
// outcome is unresolved, it reads the output for the changes the build
// misses, adds them and tests again, until the outcome is resolved or
// nothing is left to add (FSE 1999 §8). It returns the test whose
// outcome counts and the configuration that test ran: nil if c itself,
// else the larger configuration, to which the outcome belongs.
func (e *search) testWithResolution(ctx context.Context, lv *level, c dd.Config) (runner.Test, dd.Config, error) {
	set, base := lv.set, lv.base
	cur := []int(c)
	if lv.needs != nil {
		// Static resolution first: what the changes need, known from the
		// source, is added before any build.
		cur = codediff.Closure(lv.needs, cur)
		if len(cur) > len(c) {
			e.mu.Lock()
			e.completed++
			e.mu.Unlock()
		}
	}
	// tested is the configuration the outcome belongs to: nil when it is c.
	tested := func() dd.Config {
		if len(cur) == len(c) {
			return nil
		}
		return cur
	}
	counted := false
	for round := 0; ; round++ {
		rec, err := e.s.Test(ctx, e.hunkCandidate(set, base, cur))
		if err != nil || rec.Outcome != dd.Unresolved || e.NoResolve || round == 8 {
			if counted && err == nil && rec.Outcome != dd.Unresolved {
				e.mu.Lock()
				e.resolved++
				e.mu.Unlock()
			}
			return rec, tested(), err
		}
		e.mu.Lock()
		if e.outputs == nil {
			e.outputs = map[runner.Key][]byte{}
		}
		out, ok := e.outputs[rec.Key]
		if !ok && !rec.Cached {
			out = append(append([]byte{}, rec.Run.Stderr...), rec.Run.Stdout...)
			e.outputs[rec.Key] = out
		}
		e.mu.Unlock()
		add := set.Resolve(out, cur)
		if len(add) == 0 {
			return rec, tested(), nil
		}
		if !counted {
			counted = true
			e.mu.Lock()
			e.resolutions++
			e.mu.Unlock()
		}
		cur = union(cur, add)
		if e.s.TestLog != nil {
			e.s.TestLog.Printf("Resolution: %s added to the unresolved configuration\n", report.Plural(len(add), "change"))
		}
	}
}

func union(a, b []int) []int {
	out := append(append([]int{}, a...), b...)
	sort.Ints(out)
	return slices.Compact(out)
}

// levels are the granularities of the search: hunks, then (refinement,
// the way reduce goes from lines to characters) runs of changed lines
// (context 0), then single inserted or deleted lines (context -1).
var levels = []struct {
	context    int
	name, unit string
}{{0, "lines", "single-line change"}, {-1, "line edits", "line edit"}}

// maxRefine is the largest patch that is refined into smaller changes.
// Beyond it the changes found are most likely a rewrite whose lines need
// each other: splitting them costs thousands of builds that do not build
// and gains little.
const maxRefine = 64

// outcome is what a search established: the patch reported and how far
// it was verified.
type outcome struct {
	lv       *level
	patch    []int // changes of lv.set; verified unless interrupted
	hunks    *level
	hunkSet  []int // the verified patch at the hunk level, which holds patch
	own      bool  // patch is the algorithm's result (or it with what it needs to build), not a fallback
	minimal  bool  // each change of patch removed alone was tested, and none of these removals failed
	asked    []int // the algorithm's result, before resolution added what it needs to build
	needed   int   // changes of patch that resolution added because the others do not build without them
	verified bool
	// removals is the check of patch at its level, each change removed
	// alone (dd.OneMinimal); nil when it was not made, and then
	// notChecked says why.
	removals    *dd.Removals
	checkedUnit string // the unit removals counts, when not lv.unit (line edits of lines replaced one by one)
	notChecked  string
	// differs says how the patch's failure differs from the new
	// version's, when the test is a script whose exit status cannot tell.
	differs string

	// What the runs after the search found: the outcome of the new
	// version without the patch's hunks, the hunks of a failing
	// configuration disjoint from them, and (--git) what the good
	// revision with the patch gave.
	complement *dd.Outcome // nil when not tested; the outcome of exactly the new version without the patch's hunks
	other      []string
	onGood     string
}

// hunks searches the failure-inducing changes between a passing tree P
// (the workspace base with base in place) and the failing tree P + all
// changes of set, refines them to single lines, verifies and reports.
// Every patch it reports failed when run again without the cache; a
// refinement replaces a verified patch only by a smaller verified one.
func (e *search) hunks(ctx context.Context, set *codediff.Set, base map[string]*codediff.File, oldName string) error {
	s := e.s
	e.changes = set.Len()
	s.StartProgress(set.Len(), "changes")
	s.Say("%s between the versions; the new version fails, the old one passes (failure: %s)", report.Plural(set.Len(), "change"), s.Signature())

	hl := e.level("hunks", "change", set, base)
	res := outcome{lv: hl, hunks: hl}
	delta, err := e.isolate(ctx, hl)
	interrupted := ctx.Err() != nil
	if err != nil && !interrupted {
		return err
	}
	res.patch, res.hunkSet = delta, delta
	if !interrupted {
		res, err = e.settle(ctx, hl, delta)
		if err != nil && ctx.Err() == nil {
			return err
		}
		res.hunks, res.hunkSet = hl, res.patch
	}
	for _, lvl := range levels {
		if !res.verified || e.NoRefine || ctx.Err() != nil || lvl.context < 0 && singleLines(res.lv.set, res.patch) {
			break
		}
		fine := codediff.Compare(res.lv.set.Old, res.lv.set.Tree(res.patch), lvl.context)
		if fine.Len() <= len(res.patch) {
			continue
		}
		if len(res.patch) > maxRefine {
			s.Say("not refining %s into %s: a patch this large is a rewrite that does not come apart line by line (--no-refine says so up front)",
				report.Plural(len(res.patch), res.lv.unit), report.Plural(fine.Len(), lvl.unit))
			break
		}
		s.Say("refining %s into %s", report.Plural(len(res.patch), res.lv.unit), report.Plural(fine.Len(), lvl.unit))
		fl := e.level(lvl.name, lvl.unit, fine, base)
		d2, err2 := e.isolate(ctx, fl)
		if ctx.Err() != nil {
			break // keep the verified coarser patch
		}
		if err2 != nil {
			s.Say("refinement failed: %v; the result stays at %s", err2, res.lv.name)
			break
		}
		r2, err2 := e.settle(ctx, fl, d2)
		if err2 != nil {
			if ctx.Err() != nil {
				break
			}
			return err2
		}
		if !r2.verified || len(r2.patch) >= fine.Len() {
			s.Say("refinement found no smaller patch that fails when run again; the result stays at %s", res.lv.name)
			break
		}
		r2.hunks, r2.hunkSet = res.hunks, res.hunkSet
		res = r2
	}
	interrupted = ctx.Err() != nil
	if res.verified && !interrupted {
		// Refinement stops at lines each replaced by another: the check
		// holds them to the line edits they are made of, and if every one
		// is needed, the patch is shown as the replaced lines.
		coarse := res
		if !e.NoRefine && singleLines(res.lv.set, res.patch) {
			res = lineEdits(res)
		}
		if err = e.oneMinimal(ctx, &res); err != nil && ctx.Err() == nil {
			return err
		}
		if res.lv != coarse.lv && len(res.patch) == res.lv.set.Len() {
			coarse.removals, coarse.checkedUnit, coarse.notChecked = res.removals, res.lv.unit, res.notChecked
			res = coarse
		}
	}
	interrupted = ctx.Err() != nil
	if res.verified && !interrupted {
		if res.complement, err = e.complement(ctx, res); err != nil && ctx.Err() == nil {
			return err
		}
		res.other = otherCause(res)
		if e.good != "" {
			if res.onGood, err = e.tryOnGood(ctx, res); err != nil && ctx.Err() == nil {
				return err
			}
		}
	}
	interrupted = ctx.Err() != nil
	patch := res.lv.set.Patch(res.patch)
	if e.Output != "" && len(res.patch) > 0 && (res.verified || interrupted) {
		if werr := command.WriteAtomic(e.Output, []byte(patch), 0o644); werr != nil {
			return fmt.Errorf("writing %s: %w", e.Output, werr)
		}
	}
	res.minimal = res.verified && res.removals != nil && res.removals.Done && !interrupted
	e.res, e.patch, e.oldName = &res, patch, oldName
	return ctx.Err()
}

// settle turns the algorithm's result delta at a level into a verified
// patch. The result is tested with what it needs to build (resolution)
// and run once more without the cache; if it does not fail, the smallest
// configurations that failed during the search are tried the same way,
// up to three. The outcome is unverified when none fails again.
func (e *search) settle(ctx context.Context, lv *level, delta []int) (outcome, error) {
	res := outcome{lv: lv, patch: delta}
	if len(delta) > 0 {
		patch, run, ok, err := e.confirm(ctx, lv, delta)
		if err != nil {
			return res, err
		}
		if ok {
			return outcome{lv: lv, patch: patch, own: true, asked: delta, needed: len(patch) - len(delta), verified: true, differs: e.differs(run)}, nil
		}
	}
	lv.mu.Lock()
	seen := slices.Clone(lv.failed)
	lv.mu.Unlock()
	slices.SortStableFunc(seen, func(a, b dd.Config) int { return len(a) - len(b) })
	tried := 0
	for k, c := range seen {
		if tried == 3 || len(c) >= lv.set.Len() {
			break
		}
		if k > 0 && slices.Equal(c, seen[k-1]) || slices.Equal(c, delta) {
			continue
		}
		tried++
		patch, run, ok, err := e.confirm(ctx, lv, c)
		if err != nil {
			return res, err
		}
		if ok {
			e.s.Say("the search's result did not fail when run again; taking the smallest configuration that failed during the search and fails again: %s", report.Plural(len(patch), lv.unit))
			return outcome{lv: lv, patch: patch, verified: true, differs: e.differs(run)}, nil
		}
	}
	return res, nil
}

// confirm tests configuration c of a level as the search does (with
// resolution, from the cache if it ran before) and, if it fails, runs
// the configuration that failed once more without the cache. It returns
// that configuration, the second run, and whether it failed too.
func (e *search) confirm(ctx context.Context, lv *level, c []int) ([]int, runner.Run, bool, error) {
	rec, tested, err := e.testWithResolution(ctx, lv, c)
	if err != nil || rec.Outcome != dd.Fail {
		return nil, runner.Run{}, false, err
	}
	patch := c
	if tested != nil {
		patch = tested
	}
	ok, runs, err := e.s.Confirm(ctx, command.Check{Candidate: e.hunkCandidate(lv.set, lv.base, patch), Want: dd.Fail,
		What: "the old version with " + report.Plural(len(patch), lv.unit) + " applied"})
	if err != nil {
		return nil, runner.Run{}, false, err
	}
	return patch, runs[0], ok, nil
}

// differs compares how a run of a patch fails with how the new version
// failed, when the test's exit status is all the oracle reads (a script,
// or the bisect convention): a different last line of output suggests a
// different failure, which the exit status cannot tell apart. It returns
// "" when they agree, or when the oracle compares failures itself.
func (e *search) differs(run runner.Run) string {
	if _, ok := e.s.Oracle().(*runner.ScriptOracle); !ok {
		return ""
	}
	want, got := runner.FailureLine(e.s.Original), runner.FailureLine(run)
	if want == got {
		return ""
	}
	return fmt.Sprintf("note: it fails differently from the new version, whose output ends %q, where with these changes it ends %q; if that is another failure, state the failure with --fail-on REGEX", want, got)
}

// complement tests the new version without the hunks of the verified
// patch, for the report: exactly that tree, with nothing added to make
// it build. Resolution could only add back hunks of the patch itself,
// and an outcome of the new version with some of the patch says nothing
// about the new version without it.
func (e *search) complement(ctx context.Context, res outcome) (*dd.Outcome, error) {
	in := map[int]bool{}
	for _, i := range res.hunkSet {
		in[i] = true
	}
	var rest []int
	for i := range res.hunks.set.Len() {
		if !in[i] {
			rest = append(rest, i)
		}
	}
	rec, err := e.s.Test(ctx, e.hunkCandidate(res.hunks.set, res.hunks.base, rest))
	if err != nil {
		return nil, err
	}
	return &rec.Outcome, nil
}

// oneMinimal checks the verified patch at the granularity it is shown
// (its hunks, or its line edits after refinement) before it is called
// 1-minimal: each of its changes is removed alone and the rest tested
// exactly as it is, without the changes that static needs or build
// messages would add and outside any group that joined them
// (dd.OneMinimal). A removal that still fails makes the patch smaller;
// the smaller patch replaces the verified one once it fails again
// without the cache. A removal that does not build shows nothing either
// way: the verdict says how many there were.
func (e *search) oneMinimal(ctx context.Context, res *outcome) error {
	lv := res.lv
	if len(res.patch) > maxRefine {
		res.notChecked = fmt.Sprintf("its %s were not each removed alone to check it (a patch this large is not checked change by change)", report.Plural(len(res.patch), lv.unit))
		return nil
	}
	if len(res.patch) == 0 {
		return nil
	}
	e.s.Say("checking the %s one by one: each removed alone, the rest tested as it is", report.Plural(len(res.patch), lv.unit))
	r, err := dd.OneMinimal(ctx, dd.Config(slices.Clone(res.patch)), func(ctx context.Context, c dd.Config) (dd.Outcome, error) {
		rec, err := e.s.Test(ctx, e.hunkCandidate(lv.set, lv.base, c))
		return rec.Outcome, err
	}, e.s.Jobs)
	if err != nil {
		return err
	}
	if len(r.Removed) > 0 {
		ok, runs, err := e.s.Confirm(ctx, command.Check{Candidate: e.hunkCandidate(lv.set, lv.base, r.Config), Want: dd.Fail,
			What: "the old version with " + report.Plural(len(r.Config), lv.unit) + " applied"})
		if err != nil {
			return err
		}
		if !ok {
			res.notChecked = fmt.Sprintf("without %s of them the old version failed once, but not when run again", report.Plural(len(r.Removed), lv.unit))
			return nil
		}
		e.s.Say("without %s the old version still fails: the patch leaves %s out", report.Plural(len(r.Removed), lv.unit), map[bool]string{true: "it", false: "them"}[len(r.Removed) == 1])
		res.patch, res.differs = r.Config, e.differs(runs[0])
		if res.lv == res.hunks {
			res.hunkSet = res.patch
		} else {
			res.hunkSet = holding(res.hunks.set, res.hunkSet, res.lv.set, res.patch)
		}
		if res.asked != nil {
			res.needed = 0
			for _, i := range res.patch {
				if !slices.Contains(res.asked, i) {
					res.needed++
				}
			}
		}
	}
	res.removals = &r
	return nil
}

// tryOnGood tests the good revision (the workspace base) with the patch
// applied, when the files the patch touches are the same there as in the
// culprit's parent, and says what came of it.
func (e *search) tryOnGood(ctx context.Context, res outcome) (string, error) {
	content := res.lv.set.Content(res.patch)
	for p := range content {
		if _, changed := res.lv.base[p]; changed {
			return fmt.Sprintf("on the good revision %s, %s changed before the culprit: the patch was verified on the culprit's parent only", e.good, p), nil
		}
	}
	rec, err := e.s.Test(ctx, e.candidate(content, "GOOD "+e.good+" with the patch"))
	if err != nil {
		return "", err
	}
	if rec.Outcome == dd.Fail {
		return "the good revision " + e.good + " with these changes applied fails too", nil
	}
	return fmt.Sprintf("the good revision %s with these changes applied gives %s: the failure also needs commits between it and the culprit", e.good, rec.Outcome), nil
}

// otherCause returns the hunks of the smallest configuration that failed
// during the hunk search without any hunk of the patch: evidence that the
// failure has another cause (FSE 1999 Def. 7: the changes are ambiguous).
func otherCause(res outcome) []string {
	in := map[int]bool{}
	for _, i := range res.hunkSet {
		in[i] = true
	}
	lv := res.hunks
	lv.mu.Lock()
	defer lv.mu.Unlock()
	var best dd.Config
	for _, c := range lv.failed {
		disjoint := true
		for _, i := range c {
			if in[i] {
				disjoint = false
				break
			}
		}
		if disjoint && (best == nil || len(c) < len(best)) {
			best = c
		}
	}
	var out []string
	for _, i := range best {
		out = append(out, lv.set.Changes[i].String())
	}
	return out
}

// lineEdits restates a verified patch of lines each replaced by another
// (where refinement stops) as the line edits it prints: the same tree,
// so the same verified outcome, at the granularity the check by single
// removals then holds it to. A line replaced by another is a deletion
// and an insertion, and the failure may need only one of them (an entry
// of a map literal deleted where the diff pairs it with the one the
// failure needs). A patch of more line edits than maxRefine stays as it
// is.
func lineEdits(res outcome) outcome {
	fine := codediff.Compare(res.lv.set.Old, res.lv.set.Tree(res.patch), levels[len(levels)-1].context)
	if res.lv.name == levels[len(levels)-1].name || fine.Len() <= len(res.patch) || fine.Len() > maxRefine {
		return res
	}
	last := levels[len(levels)-1]
	lv := &level{name: last.name, unit: last.unit, set: fine, base: res.lv.base}
	return outcome{lv: lv, patch: dd.All(fine.Len()), hunks: res.hunks, hunkSet: res.hunkSet, own: res.own,
		verified: true, differs: res.differs}
}

// holding returns the hunks of within (changes of hunks) that hold a
// change of patch (changes of fine, a finer diff of the same old tree):
// the same path, and for text, lines that overlap or touch.
func holding(hunks *codediff.Set, within []int, fine *codediff.Set, patch []int) []int {
	var out []int
	for _, h := range within {
		hc := &hunks.Changes[h]
		for _, i := range patch {
			fc := &fine.Changes[i]
			if fc.Path != hc.Path && fc.Path != hc.From {
				continue
			}
			if hc.Kind != codediff.Hunk || fc.Kind != codediff.Hunk ||
				fc.OldStart <= hc.OldStart+len(hc.Old) && hc.OldStart <= fc.OldStart+len(fc.Old) {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// oneMinimalClaim says what the check of a patch by single removals
// established: 1-minimal at the granularity shown, up to removals that
// could not be tested.
func oneMinimalClaim(res outcome) string {
	r := res.removals
	n, passed := len(r.Config), r.Passed()
	one := res.lv.unit
	if res.checkedUnit != "" {
		one = res.checkedUnit
	}
	unit := report.Plural(n, one)
	if n == 1 {
		unit = "its one " + one
	} else {
		unit = "any one of these " + unit
	}
	switch passed {
	case n:
		return "the changes are 1-minimal: with " + unit + " removed, the old version passes"
	case 0:
		return "the changes are 1-minimal as far as can be tested: with " + unit + " removed, the old version does not build (UNRESOLVED, which shows nothing either way)"
	}
	return fmt.Sprintf("the changes are 1-minimal as far as can be tested: with %s removed, the old version passes (%d of them) or does not build (%d: UNRESOLVED, which shows nothing either way)", unit, passed, n-passed)
}

// singleLines reports whether every change of c replaces at most one
// line by at most one line: a single changed line, the finest change
// worth splitting into.
func singleLines(set *codediff.Set, c []int) bool {
	for _, i := range c {
		ch := &set.Changes[i]
		if ch.Kind != codediff.Hunk || len(ch.Old) > 1 || len(ch.New) > 1 {
			return false
		}
	}
	return true
}

// isolate runs the chosen algorithm over the changes of a level. What
// it returns is not claimed minimal: the groups and resolution it
// searches with may keep changes together that the failure does not
// need (oneMinimal checks the final patch).
func (e *search) isolate(ctx context.Context, lv *level) ([]int, error) {
	s, set := e.s, lv.set
	groups := set.Groups(e.Group)
	if lv.needs != nil {
		groups.Join(lv.needs)
	}
	opts := dd.Options{Partition: func(delta dd.Config, n int) []dd.Config {
		parts := groups.Partition(delta, n)
		out := make([]dd.Config, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out
	}}
	// Keep every configuration that fails in a real run: the fallbacks
	// of settle, and the evidence of another cause.
	opts.Observer = dd.ObserverFunc(func(ev dd.Event) {
		if f, ok := ev.(dd.TestFinished); ok && !f.Canceled && f.Outcome == dd.Fail {
			c := f.Tested
			if c == nil {
				c = f.Config
			}
			lv.mu.Lock()
			lv.failed = append(lv.failed, slices.Clone(c))
			lv.mu.Unlock()
		}
	})
	s.Progress.Update(func(st *report.Status) {
		st.Pass, st.Granularity, st.Size, st.SizeBefore = lv.name, 0, set.Len(), set.Len()
	})
	if s.TestLog != nil {
		s.TestLog.Printf("Pass %s: %s\n", lv.name, report.Plural(set.Len(), "change"))
	}
	res, err := s.SearchResolved(ctx, lv.name, set.Len(), e.Algorithm.dd(), opts,
		func(ctx context.Context, c dd.Config) (runner.Test, dd.Config, error) {
			return e.testWithResolution(ctx, lv, c)
		},
		func(st dd.Step) {
			s.Progress.Update(func(ps *report.Status) { ps.Size = st.Fail })
		})
	var nf *dd.NotFailingError
	var np *dd.NotPassingError
	switch {
	case errors.As(err, &nf):
		return nil, command.NotReproduced("the failing configuration does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
	case errors.As(err, &np):
		return nil, command.NotReproduced("the passing configuration does not pass any more (%s); the test is flaky: try --repeat 3", np.Outcome)
	}
	delta := []int(res.Delta)
	if e.Algorithm == DDMin {
		delta = res.Fail
	}
	return delta, err
}

// verdict says in sentences what was verified of the result; the
// terminal and the JSON summary show the same sentences.
func (e *search) verdict(res outcome, interrupted, minimal bool) []string {
	hunks := func(n int) string {
		if res.hunks == res.lv {
			return "these changes"
		}
		return "the " + report.Plural(n, "hunk") + " holding these changes"
	}
	var v []string
	switch {
	case interrupted && res.verified:
		return []string{"interrupted while refining: with these changes applied the old version fails, also when run again, but the search did not finish: they are not minimal"}
	case interrupted:
		return []string{"interrupted: the changes shown are where the search stood; they are not minimal and were not verified"}
	case !res.verified:
		return []string{"no set of changes could be verified: neither the search's result nor the smallest configurations that failed during the search failed when run again; the test may be flaky (try --repeat 3)"}
	case !res.own && !minimal:
		v = append(v, "with these changes applied the old version fails, also when run again; they are the smallest set that failed during the search, not its result (which did not fail again: the test may be flaky, try --repeat 3), and not minimal")
	case !res.own:
		v = append(v, "with these changes applied the old version fails, also when run again; they are the smallest set that failed during the search, not its result (which did not fail again: the test may be flaky, try --repeat 3)", oneMinimalClaim(res))
	case minimal:
		v = append(v, "the old version passes; with these changes applied it fails, also when run again", oneMinimalClaim(res))
	case res.notChecked != "":
		v = append(v, "with these changes applied the old version fails, also when run again; the result is not certified minimal: "+res.notChecked)
	default:
		v = append(v, "with these changes applied the old version fails, also when run again; the result is not certified minimal")
	}
	if res.differs != "" {
		v = append(v, res.differs)
	}
	if res.needed > 0 {
		v = append(v, fmt.Sprintf("%s of these %s the others need to build (added by failure resolution)", report.Plural(res.needed, res.lv.unit), map[bool]string{true: "is one", false: "are ones"}[res.needed == 1]))
	}
	switch c := res.complement; {
	case c == nil:
	case *c == dd.Pass:
		v = append(v, "the new version without "+hunks(len(res.hunkSet))+" passes")
	case *c == dd.Fail:
		v = append(v, "the new version without "+hunks(len(res.hunkSet))+" still fails: the failure has another cause besides these changes")
	default:
		v = append(v, "the new version without "+hunks(len(res.hunkSet))+" could not be tested: "+c.String()+" (it does not build without them), so whether the failure has another cause is not known")
	}
	if res.onGood != "" {
		v = append(v, res.onGood)
	}
	if len(res.other) > 0 {
		v = append(v, fmt.Sprintf("another set of changes, disjoint from these, also made the old version fail during the search (%s): the failure has more than one cause", strings.Join(res.other, ", ")))
	}
	return v
}

// Close fills in the summary and says what was found and verified.
func (e *search) Close(sum *report.Summary, end command.End) command.Closing {
	sum.SizeBefore, sum.ElementsBefore = e.changes, e.changes
	d := e.detail
	e.mu.Lock()
	d.Resolutions, d.Resolved, d.Completed = e.resolutions, e.resolved, e.completed
	e.mu.Unlock()
	res := e.res
	if res == nil {
		// The search ended with an error before it found anything.
		sum.Detail = d
		return command.Closing{Page: func() report.Page { return report.Page{Rows: d.Rows()} }}
	}
	sum.SizeAfter, sum.ElementsAfter = len(res.patch), len(res.patch)
	sum.Granularity = res.lv.name
	if res.verified || end.Interrupted {
		sum.Diff = e.patch
		sum.Result = e.Output
		if sum.Result == "" && len(res.patch) > 0 {
			sum.Result = report.Inline
		}
		for _, i := range res.patch {
			d.Hunks = append(d.Hunks, res.lv.set.Changes[i].String())
		}
	}
	if res.complement != nil {
		d.Complement = res.complement.String()
	}
	d.OtherCause, d.Needed = res.other, res.needed
	if r := res.removals; r != nil {
		d.RemovalsPassed, d.RemovalsUnresolved, d.RemovedByCheck = r.Passed(), len(r.Outcomes)-r.Passed(), len(r.Removed)
	}
	d.Verdict = e.verdict(*res, end.Interrupted, end.Minimal)
	sum.Detail = d

	c := command.Closing{Page: func() report.Page { return report.Page{Rows: d.Rows()} }}
	extra := ""
	if sum.Predicted > 0 {
		extra += fmt.Sprintf(", %d predicted", sum.Predicted)
	}
	if d.Completed > 0 {
		extra += fmt.Sprintf(", %d with the changes they need added", d.Completed)
	}
	if d.Resolutions > 0 {
		extra += fmt.Sprintf(", %s (%d resolved)", report.Plural(d.Resolutions, "resolution attempt"), d.Resolved)
	}
	counts := fmt.Sprintf("%s (%d unresolved%s), %.1fs", report.Plural(sum.Tests, "test"), sum.Outcomes.Unresolved, extra, sum.Seconds)
	if res.verified || end.Interrupted && len(res.patch) > 0 {
		c.Head = append(c.Head, fmt.Sprintf("the failure is caused by %s (of %s between the versions), found in %s",
			report.Plural(len(res.patch), res.lv.unit), report.Plural(sum.ElementsBefore, "change"), counts))
	} else {
		c.Head = append(c.Head, fmt.Sprintf("no failure-inducing changes verified (of %s between the versions), after %s", report.Plural(sum.ElementsBefore, "change"), counts))
	}
	if d.Commit != "" {
		c.Head = append(c.Head, "in commit "+d.Commit)
	}
	if sum.Diff != "" {
		c.Head = append(c.Head, fmt.Sprintf("the failure-inducing changes, as a patch to %s:", e.oldName))
		c.Text = report.ShowDiff(e.patch)
		c.Page = func() report.Page { return report.Page{Diff: e.patch, Rows: d.Rows()} }
	}
	c.Verdict = d.Verdict
	if e.Output != "" && sum.Diff != "" {
		c.Tail = []string{"patch written to " + e.Output}
	}
	if !res.verified && !end.Interrupted {
		c.Err = command.Unverified("no failure-inducing changes could be verified")
	}
	return c
}
