// Package versions finds the failure-inducing code changes between a
// working and a failing version of a program (wynot changes; FSE 1999,
// "Yesterday, my program worked. Today, it does not. Why?"). The changes
// are the hunks of the diff between two source trees, or first the
// commits between two git revisions and then the hunks of the
// failure-inducing commit; they are searched by dd with interference or
// dd+, grouped by directory, file and declaration, with a
// failure-resolution loop for configurations that do not build, and then
// refined to single changed lines. It composes package changes (the
// domain), dd, the runner and report; it starts no process itself.
package versions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/wynot/wynot/changes"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/session"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Algorithms are the values of --algorithm, by name.
var Algorithms = map[string]dd.Algorithm{"dd": dd.Interference, "ddplus": dd.Plus, "ddmin": dd.Minimize}

// Changes is `wynot changes`.
type Changes struct {
	// Old and New are the working and the failing version: directories,
	// or with Git revisions of the repository at Repo.
	Old, New string
	Git      bool
	Repo     string // with Git: a directory in the repository ("" is the current one)
	// AllowDirty runs on a repository whose worktree has uncommitted
	// changes (they are not part of either revision).
	AllowDirty bool

	Test session.Test
	Out  session.Output
	Jobs int

	// Context is how many unchanged lines at least separate two hunks
	// (FSE 1999 §8 used 2).
	Context   int
	Group     changes.Grouping
	Algorithm dd.Algorithm // Interference (the default, "dd"), Plus or Minimize
	NoResolve bool         // no failure-resolution loop
	NoRefine  bool         // stop at hunks; do not split them into single lines
	Output    string       // -o: write the failure-inducing patch here
}

// Run runs the search and returns its summary.
func (r *Changes) Run(ctx context.Context) (*report.Summary, error) {
	sum := &report.Summary{Command: "changes", Algorithm: algorithmName(r.Algorithm)}
	if r.Algorithm != dd.Interference && r.Algorithm != dd.Plus && r.Algorithm != dd.Minimize {
		return sum, session.InputError("unsupported algorithm %s for changes", r.Algorithm)
	}
	if r.Output != "" {
		if st, err := os.Stat(r.Output); err == nil && st.IsDir() {
			return sum, session.InputError("-o %s is a directory; give a file for the patch", r.Output)
		}
		if err := session.CheckWritable(filepath.Dir(r.Output)); err != nil {
			return sum, session.InputError("-o %s: %v", r.Output, err)
		}
	}
	if r.Git {
		return sum, r.runGit(ctx, sum)
	}
	return sum, r.runDirs(ctx, sum)
}

func algorithmName(a dd.Algorithm) string {
	for n, b := range Algorithms {
		if a == b {
			return n
		}
	}
	return a.String()
}

// readDir reads a version given as a directory.
func readDir(dir, what string) (*changes.Tree, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, session.InputError("the %s version %s: %v", what, dir, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return nil, session.InputError("the %s version %s is not a directory", what, dir)
	}
	t, err := changes.ReadTree(dir)
	if err != nil {
		return nil, session.InputError("reading the %s version: %v", what, err)
	}
	return t, nil
}

func (r *Changes) runDirs(ctx context.Context, sum *report.Summary) error {
	old, err := readDir(r.Old, "old")
	if err != nil {
		return err
	}
	nw, err := readDir(r.New, "new")
	if err != nil {
		return err
	}
	set := changes.Compare(old, nw, r.Context)
	if set.Len() == 0 {
		return session.InputError("the old and the new version are the same: no changes to search")
	}
	s, err := r.open(old, nw)
	if err != nil {
		return err
	}
	defer s.Close()
	w := newWorkspaces(old)
	e := &search{Changes: r, s: s, sum: sum, ws: w}
	base := map[string]*changes.File{}
	newC := e.hunkCandidate(set, base, dd.All(set.Len()))
	if err := e.checkVersions(ctx, newC, e.hunkCandidate(set, base, nil), "new version", "old version"); err != nil {
		return err
	}
	return e.hunks(ctx, set, base, r.Old)
}

// open opens the session: work directories sized for the larger tree,
// the exit status read by the git bisect convention unless the failure is
// stated otherwise.
func (r *Changes) open(trees ...*changes.Tree) (*session.Session, error) {
	size := 0
	for _, t := range trees {
		n := 0
		for _, f := range t.Files {
			n += len(f.Data)
		}
		size = max(size, n)
	}
	return session.Open("changes", r.Test, r.Out, r.Jobs, false, 0, size)
}

// workspaces are the per-work-directory copies of a base tree.
type workspaces struct {
	base *changes.Tree
	mu   sync.Mutex
	ws   map[string]*changes.Workspace
}

func newWorkspaces(base *changes.Tree) *workspaces {
	return &workspaces{base: base, ws: map[string]*changes.Workspace{}}
}

// sync brings the work directory dir to the base with content in place.
// Each directory is used by one test at a time.
func (w *workspaces) sync(dir string, content map[string]*changes.File) error {
	w.mu.Lock()
	ws, ok := w.ws[dir]
	w.mu.Unlock()
	if !ok {
		var err error
		if ws, err = changes.NewWorkspace(dir, w.base); err != nil {
			return fmt.Errorf("copying the old version into a work directory: %w%s", err, roomHint(err, dir))
		}
		w.mu.Lock()
		w.ws[dir] = ws
		w.mu.Unlock()
	}
	if _, err := ws.Sync(content); err != nil {
		return fmt.Errorf("writing a configuration: %w%s", err, roomHint(err, dir))
	}
	return nil
}

// roomHint tells where to find room when a file system is full.
func roomHint(err error, dir string) string {
	if !errors.Is(err, syscall.ENOSPC) {
		return ""
	}
	return fmt.Sprintf("; the work directories are under %s: set WYNOT_TMPDIR to a directory on a file system with more room", filepath.Dir(filepath.Dir(dir)))
}

// search is one run of wynot changes.
type search struct {
	*Changes
	s   *session.Session
	sum *report.Summary
	ws  *workspaces

	mu          sync.Mutex
	outputs     map[runner.Key][]byte // build output of unresolved tests, for resolution
	resolutions int
	resolved    int
}

// candidate makes the candidate for a tree given as the workspace base
// with content in place: identified by that content, labeled for the log.
func (e *search) candidate(content map[string]*changes.File, label string) runner.Candidate {
	// Paths that hold what the base holds are left out, so that the
	// same tree is always the same candidate.
	paths := make([]string, 0, len(content))
	for p, f := range content {
		if changes.Same(f, e.ws.base.Files[p]) {
			delete(content, p)
			continue
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var id bytes.Buffer
	for _, p := range paths {
		id.WriteString(p)
		id.WriteByte(0)
		if f := content[p]; f != nil {
			fmt.Fprintf(&id, "%o %q %d:", f.Mode, f.Link, len(f.Data))
			id.Write(f.Data)
		} else {
			id.WriteString("absent")
		}
		id.WriteByte(0)
	}
	return runner.Candidate{
		Files: []runner.File{{Name: "\x00tree", Data: id.Bytes()}},
		Setup: func(dir string) error { return e.ws.sync(dir, content) },
		Label: label,
	}
}

// hunkCandidate is the tree of set's old version, itself base with
// content in place, with the changes c applied.
func (e *search) hunkCandidate(set *changes.Set, base map[string]*changes.File, c []int) runner.Candidate {
	content := maps(base, set.Content(c))
	return e.candidate(content, report.Draw(c, set.Len()))
}

// maps merges b over a.
func maps(a, b map[string]*changes.File) map[string]*changes.File {
	out := make(map[string]*changes.File, len(a)+len(b))
	for p, f := range a {
		out[p] = f
	}
	for p, f := range b {
		out[p] = f
	}
	return out
}

// checkVersions checks that the failing version fails (twice, which sets
// up the oracle) and the working one passes.
func (e *search) checkVersions(ctx context.Context, fail, pass runner.Candidate, failWhat, passWhat string) error {
	s := e.s
	if err := s.CheckOriginal(ctx, fail, failWhat); err != nil {
		return err
	}
	e.sum.Signature = s.Signature()
	rec, err := s.Tester.Test(ctx, pass)
	if err != nil {
		return err
	}
	if rec.Outcome != dd.Pass {
		r, _ := s.Tester.Exec(ctx, pass)
		return session.NotReproduced("the %s does not pass (%s): %s", passWhat, rec.Outcome, session.DescribeRun(r))
	}
	return nil
}

// testWithResolution tests configuration c of set; when the outcome is
// unresolved, it reads the output for the changes the build misses, adds
// them and tests again, until the outcome is resolved or nothing is left
// to add (FSE 1999 §8).
func (e *search) testWithResolution(ctx context.Context, set *changes.Set, base map[string]*changes.File, c dd.Config) (runner.Test, error) {
	cur := []int(c)
	counted := false
	for round := 0; ; round++ {
		rec, err := e.s.Tester.Test(ctx, e.hunkCandidate(set, base, cur))
		if err != nil || rec.Outcome != dd.Unresolved || e.NoResolve || round == 8 {
			if counted && err == nil && rec.Outcome != dd.Unresolved {
				e.mu.Lock()
				e.resolved++
				e.mu.Unlock()
			}
			return rec, err
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
			return rec, nil
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

// hunks searches the failure-inducing changes between a passing tree P
// (the workspace base with base in place) and the failing tree P + all
// changes of set, then refines them to single lines, verifies and reports.
func (e *search) hunks(ctx context.Context, set *changes.Set, base map[string]*changes.File, oldName string) error {
	s, sum := e.s, e.sum
	sum.SizeBefore, sum.ElementsBefore = set.Len(), set.Len()
	s.StartProgress(set.Len())
	s.Say("%s between the versions; the new version fails, the old one passes (failure: %s)", report.Plural(set.Len(), "change"), sum.Signature)

	delta, minimal, err := e.isolate(ctx, "hunks", set, base)
	final, granularity := set, "hunks"
	// Refinement, the way reduce goes from lines to characters: the
	// failure-inducing hunks split into runs of changed lines (context
	// 0), and those that still span several lines into single inserted
	// or deleted lines (context -1), each between the old version and
	// the old version with the changes found applied.
	for _, level := range []struct {
		context    int
		name, unit string
	}{{0, "lines", "single-line change"}, {-1, "line edits", "line edit"}} {
		if err != nil || e.NoRefine || len(delta) == 0 || level.context < 0 && singleLines(final, delta) {
			break
		}
		fine := changes.Compare(final.Old, final.Tree(delta), level.context)
		if fine.Len() <= len(delta) {
			continue
		}
		s.Say("refining %s into %s", report.Plural(len(delta), "change"), report.Plural(fine.Len(), level.unit))
		d2, m2, err2 := e.isolate(ctx, level.name, fine, base)
		if err2 != nil && ctx.Err() == nil {
			// Keep the coarser answer.
			s.Say("refinement failed: %v; the result stays at %s", err2, granularity)
			break
		}
		if err2 == nil || len(d2) > 0 {
			final, delta, minimal, err, granularity = fine, d2, m2, err2, level.name
		}
	}
	interrupted := ctx.Err() != nil
	confirmed, complement := false, ""
	if err == nil && !interrupted {
		confirmed, complement, err = e.verify(ctx, final, base, delta)
	}
	patch := final.Patch(delta)
	if e.Output != "" && len(delta) > 0 {
		if werr := session.WriteAtomic(e.Output, []byte(patch), 0o644); werr != nil && err == nil {
			err = fmt.Errorf("writing %s: %w", e.Output, werr)
		}
	}
	e.finish(final, delta, patch, granularity, minimal && err == nil && !interrupted, confirmed, interrupted, complement)
	s.Progress.Close()
	e.human(final, delta, patch, oldName)
	if interrupted {
		return &session.ExitError{Code: session.ExitInterrupted, Err: errors.New("interrupted; the changes found so far are shown")}
	}
	return err
}

// singleLines reports whether every change of c replaces at most one
// line by at most one line: a single changed line, the finest change
// worth splitting into.
func singleLines(set *changes.Set, c []int) bool {
	for _, i := range c {
		ch := &set.Changes[i]
		if ch.Kind != changes.Hunk || len(ch.Old) > 1 || len(ch.New) > 1 {
			return false
		}
	}
	return true
}

// isolate runs the chosen algorithm over the changes of set.
func (e *search) isolate(ctx context.Context, name string, set *changes.Set, base map[string]*changes.File) ([]int, bool, error) {
	s := e.s
	groups := set.Groups(e.Group)
	opts := dd.Options{Partition: func(delta dd.Config, n int) []dd.Config {
		parts := groups.Partition(delta, n)
		out := make([]dd.Config, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out
	}}
	s.Progress.Update(func(st *report.Status) { st.Pass, st.Granularity, st.Size = name, 0, set.Len() })
	if s.TestLog != nil {
		s.TestLog.Printf("Pass %s: %s\n", name, report.Plural(set.Len(), "change"))
	}
	res, err := s.SearchTests(ctx, name, set.Len(), e.Algorithm, opts,
		func(ctx context.Context, c dd.Config) (runner.Test, error) {
			return e.testWithResolution(ctx, set, base, c)
		},
		func(st dd.Step) {
			s.Progress.Update(func(ps *report.Status) { ps.Size = st.Fail })
		})
	e.mu.Lock()
	e.sum.Predicted += res.Stats.Predicted
	e.mu.Unlock()
	var nf *dd.NotFailingError
	var np *dd.NotPassingError
	switch {
	case errors.As(err, &nf):
		return nil, false, session.NotReproduced("the failing configuration does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
	case errors.As(err, &np):
		return nil, false, session.NotReproduced("the passing configuration does not pass any more (%s); the test is flaky: try --repeat 3", np.Outcome)
	}
	delta := []int(res.Delta)
	if e.Algorithm == dd.Minimize {
		delta = res.Fail
	}
	return delta, res.Minimal, err
}

// verify runs the result once more without the cache: the old version
// with the failure-inducing changes applied must fail; and the new
// version without them (the complement) is tested, for the report.
func (e *search) verify(ctx context.Context, set *changes.Set, base map[string]*changes.File, delta []int) (bool, string, error) {
	s := e.s
	if len(delta) == 0 {
		return false, "", nil
	}
	rec, err := s.Tester.Retest(ctx, e.hunkCandidate(set, base, delta))
	s.Mu.Lock()
	s.Checks++
	s.Mu.Unlock()
	if err != nil {
		return false, "", err
	}
	confirmed := rec.Outcome == dd.Fail
	if !confirmed {
		s.Say("warning: run again, the old version with the result applied gave %s (%s)", rec.Outcome, rec.Detail)
	}
	var rest []int
	in := map[int]bool{}
	for _, i := range delta {
		in[i] = true
	}
	for i := range set.Len() {
		if !in[i] {
			rest = append(rest, i)
		}
	}
	crec, err := s.Tester.Test(ctx, e.hunkCandidate(set, base, rest))
	if err != nil {
		return confirmed, "", err
	}
	return confirmed, crec.Outcome.String(), nil
}

func (e *search) finish(set *changes.Set, delta []int, patch, granularity string, minimal, confirmed, interrupted bool, complement string) {
	s, sum := e.s, e.sum
	s.Mu.Lock()
	defer s.Mu.Unlock()
	sum.Tests, sum.Checks, sum.CacheHits, sum.Flaky, sum.Outcomes = s.Runs+s.Checks, s.Checks, s.CacheHits, s.Flaky, s.Outcomes
	sum.SizeAfter, sum.ElementsAfter = len(delta), len(delta)
	sum.Granularity = granularity
	sum.Minimal, sum.Confirmed, sum.Interrupted = minimal, confirmed, interrupted
	sum.Seconds = time.Since(s.Start).Seconds()
	sum.Diff = patch
	sum.Result = e.Output
	if sum.Result == "" {
		sum.Result = "inline"
	}
	sum.Hunks = nil
	for _, i := range delta {
		sum.Hunks = append(sum.Hunks, set.Changes[i].String())
	}
	e.mu.Lock()
	sum.Resolutions, sum.Resolved = e.resolutions, e.resolved
	e.mu.Unlock()
	sum.Complement = complement
}

func (e *search) human(set *changes.Set, delta []int, patch, oldName string) {
	s, sum := e.s, e.sum
	if s.Quiet {
		return
	}
	w := s.Stderr
	extra := ""
	if sum.Predicted > 0 {
		extra += fmt.Sprintf(", %d predicted", sum.Predicted)
	}
	if sum.Resolutions > 0 {
		extra += fmt.Sprintf(", %s (%d resolved)", report.Plural(sum.Resolutions, "resolution attempt"), sum.Resolved)
	}
	unit := map[string]string{"hunks": "change", "lines": "line change", "line edits": "line edit"}[sum.Granularity]
	fmt.Fprintf(w, "wynot: the failure is caused by %s (of %s between the versions), found in %s (%d unresolved%s), %.1fs\n",
		report.Plural(len(delta), unit), report.Plural(sum.ElementsBefore, "change"), report.Plural(sum.Tests, "test"),
		sum.Outcomes.Unresolved, extra, sum.Seconds)
	if sum.Commit != "" {
		fmt.Fprintf(w, "wynot: in commit %s\n", sum.Commit)
	}
	if len(delta) > 0 {
		fmt.Fprintf(w, "wynot: the failure-inducing changes, as a patch to %s:\n%s", oldName, patch)
	}
	switch {
	case sum.Interrupted:
		fmt.Fprintf(w, "wynot: interrupted: not minimal\n")
	case sum.Minimal && e.Algorithm == dd.Minimize:
		fmt.Fprintf(w, "wynot: the changes are 1-minimal: without any one of them, the failure is gone\n")
	case sum.Minimal:
		fmt.Fprintf(w, "wynot: the old version passes; with these changes applied it fails\n")
	default:
		fmt.Fprintf(w, "wynot: the result is not certified minimal\n")
	}
	if !sum.Interrupted && len(delta) > 0 && !sum.Confirmed {
		fmt.Fprintf(w, "wynot: warning: run again, the old version with these changes did not fail; the test may be flaky\n")
	}
	switch sum.Complement {
	case "":
	case "PASS":
		fmt.Fprintf(w, "wynot: the new version without these changes passes\n")
	default:
		fmt.Fprintf(w, "wynot: the new version without these changes: %s (other changes matter too, or it does not build)\n", sum.Complement)
	}
	if e.Output != "" && len(delta) > 0 {
		fmt.Fprintf(w, "wynot: patch written to %s\n", e.Output)
	}
}
