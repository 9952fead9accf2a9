package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
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
	author, date  string // "Name <email>", and the author date in strict ISO 8601
	parents       []string
}

// info is the commit as the summary shows it in full.
func (c commit) info() *GitCommit {
	return &GitCommit{Hash: c.hash, Subject: c.subject, Author: c.author, Date: c.date}
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
	var goodTree, badTree *codediff.Tree
	var top string
	err := func() error {
		dir := r.Repo
		if dir == "" {
			dir = "."
		}
		out, err := runner.Git(ctx, dir, "rev-parse", "--show-toplevel")
		if err != nil {
			return command.InputError("%s is not in a git repository: %v", dir, err)
		}
		top = strings.TrimSpace(string(out))
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
			switch {
			case runner.GitSaysNo(err):
				return "", command.InputError("unknown revision %q in %s", name, top)
			case err != nil:
				return "", err
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
		revs := &Revisions{Good: Revision{Name: r.Old, Hash: good}, Bad: Revision{Name: r.New, Hash: bad}}
		goodWhat, goodName, notes := "the good revision "+r.Old, r.Old, []string(nil)
		if _, err := runner.Git(ctx, top, "merge-base", "--is-ancestor", good, bad); err != nil {
			if !runner.GitSaysNo(err) {
				return err
			}
			// As git bisect does: the search starts where the good
			// revision's history meets the bad one's, which must pass.
			_, err := runner.Git(ctx, top, "merge-base", "--is-ancestor", bad, good)
			switch {
			case err == nil:
				return command.InputError("%s is an ancestor of %s: give the working revision first", r.New, r.Old)
			case !runner.GitSaysNo(err):
				return err
			}
			out, err := runner.Git(ctx, top, "merge-base", "--all", good, bad)
			bases := strings.Fields(string(out))
			switch {
			case err != nil && !runner.GitSaysNo(err):
				return err
			case err != nil || len(bases) == 0:
				return command.InputError("%s and %s have no common history", r.Old, r.New)
			case len(bases) > 1:
				return command.InputError("%s is not an ancestor of %s and they have %d merge bases (%s): give one of them as the working revision", r.Old, r.New, len(bases), strings.Join(bases, ", "))
			}
			goodWhat, goodName = fmt.Sprintf("the merge base %s of %s and %s", bases[0][:12], r.Old, r.New), bases[0][:12]
			notes = append(notes, fmt.Sprintf("%s (%s) is not an ancestor of %s: the search starts at their merge base %s, which passes (git bisect starts there too); %s itself is not tested", r.Old, good[:12], r.New, bases[0][:12], r.Old))
			good, revs.MergeBase = bases[0], bases[0]
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
		e.detail.Commits, e.detail.Revisions = len(commits), revs
		badFiles, err := h.diff(ctx, good, bad)
		if err != nil {
			return err
		}
		badTree = &codediff.Tree{Files: badFiles}
		reads := codediff.NewReads(r.Paths, runsGoTest(r.Test), goodTree, badTree)
		g = &gitSearch{search: e, h: h, top: top, good: good, goodWhat: goodWhat, goodName: goodName, reads: reads, notes: notes}
		failC, err := g.candidate(ctx, bad, "BAD "+bad[:12])
		if err != nil {
			return err
		}
		passC, err := g.candidate(ctx, good, "GOOD "+good[:12])
		if err != nil {
			return err
		}
		e.begin = command.Begin{Failing: failC, What: "bad revision " + r.New, Passing: &passC, PassingWhat: goodWhat}
		e.run = func(ctx context.Context) error { return g.run(ctx, commits) }
		return nil
	}()
	if err != nil {
		return nil, command.Workload{}, err
	}
	wl := workload(goodTree)
	wl.Tree, wl.InTree, wl.Copies = []string{top}, inTrees(goodTree, badTree), g.ws
	return g.search, wl, nil
}

// run finds the failure-inducing commit among commits and then the
// failure-inducing changes in it.
func (g *gitSearch) run(ctx context.Context, commits []commit) error {
	r, e, s, h, good := g.Changes, g.search, g.s, g.h, g.good
	for _, n := range g.notes {
		s.Say("%s", n)
	}
	if !g.reads.GoTest && len(r.Paths) == 0 && goTestTool(runner.Extract(s.Original()).Tool) {
		// The command or its script did not say go test, but the bad
		// revision's output is go test's (a script that runs another):
		// Go test files and testdata are read.
		g.reads.GoTest = true
	}
	goodTree := e.ws.Base()
	// The failure-inducing commit on the first-parent line; then, while
	// it is a merge whose merged branch fails on its own, the commit on
	// that branch.
	from := good // the revision before commits, which passes
	lo, hi, _, _, err := g.bisect(ctx, from, commits, g.goodName, r.New, false)
	if err != nil {
		return err
	}
	for depth := 0; lo == hi && depth < 8; depth++ {
		merge := commits[hi]
		sub, base, err := g.descend(ctx, merge)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			s.Say("the merged branch of %s is not searched: %v", merge, err)
			break
		}
		if sub == nil {
			break
		}
		s.Say("the failure-inducing commit %s is a merge: searching the %s of its merged branch", merge, report.Plural(len(sub), "commit"))
		slo, shi, ok, why, err := g.bisect(ctx, base, sub, base[:12], sub[len(sub)-1].hash[:12], true)
		if err != nil {
			return err
		}
		if !ok {
			s.Say("the failure did not come with the merged branch alone (%s), so the merge's own changes are searched", why)
			break
		}
		s.Say("the merge %s brought the failure with a branch that fails on its own", merge.hash[:12])
		commits, from, lo, hi = sub, base, slo, shi
	}
	culprit := commits[hi]
	e.detail.Commit, e.detail.Culprit, e.detail.Culprits, e.detail.Untested = culprit.String(), culprit.info(), nil, nil
	for _, c := range commits[lo:hi] {
		e.detail.Untested = append(e.detail.Untested, c.String())
	}
	if lo < hi {
		// No one commit is the culprit: the JSON names them all.
		e.detail.Culprit = nil
		for _, c := range commits[lo : hi+1] {
			e.detail.Culprits = append(e.detail.Culprits, c.info())
		}
	}
	if lo == hi {
		s.Say("the failure-inducing commit is %s", culprit)
		for i, sk := range e.detail.SkippedCommits {
			if sk.Commit == culprit.String() {
				// The rule of what the build reads predicted it gives
				// its parent's outcome; the tests of it and its parent
				// say otherwise.
				s.Say("%s was taken above for a commit that changes no file the test's build reads (only %s), but the failure begins with it, as its test and its parent's show: the test reads them (--paths . takes every commit)", culprit.hash[:12], sk.Why)
				e.detail.SkippedCommits = slices.Delete(e.detail.SkippedCommits, i, i+1)
				break
			}
		}
	} else {
		s.Say("the failure-inducing commit is one of %d from %s to %s (%s)", hi-lo+1, commits[lo], culprit, g.passedOver(commits[lo:hi], culprit))
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
	versions := fmt.Sprintf("new: %s, old: %s", culprit.hash[:12], before[:12])
	if lo == hi {
		oldName += ", the parent of " + culprit.hash[:12]
		versions = fmt.Sprintf("new: the commit %s, old: its parent %s", culprit.hash[:12], before[:12])
	}
	if before != good {
		e.good = g.goodWhat
	}
	return e.hunks(ctx, set, base, oldName, versions)
}

// goTestTool says that a run's output was read as go test's or go
// vet's (runner.Signature.Tool).
func goTestTool(tool string) bool {
	for _, t := range strings.Split(tool, ", ") {
		if t == "go test" || t == "go vet" {
			return true
		}
	}
	return false
}

// goTestWord finds go test (or go vet, which reads test files too) in a
// command line or a script.
var goTestWord = regexp.MustCompile(`(^|[^[:alnum:]_./-])go[ \t]+(test|vet)\b`)

// runsGoTest says whether the test may run go test, which reads Go test
// files and testdata: its command line or test script says so, or the
// script the command line starts, or runs with an interpreter (sh
// check.sh), does.
func runsGoTest(t command.Test) bool {
	text := strings.Join(t.Argv, " ")
	files := []string{t.Script}
	if len(t.Argv) > 0 {
		files = append(files, t.Argv[0])
	}
	if i := command.ScriptArg(t.Argv); i > 0 {
		files = append(files, t.Argv[i])
	}
	for _, f := range files {
		if st, err := os.Stat(f); f != "" && err == nil && st.Mode().IsRegular() && st.Size() < 1<<20 {
			if data, err := os.ReadFile(f); err == nil {
				text += "\n" + string(data)
			}
		}
	}
	return goTestWord.MatchString(text)
}

// firstParents lists the commits from good (excluded) to bad on bad's
// first-parent line, oldest first.
func firstParents(ctx context.Context, dir, good, bad string) ([]commit, error) {
	out, err := runner.Git(ctx, dir, "log", "--first-parent", "--reverse", "--format=%H%x00%P%x00%an <%ae>%x00%aI%x00%s", good+".."+bad)
	if err != nil {
		return nil, command.InputError("%v", err)
	}
	var commits []commit
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.SplitN(l, "\x00", 5); len(f) == 5 {
			commits = append(commits, commit{hash: f[0], parents: strings.Fields(f[1]), author: f[2], date: f[3], subject: f[4]})
		}
	}
	return commits, nil
}

// gitSearch is the commit search of wynot changes --git.
type gitSearch struct {
	*search
	h         *history
	top, good string
	reads     *codediff.Reads // which files the test's build reads
	notes     []string        // said when the search starts
	// goodWhat names the revision the search starts from: the good
	// revision, or its merge base with the bad one; goodName is its
	// short name.
	goodWhat, goodName string
	// unresolved are the tests of the revisions the bisection passed
	// over (unresolved), by commit hash: why each could not be told.
	unresolved map[string]runner.Test
	// notCandidate is why a commit whose revision was passed over
	// cannot change the outcome (notCandidates), by commit hash: its
	// outcome then contradicts its parent's.
	notCandidate map[string]string
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
// first-parent line after from (which passes; the last commit fails), by
// a binary search (span) that takes for candidates only the commits
// that change a file the test's build can read (codediff.Reads), each
// merge weighed as the commits it brings; the
// commit it names is tested, and so is its parent. Revisions that do not
// build (unresolved) are skipped as git bisect skip does, so the answer
// may be a range lo..hi whose commits before hi could not be tested.
//
// With presumed, neither end was tested: from is the merge base of a
// merged branch and the last commit the branch's head, and each is
// tested only when the answer needs it; ok is false when one of them
// did not give the outcome presumed (why says which).
func (g *gitSearch) bisect(ctx context.Context, from string, commits []commit, fromName, toName string, presumed bool) (lo, hi int, ok bool, why string, err error) {
	s := g.s
	revOf := func(k int) string {
		if k == 0 {
			return from
		}
		return commits[k-1].hash
	}
	skip, err := g.notCandidates(ctx, commits)
	if err != nil {
		return 0, 0, false, "", err
	}
	// What the search does is kept for the summary and the report.
	line := Bisection{From: fromName, To: toName, Commits: len(commits), Branch: presumed}
	for _, w := range skip {
		if w == "" {
			line.Candidates++
		}
	}
	g.detail.Bisection = append(g.detail.Bisection, line)
	at := len(g.detail.Bisection) - 1
	bi := func() *Bisection { return &g.detail.Bisection[at] }
	if len(commits) == 1 && !presumed {
		bi().Found = commits[0].String()
		return 0, 0, true, "", nil
	}
	sp := newSpan(len(commits), func(k int) bool { return skip[k-1] == "" }, !presumed)
	// A merge weighs as the commits it brings, as in git bisect.
	weight := make([]int, len(commits))
	for i, c := range commits {
		weight[i] = 1
		if len(c.parents) > 1 && skip[i] == "" {
			out, err := runner.Git(ctx, g.top, "rev-list", "--count", c.parents[0]+".."+c.hash)
			if err != nil {
				return 0, 0, false, "", err
			}
			if n, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && n > 0 {
				weight[i] = n
			}
		}
	}
	sp.weight = func(k int) int { return weight[k-1] }
	s.StartProgress(len(commits), "commits")
	defer s.EndProgress()
	if presumed {
		s.Say("%s between %s and %s", report.Plural(len(commits), "commit"), fromName, toName)
	} else {
		s.Say("%s between %s and %s; %s fails, %s passes", report.Plural(len(commits), "commit"), fromName, toName, toName, fromName)
	}
	s.Logf("Pass commits: %s\n", report.Plural(len(commits), "commit"))
	for {
		p := sp.next()
		if p < 0 {
			break
		}
		label := fmt.Sprintf("%s (%d of %d commits)", revOf(p)[:12], p, len(commits))
		switch {
		case presumed && p == 0:
			label = "merge base " + from[:12]
		case presumed && p == len(commits):
			label = "merged branch " + commits[p-1].hash[:12]
		}
		cand, err := g.candidate(ctx, revOf(p), label)
		if err != nil {
			return 0, 0, false, "", err
		}
		rec, err := s.Test(ctx, cand)
		if err != nil {
			if ctx.Err() != nil {
				msg := "interrupted while searching the commits"
				if sp.hi-sp.lo < len(commits) {
					msg += fmt.Sprintf("; so far, the failure-inducing commit is one of the %d from %s to %s", sp.hi-sp.lo, commits[sp.lo], commits[sp.hi-1])
				}
				return 0, 0, false, "", &command.ExitError{Code: command.ExitInterrupted, Err: errors.New(msg)}
			}
			return 0, 0, false, "", err
		}
		held := sp.record(p, rec.Outcome)
		if rec.Outcome == dd.Unresolved {
			if g.unresolved == nil {
				g.unresolved = map[string]runner.Test{}
			}
			g.unresolved[revOf(p)] = rec
			if p > 0 && skip[p-1] != "" {
				if g.notCandidate == nil {
					g.notCandidate = map[string]string{}
				}
				g.notCandidate[revOf(p)] = skip[p-1]
			}
		}
		step := BisectStep{Revision: revOf(p), At: p, Outcome: rec.Outcome.String(), Detail: rec.Detail, Cached: rec.Cached}
		if p > 0 {
			step.Subject = commits[p-1].subject
		}
		step.Left = sp.hi - sp.lo
		for k := sp.lo + 1; k <= sp.hi; k++ {
			if skip[k-1] == "" {
				step.Candidates++
			}
		}
		if step.Left > 0 {
			step.First, step.Last = commits[sp.lo].String(), commits[sp.hi-1].String()
		}
		bi().Steps = append(bi().Steps, step)
		if !held {
			why := fmt.Sprintf("%s gives %s", label, rec.Outcome)
			bi().Note = why
			return 0, 0, false, why, nil
		}
		s.Status(func(ps *report.Status) { ps.Size = sp.hi - sp.lo })
	}
	if sp.hi-sp.lo == 1 {
		bi().Found = commits[sp.hi-1].String()
	} else {
		bi().Found = fmt.Sprintf("one of the %d commits from %s to %s", sp.hi-sp.lo, commits[sp.lo], commits[sp.hi-1])
	}
	return sp.lo, sp.hi - 1, true, "", nil
}

// notCandidates says, for each of commits, why it cannot change the
// outcome ("" when it can): the files it changes against its first
// parent, in one git diff-tree, are files no build of the test reads
// (codediff.Reads). Commits passed over are said, counted by reason, and
// listed in the test log and the summary.
func (g *gitSearch) notCandidates(ctx context.Context, commits []commit) ([]string, error) {
	why := make([]string, len(commits))
	var in strings.Builder
	var hashes []string
	for _, c := range commits {
		if len(c.parents) > 0 {
			fmt.Fprintf(&in, "%s %s\n", c.hash, c.parents[0])
			hashes = append(hashes, c.hash)
		}
	}
	if len(hashes) == 0 {
		return why, nil
	}
	out, err := runner.GitInput(ctx, g.top, []byte(in.String()), "diff-tree", "--stdin", "-r", "-z", "--name-only", "--no-renames")
	if err != nil {
		return nil, err
	}
	names, err := codediff.ParseDiffTreeNames(out, hashes)
	if err != nil {
		return nil, err
	}
	s := g.s
	counts := map[string]int{}
	var order []string
	n := 0
	for i, c := range commits {
		if len(c.parents) == 0 {
			continue
		}
		if why[i] = g.reads.Commit(names[c.hash]); why[i] == "" {
			continue
		}
		n++
		if counts[why[i]] == 0 {
			order = append(order, why[i])
		}
		counts[why[i]]++
		g.detail.SkippedCommits = append(g.detail.SkippedCommits, SkippedCommit{Commit: c.String(), Why: why[i]})
		s.Logf("Not a candidate: %s: it changes only %s\n", c, why[i])
	}
	if n > 0 {
		parts := make([]string, len(order))
		for i, w := range order {
			parts[i] = fmt.Sprintf("%d only %s", counts[w], w)
		}
		s.Say("%d of %s change no file the test's build reads (%s): they are not candidates (-v lists them; --paths . takes every commit)", n, report.Plural(len(commits), "commit"), strings.Join(parts, ", "))
	}
	return why, nil
}

// descend looks into a failure-inducing merge: the first-parent commits
// of its merged branch after the merge base, and the merge base, for a
// search of their own (with the ends presumed: the branch's head
// failing, the merge base passing). It returns nil when c is no merge.
func (g *gitSearch) descend(ctx context.Context, c commit) ([]commit, string, error) {
	if len(c.parents) < 2 {
		return nil, "", nil
	}
	p1, p2 := c.parents[0], c.parents[1]
	out, err := runner.Git(ctx, g.top, "merge-base", p1, p2)
	if runner.GitSaysNo(err) {
		return nil, "", nil // no common ancestor: nothing to descend into
	}
	if err != nil {
		return nil, "", err
	}
	mb := strings.TrimSpace(string(out))
	if mb == p2 {
		return nil, "", nil
	}
	sub, err := firstParents(ctx, g.top, mb, p2)
	if err != nil || len(sub) == 0 {
		return nil, "", err
	}
	return sub, mb, nil
}

// passedOver says why the revisions of commits, just before the culprit,
// could not tell whether the failure came with them, from what their
// tests gave: they do not build, fail another way, time out, or their
// runs disagree; each commit with its own reason when they differ.
func (g *gitSearch) passedOver(commits []commit, culprit commit) string {
	whys := make([]string, len(commits))
	for i, c := range commits {
		whys[i] = "was not tested"
		if rec, ok := g.unresolved[c.hash]; ok {
			whys[i] = unresolvedWhy(rec)
		}
		if why := g.notCandidate[c.hash]; why != "" {
			what := "only " + why
			if why == codediff.WhyNoChange {
				what = "no file"
			}
			whys[i] += fmt.Sprintf(", though it changes %s, which cannot change the outcome: the test may be flaky", what)
		}
	}
	if len(commits) == 1 {
		return fmt.Sprintf("the one before %s %s", culprit.hash[:12], whys[0])
	}
	same := true
	for _, w := range whys[1:] {
		same = same && w == whys[0]
	}
	if same {
		return fmt.Sprintf("each of the %d before %s %s", len(commits), culprit.hash[:12], whys[0])
	}
	var each []string
	for i, c := range commits {
		if i == 3 {
			each = append(each, fmt.Sprintf("and %d more", len(commits)-3))
			break
		}
		each = append(each, c.hash[:12]+" "+whys[i])
	}
	return fmt.Sprintf("of the ones before %s, %s", culprit.hash[:12], strings.Join(each, "; "))
}

// unresolvedWhy says why a revision's test was unresolved, after the
// revision and with the test's detail ("does not build: exit status 1,
// not built: ...").
func unresolvedWhy(rec runner.Test) string {
	switch {
	case rec.Flaky:
		return "gave differing outcomes when run again (flaky): " + rec.Detail
	case rec.Predicted:
		return "was not run: " + rec.Detail
	}
	phase := runner.Ran
	if rec.Run.Exit != 0 || rec.Run.Signal != 0 || len(rec.Run.Stdout)+len(rec.Run.Stderr) > 0 {
		phase = runner.Extract(rec.Run).Phase
	} else if strings.Contains(rec.Detail, ", "+runner.NotBuilt.String()) {
		phase = runner.NotBuilt
	} else if strings.Contains(rec.Detail, ", "+runner.NotSetUp.String()) {
		phase = runner.NotSetUp
	}
	switch {
	case strings.HasPrefix(rec.Detail, "exit status 125"):
		return "is skipped by the test: " + rec.Detail
	case rec.Run.TimedOut || strings.HasPrefix(rec.Detail, "timed out"):
		return "timed out: " + rec.Detail
	case phase == runner.NotBuilt:
		return "does not build: " + rec.Detail
	case phase == runner.NotSetUp:
		return "could not be set up to test: " + rec.Detail
	}
	return "fails another way: " + rec.Detail
}
