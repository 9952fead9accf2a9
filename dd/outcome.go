package dd

import "fmt"

// Outcome is the result of a test (TSE 2002 Def. 3, after POSIX 1003.3):
// the failure did not occur, it occurred, or the test could not tell.
type Outcome int8

// The three outcomes. The zero value is Unresolved, so a test that returns
// nothing in particular claims nothing.
const (
	Unresolved Outcome = iota // the test produced indeterminate results (?)
	Pass                      // the failure did not occur (✓)
	Fail                      // the failure the test looks for occurred (✗)
)

// String returns the outcome as the Debugging Book's logs print it: PASS, FAIL or UNRESOLVED.
func (o Outcome) String() string {
	switch o {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	case Unresolved:
		return "UNRESOLVED"
	}
	return fmt.Sprintf("Outcome(%d)", int8(o))
}

// Symbol returns the outcome as the papers' tables draw it: ✓, ✗ or ?.
func (o Outcome) Symbol() string {
	switch o {
	case Pass:
		return "✓"
	case Fail:
		return "✗"
	}
	return "?"
}
