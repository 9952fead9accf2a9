package changes

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/internal/goldenfile"
	"github.com/wynot/wynot/report"
)

var update = flag.Bool("update", false, "rewrite the golden files with what Close writes now")

// golden compares got with the file testdata/name, or rewrites it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

// gitDetail is the --git part of a made-up run: GOOD not an ancestor of
// BAD (the search starts at their merge base), a commit passed over for
// each reason, the first-parent line naming a merge, and its merged
// branch naming a commit whose parent did not build (exit status 125),
// tested from the cache once.
func gitDetail() Detail {
	h := func(c byte) string { return strings.Repeat(string(c), 40) }
	return Detail{
		Commits: 6,
		Commit:  h('b')[:12] + " parse: treat <none> & empty alike",
		Revisions: &Revisions{Good: Revision{Name: "v1.0.1", Hash: h('1')}, Bad: Revision{Name: "v1.1.0", Hash: h('2')},
			MergeBase: h('0')},
		Culprit:  &GitCommit{Hash: h('b'), Subject: "parse: treat <none> & empty alike", Author: "Ada Lovelace <ada@example.com>", Date: "2021-03-04T05:06:07+01:00"},
		Untested: []string{h('a')[:12] + " build: half a rewrite"},
		SkippedCommits: []SkippedCommit{
			{Commit: h('d')[:12] + " docs: more words", Why: codediff.WhyDocs},
			{Commit: h('e')[:12] + " empty", Why: codediff.WhyNoChange},
		},
		Bisection: []Bisection{
			{From: h('0')[:12], To: "v1.1.0", Commits: 6, Candidates: 4, Found: h('m')[:12] + " merge topic", Steps: []BisectStep{
				{Revision: h('3'), Subject: "main 3", At: 3, Outcome: "PASS", Left: 3, Candidates: 2, First: h('m')[:12] + " merge topic", Last: h('2')[:12] + " main 6"},
				{Revision: h('m'), Subject: "merge topic", At: 4, Outcome: "FAIL", Detail: "exit status 1", Left: 1, Candidates: 1, First: h('m')[:12] + " merge topic", Last: h('m')[:12] + " merge topic"},
			}},
			{From: h('9')[:12], To: h('c')[:12], Commits: 3, Candidates: 3, Branch: true,
				Found: "one of the 2 commits from " + h('a')[:12] + " build: half a rewrite to " + h('b')[:12] + " parse: treat <none> & empty alike",
				Steps: []BisectStep{
					{Revision: h('a'), Subject: "build: half a rewrite", At: 1, Outcome: "UNRESOLVED", Detail: "exit status 125 (skip)", Left: 3, Candidates: 3, First: h('a')[:12] + " build: half a rewrite", Last: h('c')[:12] + " tail"},
					{Revision: h('b'), Subject: "parse: treat <none> & empty alike", At: 2, Outcome: "FAIL", Detail: "exit status 1", Cached: true, Left: 2, Candidates: 2, First: h('a')[:12] + " build: half a rewrite", Last: h('b')[:12] + " parse: treat <none> & empty alike"},
					{Revision: h('9'), At: 0, Outcome: "PASS", Left: 2, Candidates: 2, First: h('a')[:12] + " build: half a rewrite", Last: h('b')[:12] + " parse: treat <none> & empty alike"},
				}},
		},
	}
}

// TestCloseGitGolden: the JSON summary and the HTML report of a --git
// run stay as they are, byte for byte: the revisions, the culprit, the
// commits passed over and the bisection before the search over the
// culprit's changes.
func TestCloseGitGolden(t *testing.T) {
	old := tree(map[string]string{"a.txt": "ok\n"})
	nw := tree(map[string]string{"a.txt": "ok\nBUG\n"})
	set := codediff.Compare(old, nw, 2)
	lv := &level{name: "hunks", unit: "change", set: set}
	pass := dd.Pass
	res := &outcome{lv: lv, patch: []int{0}, hunks: lv, hunkSet: []int{0}, own: true, verified: true, minimal: true,
		removals: &dd.Removals{Config: dd.Config{0}, Outcomes: []dd.Outcome{dd.Pass}, Done: true}, complement: &pass,
		onGood: "the merge base 000000000000 of v1.0.1 and v1.1.0 with these changes applied fails too"}
	e := &search{Changes: &Changes{Old: "v1.0.1", New: "v1.1.0", Git: true}, res: res, patch: set.Patch(res.patch),
		oldName: strings.Repeat("9", 12), changes: 1, detail: gitDetail()}
	sum := &report.Summary{Command: "changes", Algorithm: "dd", Tests: 12, Runs: 6, Checks: 6, CacheHits: 1,
		Outcomes: report.Outcomes{Pass: 3, Fail: 2, Unresolved: 1}, Unit: "changes", Confirmed: true, Minimal: true,
		Signature: "the command's exit status, by the bisect convention"}
	cl := e.Close(sum, command.End{Minimal: true, Confirmed: true})
	// The changes span the commits the bisection could not tell apart.
	if head, want := strings.Join(cl.Head, "\n"), "in the 2 commits from aaaaaaaaaaaa build: half a rewrite to bbbbbbbbbbbb parse: treat <none> & empty alike"; !strings.Contains(head, want) {
		t.Errorf("head:\n%s\nwant %q", head, want)
	}
	var js strings.Builder
	if err := sum.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	golden(t, "close-git.json", js.String())
	var rec report.Recorder
	rec.Record(report.Event{Test: 1, Pass: "hunks", Config: ".", Changes: 0, Outcome: "PASS"})
	p := cl.Page()
	p.Summary = sum
	var page strings.Builder
	if err := rec.WriteHTML(&page, p); err != nil {
		t.Fatal(err)
	}
	golden(t, "close-git.html", page.String())
}

// TestSectionsNone: without --git, the report has no sections of the
// commits.
func TestSectionsNone(t *testing.T) {
	if s := (Detail{Hunks: []string{"a.txt:2+1"}}).Sections(); s != nil {
		t.Errorf("sections %v", s)
	}
}

// TestSectionsNote: a line whose search named no commit says why; a
// line of one commit has no table; a line cut short (interrupted) says
// so.
func TestSectionsNote(t *testing.T) {
	d := gitDetail()
	d.Bisection[1].Found, d.Bisection[1].Note = "", "merged branch cccccccccccc gives PASS"
	d.Bisection = append(d.Bisection[:1:1], d.Bisection[1], Bisection{From: "x", To: "y", Commits: 1, Candidates: 1, Found: "ffffffffffff one"})
	d.Bisection = append(d.Bisection, Bisection{From: "x", To: "z", Commits: 9, Candidates: 9, Steps: d.Bisection[0].Steps[:1]})
	html := d.Sections()[0].HTML
	for _, want := range []string{"Not found on this line: merged branch cccccccccccc gives PASS.", "No revision between them to test: the failure came with ffffffffffff one.",
		"The search over these commits did not finish."} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
}

// TestCloseCountsAndInterruption: a patch of lines each replaced by
// another, checked one by one as the line edits they are made of, says
// both counts; an interrupted run whose patch was verified says it was
// cut short, not what it was doing.
func TestCloseCountsAndInterruption(t *testing.T) {
	old := tree(map[string]string{"a.txt": "one\ntwo\n"})
	nw := tree(map[string]string{"a.txt": "ONE\nTWO\n"})
	set := codediff.Compare(old, nw, 2)
	lv := &level{name: "lines", unit: "change", set: set}
	res := &outcome{lv: lv, patch: []int{0}, hunks: lv, hunkSet: []int{0}, own: true, verified: true, checkedUnit: "line edit",
		removals: &dd.Removals{Config: dd.Config{0, 1, 2, 3}, Outcomes: []dd.Outcome{dd.Pass, dd.Pass, dd.Pass, dd.Pass}, Done: true}}
	e := &search{Changes: &Changes{Old: "old", New: "new"}, res: res, patch: set.Patch(res.patch), changes: 2}
	sum := &report.Summary{Command: "changes", Algorithm: "dd", Tests: 9, Unit: "changes", ElementsBefore: 2}
	cl := e.Close(sum, command.End{Interrupted: true})
	head := strings.Join(cl.Head, "\n")
	if !strings.Contains(head, "caused by 1 change (4 line edits; of 2 changes between the versions)") {
		t.Errorf("head:\n%s", head)
	}
	if v := strings.Join(e.verdict(*res, true, false), "\n"); !strings.HasPrefix(v, "interrupted before the search ended: ") {
		t.Errorf("verdict: %s", v)
	}
}
