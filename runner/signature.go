package runner

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/wynot/wynot/internal/enum"
)

// Precision says how closely a candidate's failure must match the
// original one to count as the same failure (TSE 2002 §4.4: the more
// precise, the less a reduction can drift to another failure, and the
// larger the result).
type Precision int

const (
	// Exit compares only how the test ended: exit status, signal or timeout.
	Exit Precision = iota
	// Message also compares the failure message (a Go panic or fatal
	// error, a sanitizer report's kind, an assertion, a compiler's
	// internal error, an exception), with numbers, addresses and paths
	// normalized, so that "index out of range [19] with length 11" still
	// matches after the input shrank.
	Message
	// Stack also compares the top frames of the failing stack (function
	// names only).
	Stack
	// Exact compares the message and frames literally.
	Exact
)

var precisionNames = []string{"exit", "message", "stack", "exact"}

func (p Precision) String() string { return enum.Name(precisionNames, p, "Precision") }

// MarshalText returns the precision's name.
func (p Precision) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a precision by name.
func (p *Precision) UnmarshalText(b []byte) (err error) {
	*p, err = enum.Parse[Precision](precisionNames, string(b))
	return err
}

// Signature is what identifies a failure: how the run ended, how far it
// got and what failed by name as the tools whose output it is tell it
// (go test's failing tests, a build that failed: ToolReading), and the
// failure message and top stack frames found in its output.
type Signature struct {
	Ending string // "exit status 2", "killed by SIGSEGV", "timed out"
	// Phase, Tool and Failed are what the tools recognized in the output
	// say (readTools): a run that did not build is never the same
	// failure as one whose tests ran and failed.
	Phase   Phase
	Tool    string   // the tools recognized, "" for none
	Failed  []string // what failed by name, sorted: tests, make targets
	Message string   // the failure line, e.g. "panic: runtime error: index out of range [5] with length 3"
	Frames  []string // top stack frames, innermost first, function names only
}

// StackDepth is how many frames a signature keeps.
const StackDepth = 3

func (s Signature) String() string {
	out := s.Ending
	if s.Phase != Ran {
		out += ", " + s.Phase.String()
	}
	if len(s.Failed) > 0 {
		out += ": " + FailedList(s.Failed) + " failed"
	}
	if s.Message != "" {
		out += ": " + s.Message
	}
	if len(s.Frames) > 0 {
		out += " [" + strings.Join(s.Frames, " < ") + "]"
	}
	if s.Tool != "" {
		out += " (" + s.Tool + ")"
	}
	return out
}

// FailedList names failing tests for a message: without the package
// path of Go tests, without a test whose subtest failed too, at most
// three and how many more.
func FailedList(failed []string) string {
	var names []string
	for i, f := range failed {
		// Sorted: a Go test's subtests come right after it.
		if i+1 < len(failed) && strings.HasPrefix(failed[i+1], f+"/") {
			continue
		}
		if n := testName(f); n != "" {
			f = n
		}
		names = append(names, f)
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}

// Same reports whether s and o are the same failure at precision p. How
// the run ended, how far it got and what failed by name are compared at
// every precision: a test that did not build, or another test failing,
// is another failure however loosely failures are compared.
func (s Signature) Same(o Signature, p Precision) bool { return s.same(o, p, false) }

// same is Same, with quoted strings set aside in the messages when
// quoted is set (SignatureOracle.QuotedAside).
func (s Signature) same(o Signature, p Precision, quoted bool) bool {
	if s.Ending != o.Ending || s.Phase != o.Phase || !equal(s.Failed, o.Failed) {
		return false
	}
	return p == Exit || sameMessage(s.Message, o.Message, p, quoted) && sameFrames(s.Frames, o.Frames, p)
}

// sameMessage reports whether two failure messages are the same at
// precision p (above Exit): literally at Exact, otherwise normalized,
// with quoted strings set aside when quoted is set.
func sameMessage(a, b string, p Precision, quoted bool) bool {
	if p == Exact {
		return a == b
	}
	if quoted {
		a, b = reQuoted.ReplaceAllString(a, `"…"`), reQuoted.ReplaceAllString(b, `"…"`)
	}
	return Normalize(a) == Normalize(b)
}

// sameFrames reports whether two stacks are the same at precision p:
// they are compared at Stack and Exact only.
func sameFrames(a, b []string, p Precision) bool { return p < Stack || equal(a, b) }

// Diff says how s differs from want at precision p (quoted as in
// SignatureOracle.QuotedAside), in a few words for a message: each part
// that Same compares and finds different, with both values ("how it
// ended: exit status 1, not exit status 2"). It is "" when s and want are
// the same failure.
func (s Signature) Diff(want Signature, p Precision, quoted bool) string {
	if s.same(want, p, quoted) {
		return ""
	}
	var parts []string
	if s.Ending != want.Ending {
		parts = append(parts, fmt.Sprintf("how it ended: %s, not %s", s.Ending, want.Ending))
	}
	if s.Phase != want.Phase {
		parts = append(parts, fmt.Sprintf("it %s, where the failure %s", phaseVerb(s.Phase), phaseVerb(want.Phase)))
	}
	if !equal(s.Failed, want.Failed) {
		parts = append(parts, fmt.Sprintf("failed by name: %s, not %s", orNone(FailedList(s.Failed)), orNone(FailedList(want.Failed))))
	}
	if p == Exit {
		return strings.Join(parts, "; ")
	}
	if !sameMessage(s.Message, want.Message, p, quoted) {
		parts = append(parts, fmt.Sprintf("its message is %s, not %s", quoteOrNone(s.Message), quoteOrNone(want.Message)))
	}
	if !sameFrames(s.Frames, want.Frames, p) {
		parts = append(parts, fmt.Sprintf("its stack is %s, not %s", stackOrNone(s.Frames), stackOrNone(want.Frames)))
	}
	return strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func phaseVerb(p Phase) string {
	switch p {
	case NotBuilt:
		return "did not build"
	case NotSetUp:
		return "could not start"
	}
	return "ran"
}

func quoteOrNone(msg string) string {
	if msg == "" {
		return "none"
	}
	return fmt.Sprintf("%q", msg)
}

func stackOrNone(frames []string) string {
	if len(frames) == 0 {
		return "none"
	}
	return "[" + strings.Join(frames, " < ") + "]"
}

// reQuoted is a double-quoted string as Go's %q writes it.
var reQuoted = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var (
	reHex  = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	rePath = regexp.MustCompile(`(?:/[^\s/:'"()\[\]{},]+)+/([^\s/:'"()\[\]{},]+)`)
	reNum  = regexp.MustCompile(`[0-9]+`)
)

// Normalize makes a failure message independent of the details that
// change while an input shrinks: hexadecimal numbers become "0x?",
// absolute paths their base name, other numbers "N".
func Normalize(msg string) string {
	msg = reHex.ReplaceAllString(msg, "\x00")
	msg = rePath.ReplaceAllString(msg, "$1")
	msg = reNum.ReplaceAllString(msg, "N")
	return strings.ReplaceAll(msg, "\x00", "0x?")
}

// Extract reads the signature of a run: the tools' reading of its
// output (readTools) and the failure report in it (a crash: a panic, a
// sanitizer's report, an assertion), whose message comes first. A run
// that crashed ran, whatever its tools say of it (a compiler that
// crashed while building).
//
// A line of go test or of the Go runtime that the output before it did
// not end with a newline for is read on a line of its own (unglue).
func Extract(r Run) Signature {
	s := Signature{Ending: ending(r)}
	r.Stderr, r.Stdout = ungluedBytes(r.Stderr), ungluedBytes(r.Stdout)
	tests := "" // the messages of go test's failing tests that said something
	if !r.Clean() {
		tr := readTools(string(r.Stderr) + "\n" + string(r.Stdout))
		s.Tool, s.Phase, s.Failed, s.Message = tr.Tool(), tr.Phase, tr.Failed, tr.Message
		if tr.Phase == Ran {
			tests = tr.tests
		}
	}
	// Failure reports go to standard error as a rule; look there first.
	// A test runner's own message on the failing test says more than an
	// assertion's report found in its output (pytest's "AssertionError").
	// A crash comes first, and the messages of go test's other failing
	// tests stay part of the failure: one of them failing otherwise is
	// another failure.
	for _, out := range [][]byte{r.Stderr, r.Stdout} {
		if msg, frames := failureReport(string(out)); msg != "" {
			if s.Message == "" || crashed(msg) {
				s.Message, s.Frames, s.Phase = msg, frames, Ran
				if tests != "" && tests != msg && crashed(msg) {
					s.Message = msg + "; " + tests
				}
			}
			break
		}
	}
	return s
}

// crashed reports whether a failure report's message is that of a crash
// (a panic, a fatal error, a sanitizer's report, a compiler's internal
// error), not an assertion or exception that a test runner reports too.
func crashed(msg string) bool {
	return strings.HasPrefix(msg, "panic: ") || strings.HasPrefix(msg, "fatal error: ") || strings.HasPrefix(msg, "thread '") ||
		strings.Contains(msg, "Sanitizer: ") || strings.HasPrefix(msg, "internal compiler error")
}

// FailureLine is the line a run's output states its failure with, as
// far as it can be told: the failure report's message (a panic, a
// sanitizer report, an assertion), else the last non-empty line of
// standard error, else of standard output; normalized (see Normalize).
func FailureLine(r Run) string {
	if sig := Extract(r); sig.Message != "" {
		return Normalize(sig.Message)
	}
	for _, out := range [][]byte{r.Stderr, r.Stdout} {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
			return Normalize(l)
		}
	}
	return ""
}

func ending(r Run) string {
	switch {
	case r.TimedOut:
		return "timed out"
	case r.Signal != 0:
		return "killed by " + SignalName(r.Signal)
	}
	return fmt.Sprintf("exit status %d", r.Exit)
}

var (
	reGoPanic   = regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*)$`)
	reSanitizer = regexp.MustCompile(`(?m)ERROR: (\w+Sanitizer): ([\w-]+)`)
	reSanFrame  = regexp.MustCompile(`(?m)^\s*#\d+ 0x[0-9a-f]+ in (\S+)`)
	reRuntime   = regexp.MustCompile(`(?m)runtime error: (.*)$`)
	reAssert    = regexp.MustCompile("(?m)(Assertion [`'].*[`'] failed\\.?|assertion failed.*$|AssertionError.*$)")
	reICE       = regexp.MustCompile(`(?m)(internal compiler error: .*)$`)
	rePyExc     = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)(?::.*)?)$`)
	rePyFrame   = regexp.MustCompile(`(?m)^\s*File ".*", line \d+, in (\S+)`)
	// " [recovered]", and since Go 1.23 " [recovered, repanicked]".
	reRecovered = regexp.MustCompile(` \[recovered(?:, repanicked)?\]$`)
	// A Rust panic: "thread 'main' (23216) panicked at src/main.rs:4:21:"
	// and the message on the next line.
	reRustPanic = regexp.MustCompile(`(?m)^thread '([^']*)'(?: \(\d+\))? panicked at [^\n]*:\n(.*)$`)
	// A frame of a Rust backtrace: "   4: rs::tests::test_mx".
	reRustFrame = regexp.MustCompile(`(?m)^\s+\d+: (\S+)$`)
)

// rustFrames reads the top frames of a Rust backtrace (RUST_BACKTRACE=1),
// without the standard library's frames that raise the panic.
func rustFrames(rest string) []string {
	var frames []string
	for _, m := range reRustFrame.FindAllStringSubmatch(rest, -1) {
		name := m[1]
		if strings.HasPrefix(name, "core::") || strings.HasPrefix(name, "std::") || strings.HasPrefix(name, "__rustc::") ||
			strings.HasPrefix(name, "rust_begin_unwind") || strings.HasPrefix(name, "<") {
			continue
		}
		frames = append(frames, name)
		if len(frames) == StackDepth {
			break
		}
	}
	return frames
}

// failureReport finds the failure message and stack frames in out.
func failureReport(out string) (string, []string) {
	if loc := reSanitizer.FindStringSubmatchIndex(out); loc != nil {
		msg := out[loc[2]:loc[3]] + ": " + out[loc[4]:loc[5]]
		var frames []string
		for _, m := range reSanFrame.FindAllStringSubmatch(out[loc[1]:], StackDepth) {
			frames = append(frames, m[1])
		}
		return msg, frames
	}
	if loc := reGoPanic.FindStringIndex(out); loc != nil {
		msg := reRecovered.ReplaceAllString(out[loc[0]:loc[1]], "")
		return msg, goFrames(out[loc[1]:])
	}
	if m := reRustPanic.FindStringSubmatchIndex(out); m != nil {
		msg := "thread '" + out[m[2]:m[3]] + "' panicked: " + strings.TrimSpace(out[m[4]:m[5]])
		return msg, rustFrames(out[m[1]:])
	}
	if m := reICE.FindStringSubmatch(out); m != nil {
		return m[1], nil
	}
	if m := reAssert.FindStringSubmatch(out); m != nil {
		return m[1], nil
	}
	if m := reRuntime.FindStringSubmatch(out); m != nil {
		return "runtime error: " + m[1], nil
	}
	if strings.Contains(out, "Traceback (most recent call last):") {
		if ms := rePyExc.FindAllString(out, -1); len(ms) > 0 {
			var frames []string
			fs := rePyFrame.FindAllStringSubmatch(out, -1)
			for i := len(fs) - 1; i >= 0 && len(frames) < StackDepth; i-- {
				frames = append(frames, fs[i][1])
			}
			return ms[len(ms)-1], frames
		}
	}
	return "", nil
}

// reRuntimeCrash is how the Go runtime reports a crash of its own (an
// index out of range, a nil dereference), not a panic the program raised.
var reRuntimeCrash = regexp.MustCompile(`(?m)^(?:panic: runtime error: |fatal error: |unexpected fault address)`)

// CrashedAt reports whether r ended in a crash of the runtime's own (a
// signal, or a runtime error of a Go program; not a panic the program
// raised itself) whose backtrace has a frame at line of a file named as
// file is (by base name: the build may have compiled a copy of it).
func CrashedAt(r Run, file string, line int) bool {
	if !Crashed(r) || r.Signal == 0 && !reRuntimeCrash.Match(r.Stderr) {
		return false
	}
	want := fmt.Sprintf("%s:%d", filepath.Base(file), line)
	for _, l := range strings.Split(string(r.Stderr), "\n") {
		if !strings.HasPrefix(l, "\t") {
			continue
		}
		loc, _, _ := strings.Cut(strings.TrimPrefix(l, "\t"), " ")
		if filepath.Base(loc) == want {
			return true
		}
	}
	return false
}

// goFrames reads the top frames of the panicking goroutine from the text
// after a Go panic message: function lines alternate with file:line lines;
// the runtime's own frames and panic() are skipped.
func goFrames(rest string) []string {
	i := strings.Index(rest, "goroutine ")
	if i < 0 {
		return nil
	}
	var frames []string
	lines := strings.Split(rest[i:], "\n")
	for k := 1; k < len(lines); k++ {
		l := lines[k]
		if l == "" || k+1 == len(lines) || !strings.HasPrefix(lines[k+1], "\t") {
			break // end of this goroutine's trace: each frame has a file:line line
		}
		k++ // the file:line line
		if strings.HasPrefix(l, "created by ") {
			break
		}
		// Strip the argument list: the last "(" when the line ends in ")".
		name := l
		if j := strings.LastIndexByte(l, '('); j > 0 && strings.HasSuffix(l, ")") {
			name = l[:j]
		}
		// The runtime's frames, and those of the testing package that
		// recovers and re-raises a test's panic, say nothing of the failure.
		if name == "panic" || strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "testing.") {
			continue
		}
		frames = append(frames, filepath.Base(name))
		if len(frames) == StackDepth {
			break
		}
	}
	return frames
}

// ungluedBytes is unglue of b, b itself when nothing was glued.
func ungluedBytes(b []byte) []byte {
	if u := unglue(string(b)); len(u) != len(b) {
		return []byte(u)
	}
	return b
}
