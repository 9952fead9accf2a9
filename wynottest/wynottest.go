// Package wynottest brings delta debugging into Go tests: when a check
// fails on a large input, Minimize reduces the input to a 1-minimal one
// that still fails the same way and reports it in the test log, so that
// the failure report shows what matters instead of kilobytes of noise.
// MinArgs does the same for the arguments of a failing function call
// (the Debugging Book's DeltaDebugger).
//
//	func TestParse(t *testing.T) {
//		input := loadBigInput(t)
//		wynottest.Minimize(t, input, func(b []byte) error {
//			_, err := Parse(b)
//			return err
//		})
//	}
package wynottest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/wynot/wynot"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/runner"
)

// Minimize runs check on input. If check passes (returns nil), Minimize
// does nothing and returns input. If it fails (returns an error or
// panics), Minimize reduces input with ddmin — by lines, then tokens,
// then characters, repeated until nothing more can be removed — to a
// 1-minimal input on which check fails with the same message (numbers
// and addresses may differ), marks the test failed with t.Errorf showing
// the original failure and the minimal input, and returns that input.
// check must be deterministic; it is called many times, one call at a
// time.
func Minimize(t testing.TB, input []byte, check func([]byte) error) []byte {
	t.Helper()
	want, failed := run(check, input)
	if !failed {
		return input
	}
	fails := func(data []byte) bool {
		msg, failed := run(check, data)
		return failed && runner.Normalize(msg) == runner.Normalize(want)
	}
	cur := input
	tests := 1
	minimal := true
	if fails(nil) {
		cur, tests = []byte{}, 2
	}
	if len(cur) > 0 {
		r, err := schedule.Reduce(context.Background(), cur, passes, func(_ context.Context, data []byte) dd.Outcome {
			if fails(data) {
				return dd.Fail
			}
			return dd.Pass
		}, dd.Options{})
		cur, tests = r.Data, tests+r.Tests
		// An error: the input stopped failing, so check is not
		// deterministic.
		minimal = err == nil
	}
	note := "1-minimal: removing any single character makes the failure go away"
	if !minimal {
		note = "not minimal: the check did not fail the same way when run again; is it deterministic?"
	}
	t.Errorf("check fails on the input (%d bytes): %s\nminimal failing input, %d bytes, found in %d tests (%s):\n%s",
		len(input), want, len(cur), tests, note, quote(cur))
	return cur
}

// run calls check, turning a panic into a failure.
func run(check func([]byte) error, data []byte) (msg string, failed bool) {
	defer func() {
		if r := recover(); r != nil {
			msg, failed = fmt.Sprintf("panic: %v", r), true
		}
	}()
	if err := check(data); err != nil {
		return err.Error(), true
	}
	return "", false
}

// passes are the rungs of the text ladder Minimize takes over data:
// lines, tokens, characters (bracket groups, on the inputs of the tests
// here, cost more tests than they save). A pass above characters whose cut is one
// piece is left out: leaving that piece out is the empty input, which
// was tested first.
func passes(data []byte) []decomp.Pass {
	ps := schedule.Ladder{Rungs: schedule.Lines | schedule.Tokens | schedule.Chars}.Passes(data)
	for i := range ps[:len(ps)-1] {
		ps[i] = coarse{ps[i]}
	}
	return ps
}

// coarse is a pass that proposes nothing when its cut is a single piece.
type coarse struct{ decomp.Pass }

func (c coarse) Plan(data []byte) (decomp.Plan, error) {
	p, err := c.Pass.Plan(data)
	if err != nil || p.Len() < 2 {
		return decomp.Pieces{}, nil
	}
	return p, nil
}

// quote shows an input: as text when it is printable UTF-8, else as a
// Go string literal.
func quote(b []byte) string {
	if utf8.Valid(b) {
		ok := true
		for _, r := range string(b) {
			if r < ' ' && r != '\n' && r != '\t' || r == utf8.RuneError {
				ok = false
				break
			}
		}
		if ok && len(b) > 0 {
			return "\t" + indent(string(b))
		}
	}
	return fmt.Sprintf("\t%q", b)
}

func indent(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		out = append(out, s[i])
		if s[i] == '\n' && i+1 < len(s) {
			out = append(out, '\t')
		}
	}
	return string(out)
}

// MinArgs calls fn with args. If the call panics or returns a non-nil
// error as its last result, MinArgs reduces each argument (strings,
// slices, maps; in turns, until none shrinks) to the smallest that still
// fails the same way, marks the test failed with t.Errorf showing the
// reduced call, e.g. `mystery("()")`, and returns the reduced arguments.
// A call that does not fail returns args unchanged.
func MinArgs(t testing.TB, fn any, args ...any) []any {
	t.Helper()
	c, err := wynot.NewCall(fn, args, nil)
	if errors.Is(err, wynot.ErrNotFailing) {
		return args
	}
	if err != nil {
		t.Fatalf("wynottest.MinArgs: %v", err)
		return args
	}
	min, err := c.MinArgs(context.Background())
	if err != nil {
		t.Errorf("%s fails (%s); reducing its arguments failed: %v", c.Format(args), c.Failure(), err)
		return args
	}
	t.Errorf("%s fails: %s\nreduced in %d tests to\n\t%s", c.Format(args), c.Failure(), c.Tests(), c.Format(min))
	return min
}
