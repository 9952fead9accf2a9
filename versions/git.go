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

// history reads a repository's revisions as trees, through git archive:
// the user's worktree, index and refs are never touched.
type history struct {
	dir string
	mu  sync.Mutex
	by  map[string]*changes.Tree
}

func (h *history) tree(ctx context.Context, rev string) (*changes.Tree, error) {
	h.mu.Lock()
	t, ok := h.by[rev]
	h.mu.Unlock()
	if ok {
		return t, nil
	}
	tar, err := runner.Git(ctx, h.dir, "archive", "--format=tar", rev)
	if err != nil {
		return nil, err
	}
	if t, err = changes.ReadTar(bytes.NewReader(tar)); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.by[rev] = t
	h.mu.Unlock()
	return t, nil
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
	h := &history{dir: top, by: map[string]*changes.Tree{}}
	goodTree, err := h.tree(ctx, good)
	if err != nil {
		return err
	}
	badTree, err := h.tree(ctx, bad)
	if err != nil {
		return err
	}
	s, err := r.open(goodTree, badTree)
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
		t, err := h.tree(ctx, revOf(k))
		if err != nil {
			return runner.Candidate{}, err
		}
		label := "GOOD " + good[:12]
		if k > 0 {
			label = fmt.Sprintf("%s (%d of %d commits)", commits[k-1].hash[:12], k, len(commits))
		}
		return e.candidate(changes.Overlay(goodTree, t), label), nil
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
				return &session.ExitError{Code: session.ExitInterrupted, Err: errors.New("interrupted while searching the commits")}
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
	oldTree, err := h.tree(ctx, revOf(lo))
	if err != nil {
		return err
	}
	newTree, err := h.tree(ctx, revOf(hi+1))
	if err != nil {
		return err
	}
	set := changes.Compare(oldTree, newTree, r.Context)
	if set.Len() == 0 {
		return fmt.Errorf("commit %s changes no file", culprit)
	}
	oldName := revOf(lo)[:12]
	if lo == hi {
		oldName += ", the parent of " + culprit.hash[:12]
	}
	return e.hunks(ctx, set, changes.Overlay(goodTree, oldTree), oldName)
}
