package report

import (
	"strings"
	"testing"
)

// TestOutcomeWords: a command that asks another question than "does it
// fail?" names the outcomes in its own words.
func TestOutcomeWords(t *testing.T) {
	var r Recorder
	r.Record(Event{Test: 1, Pass: "statement instances", Config: "1.3", Outcome: "FAIL", Size: 2})
	r.Record(Event{Test: 2, Pass: "statement instances", Config: "..3", Outcome: "PASS", Size: 1})
	s := &Summary{Command: "trace", Runs: 2, Outcomes: Outcomes{Pass: 1, Fail: 1}}
	var b strings.Builder
	if err := r.WriteHTML(&b, Page{Summary: s, Result: "slice", Outcomes: map[string]string{"PASS": "DIFFERS", "FAIL": "REPRODUCED"}}); err != nil {
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
