// Package report tells the user what a run does and did: a live status
// line (or plain periodic lines when not on a terminal), the Debugging
// Book style test log, a JSON line per test, and the closing summary for
// people and as JSON.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wynot/wynot/dd"
)

// IsTerminal reports whether f is a character device, such as a terminal.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Status is what the progress display shows.
type Status struct {
	Command     string // "reduce", "isolate", ...
	Pass        string // the current pass, e.g. "lines" or "tokens"
	Granularity int    // subsets at the current step
	SizeBefore  int    // bytes (or changes) at the start
	Size        int    // bytes (or changes) now
	Tests       int    // test runs
	Outcomes    [3]int // runs by outcome: Unresolved, Pass, Fail
	CacheHits   int
	Unit        string // what Size counts: "bytes" (the default), "changes", "commits"
	// Doing is what wynot does between tests that may take a while,
	// as the line shows it ("writing the smaller tree to t: 4210 of
	// 10000 files"); "" when nothing.
	Doing string
}

// Progress draws a Status on a terminal as one line, redrawn ten times a
// second, or, on anything else, as a plain line every few seconds.
type Progress struct {
	w        io.Writer
	tty      bool
	interval time.Duration

	mu     sync.Mutex
	st     Status
	start  time.Time
	drawn  bool
	stop   chan struct{}
	done   chan struct{}
	closed bool
	// last is when a plain line was written last; doing when
	// Status.Doing was set (zero while it is "").
	last, doing time.Time
}

// NewProgress starts a progress display on w; tty selects the redrawn
// status line. Close stops it.
func NewProgress(w io.Writer, tty bool) *Progress {
	p := &Progress{w: w, tty: tty, interval: 5 * time.Second, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if tty {
		p.interval = 100 * time.Millisecond
	}
	go p.loop()
	return p
}

// doingAfter is how long something wynot does between tests (Doing)
// goes on before a plain progress line says it, without waiting for
// the next of every few seconds.
const doingAfter = 2 * time.Second

func (p *Progress) loop() {
	defer close(p.done)
	tick := p.interval
	if !p.tty {
		tick = time.Second / 2
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			if p.due(now) {
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// due says whether the line is drawn at now: always on a terminal; a
// plain line every interval, or sooner (every doingAfter) while
// something between tests takes long. Called with p.mu held.
func (p *Progress) due(now time.Time) bool {
	if p.tty {
		return true
	}
	since := now.Sub(p.last)
	if p.last.IsZero() {
		since = now.Sub(p.start)
	}
	if since >= p.interval-time.Second/4 {
		return true
	}
	return !p.doing.IsZero() && now.Sub(p.doing) >= doingAfter && since >= doingAfter
}

// Update changes the status under the display's lock.
func (p *Progress) Update(f func(*Status)) {
	if p == nil {
		return
	}
	p.mu.Lock()
	was := p.st.Doing
	f(&p.st)
	switch {
	case p.st.Doing == "":
		p.doing = time.Time{}
	case was == "":
		p.doing = time.Now()
	}
	p.mu.Unlock()
}

// Line returns the status as one line of text.
func (p *Progress) Line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.line()
}

func (p *Progress) line() string {
	s := p.st
	el := time.Since(p.start)
	rate := 0.0
	if el > 0 {
		rate = float64(s.Tests) / el.Seconds()
	}
	pct := 100.0
	if s.SizeBefore > 0 {
		pct = 100 * float64(s.Size) / float64(s.SizeBefore)
	}
	unit := s.Unit
	if unit == "" {
		unit = "bytes"
	}
	if s.Size == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	l := fmt.Sprintf("%s: %d %s (%.1f%%) | %d tests, %.1f/s | ✓%d ✗%d ?%d | %d cached",
		s.Command, s.Size, unit, pct, s.Tests, rate, s.Outcomes[dd.Pass], s.Outcomes[dd.Fail], s.Outcomes[dd.Unresolved], s.CacheHits)
	if s.Pass != "" {
		l += " | " + s.Pass
		if s.Granularity > 0 {
			l += fmt.Sprintf(", n=%d", s.Granularity)
		}
	}
	if s.Doing != "" {
		l += " | " + s.Doing
	}
	if el < time.Minute {
		el = el.Round(time.Second / 10)
	} else {
		el = el.Round(time.Second)
	}
	return l + " | " + el.String()
}

// draw writes the status. Called with p.mu held.
func (p *Progress) draw() {
	if p.closed {
		return
	}
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K"+p.line())
		p.drawn = true
	} else {
		fmt.Fprintln(p.w, p.line())
		p.last = time.Now()
	}
}

// Printf writes a message line without garbling the status line.
func (p *Progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	fmt.Fprintf(p.w, format, args...)
}

// Close stops the display and clears the status line.
func (p *Progress) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
	p.mu.Unlock()
	close(p.stop)
	<-p.done
}

// Log writes the test log of the Debugging Book: one line per test,
// "Test #12 <candidate>: FAIL (detail)". It is safe for concurrent use.
type Log struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLog returns a log writing to w.
func NewLog(w io.Writer) *Log { return &Log{w: w} }

// Test logs a test.
func (l *Log) Test(n int, candidate string, o dd.Outcome, detail string) {
	if l == nil {
		return
	}
	line := fmt.Sprintf("Test #%d %s: %s", n, candidate, o)
	if detail != "" && o != dd.Pass {
		line += " (" + detail + ")"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintln(l.w, line)
}

// Printf writes a free line (passes, steps) into the log.
func (l *Log) Printf(format string, args ...any) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format, args...)
}

// Abbreviate renders content for a log line: quoted, with its size, cut
// to about max characters.
func Abbreviate(content []byte, max int) string {
	s := string(content)
	cut := false
	if len(s) > max {
		s = s[:max]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		cut = true
	}
	q := strconv.Quote(s)
	if cut {
		q = q[:len(q)-1] + `…"`
	}
	return fmt.Sprintf("%s (%d bytes)", q, len(content))
}

// Event is one line of the events file: a test.
type Event struct {
	Test        int     `json:"test"`
	Pass        string  `json:"pass,omitempty"`
	Key         string  `json:"config"`
	Config      string  `json:"drawing,omitempty"` // the configuration drawn as in the papers (Draw)
	Changes     int     `json:"changes,omitempty"` // the changes the configuration holds (for the report)
	Size        int     `json:"size"`              // the candidate's bytes
	Outcome     string  `json:"outcome"`
	Seconds     float64 `json:"seconds"`
	Cached      bool    `json:"cached,omitempty"`
	Speculative bool    `json:"speculative,omitempty"`
	Discarded   bool    `json:"discarded,omitempty"`
	Predicted   bool    `json:"predicted,omitempty"` // not run: the outcome was predicted
	Detail      string  `json:"detail,omitempty"`
}

// Events writes Event lines. It is safe for concurrent use.
type Events struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// NewEvents returns an events writer on w.
func NewEvents(w io.Writer) *Events { return &Events{enc: json.NewEncoder(w)} }

// Write writes one event.
func (e *Events) Write(ev Event) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_ = e.enc.Encode(ev)
}

// PassStats is what one pass of a reduction did.
type PassStats struct {
	Name        string  `json:"name"`
	File        string  `json:"file,omitempty"`
	Tests       int     `json:"tests"`
	Predicted   int     `json:"predicted,omitempty"` // candidates predicted Unresolved without a test
	BytesBefore int     `json:"bytes_before"`
	BytesAfter  int     `json:"bytes_after"`
	Seconds     float64 `json:"seconds"`
}

// Outcomes counts test runs by outcome.
type Outcomes struct {
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Unresolved int `json:"unresolved"`
}

// Summary is the closing report of a run, printed as JSON with --json.
type Summary struct {
	Command   string `json:"command"`
	Algorithm string `json:"algorithm"`
	// Tests is every run of the test: Runs, the tests of candidates
	// during the search (the outcome totals add up to them), and Checks,
	// the runs of the original and of the results.
	Tests          int      `json:"tests"`
	Runs           int      `json:"runs"`
	Checks         int      `json:"checks"`
	CacheHits      int      `json:"cache_hits"`
	Predicted      int      `json:"predicted,omitempty"`
	Flaky          int      `json:"flaky,omitempty"`
	TimedOut       int      `json:"timed_out,omitempty"` // runs for candidates that the timeout cut off
	Outcomes       Outcomes `json:"outcomes"`
	SizeBefore     int      `json:"size_before"`
	SizeAfter      int      `json:"size_after"`
	Unit           string   `json:"unit"` // what the sizes count: bytes, arguments, changes, ...
	ElementsBefore int      `json:"elements_before"`
	ElementsAfter  int      `json:"elements_after"`
	Granularity    string   `json:"granularity"`
	Minimal        bool     `json:"minimal"`
	Confirmed      bool     `json:"confirmed"`
	// Caveats say why the result may not be what it seems (its failure
	// may differ from the original's); a result with caveats is neither
	// minimal nor confirmed.
	Caveats     []string    `json:"caveats,omitempty"`
	Interrupted bool        `json:"interrupted,omitempty"`
	Seconds     float64     `json:"seconds"`
	Signature   string      `json:"signature,omitempty"`
	Result      string      `json:"result"`
	Files       []string    `json:"files,omitempty"`
	Passes      []PassStats `json:"passes,omitempty"`
	Diff        string      `json:"diff,omitempty"`      // the failure-inducing difference (isolate, changes)
	Formatted   []string    `json:"formatted,omitempty"` // results printed by their language's formatter (gofmt) at the end

	// Detail is the command's own part of the summary: a struct (or a
	// pointer to one) that encoding/json writes as an object. The JSON
	// summary shows its fields after the common ones, as if they were
	// the summary's own; they must not repeat a common field's name, and
	// should be omitempty, as a run that ends early has not set them.
	// Nil: the command has no part of its own.
	Detail any `json:"-"`
}

// MarshalJSON writes the common fields, then the detail's, as one
// object.
func (s Summary) MarshalJSON() ([]byte, error) {
	type common Summary // without this method
	b, err := json.Marshal(common(s))
	if err != nil || s.Detail == nil {
		return b, err
	}
	d, err := json.Marshal(s.Detail)
	if err != nil {
		return nil, err
	}
	if string(d) == "null" {
		return b, nil // a nil pointer
	}
	if len(d) < 2 || d[0] != '{' || d[len(d)-1] != '}' {
		return nil, fmt.Errorf("report: the detail of a summary must be a JSON object, not %.40s", d)
	}
	if len(d) == 2 {
		return b, nil
	}
	return append(append(b[:len(b)-1], ','), d[1:]...), nil
}

// Inline is the Result of a summary whose result is shown in it (Diff)
// rather than written to a file.
const Inline = "inline"

// WriteJSON writes s as indented JSON.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// Plural returns "1 test" or "n tests".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Percent formats a percentage with two significant digits below 1%.
func Percent(p float64) string {
	if p > 0 && p < 1 {
		return fmt.Sprintf("%.2g%%", p)
	}
	return fmt.Sprintf("%.1f%%", p)
}
