package report

import (
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/wynot/wynot/dd"
)

// Recorder keeps the events of a run in memory for the HTML report. It is
// safe for concurrent use; a nil Recorder records nothing.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

// Record keeps one event.
func (r *Recorder) Record(e Event) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// Draw draws a configuration of n changes as the papers' tables do: for
// each change the last digit of its number when it is applied, "." when
// not; over 100 changes, each mark stands for a run of changes: "#" all
// applied, "+" some, "." none.
func Draw(c []int, n int) string {
	in := make([]bool, n)
	for _, i := range c {
		if i >= 0 && i < n {
			in[i] = true
		}
	}
	var b strings.Builder
	if n <= 100 {
		for i := range n {
			if in[i] {
				b.WriteByte(byte('0' + (i+1)%10))
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	for k := range 100 {
		lo, hi := k*n/100, (k+1)*n/100
		on := 0
		for i := lo; i < hi; i++ {
			if in[i] {
				on++
			}
		}
		switch {
		case on == 0:
			b.WriteByte('.')
		case on == hi-lo:
			b.WriteByte('#')
		default:
			b.WriteByte('+')
		}
	}
	return fmt.Sprintf("%s (%d of %d)", b.String(), len(c), n)
}

// Page is what the HTML report shows besides the recorded tests.
type Page struct {
	Summary *Summary
	Result  string // the result's content (shown up to 64 KB)
	Diff    string // the difference between the original and the result, unified
	// Words, when set, name the outcomes where the command asks another
	// question than "does it fail?" (wynot trace: does the run reproduce
	// the original output?).
	Words Words
	// Rows are lines the command adds to the table of statistics, after
	// the counts of tests and before the size.
	Rows []Row
	// Sections are the parts of the page the command draws itself (wynot
	// chain: the states and transitions), shown after the statistics.
	Sections []Section
}

// Row is a line of the HTML report's table of statistics.
type Row struct{ Name, Value string }

// Section is a part of the HTML report that a command draws: its markup,
// in which the command escapes what it puts, and the style rules the
// markup needs, added to the page's style sheet.
type Section struct {
	Style string
	HTML  string
}

// Words are the names of the outcomes in a command's report, indexed by
// outcome: report.Words{dd.Pass: "DIFFERS", dd.Fail: "REPRODUCED"}. An
// outcome without a word is called by its own name (PASS, FAIL,
// UNRESOLVED).
type Words [3]string

// Of returns the word for the outcome named o (as dd.Outcome.String
// names it), or o itself.
func (w Words) Of(o string) string {
	if k, ok := outcomeNamed(o); ok && w[k] != "" {
		return w[k]
	}
	return o
}

// outcomes are the outcomes in the order of the report's words.
var outcomes = [...]dd.Outcome{dd.Unresolved, dd.Pass, dd.Fail}

// outcomeNamed returns the outcome whose name is s.
func outcomeNamed(s string) (dd.Outcome, bool) {
	for _, o := range outcomes {
		if o.String() == s {
			return o, true
		}
	}
	return 0, false
}

// colors are the outcomes' colors in the plot.
var colors = [...]string{dd.Unresolved: "#888", dd.Pass: "#2a9d2a", dd.Fail: "#d33"}

// WriteReport writes dir/index.html for a run and returns its path.
func (r *Recorder) WriteReport(dir string, p Page) (string, error) {
	path := filepath.Join(dir, "index.html")
	f, err := os.Create(path)
	if err != nil {
		return path, err
	}
	err = r.WriteHTML(f, p)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

// maxRows bounds the test table; the plot shows every test.
const maxRows = 3000

// WriteHTML writes a self-contained HTML page of the run: no scripts, no
// network, no external assets. It shows, as the papers draw a run, one row
// per test with its configuration and colored outcome, the size of the
// smallest failing input over the tests as a plot, statistics, and the
// result with its difference from the original.
func (r *Recorder) WriteHTML(w io.Writer, p Page) error {
	r.mu.Lock()
	evs := append([]Event(nil), r.events...)
	r.mu.Unlock()
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Test < evs[j].Test })
	s := p.Summary
	if s == nil {
		s = &Summary{}
	}
	var b strings.Builder
	esc := html.EscapeString
	b.WriteString(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>wynot ` + esc(s.Command) + `</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;background:#fff}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
table{border-collapse:collapse;font-size:.85em}
td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
td.n{text-align:right}
td.d{max-width:28em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.cfg{font-family:ui-monospace,monospace;white-space:pre;max-width:36em;overflow:hidden;text-overflow:ellipsis}
.PASS{background:#d9f2d9}.FAIL{background:#f7d4d4}.UNRESOLVED{background:#e6e6e6}
.stats td{border:none}
pre{background:#f6f6f6;padding:8px;overflow:auto;max-height:30em}
.add{color:#176a17}.del{color:#a11}
svg{background:#fafafa;border:1px solid #ddd}
`)
	for _, sec := range p.Sections {
		b.WriteString(sec.Style)
	}
	b.WriteString("</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>wynot %s</h1>\n", esc(s.Command))
	status := "not certified minimal"
	switch {
	case s.Interrupted:
		status = "interrupted: the best result so far, not minimal"
	case s.Minimal:
		status = "minimal (the algorithm ran to completion)"
	}
	b.WriteString(`<table class="stats">`)
	row := func(k, v string) { fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>\n", esc(k), esc(v)) }
	row("algorithm", s.Algorithm)
	row("failure", s.Signature)
	row("tests run", fmt.Sprintf("%d: %d of candidates, %d checks of the original and the result", s.Tests, s.Runs, s.Checks))
	word := p.Words.Of
	lower := func(o dd.Outcome) string { return strings.ToLower(word(o.String())) }
	row("outcomes", fmt.Sprintf("%d %s, %d %s, %d %s (of the %d tests of candidates)", s.Outcomes.Pass, lower(dd.Pass),
		s.Outcomes.Fail, lower(dd.Fail), s.Outcomes.Unresolved, lower(dd.Unresolved), s.Runs))
	row("cache hits", fmt.Sprint(s.CacheHits))
	if s.Predicted > 0 {
		row("predicted", fmt.Sprint(s.Predicted))
	}
	for _, r := range p.Rows {
		row(r.Name, r.Value)
	}
	unit := s.Unit
	if unit == "" {
		unit = "bytes"
	}
	row("size", fmt.Sprintf("%d → %d %s", s.SizeBefore, s.SizeAfter, unit))
	row("result", status)
	row("time", fmt.Sprintf("%.1f s", s.Seconds))
	b.WriteString("</table>\n")
	for _, sec := range p.Sections {
		b.WriteString(sec.HTML)
		b.WriteString("\n")
	}
	if len(s.Passes) > 0 {
		b.WriteString("<h2>Passes</h2>\n<table><tr><th>pass</th><th>tests</th><th>predicted</th><th>size before</th><th>size after</th><th>seconds</th></tr>\n")
		for _, ps := range s.Passes {
			name := ps.Name
			if ps.File != "" {
				name += " (" + ps.File + ")"
			}
			fmt.Fprintf(&b, "<tr><td>%s</td><td class=n>%d</td><td class=n>%d</td><td class=n>%d</td><td class=n>%d</td><td class=n>%.2f</td></tr>\n",
				esc(name), ps.Tests, ps.Predicted, ps.BytesBefore, ps.BytesAfter, ps.Seconds)
		}
		b.WriteString("</table>\n")
	}
	// The plot counts what the summary's size counts: changes where the
	// configurations are changes, bytes of the candidate otherwise.
	byChanges := unit != "bytes"
	if byChanges {
		fmt.Fprintf(&b, "<h2>Size over the tests (%s in the configuration)</h2>\n", esc(unit))
	} else {
		b.WriteString("<h2>Size over the tests (bytes of the candidate)</h2>\n")
	}
	b.WriteString(plot(evs, byChanges))
	b.WriteString("<h2>Tests</h2>\n")
	fmt.Fprintf(&b, "<table><tr><th>#</th><th>pass</th><th>configuration</th><th>%s</th><th>outcome</th><th>detail</th></tr>\n", map[bool]string{true: esc(unit), false: "bytes"}[byChanges])
	shown := 0
	for _, e := range evs {
		if e.Discarded {
			continue
		}
		if shown == maxRows {
			fmt.Fprintf(&b, "<tr><td colspan=6>… %d more tests not shown</td></tr>\n", len(evs)-shown)
			break
		}
		shown++
		out := word(e.Outcome)
		if e.Cached {
			out += " (cached)"
		}
		size := e.Size
		if byChanges {
			size = e.Changes
		}
		fmt.Fprintf(&b, "<tr class=%q><td class=n>%d</td><td>%s</td><td class=cfg title=\"%s\">%s</td><td class=n>%d</td><td>%s</td><td class=d title=\"%s\">%s</td></tr>\n",
			e.Outcome, e.Test, esc(e.Pass), esc(e.Config), esc(e.Config), size, esc(out), esc(e.Detail), esc(e.Detail))
	}
	b.WriteString("</table>\n")
	if p.Result != "" || s.SizeAfter == 0 {
		b.WriteString("<h2>Result</h2>\n<pre>")
		res := p.Result
		if len(res) > 64<<10 {
			res = res[:64<<10] + "\n… (cut at 64 KB)"
		}
		b.WriteString(esc(res))
		b.WriteString("</pre>\n")
	}

	if p.Diff != "" {
		b.WriteString("<h2>Difference</h2>\n<pre>")
		for _, l := range strings.SplitAfter(p.Diff, "\n") {
			class := ""
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			case strings.HasPrefix(l, "+"):
				class = "add"
			case strings.HasPrefix(l, "-"):
				class = "del"
			}
			if class != "" {
				fmt.Fprintf(&b, "<span class=%s>%s</span>", class, esc(l))
			} else {
				b.WriteString(esc(l))
			}
		}
		b.WriteString("</pre>\n")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// plot draws, as inline SVG, each test's size (the candidate's bytes, or
// with byChanges the changes of its configuration) as a dot colored by
// outcome and the smallest failing size so far as a line.
func plot(evs []Event, byChanges bool) string {
	const w, h, pad = 900.0, 240.0, 30.0
	size := func(e Event) int {
		if byChanges {
			return e.Changes
		}
		return e.Size
	}
	var pts []Event
	maxSize := 1
	for _, e := range evs {
		if !e.Discarded {
			pts = append(pts, e)
			maxSize = max(maxSize, size(e))
		}
	}
	if len(pts) == 0 {
		return "<p>No tests were run.</p>\n"
	}
	x := func(i int) float64 { return pad + (w-2*pad)*float64(i)/float64(max(len(pts)-1, 1)) }
	y := func(size int) float64 { return h - pad - (h-2*pad)*float64(size)/float64(maxSize) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#999"/>`, pad, h-pad, w-pad, h-pad)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#999"/>`+"\n", pad, pad, pad, h-pad)
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="11">%d</text>`, 2.0, pad, maxSize)
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="11">test %d</text>`+"\n", w-pad-40, h-8, pts[len(pts)-1].Test)
	var line []string
	best := -1
	for i, e := range pts {
		o, ok := outcomeNamed(e.Outcome)
		if !ok {
			o = dd.Unresolved
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`, x(i), y(size(e)), colors[o])
		if o == dd.Fail && (best < 0 || size(e) < best) {
			best = size(e)
		}
		if best >= 0 {
			line = append(line, fmt.Sprintf("%.1f,%.1f", x(i), y(best)))
		}
	}
	if len(line) > 0 {
		fmt.Fprintf(&b, "\n"+`<polyline fill="none" stroke="#d33" stroke-width="1.5" points="%s"/>`, strings.Join(line, " "))
	}
	b.WriteString("\n</svg>\n")
	return b.String()
}
