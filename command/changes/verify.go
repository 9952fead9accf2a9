package changes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// patchWhat names a patch of n changes of a level in the messages of
// its confirmation.
func patchWhat(lv *level, n int) string {
	return "the old version with " + report.Plural(n, lv.unit) + " applied"
}

// confirm tests configuration c of a level as the search does (with
// resolution, from the cache if it ran before) and, if it fails, runs
// the configuration that failed once more without the cache. It returns
// that configuration and whether it failed again.
func (e *search) confirm(ctx context.Context, lv *level, c []int) ([]int, bool, error) {
	rec, tested, err := e.testWithResolution(ctx, lv, c)
	if err != nil || rec.Outcome != dd.Fail {
		return nil, false, err
	}
	patch := c
	if tested != nil {
		patch = tested
	}
	ok, _, err := e.s.Confirm(ctx, command.Check{Candidate: e.levelCandidate(lv, patch), Want: dd.Fail, What: patchWhat(lv, len(patch))})
	return patch, ok, err
}

// complement tests the new version without the hunks of the verified
// patch, for the report: exactly that tree, with nothing added to make
// it build. Resolution could only add back hunks of the patch itself,
// and an outcome of the new version with some of the patch says nothing
// about the new version without it.
func (e *search) complement(ctx context.Context, res outcome) (*dd.Outcome, string, error) {
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
	rec, err := e.s.Test(ctx, e.levelCandidate(res.hunks, rest))
	if err != nil {
		return nil, "", err
	}
	return &rec.Outcome, rec.Detail, nil
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
//
// The changes of each file are first removed together, as ddmin's
// coarser granularity would: a file whose changes need each other to
// build, none removable alone, may not be needed at all.
func (e *search) oneMinimal(ctx context.Context, res *outcome) error {
	lv := res.lv
	if len(res.patch) > maxCheck {
		res.notChecked = fmt.Sprintf("its %s were not each removed alone to check it (a patch this large is not checked change by change)", report.Plural(len(res.patch), lv.unit))
		return nil
	}
	if len(res.patch) == 0 {
		return nil
	}
	var mu sync.Mutex
	predicted := map[string]bool{} // the removals not built, by configuration
	test := func(ctx context.Context, c dd.Config) (runner.Test, error) {
		// A removal whose Go code does not type-check does not build:
		// not built once probes showed that the test builds the code.
		errs, trusted := e.predict(lv, c)
		if len(errs) > 0 && trusted {
			mu.Lock()
			predicted[fmt.Sprint(c)] = true
			mu.Unlock()
			return e.s.Predict("does not type-check: " + errs[0].Msg), nil
		}
		rec, err := e.s.Test(ctx, e.levelCandidate(lv, c))
		if len(errs) > 0 && err == nil {
			e.probeResult(lv, buildDirs(errs), rec, e.output(rec))
		}
		return rec, err
	}
	e.s.Status(func(st *report.Status) { st.Size = len(res.patch) })
	if files, paths := byFile(lv.set, res.patch); len(files) > 1 && len(files) < len(res.patch) {
		e.s.Say("checking the %s of the patch one by one: the changes of each removed together, the rest tested as it is", report.Plural(len(files), "file"))
		r, err := e.s.OneMinimal(ctx, "removing a file's changes", dd.All(len(files)), func(ctx context.Context, c dd.Config) (runner.Test, error) {
			return test(ctx, ofFiles(files, c))
		})
		if err != nil {
			return err
		}
		if len(r.Removed) > 0 {
			var gone []string
			for _, k := range r.Removed {
				gone = append(gone, paths[k])
			}
			ok, err := e.leaveOut(ctx, res, ofFiles(files, r.Config), "the changes of "+report.Plural(len(gone), "file")+" ("+command.List(gone, 5)+")", false)
			if err != nil || !ok {
				return err
			}
		}
	}
	e.s.Say("checking the %s one by one: each removed alone, the rest tested as it is", report.Plural(len(res.patch), lv.unit))
	r, err := e.s.OneMinimal(ctx, "removing one "+lv.unit, dd.Config(slices.Clone(res.patch)), test)
	if err != nil {
		return err
	}
	if len(r.Removed) > 0 {
		ok, err := e.leaveOut(ctx, res, r.Config, report.Plural(len(r.Removed), lv.unit), len(r.Removed) == 1)
		if err != nil || !ok {
			return err
		}
	}
	res.removals, res.removalsPredicted, res.recheck = &r, 0, nil
	for k, i := range r.Config {
		without := slices.Delete(slices.Clone(r.Config), k, k+1)
		if predicted[fmt.Sprint(without)] {
			res.removalsPredicted++
			continue
		}
		res.recheck = append(res.recheck, command.Removal{Candidate: e.levelCandidate(lv, without),
			What: "the patch without " + lv.set.Changes[i].String()})
	}
	return nil
}

// leaveOut makes kept, the patch less what the check of single removals
// left out, the patch, once it fails again without the cache; when it
// does not, the patch stays and is not called minimal (ok false).
func (e *search) leaveOut(ctx context.Context, res *outcome, kept []int, what string, one bool) (ok bool, err error) {
	lv := res.lv
	ok, _, err = e.s.Confirm(ctx, command.Check{Candidate: e.levelCandidate(lv, kept), Want: dd.Fail, What: patchWhat(lv, len(kept))})
	if err != nil {
		return false, err
	}
	if !ok {
		res.notChecked = fmt.Sprintf("without %s the old version failed once, but not when run again", what)
		return false, nil
	}
	e.s.Say("without %s the old version still fails: the patch leaves %s out", what, map[bool]string{true: "it", false: "them"}[one])
	res.patch = kept
	e.s.Status(func(st *report.Status) { st.Size = len(kept) })
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
	return true, nil
}

// byFile groups the changes of patch by the file they change, in the
// order the files first appear.
func byFile(set *codediff.Set, patch []int) (files [][]int, paths []string) {
	at := map[string]int{}
	for _, i := range patch {
		p := set.Changes[i].Path
		k, ok := at[p]
		if !ok {
			k = len(files)
			at[p] = k
			files = append(files, nil)
			paths = append(paths, p)
		}
		files[k] = append(files[k], i)
	}
	return files, paths
}

// ofFiles returns the changes of the groups c of files, sorted.
func ofFiles(files [][]int, c dd.Config) dd.Config {
	var out dd.Config
	for _, k := range c {
		out = append(out, files[k]...)
	}
	slices.Sort(out)
	return out
}

// tryOnGood tests the good revision (the workspace base) with the patch
// applied, when the files the patch touches are the same there as in the
// culprit's parent, and says what came of it.
func (e *search) tryOnGood(ctx context.Context, res outcome) (string, error) {
	content := res.lv.set.Content(res.patch)
	for p := range content {
		if _, changed := res.lv.base[p]; changed {
			return fmt.Sprintf("on %s, %s changed before the culprit: the patch was verified on the culprit's parent only", e.good, p), nil
		}
	}
	rec, err := e.s.Test(ctx, e.candidate(content, "GOOD with the patch"))
	if err != nil {
		return "", err
	}
	if rec.Outcome == dd.Fail {
		return e.good + " with these changes applied fails too", nil
	}
	return fmt.Sprintf("%s with these changes applied gives %s: the failure also needs commits between it and the culprit", e.good, rec.Outcome), nil
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
	fine := codediff.Refine(res.lv.set.Old, res.lv.set.Tree(res.patch), levels[len(levels)-1].context)
	if res.lv.name == levels[len(levels)-1].name || fine.Len() <= len(res.patch) || fine.Len() > maxRefine {
		return res
	}
	last := levels[len(levels)-1]
	lv := &level{name: last.name, unit: last.unit, set: fine, base: res.lv.base}
	return outcome{lv: lv, patch: dd.All(fine.Len()), hunks: res.hunks, hunkSet: res.hunkSet, own: res.own,
		verified: true}
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
	checked := ""
	if p := res.removalsPredicted; p > 0 {
		checked = fmt.Sprintf("; %d of these not built: their Go code does not type-check", p)
	}
	switch passed {
	case n:
		return "the changes are 1-minimal: with " + unit + " removed, the old version passes"
	case 0:
		return "the changes are 1-minimal as far as can be tested: with " + unit + " removed, the old version does not build or fails another way (UNRESOLVED, which shows nothing either way" + checked + ")"
	}
	return fmt.Sprintf("the changes are 1-minimal as far as can be tested: with %s removed, the old version passes (%d of them) or does not build or fails another way (%d: UNRESOLVED, which shows nothing either way%s)", unit, passed, n-passed, checked)
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
		return []string{"interrupted before the search ended: with these changes applied the old version fails, also when run again, but they are not shown to be minimal"}
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
		why := "it does not build without them, or fails another way"
		if res.complementWhy != "" {
			why = res.complementWhy
		}
		v = append(v, "the new version without "+hunks(len(res.hunkSet))+" gives "+c.String()+" ("+why+"), so whether the failure has another cause is not known")
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
		return command.Closing{Page: func() report.Page { return report.Page{Rows: d.Rows(), Sections: d.Sections()} }}
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
		d.RemovalsPredicted = res.removalsPredicted
	}
	d.Verdict = e.verdict(*res, end.Interrupted, end.Minimal)
	if n := len(d.Culprits); n > 1 {
		// The verdict says first that no one commit was found: the
		// JSON's commit is the newest of them, not the culprit.
		d.Verdict = append([]string{fmt.Sprintf("no one commit is the culprit: the failure came with one of the %d commits from %s to %s, whose revisions before the last could not be told apart (untested); their changes were searched together",
			n, d.Untested[0], d.Commit)}, d.Verdict...)
	}
	sum.Detail = d

	c := command.Closing{Page: func() report.Page { return report.Page{Rows: d.Rows(), Sections: d.Sections()} }}
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
		of := ""
		if res.checkedUnit != "" && res.removals != nil {
			// Checked one by one as the line edits they are made of.
			of = report.Plural(len(res.removals.Config), res.checkedUnit) + "; "
		}
		c.Head = append(c.Head, fmt.Sprintf("the failure is caused by %s (%sof %s between the versions), found in %s",
			report.Plural(len(res.patch), res.lv.unit), of, report.Plural(sum.ElementsBefore, "change"), counts))
	} else {
		c.Head = append(c.Head, fmt.Sprintf("no failure-inducing changes verified (of %s between the versions), after %s", report.Plural(sum.ElementsBefore, "change"), counts))
	}
	switch {
	case d.Commit != "" && len(d.Untested) > 0:
		// The changes span the commits that could not be told apart.
		c.Head = append(c.Head, fmt.Sprintf("in the %d commits from %s to %s", len(d.Untested)+1, d.Untested[0], d.Commit))
	case d.Commit != "":
		c.Head = append(c.Head, "in commit "+d.Commit)
	}
	if sum.Diff != "" {
		c.Head = append(c.Head, fmt.Sprintf("the failure-inducing changes, as a patch to %s:", e.oldName))
		c.Text = report.ShowDiff(e.patch)
		c.Page = func() report.Page { return report.Page{Diff: e.patch, Rows: d.Rows(), Sections: d.Sections()} }
	}
	c.Verdict = d.Verdict
	if e.Output != "" && sum.Diff != "" {
		c.Tail = []string{"patch written to " + keep.Quote(e.Output)}
	}
	if !res.verified && !end.Interrupted {
		c.Err = command.Unverified("no failure-inducing changes could be verified")
	}
	return c
}
