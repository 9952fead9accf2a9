package runner

import (
	"fmt"
	"github.com/wynot/wynot/internal/enum"
	"regexp"

	"github.com/wynot/wynot/dd"
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
}

func (o *SignatureOracle) Classify(r Run) (dd.Outcome, string, error) {
	if r.Clean() && o.Want.Ending != "exit status 0" {
		return dd.Pass, "", nil
	}
	s := Extract(r)
	if s.Same(o.Want, o.Precision) {
		return dd.Fail, s.String(), nil
	}
	if r.Clean() {
		return dd.Pass, "", nil
	}
	return dd.Unresolved, s.String(), nil
}

func (o *SignatureOracle) Key() string {
	return fmt.Sprintf("signature %s %q", o.Precision, o.Want)
}

// RegexOracle states the failure explicitly: a run whose output (standard
// output and error) matches Re fails; a clean exit without a match passes;
// anything else is unresolved.
type RegexOracle struct {
	Re *regexp.Regexp
}

func (o *RegexOracle) Classify(r Run) (dd.Outcome, string, error) {
	if m := o.Re.Find(r.Stderr); m != nil {
		return dd.Fail, string(m), nil
	}
	if m := o.Re.Find(r.Stdout); m != nil {
		return dd.Fail, string(m), nil
	}
	if r.Clean() {
		return dd.Pass, "", nil
	}
	return dd.Unresolved, r.Describe(), nil
}

func (o *RegexOracle) Key() string { return "regex " + o.Re.String() }

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
