package runner

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/enum"
)

// An Oracle tells from a run whether the failure occurred.
type Oracle interface {
	// Classify returns the run's outcome and a few words on it for logs.
	// An error stops the whole search (e.g. git bisect's "abort").
	Classify(r Run) (dd.Outcome, string, error)
	// Key identifies the oracle and its settings, so that cached outcomes
	// are only reused for the same question.
	Key() string
}

// SignatureOracle compares a run's failure with the original one: the
// same failure (at the given precision) is Fail, a clean exit is Pass,
// anything else Unresolved (TSE 2002 §4.4).
type SignatureOracle struct {
	Want      Signature
	Precision Precision
	// QuotedAside compares messages with their double-quoted strings
	// (as Go's %q writes them) aside, at precisions message and stack: a
	// fuzz target's t.Fatalf("Parse(%q) …", s) quotes the input, which
	// changes as it shrinks, in a message that otherwise stays the same.
	QuotedAside bool
}

func (o *SignatureOracle) Classify(r Run) (dd.Outcome, string, error) {
	if r.Clean() && o.Want.Ending != "exit status 0" {
		return dd.Pass, "", nil
	}
	s := Extract(r)
	if s.same(o.Want, o.Precision, o.QuotedAside) {
		return dd.Fail, s.String(), nil
	}
	if r.Clean() {
		return dd.Pass, "", nil
	}
	return dd.Unresolved, s.String(), nil
}

func (o *SignatureOracle) Key() string {
	if o.QuotedAside {
		return fmt.Sprintf("signature %s quoted aside %q", o.Precision, o.Want)
	}
	return fmt.Sprintf("signature %s %q", o.Precision, o.Want)
}

// RegexOracle states the failure explicitly: a run whose output (standard
// output and error) matches Re fails; a clean exit without a match passes;
// anything else is unresolved.
//
// The regular expression only narrows the failure: a run that matches
// but got less far than the original (Phase: it did not build, or its
// tool could not start on it, as the tools' output tells) is unresolved,
// so that --fail-on FAIL does not take go test's "FAIL pkg [build
// failed]" for a failing test.
//
// With Pass set, the passing behavior is stated too: a run whose output
// matches Pass (and not Re) passes, whatever its exit, and one that
// matches neither is unresolved.
type RegexOracle struct {
	Re    *regexp.Regexp
	Pass  *regexp.Regexp
	Phase Phase // how far the original got
}

func (o *RegexOracle) Classify(r Run) (dd.Outcome, string, error) {
	m := o.Re.Find(r.Stderr)
	if m == nil {
		m = o.Re.Find(r.Stdout)
	}
	if m != nil {
		if !r.Clean() {
			if s := Extract(r); s.Phase != o.Phase {
				return dd.Unresolved, s.String(), nil
			}
		}
		return dd.Fail, string(m), nil
	}
	if o.Pass != nil {
		if o.Pass.Match(r.Stdout) || o.Pass.Match(r.Stderr) {
			return dd.Pass, "", nil
		}
		return dd.Unresolved, "neither output: " + r.Describe(), nil
	}
	if r.Clean() {
		return dd.Pass, "", nil
	}
	return dd.Unresolved, r.Describe(), nil
}

func (o *RegexOracle) Key() string {
	k := "regex " + o.Re.String()
	if o.Pass != nil {
		k += " pass " + o.Pass.String()
	}
	if o.Phase != Ran {
		k += " " + o.Phase.String()
	}
	return k
}

// Convention is how a test script's exit status reads.
type Convention int

const (
	// CReduce is C-Reduce's and C-Vise's convention: 0 means the failure
	// is reproduced ("interesting"), 125 unresolved, anything else pass.
	CReduce Convention = iota
	// Bisect is git bisect run's: 0 pass ("good"), 125 unresolved
	// ("skip"), 1-127 fail ("bad"), 128 and above abort.
	Bisect
)

var conventionNames = []string{"creduce", "bisect"}

func (c Convention) String() string { return enum.Name(conventionNames, c, "Convention") }

// MarshalText returns the convention's name.
func (c Convention) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a convention by name.
func (c *Convention) UnmarshalText(b []byte) (err error) {
	*c, err = enum.Parse[Convention](conventionNames, string(b))
	return err
}

// ScriptOracle reads a test script's exit status by a convention. A run
// that timed out or was killed by a signal is unresolved.
type ScriptOracle struct {
	Convention Convention
}

func (o *ScriptOracle) Classify(r Run) (dd.Outcome, string, error) {
	if r.TimedOut || r.Signal != 0 {
		return dd.Unresolved, r.Describe(), nil
	}
	switch o.Convention {
	case Bisect:
		switch {
		case r.Exit == 0:
			return dd.Pass, "", nil
		case r.Exit == 125:
			return dd.Unresolved, "exit status 125 (skip)", nil
		case r.Exit < 128:
			return dd.Fail, r.Describe(), nil
		}
		return dd.Unresolved, r.Describe(), fmt.Errorf("the test exited with status %d; by the git bisect convention, 128 and above abort the search", r.Exit)
	default:
		switch r.Exit {
		case 0:
			return dd.Fail, "exit status 0 (interesting)", nil
		case 125:
			return dd.Unresolved, "exit status 125", nil
		}
		return dd.Pass, "", nil
	}
}

func (o *ScriptOracle) Key() string { return "script " + o.Convention.String() }

// Observation is what of a run an OutputOracle compares: standard
// output, standard error, the exit status, or (Lines) only the lines of
// both outputs that match a regular expression.
type Observation struct {
	Stdout, Stderr, Exit bool
	Lines                *regexp.Regexp
}

// String says what is observed, as --observe takes it.
func (o Observation) String() string {
	if o.Lines != nil {
		return "lines matching " + o.Lines.String()
	}
	var parts []string
	for _, p := range []struct {
		on   bool
		name string
	}{{o.Stdout, "stdout"}, {o.Stderr, "stderr"}, {o.Exit, "exit"}} {
		if p.on {
			parts = append(parts, p.name)
		}
	}
	return strings.Join(parts, "+")
}

// ParseObservation reads what an OutputOracle observes, as --observe
// takes it: all, stdout, stderr, exit, sums of them (stdout+exit), or a
// regular expression for the lines to compare.
func ParseObservation(s string) (Observation, error) {
	switch s {
	case "all", "":
		return Observation{Stdout: true, Stderr: true, Exit: true}, nil
	}
	var o Observation
	words := true
	for _, w := range strings.Split(s, "+") {
		switch w {
		case "stdout":
			o.Stdout = true
		case "stderr":
			o.Stderr = true
		case "exit":
			o.Exit = true
		default:
			words = false
		}
	}
	if words {
		return o, nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return o, fmt.Errorf("--observe %q: not all, stdout, stderr or exit, and not a regular expression: %v", s, err)
	}
	return Observation{Lines: re}, nil
}

// OutputOracle asks whether a run reproduces what a reference run did
// (STRIPE's test, AADEBUG 2000 §6): the observed output reproduced is
// Fail (the behavior under study is still there), another output is
// Pass, and a run that crashes where the reference did not, or hangs, is
// Unresolved.
//
// With Pass set (a passing run of the same program), the passing
// behavior is a reference too: a run that reproduces it passes, and one
// that reproduces neither is unresolved.
type OutputOracle struct {
	Observe Observation
	Want    Run
	Pass    *Run
	// PairedName is how a difference of the paired run is named
	// (Command.Name; "the paired run" when empty).
	PairedName string
}

// Classify compares r with the reference run.
func (o *OutputOracle) Classify(r Run) (dd.Outcome, string, error) {
	if r.TimedOut {
		return dd.Unresolved, "timed out", nil
	}
	if o.same(r) {
		return dd.Fail, "reproduced", nil
	}
	if o.Pass != nil {
		if bytes.Equal(o.observed(r), o.observed(*o.Pass)) {
			return dd.Pass, "the passing output", nil
		}
		if Crashed(r) && !Crashed(o.Want) {
			return dd.Unresolved, "crashed: " + FailureLine(r), nil
		}
		return dd.Unresolved, "neither output: " + o.difference(r), nil
	}
	if Crashed(r) && !(Crashed(o.Want) && r.Exit == o.Want.Exit && r.Signal == o.Want.Signal) {
		return dd.Unresolved, "crashed: " + FailureLine(r), nil
	}
	if p, w := r.Paired, o.Want.Paired; p != nil && w != nil && Crashed(*p) && !(Crashed(*w) && p.Exit == w.Exit && p.Signal == w.Signal) {
		return dd.Unresolved, o.pairedName() + " crashed: " + FailureLine(*p), nil
	}
	return dd.Pass, o.difference(r), nil
}

// Key identifies the observation and the reference output.
func (o *OutputOracle) Key() string {
	if o.Pass != nil {
		return fmt.Sprintf("output %s %x pass %x", o.Observe, o.observed(o.Want), o.observed(*o.Pass))
	}
	return fmt.Sprintf("output %s %x", o.Observe, o.observed(o.Want))
}

// pairedName is how the paired run is named (PairedName).
func (o *OutputOracle) pairedName() string {
	if o.PairedName == "" {
		return "the paired run"
	}
	return o.PairedName
}

// Same says whether two runs are the same as far as the oracle observes
// them.
func (o *OutputOracle) Same(a, b Run) bool { return bytes.Equal(o.observed(a), o.observed(b)) }

// Crashed reports whether a run ended by a signal or a Go runtime crash
// (a panic or a fatal error reported on standard error, exit status 2),
// or by a wynot trace runtime error (status 125).
func Crashed(r Run) bool {
	if r.Signal != 0 || r.Exit == 125 {
		return true
	}
	return r.Exit == 2 && reGoPanic.Match(r.Stderr)
}

// observed is what of r is compared: with the paired run's after it
// (Command.Paired).
func (o *OutputOracle) observed(r Run) []byte {
	b := o.observedOne(r)
	if r.Paired != nil {
		b = append(append(b, "\x00paired\x00"...), o.observedOne(*r.Paired)...)
	}
	return b
}

// observedOne is what of one run is compared.
func (o *OutputOracle) observedOne(r Run) []byte {
	var b bytes.Buffer
	if o.Observe.Lines != nil {
		for _, out := range [][]byte{r.Stdout, r.Stderr} {
			for _, l := range bytes.SplitAfter(out, []byte("\n")) {
				if o.Observe.Lines.Match(l) {
					b.Write(l)
				}
			}
			b.WriteByte(0)
		}
		return b.Bytes()
	}
	if o.Observe.Stdout {
		b.Write(r.Stdout)
	}
	b.WriteByte(0)
	if o.Observe.Stderr {
		b.Write(stableTraceback(r.Stderr))
	}
	b.WriteByte(0)
	if o.Observe.Exit {
		fmt.Fprintf(&b, "%d %d", r.Exit, r.Signal)
	}
	return b.Bytes()
}

// reTraceback finds where a Go crash report's traceback begins: the
// signal line or the first goroutine header.
var reTraceback = regexp.MustCompile(`(?m)^(\[signal |goroutine \d+ \[)`)

// stableTraceback replaces the hexadecimal numbers of a Go traceback on
// standard error (argument words, addresses, which differ from run to
// run) by "0x?", so that two runs of the same crash compare equal.
func stableTraceback(stderr []byte) []byte {
	loc := reTraceback.FindIndex(stderr)
	if loc == nil {
		return stderr
	}
	out := append([]byte(nil), stderr[:loc[0]]...)
	return append(out, reHex.ReplaceAll(stderr[loc[0]:], []byte("0x?"))...)
}

func (o *OutputOracle) same(r Run) bool { return bytes.Equal(o.observed(r), o.observed(o.Want)) }

// difference says in a few words how r differs from the reference
// (and, when r is the same, how its paired run differs from the
// reference's).
func (o *OutputOracle) difference(r Run) string {
	if r.Paired != nil && o.Want.Paired != nil && bytes.Equal(o.observedOne(r), o.observedOne(o.Want)) {
		p := OutputOracle{Observe: o.Observe, Want: *o.Want.Paired}
		return o.pairedName() + ": " + p.difference(*r.Paired)
	}
	if o.Observe.Exit && (r.Exit != o.Want.Exit || r.Signal != o.Want.Signal) {
		return fmt.Sprintf("%s instead of %s", r.Describe(), o.Want.Describe())
	}
	if o.Observe.Lines != nil {
		return "other lines matching " + o.Observe.Lines.String()
	}
	for _, p := range []struct {
		on        bool
		name      string
		got, want []byte
	}{{o.Observe.Stdout, "stdout", r.Stdout, o.Want.Stdout}, {o.Observe.Stderr, "stderr", r.Stderr, o.Want.Stderr}} {
		if !p.on || bytes.Equal(p.got, p.want) {
			continue
		}
		gl, wl := bytes.Split(p.got, []byte("\n")), bytes.Split(p.want, []byte("\n"))
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w []byte
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if !bytes.Equal(g, w) {
				return fmt.Sprintf("%s line %d: %q instead of %q", p.name, i+1, clip(g), clip(w))
			}
		}
	}
	return "other output"
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
