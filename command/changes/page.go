package changes

import (
	"fmt"
	"html"
	"strings"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/report"
)

// gitStyle is what the report's page needs to draw the search over the
// commits.
const gitStyle = `.git td,p.git{overflow-wrap:anywhere}
.git .h{font-family:ui-monospace,monospace;white-space:nowrap}
.git td.s,.git td.l{max-width:26em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.git td.l{max-width:32em}
.git td.k{color:#555;white-space:nowrap}
.git td.o{white-space:nowrap}
p.git{margin:.4em 0;max-width:60em;font-size:.9em}
`

// maxPassedOver bounds the rows of the commits passed over in the report;
// --json lists every one.
const maxPassedOver = 500

// Sections are the parts of the HTML report that wynot changes --git
// draws before the search over the changes of the failure-inducing
// commit: the revisions, that commit, the commits passed over and the
// revisions the bisection tested. None without --git.
func (d Detail) Sections() []report.Section {
	if d.Revisions == nil {
		return nil
	}
	var b strings.Builder
	esc := html.EscapeString
	short := func(h string) string { return h[:min(12, len(h))] }
	good, bad := d.Revisions.Good, d.Revisions.Bad

	b.WriteString("<h2>Revisions</h2>\n<table class=\"git\">\n")
	rev := func(role, name, hash, note string) {
		fmt.Fprintf(&b, "<tr><td class=k>%s</td><td>%s</td><td class=h title=\"%s\">%s</td><td>%s</td></tr>\n",
			esc(role), esc(name), esc(hash), esc(short(hash)), esc(note))
	}
	if mb := d.Revisions.MergeBase; mb != "" {
		rev("good", good.Name, good.Hash, "not an ancestor of "+bad.Name+": not tested")
		rev("merge base", "of "+good.Name+" and "+bad.Name, mb, "the search starts here, as git bisect's does")
	} else {
		rev("good", good.Name, good.Hash, "")
	}
	rev("bad", bad.Name, bad.Hash, "")
	if d.Commits > 0 {
		from := good.Name
		if d.Revisions.MergeBase != "" {
			from = "the merge base"
		}
		cands := ""
		if len(d.Bisection) > 0 {
			cands = fmt.Sprintf(", %d of them candidates", d.Bisection[0].Candidates)
		}
		fmt.Fprintf(&b, "<tr><td class=k>commits</td><td colspan=3>%s from %s to %s on %s&#39;s first-parent line%s</td></tr>\n",
			esc(report.Plural(d.Commits, "commit")), esc(from), esc(bad.Name), esc(bad.Name), esc(cands))
	}
	b.WriteString("</table>\n")

	c := d.Culprit
	if c == nil && len(d.Culprits) > 0 {
		c = d.Culprits[len(d.Culprits)-1]
	}
	if c != nil {
		b.WriteString("<h2>Failure-inducing commit</h2>\n<table class=\"git\">\n")
		fmt.Fprintf(&b, "<tr><td class=k>commit</td><td class=h>%s</td></tr>\n", esc(c.Hash))
		fmt.Fprintf(&b, "<tr><td class=k>subject</td><td>%s</td></tr>\n", esc(c.Subject))
		fmt.Fprintf(&b, "<tr><td class=k>author</td><td>%s</td></tr>\n", esc(c.Author))
		fmt.Fprintf(&b, "<tr><td class=k>date</td><td>%s</td></tr>\n", esc(c.Date))
		b.WriteString("</table>\n")
		if n := len(d.Untested); n > 0 {
			fmt.Fprintf(&b, "<p class=\"git\">The failure came with this commit or with %s before it, whose %s could not be tested (unresolved): %s. The changes searched below are theirs together.</p>\n",
				map[bool]string{true: "the one", false: fmt.Sprintf("one of the %d", n)}[n == 1],
				map[bool]string{true: "revision", false: "revisions"}[n == 1], esc(strings.Join(d.Untested, "; ")))
		}
	}

	d.passedOver(&b)
	d.bisection(&b)
	switch {
	case d.Culprit != nil:
		fmt.Fprintf(&b, "<p class=\"git\">Then the changes of commit <span class=h>%s</span> were searched, hunk by hunk and line by line: the tests below.</p>\n", esc(short(d.Culprit.Hash)))
	case c != nil:
		fmt.Fprintf(&b, "<p class=\"git\">Then the changes of the commits from <span class=h>%s</span> to <span class=h>%s</span> were searched together, hunk by hunk and line by line: the tests below.</p>\n", esc(short(d.Culprits[0].Hash)), esc(short(c.Hash)))
	}
	return []report.Section{{Style: gitStyle, HTML: b.String()}}
}

// passedOver writes the commits that were not candidates and those whose
// revisions could not be tested, each with why.
func (d Detail) passedOver(b *strings.Builder) {
	type row struct{ commit, why string }
	var rows []row
	for _, s := range d.SkippedCommits {
		why := "not a candidate: it changes only " + s.Why
		if s.Why == codediff.WhyNoChange {
			why = "not a candidate: it changes no file"
		}
		rows = append(rows, row{s.Commit, why})
	}
	untested := map[string]bool{}
	for _, c := range d.Untested {
		untested[c] = true
	}
	for _, l := range d.Bisection {
		for _, st := range l.Steps {
			if st.Outcome != dd.Unresolved.String() || st.Subject == "" {
				continue
			}
			c := st.Revision[:min(12, len(st.Revision))] + " " + st.Subject
			why := "its revision could not be tested (unresolved"
			if st.Detail != "" {
				why += ": " + st.Detail
			}
			why += "): passed over, as git bisect skip does"
			if untested[c] {
				why += "; the failure may have come with it"
			}
			rows = append(rows, row{c, why})
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("<h2>Commits passed over</h2>\n<table class=\"git\"><tr><th>commit</th><th>why</th></tr>\n")
	for i, r := range rows {
		if i == maxPassedOver {
			fmt.Fprintf(b, "<tr><td colspan=2>… %d more (--json lists every one)</td></tr>\n", len(rows)-i)
			break
		}
		fmt.Fprintf(b, "<tr><td class=s title=\"%s\">%s</td><td>%s</td></tr>\n", html.EscapeString(r.commit), html.EscapeString(r.commit), html.EscapeString(r.why))
	}
	b.WriteString("</table>\n")
}

// bisection writes each line searched: the revisions tested in order,
// with their outcomes and the commits each left.
func (d Detail) bisection(b *strings.Builder) {
	if len(d.Bisection) == 0 {
		return
	}
	esc := html.EscapeString
	// left says what a test left: the commits, by their hashes (the
	// title has their subjects too).
	left := func(n, cands int, first, last string) (text, title string) {
		switch {
		case n == 0:
			return "", ""
		case n == 1 && first != "":
			return first, first
		}
		text = fmt.Sprintf("%s (%d %s)", report.Plural(n, "commit"), cands, map[bool]string{true: "candidate", false: "candidates"}[cands == 1])
		title = text
		if first != "" {
			hash := func(c string) string { h, _, _ := strings.Cut(c, " "); return h }
			text += ": " + hash(first) + " … " + hash(last)
			title += ": " + first + " … " + last
		}
		return text, title
	}
	b.WriteString("<h2>Bisection</h2>\n")
	for _, l := range d.Bisection {
		from := l.From
		if mb := d.Revisions.MergeBase; !l.Branch && mb != "" && strings.HasPrefix(mb, from) {
			from = "the merge base " + from
		}
		if l.Branch {
			fmt.Fprintf(b, "<p class=\"git\">The failure-inducing commit is a merge: its merged branch, %s from the merge base %s to %s (%d %s), searched the same way, its ends presumed until tested.</p>\n",
				esc(report.Plural(l.Commits, "commit")), esc(l.From), esc(l.To), l.Candidates, map[bool]string{true: "candidate", false: "candidates"}[l.Candidates == 1])
		} else {
			fmt.Fprintf(b, "<p class=\"git\">%s from %s to %s, %d of them %s: each revision tested, in order, with how many of the commits it holds, and the commits the failure-inducing one was still among after it.</p>\n",
				esc(report.Plural(l.Commits, "commit")), esc(from), esc(l.To), l.Candidates, map[bool]string{true: "a candidate", false: "candidates"}[l.Candidates == 1])
		}
		if len(l.Steps) == 0 {
			if l.Found != "" {
				fmt.Fprintf(b, "<p class=\"git\">No revision between them to test: the failure came with %s.</p>\n", esc(l.Found))
			}
			continue
		}
		b.WriteString("<table class=\"git\"><tr><th>#</th><th>revision tested</th><th>commits</th><th>outcome</th><th>left</th></tr>\n")
		// A step's row: the outcome's detail (an unresolved test's exit
		// status) is its cell's title.
		step := func(n, rev, at, outcome, out, detail, lft, lftTitle string) {
			fmt.Fprintf(b, "<tr class=%q><td class=n>%s</td><td class=s title=\"%s\">%s</td><td class=n>%s</td><td class=o title=\"%s\">%s</td><td class=l title=\"%s\">%s</td></tr>\n",
				outcome, n, esc(rev), esc(rev), at, esc(detail), esc(out), esc(lftTitle), esc(lft))
		}
		if !l.Branch {
			// The ends, which the checks before the search tested.
			all, _ := left(l.Commits, l.Candidates, "", "")
			step("", from+" (checked before the search)", "0", dd.Pass.String(), dd.Pass.String(), "", "", "")
			step("", l.To+" (checked before the search)", fmt.Sprint(l.Commits), dd.Fail.String(), dd.Fail.String(), "", all, all)
		}
		for i, st := range l.Steps {
			rev := st.Revision[:min(12, len(st.Revision))]
			switch {
			case st.Subject != "":
				rev += " " + st.Subject
			case st.At == 0:
				rev += " (merge base)"
			}
			out := st.Outcome
			if st.Cached {
				out += " (cached)"
			}
			lft, title := left(st.Left, st.Candidates, st.First, st.Last)
			step(fmt.Sprint(i+1), rev, fmt.Sprintf("%d of %d", st.At, l.Commits), st.Outcome, out, st.Detail, lft, title)
		}
		b.WriteString("</table>\n")
		switch {
		case l.Found != "":
			fmt.Fprintf(b, "<p class=\"git\">Found: %s.</p>\n", esc(l.Found))
		case l.Note != "":
			fmt.Fprintf(b, "<p class=\"git\">Not found on this line: %s.</p>\n", esc(l.Note))
		default:
			b.WriteString("<p class=\"git\">The search over these commits did not finish.</p>\n")
		}
	}
}
