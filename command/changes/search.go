package changes

import (
	"bytes"
	"context"
	"fmt"
	"go/types"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

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

// maxCheck is the largest patch checked change by change before it is
// called 1-minimal.
const maxCheck = 1024

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
	// What the type checks of configurations (codediff.BuildCheck)
	// may predict, by package directory: how many builds of
	// configurations that do not type-check there showed that the test
	// builds that package (probeResult), and the directories where it
	// does not (a configuration that does not type-check there is
	// built).
	probed     map[string]int
	predictOff map[string]bool

	// good names the good revision of --git ("the good revision v1",
	// or its merge base with the bad one) when the changes searched
	// start from a later one (the culprit's parent): the patch is then
	// also tried on the good revision itself.
	good string
	// ext types the packages the trees import from outside them in the
	// type checks (exports), or is nil.
	ext types.Importer
	// noLayer is the workspace base as a layer of nothing, which
	// identifies candidates given as all they change (candidate).
	noLayer *filetree.Layer
}

// candidate makes the candidate for a tree given as the workspace base
// with content in place: identified by that content, labeled for the log.
func (e *search) candidate(content map[string]*codediff.File, label string) runner.Candidate {
	return e.candidateOver(nil, content, label)
}

// candidateOver is the candidate of the tree of the layer l (nil: the
// workspace base) with delta in place: identified by the tree (the
// digest of its files that differ from the base's, whatever layer it is
// made over), which costs delta, not l.
func (e *search) candidateOver(l *filetree.Layer, delta map[string]*codediff.File, label string) runner.Candidate {
	id := l
	if id == nil {
		e.mu.Lock()
		if e.noLayer == nil {
			e.noLayer = filetree.NewLayer(e.ws.Base(), nil)
		}
		id = e.noLayer
		e.mu.Unlock()
	}
	return runner.Candidate{
		Files: []runner.File{{Name: "\x00tree", Data: id.Identity(delta)}},
		Setup: func(dir string) error { return command.RoomHint(e.ws.SyncOver(dir, l, delta), dir) },
		Label: label,
	}
}

// hunkCandidate is the tree of set's old version, itself base with
// content in place, with the changes c applied.
func (e *search) hunkCandidate(set *codediff.Set, base map[string]*codediff.File, c []int) runner.Candidate {
	content := maps(base, set.Content(c))
	return e.candidate(content, report.Draw(c, set.Len()))
}

// levelCandidate is the tree of the level's old version with the
// changes c applied: the few files they change over the level's layer,
// its old version, so that a test costs them, not what the old version
// changed since the workspace base (--git: every commit from the good
// revision to the culprit's parent).
func (e *search) levelCandidate(lv *level, c []int) runner.Candidate {
	lv.mu.Lock()
	if lv.layer == nil {
		lv.layer = filetree.NewLayer(e.ws.Base(), lv.base)
	}
	l := lv.layer
	lv.mu.Unlock()
	return e.candidateOver(l, lv.set.Content(c), report.Draw(c, lv.set.Len()))
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
	if e.res != nil && e.res.verified {
		// The patch was confirmed as it was found: the session takes
		// that confirmation (and says whether its failure differs from
		// the new version's) and rechecks its removals as it does any
		// command's.
		f.Minimal, f.Removals = e.res.minimal, e.res.recheck
		f.Confirm = []command.Check{{Candidate: e.levelCandidate(e.res.lv, e.res.patch), Want: dd.Fail, What: patchWhat(e.res.lv, len(e.res.patch))}}
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
	needs      [][]int              // which changes need which to build (codediff.Set.Needs); nil without resolution
	check      *codediff.BuildCheck // nil with --no-predict

	mu     sync.Mutex
	failed []dd.Config     // configurations that failed in a test, in the order they finished
	layer  *filetree.Layer // the old version over the workspace base, once made (levelCandidate)
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
	if !e.NoPredict {
		lv.check = set.BuildCheck(&codediff.Tree{Files: maps(e.ws.Base().Files, base)}).WithImports(e.ext)
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
	set := lv.set
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
	// resolve adds to cur the changes that the messages out say it
	// misses; false when they name none.
	resolve := func(out []byte, from string) bool {
		add := set.Resolve(out, cur)
		if len(add) == 0 {
			return false
		}
		if !counted {
			counted = true
			e.mu.Lock()
			e.resolutions++
			e.mu.Unlock()
		}
		cur = union(cur, add)
		e.s.Logf("Resolution: %s added to the configuration that %s\n", report.Plural(len(add), "change"), from)
		return true
	}
	for round := 0; ; round++ {
		// A configuration whose Go code does not type-check does not
		// build: resolved from the checker's messages, or unresolved
		// without a build, once probes showed the test builds the code.
		var probe []string
		if errs, trusted := e.predict(lv, cur); len(errs) > 0 {
			if !trusted {
				probe = buildDirs(errs)
			} else {
				if !e.NoResolve && round < 8 && resolve(buildMessages(errs), "does not type-check") {
					continue
				}
				return e.s.Predict("does not type-check: " + errs[0].Msg), tested(), nil
			}
		}
		rec, err := e.s.Test(ctx, e.levelCandidate(lv, cur))
		if probe != nil && err == nil {
			e.probeResult(lv, probe, rec, e.output(rec))
		}
		if err != nil || rec.Outcome != dd.Unresolved || e.NoResolve || round == 8 {
			if counted && err == nil && rec.Outcome != dd.Unresolved {
				e.mu.Lock()
				e.resolved++
				e.mu.Unlock()
			}
			return rec, tested(), err
		}
		if !resolve(e.output(rec), "did not build") {
			return rec, tested(), nil
		}
	}
}

// output returns the output of an unresolved test (nil for another),
// kept for the test's later cache hits.
func (e *search) output(rec runner.Test) []byte {
	if rec.Outcome != dd.Unresolved {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.outputs == nil {
		e.outputs = map[runner.Key][]byte{}
	}
	out, ok := e.outputs[rec.Key]
	if !ok && !rec.Cached && !rec.Predicted {
		out = append(append([]byte{}, rec.Run.Stderr...), rec.Run.Stdout...)
		e.outputs[rec.Key] = out
	}
	return out
}

// probesPerDir is how many builds of configurations that do not
// type-check in a package directory must report an error in that
// package (probeResult) before such configurations are predicted
// unresolved without a build.
const probesPerDir = 1

// predict type-checks configuration c of the level (when predictions
// are on) and returns its errors in the packages the test may build
// (not those where a probe passed or failed); trusted says that one of
// those packages was seen built by the test (probeResult), so that the
// configuration need not be built to know it is unresolved.
func (e *search) predict(lv *level, c []int) (errs []codediff.BuildError, trusted bool) {
	if lv.check == nil {
		return nil, false
	}
	errs = lv.check.Check(c)
	e.mu.Lock()
	defer e.mu.Unlock()
	errs = slices.DeleteFunc(errs, func(b codediff.BuildError) bool { return e.predictOff[b.Dir] })
	for _, d := range buildDirs(errs) {
		if e.probed[d] >= probesPerDir {
			return errs, true
		}
	}
	return errs, false
}

// probeResult records what a configuration that does not type-check in
// dirs gave when built (rec, with the output of an unresolved test):
// unresolved with an error reported in a file of a directory confirms
// that the test builds that package, and the packages of the tree it
// imports; unresolved for another reason shows nothing, and the next
// such configuration is built too; a pass or a failure turns
// predictions off there.
func (e *search) probeResult(lv *level, dirs []string, rec runner.Test, out []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.probed == nil {
		e.probed, e.predictOff = map[string]int{}, map[string]bool{}
	}
	o := rec.Outcome
	for _, d := range dirs {
		if o == dd.Unresolved {
			if lv.check.Reports(out, d) {
				// The test builds d, and with it what d imports.
				e.probed[d]++
				for _, dep := range lv.check.Deps(d) {
					e.probed[dep] = max(e.probed[dep], probesPerDir)
				}
			}
			continue
		}
		if !e.predictOff[d] {
			e.predictOff[d] = true
			e.s.Say("a configuration whose Go code does not type-check in %s gave %s: the test does not build that package, so such configurations are built from now on", d, o)
		}
	}
}

// buildDirs lists the directories of errs, each once.
func buildDirs(errs []codediff.BuildError) []string {
	var out []string
	for _, e := range errs {
		if !slices.Contains(out, e.Dir) {
			out = append(out, e.Dir)
		}
	}
	return out
}

// buildMessages joins the messages of errs as a build prints them.
func buildMessages(errs []codediff.BuildError) []byte {
	var b bytes.Buffer
	for _, e := range errs {
		b.WriteString(e.Msg)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func union(a, b []int) []int {
	out := append(append([]int{}, a...), b...)
	sort.Ints(out)
	return slices.Compact(out)
}

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
	removals *dd.Removals
	// removalsPredicted counts the removals found unresolved by a type
	// check, without a build.
	removalsPredicted int
	checkedUnit       string // the unit removals counts, when not lv.unit (line edits of lines replaced one by one)
	notChecked        string
	// recheck are the candidates of the removals that ran (not those
	// predicted), for the session to run again before the patch is
	// called 1-minimal.
	recheck []command.Removal

	// What the runs after the search found: the outcome of the new
	// version without the patch's hunks, the hunks of a failing
	// configuration disjoint from them, and (--git) what the good
	// revision with the patch gave.
	complement *dd.Outcome // nil when not tested; the outcome of exactly the new version without the patch's hunks
	// complementWhy is what made that outcome unresolved, as the test
	// run says it (a build error, another failure), or "".
	complementWhy string
	other         []string
	onGood        string
}

// hunks searches the failure-inducing changes between a passing tree P
// (the workspace base with base in place) and the failing tree P + all
// changes of set, refines them to single lines, verifies and reports.
// Every patch it reports failed when run again without the cache; a
// refinement replaces a verified patch only by a smaller verified one.
//
// versions, when set, says which trees the versions are ("new: the
// commit cc9e9b7de7ca, old: its parent 0f21d20acbcc"), where the user
// did not name them.
func (e *search) hunks(ctx context.Context, set *codediff.Set, base map[string]*codediff.File, oldName, versions string) error {
	s := e.s
	e.changes = set.Len()
	s.StartProgress(set.Len(), "changes")
	if versions != "" {
		versions = " (" + versions + ")"
	}
	s.Say("%s between the versions%s; the new version fails, the old one passes", report.Plural(set.Len(), "change"), versions)

	if e.ext == nil {
		e.ext = e.exports(ctx, set, base)
	}
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
		fine := codediff.Refine(res.lv.set.Old, res.lv.set.Tree(res.patch), lvl.context)
		if fine.Len() <= len(res.patch) {
			continue
		}
		unit, shown := lvl.unit, lvl.unit
		if lvl.context == 0 && !singleLines(fine, dd.All(fine.Len())) {
			// Runs of changed lines, or an added file's declarations:
			// not all single lines, which the unit would claim.
			unit, shown = "change", "smaller change"
		}
		if len(res.patch) > maxRefine {
			s.Say("not refining %s into %s: a patch this large is a rewrite that does not come apart line by line (--no-refine says so up front)",
				report.Plural(len(res.patch), res.lv.unit), report.Plural(fine.Len(), shown))
			break
		}
		s.Say("refining %s into %s", report.Plural(len(res.patch), res.lv.unit), report.Plural(fine.Len(), shown))
		fl := e.level(lvl.name, unit, fine, base)
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
			switch {
			case r2.verified:
				s.Say("refinement found no smaller patch: the search over the %s kept all of them; the result stays at %s", report.Plural(fine.Len(), shown), res.lv.name)
			case len(d2) < fine.Len():
				s.Say("the smaller patch refinement found (%s) did not fail when run again; the result stays at %s", report.Plural(len(d2), shown), res.lv.name)
			default:
				s.Say("refinement found no smaller patch that fails: every smaller one it tested passed or was unresolved; the result stays at %s", res.lv.name)
			}
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
		if res.complement, res.complementWhy, err = e.complement(ctx, res); err != nil && ctx.Err() == nil {
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
		if werr := keep.WriteAtomic(e.Output, []byte(patch), 0o644); werr != nil {
			if keep.Full(werr) {
				return keep.NoRoom(werr, "-o "+keep.Quote(e.Output), e.Output, "the patch")
			}
			return fmt.Errorf("writing %s: %w", keep.Quote(e.Output), keep.UnwrapPath(werr))
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
		patch, ok, err := e.confirm(ctx, lv, delta)
		if err != nil {
			return res, err
		}
		if ok {
			return outcome{lv: lv, patch: patch, own: true, asked: delta, needed: len(patch) - len(delta), verified: true}, nil
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
		patch, ok, err := e.confirm(ctx, lv, c)
		if err != nil {
			return res, err
		}
		if ok {
			e.s.Say("the search's result did not fail when run again; taking the smallest configuration that failed during the search and fails again: %s", report.Plural(len(patch), lv.unit))
			return outcome{lv: lv, patch: patch, verified: true}, nil
		}
	}
	return res, nil
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
	s.Status(func(st *report.Status) {
		st.Pass, st.Granularity, st.Size, st.SizeBefore = lv.name, 0, set.Len(), set.Len()
		st.Unit = strings.TrimPrefix(report.Plural(2, lv.unit), "2 ")
	})
	s.Logf("Pass %s: %s\n", lv.name, report.Plural(set.Len(), "change"))
	res, err := s.Search(ctx, command.Search{Name: lv.name, N: set.Len(), Algorithm: e.Algorithm.dd(), Options: opts,
		Resolved: func(ctx context.Context, c dd.Config) (runner.Test, dd.Config, error) {
			return e.testWithResolution(ctx, lv, c)
		},
		OnStep: func(st dd.Step) {
			size := e.Algorithm.failing(st)
			s.Status(func(ps *report.Status) { ps.Size = min(ps.Size, size) })
		}})
	if nr := command.Unreproduced(err, "the configuration", "the configuration"); nr != nil {
		return nil, nr
	}
	delta := []int(res.Delta)
	if e.Algorithm == DDMin {
		delta = res.Fail
	}
	return delta, err
}

// failing is the size of the configuration a step of the algorithm
// knows to fail; the progress line shows the smallest so far, among
// whose changes the cause is. For ddmin it is the failing
// configuration; for the FSE algorithms c ∪ r, c the part still
// searched (a half, under interference) and r the changes applied with
// it, resolution's additions included. (c alone, shown before, fell to
// 1 under interference while the result had 50.)
func (a Algorithm) failing(st dd.Step) int {
	if a == DDMin {
		return st.Fail
	}
	return st.Fail + st.Pass
}
