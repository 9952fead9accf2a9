package report

import (
	"strings"
	"testing"

	"github.com/wynot/wynot/dd"
)

// TestOutcomeWords: a command that asks another question than "does it
// fail?" names the outcomes in its own words.
func TestOutcomeWords(t *testing.T) {
	var r Recorder
	r.Record(Event{Test: 1, Pass: "statement instances", Config: "1.3", Outcome: "FAIL", Size: 2})
	r.Record(Event{Test: 2, Pass: "statement instances", Config: "..3", Outcome: "PASS", Size: 1})
	s := &Summary{Command: "trace", Runs: 2, Outcomes: Outcomes{Pass: 1, Fail: 1}}
	var b strings.Builder
	if err := r.WriteHTML(&b, Page{Summary: s, Result: "slice", Words: Words{dd.Pass: "DIFFERS", dd.Fail: "REPRODUCED"}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"1 differs, 1 reproduced, 0 unresolved", "<td>REPRODUCED</td>", "<td>DIFFERS</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	b.Reset()
	if err := r.WriteHTML(&b, Page{Summary: s, Result: "slice"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "1 pass, 1 fail, 0 unresolved") {
		t.Error("without words, the outcomes are pass and fail")
	}
}

// TestSections: a command's rows go into the statistics before the
// size, its sections after the statistics, and their style into the
// page's style sheet; a page without them has neither.
func TestSections(t *testing.T) {
	var r Recorder
	r.Record(Event{Test: 1, Config: "1", Outcome: "FAIL", Size: 1})
	s := &Summary{Command: "x", Runs: 1, Outcomes: Outcomes{Fail: 1}}
	var b strings.Builder
	p := Page{Summary: s, Rows: []Row{{"own row", "7 <of> 9"}}, Sections: []Section{{Style: ".own{color:red}\n", HTML: "<h2>Own</h2>"}}}
	if err := r.WriteHTML(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	order := []string{".own{color:red}\n</style>", "<td>cache hits</td>", "<tr><td>own row</td><td>7 &lt;of&gt; 9</td></tr>\n<tr><td>size</td>", "</table>\n<h2>Own</h2>\n", "<h2>Size over"}
	at := 0
	for _, want := range order {
		i := strings.Index(page[at:], want)
		if i < 0 {
			t.Fatalf("the page lacks %q after byte %d:\n%s", want, at, page)
		}
		at += i
	}
	b.Reset()
	if err := r.WriteHTML(&b, Page{Summary: s}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "own") {
		t.Error("a page without the command's parts shows them")
	}
}
