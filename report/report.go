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

func (p *Progress) loop() {
	defer close(p.done)
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// Update changes the status under the display's lock.
func (p *Progress) Update(f func(*Status)) {
	if p == nil {
		return
	}
	p.mu.Lock()
	f(&p.st)
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
	l := fmt.Sprintf("%s: %d %s (%.1f%%) | %d tests, %.1f/s | ✓%d ✗%d ?%d | %d cached",
		s.Command, s.Size, unit, pct, s.Tests, rate, s.Outcomes[dd.Pass], s.Outcomes[dd.Fail], s.Outcomes[dd.Unresolved], s.CacheHits)
	if s.Pass != "" {
		l += " | " + s.Pass
		if s.Granularity > 0 {
			l += fmt.Sprintf(", n=%d", s.Granularity)
		}
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
	Tests          int         `json:"tests"`
	Runs           int         `json:"runs"`
	Checks         int         `json:"checks"`
	CacheHits      int         `json:"cache_hits"`
	Predicted      int         `json:"predicted,omitempty"`
	Flaky          int         `json:"flaky,omitempty"`
	Outcomes       Outcomes    `json:"outcomes"`
	SizeBefore     int         `json:"size_before"`
	SizeAfter      int         `json:"size_after"`
	Unit           string      `json:"unit"` // what the sizes count: bytes, arguments, changes, ...
	ElementsBefore int         `json:"elements_before"`
	ElementsAfter  int         `json:"elements_after"`
	Granularity    string      `json:"granularity"`
	Minimal        bool        `json:"minimal"`
	Confirmed      bool        `json:"confirmed"`
	Interrupted    bool        `json:"interrupted,omitempty"`
	Seconds        float64     `json:"seconds"`
	Signature      string      `json:"signature,omitempty"`
	Result         string      `json:"result"`
	Files          []string    `json:"files,omitempty"`
	Passes         []PassStats `json:"passes,omitempty"`
	Diff           string      `json:"diff,omitempty"` // the failure-inducing difference (isolate, changes)

	// The part of one command; the JSON summary shows its fields beside
	// the common ones.
	ReduceDetail
	IsolateDetail
	ChangesDetail
	TraceDetail
	ChainDetail
}

// ChainDetail is the part of the summary of wynot chain.
type ChainDetail struct {
	// Chain is the cause-effect chain: the states examined, in the
	// failing run's order, each with its relevant deltas.
	Chain []Link `json:"chain,omitempty"`
	// Transitions are the cause transitions found: where the variables
	// of the relevant deltas change from one state to the next.
	Transitions []Transition `json:"transitions,omitempty"`
	MaxVertices int          `json:"max_vertices,omitempty"`
	// Captures counts the runs that captured states (they are among the
	// tests).
	Captures int `json:"captures,omitempty"`
}

// Link is one state of a cause-effect chain: a moment of the failing
// run and what of its state, transplanted into the passing run, makes
// that run fail.
type Link struct {
	Step  uint64 `json:"step"` // the failing run's step (probe passed), from 1
	File  string `json:"file"`
	Line  int    `json:"line"`
	Func  string `json:"func"`
	Stack string `json:"stack,omitempty"`
	// Matched says that the passing run has a matching state (the same
	// backtrace); the sizes of both graphs, the deltas between them and
	// the tests of the search follow.
	Matched      bool    `json:"matched"`
	PassVertices int     `json:"pass_vertices,omitempty"`
	FailVertices int     `json:"fail_vertices,omitempty"`
	Cut          bool    `json:"cut,omitempty"` // a graph stopped at --max-vertices
	Deltas       int     `json:"deltas"`
	Tests        int     `json:"tests"`
	Relevant     []Delta `json:"relevant,omitempty"`
	// Differences are all the deltas in words (the first 100).
	Differences []string `json:"differences,omitempty"`
	// Note says why there are no relevant deltas (no matching state,
	// the whole difference does not reproduce the failure, ...).
	Note string `json:"note,omitempty"`
}

// Delta is one state difference.
type Delta struct {
	Kind string `json:"kind"` // change, add, delete, repoint
	Var  string `json:"var"`  // the variable it affects
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
	Text string `json:"text"` // in words
	// Aliases are the other names of the failing run's vertex (the same
	// memory reached another way).
	Aliases []string `json:"aliases,omitempty"`
}

// Transition is a cause transition: between two steps of the failing
// run, the variables that cause the failure change.
type Transition struct {
	FromStep uint64 `json:"from_step"`
	ToStep   uint64 `json:"to_step"`
	// Where is the statement of the first step and the one the run goes
	// on to ("main.go:45 → main.go:46"); Func the function of the first.
	Where string `json:"where"`
	Func  string `json:"func"`
	// Before and After are the variables of the relevant deltas at the
	// two steps.
	Before []string `json:"before"`
	After  []string `json:"after"`
	// Kind says how the cause moved: "statement" (within a function),
	// "call", "return", "diverges" (one of the states has no matching
	// state in the passing run: the runs took different paths) or
	// "hidden" (at one of the states the whole captured difference does
	// not make the passing run fail: the cause is where the capture does
	// not see, such as a caller's variables).
	Kind string `json:"kind"`
	// Overwritten are the variables of both states (the same memory)
	// whose value in the failing run changed between them: the statement
	// wrote into a variable that carried the cause.
	Overwritten []string `json:"overwritten,omitempty"`
	// Direct says that the two steps are consecutive; Suggested marks
	// the transition wynot suggests as the defect's location.
	Direct    bool `json:"direct"`
	Suggested bool `json:"suggested,omitempty"`
}

// TraceDetail is the part of the summary of wynot trace.
type TraceDetail struct {
	Observe string `json:"observe,omitempty"` // what of the original run is reproduced
	// Slice is the critical slice: the statements with instances kept,
	// in source order.
	Slice []SliceLine `json:"slice,omitempty"`
	// Skipped is the plan of the reduced run: per element, the instances
	// it skips ("12: 1-4 7").
	Skipped   []string `json:"skipped,omitempty"`
	Unguarded int      `json:"unguarded,omitempty"` // statements that could not be guarded and always run
	BuildSecs float64  `json:"build_seconds,omitempty"`
	Hierarchy string   `json:"hierarchy,omitempty"` // "on" or "off"
	// Levels are the levels the search went through, coarse to fine.
	Levels []Level `json:"levels,omitempty"`
}

// Level is one level of a hierarchical search: how many of its elements
// there were and were kept, in how many tests.
type Level struct {
	Name   string `json:"name"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	Tests  int    `json:"tests"`
}

// SliceLine is one statement of a critical slice.
type SliceLine struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	Ran  int    `json:"ran"`  // executions in the reduced run
	Kept []int  `json:"kept"` // the instances kept (k-th execution)
	// Times are the kept instances' times in the reduced run (the
	// seed's line_time notation), when the run's timeline was recorded.
	Times []int `json:"times,omitempty"`
}

// ReduceDetail is the part of the summary of wynot reduce.
type ReduceDetail struct {
	Formatted []string `json:"formatted,omitempty"` // results printed by their language's formatter (gofmt) at the end
}

// IsolateDetail is the part of the summary of wynot isolate and maximize.
type IsolateDetail struct {
	PassSize *int `json:"pass_size,omitempty"`
	FailSize *int `json:"fail_size,omitempty"`
}

// SkippedCommit is a commit that wynot changes --git did not take for a
// candidate, and why: the kinds of files it changes, none of which the
// test's build reads.
type SkippedCommit struct {
	Commit string `json:"commit"`
	Why    string `json:"why"`
}

// ChangesDetail is the part of the summary of wynot changes.
type ChangesDetail struct {
	Commits int    `json:"commits,omitempty"` // commits between the revisions (--git)
	Commit  string `json:"commit,omitempty"`  // the failure-inducing commit (--git)
	// Skipped are the commits (--git) that were not candidates: they
	// change no file the test's build reads, or none of --paths.
	SkippedCommits []SkippedCommit `json:"skipped_commits,omitempty"`
	Hunks          []string        `json:"hunks,omitempty"`       // the failure-inducing changes, briefly
	Resolutions    int             `json:"resolutions,omitempty"` // configurations retried with changes added by the resolution loop
	Resolved       int             `json:"resolved,omitempty"`    // of those, how many then gave a resolved outcome
	Completed      int             `json:"completed,omitempty"`   // configurations tested with the changes they need (from the source) added
	Complement     string          `json:"complement,omitempty"`  // the outcome of the new version without the result
	Needed         int             `json:"needed,omitempty"`      // changes of the result that resolution added so that the others build
	OtherCause     []string        `json:"other_cause,omitempty"` // changes disjoint from the result that also made the old version fail
	// The check of the result at the granularity shown, each of its
	// changes removed alone and the rest tested as it is: how many such
	// removals passed, how many were unresolved (did not build), and how
	// many changes the check took out because without each the rest
	// still failed.
	RemovalsPassed     int `json:"removals_passed,omitempty"`
	RemovalsUnresolved int `json:"removals_unresolved,omitempty"`
	RemovedByCheck     int `json:"removed_by_check,omitempty"`
	// Verdict says in sentences what was verified of the result; the
	// terminal shows the same sentences.
	Verdict []string `json:"verdict,omitempty"`
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
