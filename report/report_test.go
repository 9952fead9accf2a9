package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestDraw(t *testing.T) {
	for _, c := range []struct {
		c    []int
		n    int
		want string
	}{
		{nil, 4, "...."},
		{[]int{0, 2}, 4, "1.3."},
		{[]int{9, 10}, 12, ".........01."},
	} {
		if got := Draw(c.c, c.n); got != c.want {
			t.Errorf("Draw(%v, %d) = %q, want %q", c.c, c.n, got, c.want)
		}
	}
	// Over 100 changes, a mark per run: all, some, none.
	c := make([]int, 0, 300)
	for i := range 150 {
		c = append(c, i)
	}
	c = append(c, 151)
	got := Draw(c, 300)
	if !strings.HasPrefix(got, strings.Repeat("#", 50)+"+"+strings.Repeat(".", 49)+" (151 of 300)") {
		t.Errorf("drawConfig over 300 = %q", got)
	}
}

// TestSummaryDetail: a command's part of the summary is written after
// the common fields, as if it were the summary's own; no part, a nil
// pointer and an empty part add nothing; a part that is no object is an
// error.
func TestSummaryDetail(t *testing.T) {
	type part struct {
		Hunks []string `json:"hunks,omitempty"`
		Note  string   `json:"note,omitempty"`
	}
	common := `{"command":"x","algorithm":"","tests":1,"runs":0,"checks":0,"cache_hits":0,"outcomes":{"pass":0,"fail":0,"unresolved":0},` +
		`"size_before":0,"size_after":0,"unit":"","elements_before":0,"elements_after":0,"granularity":"","minimal":false,"confirmed":false,"seconds":0,"result":"","diff":"a\u003cb"`
	for _, c := range []struct {
		detail any
		want   string
	}{
		{nil, common + `}`},
		{(*part)(nil), common + `}`},
		{part{}, common + `}`},
		{part{Hunks: []string{"a.go:1+1"}, Note: "<&>"}, common + `,"hunks":["a.go:1+1"],"note":"\u003c\u0026\u003e"}`},
		{&part{Note: "n"}, common + `,"note":"n"}`},
	} {
		s := Summary{Command: "x", Tests: 1, Diff: "a<b", Detail: c.detail}
		got, err := json.Marshal(s)
		if err != nil || string(got) != c.want {
			t.Errorf("detail %#v:\n got %s (%v)\nwant %s", c.detail, got, err, c.want)
		}
		var b strings.Builder
		if err := s.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		var back struct {
			Summary
			part
		}
		if err := json.Unmarshal([]byte(b.String()), &back); err != nil || back.Command != "x" || back.Diff != "a<b" {
			t.Errorf("read back: %+v (%v)", back, err)
		}
		if p, ok := c.detail.(part); ok && (back.Note != p.Note || len(back.Hunks) != len(p.Hunks)) {
			t.Errorf("the part read back is %+v, want %+v", back.part, p)
		}
	}
	for _, bad := range []any{42, []string{"a"}, "text"} {
		if _, err := json.Marshal(Summary{Detail: bad}); err == nil {
			t.Errorf("a detail %#v is written without an error", bad)
		}
	}
}

// TestProgressDoing: a plain progress line comes every interval, and
// sooner, every two seconds, while something between tests (Doing)
// takes long; the line says what that is.
func TestProgressDoing(t *testing.T) {
	var b strings.Builder
	t0 := time.Now()
	p := &Progress{w: &b, interval: 5 * time.Second, start: t0}
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	if p.due(at(2.5)) || !p.due(at(5)) {
		t.Errorf("without anything between tests: due at 2.5s %v, at 5s %v", p.due(at(2.5)), p.due(at(5)))
	}
	p.Update(func(st *Status) { st.Command, st.Doing = "reduce", "writing the smaller tree to t: 256 of 10000 files" })
	p.doing = at(1)
	if p.due(at(2.5)) || !p.due(at(3.1)) {
		t.Errorf("while writing: due at 2.5s %v, at 3.1s %v", p.due(at(2.5)), p.due(at(3.1)))
	}
	p.draw()
	p.last = at(3.1)
	if !strings.Contains(b.String(), "| writing the smaller tree to t: 256 of 10000 files |") {
		t.Errorf("the line: %q", b.String())
	}
	if p.due(at(4)) || !p.due(at(5.2)) {
		t.Errorf("after a line at 3.1s: due at 4s %v, at 5.2s %v", p.due(at(4)), p.due(at(5.2)))
	}
	p.Update(func(st *Status) { st.Doing = "" })
	if p.due(at(6)) || !p.doing.IsZero() {
		t.Errorf("once written: due at 6s %v", p.due(at(6)))
	}
}

// TestProgressUnit: the line counts the size in its unit, bytes by
// default, one of it in the singular.
func TestProgressUnit(t *testing.T) {
	for _, tc := range []struct {
		st   Status
		want string
	}{
		{Status{Command: "reduce", Size: 8, SizeBefore: 16}, "reduce: 8 bytes (50.0%) |"},
		{Status{Command: "reduce", Size: 1, SizeBefore: 16}, "reduce: 1 byte (6.2%) |"},
		{Status{Command: "changes", Size: 1, SizeBefore: 67, Unit: "line edits"}, "changes: 1 line edit (1.5%) |"},
		{Status{Command: "changes", Size: 50, SizeBefore: 67, Unit: "line edits"}, "changes: 50 line edits (74.6%) |"},
	} {
		p := &Progress{start: time.Now(), st: tc.st}
		if got := p.line(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want it to begin %q", tc.st, got, tc.want)
		}
	}
}
