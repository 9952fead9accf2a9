package chain

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/report"
)

// words are the outcomes as a transplant's test reads them.
var words = report.Words{dd.Fail: "FAILS", dd.Pass: "PASSES", dd.Unresolved: "NEITHER"}

// style is what the report's page needs to draw the chain.
const style = `.chain .state{border:1px solid #999;border-radius:6px;padding:6px 10px;margin:4px 0;max-width:60em}
.chain .where{font-weight:bold;font-family:ui-monospace,monospace}
.chain .var{font-family:ui-monospace,monospace;background:#f7d4d4}
.chain .new{font-family:ui-monospace,monospace;color:#a11}.chain .old{font-family:ui-monospace,monospace;color:#176a17}
.chain .note,.chain .sizes{color:#666;font-size:.85em}
.chain .transition{margin:2px 0 2px 2em;color:#555}.chain .suggested{color:#a11;font-weight:bold}
`

// Close writes the chain and the transitions.
func (c *Chain) Close(sum *report.Summary, end command.End) command.Closing {
	links := c.chain()
	d := Detail{Probed: c.instrumented, NotProbed: c.notInstrumented, Transitions: c.trans, Suggested: c.suggested, MaxVertices: c.MaxVertices, Captures: c.captures}
	relevant, matched := 0, 0
	for _, l := range links {
		d.Chain = append(d.Chain, l.Link)
		if !l.bot {
			relevant++
		}
		if l.Matched {
			matched++
		}
	}
	sum.Detail = d
	sum.Unit, sum.Granularity, sum.Algorithm = "deltas", "memory graph vertices", "dd over state deltas; cts over the failing run's steps"
	if len(c.at) > 0 {
		sum.Algorithm = "dd over state deltas at the --at moments"
	}
	// The size: the deltas of the states examined, then the relevant
	// ones.
	for _, l := range links {
		sum.SizeBefore += l.Deltas
		sum.SizeAfter += len(l.Relevant)
	}
	sum.ElementsBefore, sum.ElementsAfter = sum.SizeBefore, sum.SizeAfter
	sum.Result = report.Inline
	text := c.text(links)
	head := fmt.Sprintf("cause-effect chain: %s of the failing run examined (%d with a matching state, %d with relevant deltas), %s (%s, %s, %.1fs)",
		report.Plural(len(links), "state"), matched, relevant, report.Plural(len(c.trans), "cause transition"),
		report.Plural(c.captures, "capture"), report.Plural(sum.Tests, "test"), sum.Seconds)
	if end.Interrupted {
		head = "interrupted: " + head
	}
	cl := command.Closing{
		Head: []string{head},
		Text: text,
		Page: func() report.Page {
			return report.Page{Result: text, Words: words, Sections: []report.Section{{Style: style, HTML: c.drawing(links)}}}
		},
	}
	switch {
	case end.Interrupted:
		cl.Verdict = []string{"interrupted: the chain holds the states examined so far"}
	case relevant == 0:
		cl.Verdict = []string{"no state examined has a difference that, transplanted into the passing run, makes it fail"}
		cl.Err = command.NoCause("no cause found: %s", c.noCauseWhy(links))
	case end.Minimal && end.Confirmed:
		cl.Verdict = []string{"each state's relevant deltas were transplanted into the passing run again and made it fail, and it passed without them: a 1-minimal failure-inducing difference (dd)"}
	case end.Confirmed:
		cl.Verdict = []string{"each state's relevant deltas made the passing run fail when transplanted again, but not every search completed: they are not certified 1-minimal"}
	default:
		cl.Verdict = []string{"the relevant deltas did not all behave the same when run again: not certified"}
	}
	neither := 0
	for _, l := range links {
		if l.neither {
			neither++
		}
	}
	if c.obs != nil && neither > 0 && neither*3 >= matched {
		cl.Tail = append(cl.Tail, fmt.Sprintf("at %s the whole difference, transplanted, gave neither run's output: if the failure is a symptom (an error message, a wrong value), --fail-on REGEX states it, and only that must be reproduced", report.Plural(neither, "state")))
	}
	lost := 0
	for _, l := range links {
		if l.lost && strings.HasPrefix(l.Note, "the failing run did not reach") {
			lost++
		}
	}
	if lost > 0 {
		cl.Tail = append(cl.Tail, fmt.Sprintf("caution: at %s the failing run did not reach the step again: its steps differ from run to run (goroutines scheduled differently count steps in another order), so its states and the transitions through them are not reproducible", report.Plural(lost, "state")))
	}
	for _, l := range links {
		if l.Cut {
			cl.Tail = append(cl.Tail, fmt.Sprintf("some states had more than %d vertices and were cut (--max-vertices)", c.MaxVertices))
			break
		}
	}
	return cl
}

// noCauseWhy says why the states examined gave no cause: what their
// notes say most often.
func (c *Chain) noCauseWhy(links []*link) string {
	count := map[string]int{}
	var notes []string
	for _, l := range links {
		n := l.Note
		if i := strings.Index(n, " ("); i > 0 {
			n = n[:i] // the reason, without the particulars of one state
		}
		if count[n] == 0 {
			notes = append(notes, n)
		}
		count[n]++
	}
	slices.SortStableFunc(notes, func(a, b string) int { return count[b] - count[a] })
	var out []string
	for _, n := range notes[:min(len(notes), 2)] {
		out = append(out, fmt.Sprintf("%s at %s", n, report.Plural(count[n], "state")))
	}
	return strings.Join(out, "; ") + ". Try --at FILE:LINE for a moment where the runs differ in what matters, --fail-on REGEX (and --pass-on) to state the failure where the whole output is too strict, or passing and failing inputs that differ less"
}

// A row is what the output shows of the transitions: one, or a run of
// plain ones (a statement, call or return passing the cause on to new
// variables, nothing overwritten, not suggested), summed up.
type row struct {
	first, last Transition
	n           int
	funcs       []string
}

// rows groups runs of three or more plain transitions.
func rows(trans []Transition) []row {
	plain := func(t Transition) bool {
		return (t.Kind == "statement" || t.Kind == "call" || t.Kind == "return") && len(t.Overwritten) == 0 && !t.Suggested
	}
	var out []row
	for i := 0; i < len(trans); {
		j := i + 1
		if plain(trans[i]) {
			for j < len(trans) && plain(trans[j]) {
				j++
			}
		}
		if j-i < 3 {
			j = i + 1
		}
		r := row{first: trans[i], last: trans[j-1], n: j - i}
		for _, t := range trans[i:j] {
			if !slices.Contains(r.funcs, t.Func) {
				r.funcs = append(r.funcs, t.Func)
			}
		}
		out = append(out, r)
		i = j
	}
	return out
}

// text is the chain in words, then the transitions.
func (c *Chain) text(links []*link) string {
	var b strings.Builder
	rs := rows(c.trans)
	// The states shown: the first and the last with relevant deltas, and
	// those on either side of a row of transitions (--json has them all).
	show := map[uint64]bool{}
	for _, r := range rs {
		show[r.first.FromStep], show[r.last.ToStep] = true, true
	}
	first, last := uint64(0), uint64(0)
	for _, l := range links {
		if !l.bot {
			if first == 0 {
				first = l.Step
			}
			last = l.Step
		}
	}
	show[first], show[last] = true, true
	if len(c.at) > 0 {
		for _, l := range links {
			show[l.Step] = true
		}
	}
	hidden := 0
	for _, l := range links {
		if !show[l.Step] {
			hidden++
			continue
		}
		fmt.Fprintf(&b, "at %s:%d in %s (step %d): ", l.File, l.Line, l.Func, l.Step)
		aside := ""
		if len(l.Untransplantable) > 0 {
			aside = "; set aside, as the passing run cannot take it: " + strings.Join(l.Untransplantable, "; ")
		}
		if l.bot {
			fmt.Fprintf(&b, "no relevant deltas: %s%s\n", l.Note, aside)
			continue
		}
		var ds []string
		for _, d := range l.Relevant {
			t := d.Text
			if len(d.Aliases) > 0 {
				t += " (also " + strings.Join(d.Aliases[:min(3, len(d.Aliases))], ", ") + ")"
			}
			ds = append(ds, t)
		}
		verb := "causes"
		if len(ds) > 1 {
			verb = "cause"
		}
		fmt.Fprintf(&b, "%s %s the failure (%d of %s)%s\n", strings.Join(ds, "; "), verb, len(ds), report.Plural(l.Deltas, "delta"), aside)
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "(and %s examined on the way: --json lists every one)\n", report.Plural(hidden, "other state"))
	}
	if len(c.trans) == 0 {
		return b.String()
	}
	b.WriteString("cause transitions:\n")
	for _, r := range rs {
		t := r.first
		if r.n > 1 {
			from, _, _ := strings.Cut(r.first.Where, " → ")
			_, to, _ := strings.Cut(r.last.Where, " → ")
			fs := r.funcs
			if len(fs) > 4 {
				fs = append(fs[:4:4], "…")
			}
			fmt.Fprintf(&b, "  %s → %s in %s (steps %d → %d, %d transitions passing the cause on): %s → %s\n",
				from, to, strings.Join(fs, ", "), r.first.FromStep, r.last.ToStep, r.n, names(r.first.Before), names(r.last.After))
			continue
		}
		after := names(t.After)
		if t.Kind == "crash" {
			after = "the crash"
		}
		fmt.Fprintf(&b, "  %s in %s (steps %d → %d, %s): %s → %s", t.Where, t.Func, t.FromStep, t.ToStep, t.Kind, names(t.Before), after)
		if len(t.Overwritten) > 0 {
			fmt.Fprintf(&b, "; overwrites %s", names(t.Overwritten))
		}
		if t.Suggested {
			b.WriteString("   ← suggested defect location")
		}
		b.WriteByte('\n')
	}
	if sg := c.suggested; sg != nil {
		fmt.Fprintf(&b, "suggested defect location: %s in %s (step %d): %s\n", sg.Where, sg.Func, sg.Step, sg.Why)
	}
	return b.String()
}

func names(vs []string) string {
	if len(vs) == 0 {
		return "(none)"
	}
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}

// drawing is the chain for the HTML report: each state a box with its
// relevant deltas highlighted, the transitions between them.
func (c *Chain) drawing(links []*link) string {
	var b strings.Builder
	b.WriteString("<h2>Cause-effect chain</h2>\n<div class=\"chain\">")
	trans := map[uint64]string{}
	for _, t := range c.trans {
		cls := "transition"
		if t.Suggested {
			cls += " suggested"
		}
		trans[t.FromStep] = fmt.Sprintf(`<div class="%s">↓ %s in %s (%s): %s → %s%s</div>`, cls, html.EscapeString(t.Where), html.EscapeString(t.Func), t.Kind,
			html.EscapeString(names(t.Before)), html.EscapeString(names(t.After)), map[bool]string{true: " — suggested defect location"}[t.Suggested])
	}
	for _, l := range links {
		fmt.Fprintf(&b, `<div class="state"><div class="where">step %d · %s:%d · %s</div>`, l.Step, html.EscapeString(l.File), l.Line, html.EscapeString(l.Func))
		if l.bot {
			fmt.Fprintf(&b, `<div class="note">%s</div>`, html.EscapeString(l.Note))
		} else {
			b.WriteString(`<table class="deltas"><tr><th>relevant delta</th><th>failing run</th><th>passing run</th></tr>`)
			for _, d := range l.Relevant {
				fmt.Fprintf(&b, `<tr><td class="var">%s</td><td class="new">%s</td><td class="old">%s</td></tr>`,
					html.EscapeString(d.Var), html.EscapeString(d.New), html.EscapeString(d.Old))
			}
			fmt.Fprintf(&b, `</table><div class="sizes">%d of %d deltas relevant · graphs of %d (passing) and %d (failing) vertices · %d tests</div>`,
				len(l.Relevant), l.Deltas, l.PassVertices, l.FailVertices, l.Tests)
		}
		b.WriteString(`</div>`)
		if t, ok := trans[l.Step]; ok {
			b.WriteString(t)
		}
	}
	b.WriteString(`</div>`)
	return b.String()
}
