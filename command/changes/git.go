package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// commit is one commit of the history searched.
type commit struct {
	hash, subject string
	parents       []string
}

func (c commit) String() string { return c.hash[:min(12, len(c.hash))] + " " + c.subject }

// history reads a repository's revisions through git ls-tree, diff and
// cat-file: whole trees only for the good revision, and for every other
// revision only the files that differ, so that a revision costs in the
// files it changes, not in the size of the repository. The user's
// worktree, index and refs are never touched.
type history struct {
	dir   string
	mu    sync.Mutex
	diffs map[[2]string]map[string]*codediff.File
}

// files fetches the blobs of entries with one git cat-file --batch.
func (h *history) files(ctx context.Context, es []codediff.GitEntry) (map[string]*codediff.File, error) {
	req := codediff.BatchRequest(es)
	var blobs map[string][]byte
	if len(req) > 0 {
		out, err := runner.GitInput(ctx, h.dir, req, "cat-file", "--batch")
		if err != nil {
			return nil, err
		}
		if blobs, err = codediff.ParseBatch(out); err != nil {
			return nil, err
		}
	}
	return codediff.GitFiles(es, blobs)
}

// tree reads the whole tree of a revision.
func (h *history) tree(ctx context.Context, rev string) (*codediff.Tree, error) {
	out, err := runner.Git(ctx, h.dir, "ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	es, err := codediff.ParseLsTree(out)
	if err != nil {
		return nil, err
	}
	files, err := h.files(ctx, es)
	if err != nil {
		return nil, err
	}
	t := &codediff.Tree{Files: map[string]*codediff.File{}}
	for p, f := range files {
		if !filetree.Skip(p) {
			t.Files[p] = f
		}
	}
	return t, nil
}

// diff returns the files that differ between two revisions, as they are
// in the second (nil: deleted there).
func (h *history) diff(ctx context.Context, from, to string) (map[string]*codediff.File, error) {
	key := [2]string{from, to}
	h.mu.Lock()
	d, ok := h.diffs[key]
	h.mu.Unlock()
	if ok {
		return d, nil
	}
	out, err := runner.Git(ctx, h.dir, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv", from, to)
	if err != nil {
		return nil, err
	}
	es, err := codediff.ParseDiffRaw(out)
	if err != nil {
		return nil, err
	}
	if d, err = h.files(ctx, es); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.diffs[key] = d
	h.mu.Unlock()
	return d, nil
}

// runGit is wynot changes --git GOOD BAD: first the commits between the
// revisions, each implying all earlier ones (FSE 1999 Table 7), so that
// dd+ bisects the history; then the hunks of the failure-inducing
// commit(s).
func (r *Changes) gitJob(ctx context.Context) (command.Job, command.Workload, error) {
	var g *gitSearch
	var goodTree *codediff.Tree
	err := func() error {
		dir := r.Repo
		if dir == "" {
			dir = "."
		}
		out, err := runner.Git(ctx, dir, "rev-parse", "--show-toplevel")
		if err != nil {
			return command.InputError("%s is not in a git repository: %v", dir, err)
		}
		top := strings.TrimSpace(string(out))
		if !r.AllowDirty {
			st, err := runner.Git(ctx, top, "--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
			if err != nil {
				return command.InputError("%v", err)
			}
			if len(bytes.TrimSpace(st)) > 0 {
				return command.InputError("the worktree of %s has uncommitted changes, which are in neither revision; commit or stash them, or give --allow-dirty", top)
			}
		}
		rev := func(name string) (string, error) {
			out, err := runner.Git(ctx, top, "rev-parse", "--verify", "--quiet", "--end-of-options", name+"^{commit}")
			if err != nil {
				return "", command.InputError("unknown revision %q in %s", name, top)
			}
			return strings.TrimSpace(string(out)), nil
		}
		good, err := rev(r.Old)
		if err != nil {
			return err
		}
		bad, err := rev(r.New)
		if err != nil {
			return err
		}
		if good == bad {
			return command.InputError("%s and %s are the same commit", r.Old, r.New)
		}
		if _, err := runner.Git(ctx, top, "merge-base", "--is-ancestor", good, bad); err != nil {
			return command.InputError("%s is not an ancestor of %s: give the working revision first", r.Old, r.New)
		}
		commits, err := firstParents(ctx, top, good, bad)
		if err != nil {
			return err
		}
		if len(commits) == 0 {
			return command.InputError("no commits between %s and %s", r.Old, r.New)
		}
		h := &history{dir: top, diffs: map[[2]string]map[string]*codediff.File{}}
		if goodTree, err = h.tree(ctx, good); err != nil {
			return err
		}
		e := &search{Changes: r, ws: filetree.NewWorkspaces(goodTree)}
		e.detail.Commits = len(commits)
		g = &gitSearch{search: e, h: h, top: top, good: good}
		failC, err := g.candidate(ctx, bad, "BAD "+bad[:12])
		if err != nil {
			return err
		}
		passC, err := g.candidate(ctx, good, "GOOD "+good[:12])
		if err != nil {
			return err
		}
		e.begin = command.Begin{Failing: failC, What: "bad revision " + r.New, Passing: &passC, PassingWhat: "the good revision " + r.Old}
		e.run = func(ctx context.Context) error { return g.run(ctx, commits) }
		return nil
	}()
	if err != nil {
		return nil, command.Workload{}, err
	}
	return g.search, workload(goodTree), nil
}

// run finds the failure-inducing commit among commits and then the
// failure-inducing changes in it.
func (g *gitSearch) run(ctx context.Context, commits []commit) error {
	r, e, s, h, good := g.Changes, g.search, g.s, g.h, g.good
	goodTree := e.ws.Base()
	// The failure-inducing commit on the first-parent line; then, while
	// it is a merge whose merged branch fails on its own, the commit on
	// that branch.
	from := good // the revision before commits, which passes
	lo, hi, err := g.bisect(ctx, from, commits, r.Old, r.New)
	if err != nil {
		return err
	}
	for depth := 0; lo == hi && depth < 8; depth++ {
		sub, base, err := g.descend(ctx, commits[hi])
		if err != nil {
			return err
		}
		if sub == nil {
			break
		}
		commits, from = sub, base
		if lo, hi, err = g.bisect(ctx, from, commits, from[:12], commits[len(commits)-1].hash[:12]); err != nil {
			return err
		}
	}
	culprit := commits[hi]
	e.detail.Commit = culprit.String()
	if lo == hi {
		s.Say("the failure-inducing commit is %s", culprit)
	} else {
		s.Say("the failure-inducing commit is one of %d from %s to %s (the ones before %s do not build or test)", hi-lo+1, commits[lo], culprit, culprit.hash[:12])
	}
	// The old and the new side of the culprit commit(s), restricted to
	// the paths they change; base is the tree before them, as an overlay
	// of the good tree.
	before := from
	if lo > 0 {
		before = commits[lo-1].hash
	}
	base, err := h.diff(ctx, good, before)
	if err != nil {
		return err
	}
	d, err := h.diff(ctx, before, culprit.hash)
	if err != nil {
		return err
	}
	oldPart := &codediff.Tree{Files: map[string]*codediff.File{}}
	newPart := &codediff.Tree{Files: map[string]*codediff.File{}}
	for p, f := range d {
		old, changed := base[p]
		if !changed {
			old = goodTree.Files[p]
		}
		if old != nil {
			oldPart.Files[p] = old
		}
		if f != nil {
			newPart.Files[p] = f
		}
	}
	set := codediff.Compare(oldPart, newPart, r.Context)
	if set.Len() == 0 {
		return fmt.Errorf("commit %s changes no file", culprit)
	}
	oldName := before[:12]
	if lo == hi {
		oldName += ", the parent of " + culprit.hash[:12]
	}
	if before != good {
		e.good = r.Old
	}
	return e.hunks(ctx, set, base, oldName)
}

// firstParents lists the commits from good (excluded) to bad on bad's
// first-parent line, oldest first.
func firstParents(ctx context.Context, dir, good, bad string) ([]commit, error) {
	out, err := runner.Git(ctx, dir, "log", "--first-parent", "--reverse", "--format=%H%x00%P%x00%s", good+".."+bad)
	if err != nil {
		return nil, command.InputError("%v", err)
	}
	var commits []commit
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.SplitN(l, "\x00", 3); len(f) == 3 {
			commits = append(commits, commit{hash: f[0], parents: strings.Fields(f[1]), subject: f[2]})
		}
	}
	return commits, nil
}

// gitSearch is the commit search of wynot changes --git.
type gitSearch struct {
	*search
	h         *history
	top, good string
}

// candidate is the tree of a revision, as the good tree with the files
// that differ in place.
func (g *gitSearch) candidate(ctx context.Context, rev, label string) (runner.Candidate, error) {
	d, err := g.h.diff(ctx, g.good, rev)
	if err != nil {
		return runner.Candidate{}, err
	}
	return g.search.candidate(maps(nil, d), label), nil
}

// bisect finds the failure-inducing commit among commits, the
// first-parent line after from (which passes; the last commit fails):
// dd+ over the commits, each implying all earlier ones (FSE 1999 Table
// 7), which is a binary search like git bisect; commits that do not build
// (unresolved) are skipped as git bisect skip does, so the answer may be
// a range lo..hi whose commits before hi could not be tested.
func (g *gitSearch) bisect(ctx context.Context, from string, commits []commit, fromName, toName string) (lo, hi int, err error) {
	s := g.s
	if len(commits) == 1 {
		return 0, 0, nil
	}
	revOf := func(k int) string {
		if k == 0 {
			return from
		}
		return commits[k-1].hash
	}
	s.StartProgress(len(commits), "commits")
	defer s.Progress.Close()
	s.Say("%s between %s and %s; %s fails, %s passes (failure: %s)", report.Plural(len(commits), "commit"), fromName, toName, toName, fromName, s.Signature())
	if s.TestLog != nil {
		s.TestLog.Printf("Pass commits: %s\n", report.Plural(len(commits), "commit"))
	}
	res, err := s.SearchTests(ctx, "commits", len(commits), dd.Plus, dd.Options{Predict: dd.Ordered()},
		func(ctx context.Context, c dd.Config) (runner.Test, error) {
			k := len(c) // a prefix: the predictor answers all others
			label := fmt.Sprintf("%s (%d of %d commits)", revOf(k)[:12], k, len(commits))
			cand, err := g.candidate(ctx, revOf(k), label)
			if err != nil {
				return runner.Test{}, err
			}
			return s.Test(ctx, cand)
		},
		func(st dd.Step) { s.Progress.Update(func(ps *report.Status) { ps.Size = st.Fail }) })
	if err != nil {
		var nf *dd.NotFailingError
		var np *dd.NotPassingError
		if errors.As(err, &nf) || errors.As(err, &np) {
			return 0, 0, command.NotReproduced("a revision changed its outcome when tested again; the test is flaky: try --repeat 3")
		}
		if ctx.Err() != nil {
			msg := "interrupted while searching the commits"
			if d := res.Delta; len(d) > 0 && len(d) < len(commits) {
				msg += fmt.Sprintf("; so far, the failure-inducing commit is one of the %d from %s to %s", d[len(d)-1]-d[0]+1, commits[d[0]], commits[d[len(d)-1]])
			}
			return 0, 0, &command.ExitError{Code: command.ExitInterrupted, Err: errors.New(msg)}
		}
		return 0, 0, err
	}
	lo, hi = 0, len(commits)-1
	if len(res.Delta) > 0 {
		lo, hi = res.Delta[0], res.Delta[len(res.Delta)-1]
	}
	return lo, hi, nil
}

// descend looks into a failure-inducing merge: when the merged branch
// fails on its own and its merge base with the first parent passes, the
// failure came with the branch, and descend returns the branch's
// first-parent commits after the merge base, and the merge base, for a
// search of its own. It returns nil when c is no merge or the failure
// needs both sides (then the merge's own changes are searched).
func (g *gitSearch) descend(ctx context.Context, c commit) ([]commit, string, error) {
	if len(c.parents) < 2 {
		return nil, "", nil
	}
	s := g.s
	p1, p2 := c.parents[0], c.parents[1]
	out, err := runner.Git(ctx, g.top, "merge-base", p1, p2)
	if err != nil {
		return nil, "", nil
	}
	mb := strings.TrimSpace(string(out))
	if mb == p2 {
		return nil, "", nil
	}
	test := func(rev, what string) (dd.Outcome, error) {
		cand, err := g.candidate(ctx, rev, what+" "+rev[:12])
		if err != nil {
			return dd.Unresolved, err
		}
		rec, err := s.Test(ctx, cand)
		return rec.Outcome, err
	}
	o2, err := test(p2, "merged branch")
	if err != nil {
		return nil, "", err
	}
	if o2 != dd.Fail {
		s.Say("the failure-inducing commit %s is a merge; its merged branch %s alone gives %s, so the merge's own changes are searched", c, p2[:12], o2)
		return nil, "", nil
	}
	ob, err := test(mb, "merge base")
	if err != nil {
		return nil, "", err
	}
	if ob != dd.Pass {
		s.Say("the failure-inducing commit %s is a merge; its branch fails but the merge base %s gives %s, so the merge's own changes are searched", c, mb[:12], ob)
		return nil, "", nil
	}
	sub, err := firstParents(ctx, g.top, mb, p2)
	if err != nil || len(sub) == 0 {
		return nil, "", err
	}
	s.Say("the failure-inducing commit %s is a merge of a branch that fails on its own: searching its %s", c, report.Plural(len(sub), "commit"))
	return sub, mb, nil
}
