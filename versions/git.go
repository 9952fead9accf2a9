package versions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/wynot/wynot/changes"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/session"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// commit is one commit of the history searched.
type commit struct {
	hash, tree, subject string
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
	diffs map[[2]string]map[string]*changes.File
}

// files fetches the blobs of entries with one git cat-file --batch.
func (h *history) files(ctx context.Context, es []changes.GitEntry) (map[string]*changes.File, error) {
	req := changes.BatchRequest(es)
	var blobs map[string][]byte
	if len(req) > 0 {
		out, err := runner.GitInput(ctx, h.dir, req, "cat-file", "--batch")
		if err != nil {
			return nil, err
		}
		if blobs, err = changes.ParseBatch(out); err != nil {
			return nil, err
		}
	}
	return changes.GitFiles(es, blobs)
}

// tree reads the whole tree of a revision.
func (h *history) tree(ctx context.Context, rev string) (*changes.Tree, error) {
	out, err := runner.Git(ctx, h.dir, "ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	es, err := changes.ParseLsTree(out)
	if err != nil {
		return nil, err
	}
	files, err := h.files(ctx, es)
	if err != nil {
		return nil, err
	}
	t := &changes.Tree{Files: map[string]*changes.File{}}
	for p, f := range files {
		if !changes.Skip(p) {
			t.Files[p] = f
		}
	}
	return t, nil
}

// diff returns the files that differ between two revisions, as they are
// in the second (nil: deleted there).
func (h *history) diff(ctx context.Context, from, to string) (map[string]*changes.File, error) {
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
	es, err := changes.ParseDiffRaw(out)
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
func (r *Changes) runGit(ctx context.Context, sum *report.Summary) error {
	dir := r.Repo
	if dir == "" {
		dir = "."
	}
	out, err := runner.Git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return session.InputError("%s is not in a git repository: %v", dir, err)
	}
	top := strings.TrimSpace(string(out))
	if !r.AllowDirty {
		st, err := runner.Git(ctx, top, "--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return session.InputError("%v", err)
		}
		if len(bytes.TrimSpace(st)) > 0 {
			return session.InputError("the worktree of %s has uncommitted changes, which are in neither revision; commit or stash them, or give --allow-dirty", top)
		}
	}
	rev := func(name string) (string, error) {
		out, err := runner.Git(ctx, top, "rev-parse", "--verify", "--quiet", "--end-of-options", name+"^{commit}")
		if err != nil {
			return "", session.InputError("unknown revision %q in %s", name, top)
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
		return session.InputError("%s and %s are the same commit", r.Old, r.New)
	}
	if _, err := runner.Git(ctx, top, "merge-base", "--is-ancestor", good, bad); err != nil {
		return session.InputError("%s is not an ancestor of %s: give the working revision first", r.Old, r.New)
	}
	out, err = runner.Git(ctx, top, "log", "--first-parent", "--reverse", "--format=%H%x00%T%x00%s", good+".."+bad)
	if err != nil {
		return session.InputError("%v", err)
	}
	var commits []commit
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.SplitN(l, "\x00", 3); len(f) == 3 {
			commits = append(commits, commit{f[0], f[1], f[2]})
		}
	}
	if len(commits) == 0 {
		return session.InputError("no commits between %s and %s", r.Old, r.New)
	}
	sum.Commits = len(commits)
	h := &history{dir: top, diffs: map[[2]string]map[string]*changes.File{}}
	goodTree, err := h.tree(ctx, good)
	if err != nil {
		return err
	}
	s, err := r.open(goodTree)
	if err != nil {
		return err
	}
	defer s.Close()
	e := &search{Changes: r, s: s, sum: sum, ws: newWorkspaces(goodTree)}
	// The tree after the first k commits.
	revOf := func(k int) string {
		if k == 0 {
			return good
		}
		return commits[k-1].hash
	}
	revCandidate := func(ctx context.Context, k int) (runner.Candidate, error) {
		d, err := h.diff(ctx, good, revOf(k))
		if err != nil {
			return runner.Candidate{}, err
		}
		label := "GOOD " + good[:12]
		if k > 0 {
			label = fmt.Sprintf("%s (%d of %d commits)", commits[k-1].hash[:12], k, len(commits))
		}
		return e.candidate(maps(nil, d), label), nil
	}
	failC, err := revCandidate(ctx, len(commits))
	if err != nil {
		return err
	}
	passC, _ := revCandidate(ctx, 0)
	if err := e.checkVersions(ctx, failC, passC, "bad revision "+r.New, "good revision "+r.Old); err != nil {
		return err
	}
	lo, hi := 0, len(commits)-1 // the failure-inducing commits lie in commits[lo..hi]
	if len(commits) > 1 {
		s.StartProgress(len(commits))
		s.Say("%s between %s and %s; %s fails, %s passes (failure: %s)", report.Plural(len(commits), "commit"), r.Old, r.New, r.New, r.Old, sum.Signature)
		if s.TestLog != nil {
			s.TestLog.Printf("Pass commits: %s\n", report.Plural(len(commits), "commit"))
		}
		res, err := s.SearchTests(ctx, "commits", len(commits), dd.Plus, dd.Options{Predict: dd.Ordered()},
			func(ctx context.Context, c dd.Config) (runner.Test, error) {
				cand, err := revCandidate(ctx, len(c)) // a prefix: the predictor answers all others
				if err != nil {
					return runner.Test{}, err
				}
				return s.Tester.Test(ctx, cand)
			},
			func(st dd.Step) { s.Progress.Update(func(ps *report.Status) { ps.Size = st.Fail }) })
		sum.Predicted += res.Stats.Predicted
		if err != nil {
			s.Progress.Close()
			var nf *dd.NotFailingError
			var np *dd.NotPassingError
			if errors.As(err, &nf) || errors.As(err, &np) {
				return session.NotReproduced("a revision changed its outcome when tested again; the test is flaky: try --repeat 3")
			}
			if ctx.Err() != nil {
				msg := "interrupted while searching the commits"
				if d := res.Delta; len(d) > 0 && len(d) < len(commits) {
					msg += fmt.Sprintf("; so far, the failure-inducing commit is one of the %d from %s to %s", d[len(d)-1]-d[0]+1, commits[d[0]], commits[d[len(d)-1]])
				}
				return &session.ExitError{Code: session.ExitInterrupted, Err: errors.New(msg)}
			}
			return err
		}
		if len(res.Delta) > 0 {
			lo, hi = res.Delta[0], res.Delta[len(res.Delta)-1]
		}
		s.Progress.Close()
	}
	culprit := commits[hi]
	sum.Commit = culprit.String()
	if lo == hi {
		s.Say("the failure-inducing commit is %s", culprit)
	} else {
		s.Say("the failure needs commits %s to %s together", commits[lo], culprit)
	}
	// The old and the new side of the culprit commit(s), restricted to
	// the paths they change; base is the tree before them, as an overlay
	// of the good tree.
	base, err := h.diff(ctx, good, revOf(lo))
	if err != nil {
		return err
	}
	d, err := h.diff(ctx, revOf(lo), revOf(hi+1))
	if err != nil {
		return err
	}
	oldPart := &changes.Tree{Files: map[string]*changes.File{}}
	newPart := &changes.Tree{Files: map[string]*changes.File{}}
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
	set := changes.Compare(oldPart, newPart, r.Context)
	if set.Len() == 0 {
		return fmt.Errorf("commit %s changes no file", culprit)
	}
	oldName := revOf(lo)[:12]
	if lo == hi {
		oldName += ", the parent of " + culprit.hash[:12]
	}
	return e.hunks(ctx, set, base, oldName)
}
