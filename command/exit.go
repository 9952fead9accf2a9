package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/wynot/wynot/dd"
)

// Exit statuses of wynot, the same for every command.
const (
	ExitOK            = 0
	ExitInput         = 1   // a usage or input error
	ExitNotReproduced = 2   // the failure did not reproduce (or the passing side did not pass)
	ExitUnverified    = 3   // the search ended, but its result is not certified: it did not fail again, a removal still fails, or a flaky test could not be decided
	ExitInterrupted   = 130 // interrupted; the best result so far is kept
)

// ExitError is an error with the exit status it calls for.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// InputError is a usage or input error (exit status 1).
func InputError(format string, args ...any) error {
	return &ExitError{ExitInput, fmt.Errorf(format, args...)}
}

// NotReproduced says the failure did not reproduce, or the passing side
// did not pass (exit status 2).
func NotReproduced(format string, args ...any) error {
	return &ExitError{ExitNotReproduced, fmt.Errorf(format, args...)}
}

// Unreproduced is the error to end with when a search's failing (or
// passing) end gave another outcome when run again (dd.NotFailingError,
// dd.NotPassingError): NotReproduced, naming that end as failing and
// passing say ("the input", "the tree"). It is nil for other errors.
func Unreproduced(err error, failing, passing string) error {
	var nf *dd.NotFailingError
	var np *dd.NotPassingError
	switch {
	case errors.As(err, &nf):
		return NotReproduced("%s that failed before does not fail any more (%s); the test is flaky: try --repeat 3", failing, nf.Outcome)
	case errors.As(err, &np):
		return NotReproduced("%s that passed before does not pass any more (%s); the test is flaky: try --repeat 3", passing, np.Outcome)
	}
	return nil
}

// Unverified says the search ended without a result that failed again
// when run again (exit status 3).
func Unverified(format string, args ...any) error {
	return &ExitError{ExitUnverified, fmt.Errorf(format, args...)}
}

// interruptedError is the error of a run cut short; kept says what is kept
// ("the smallest failing input so far is kept").
func interruptedError(kept string) error {
	msg := "interrupted"
	if kept != "" {
		msg += "; " + kept
	}
	return &ExitError{ExitInterrupted, errors.New(msg)}
}

// interruptedBefore is the error of a run interrupted before its search
// started, while doing what doing says ("running the original input (run
// 1 of 2)"; "" while it prepared the run): no input has been changed yet.
func interruptedBefore(doing string) error {
	if doing == "" {
		doing = "preparing the run"
	}
	return &ExitError{ExitInterrupted, fmt.Errorf("interrupted while %s, before the search started; nothing was changed", doing)}
}

// ExitCode is the exit status err calls for: 0 for nil, the code of an
// *ExitError, 130 for a canceled context, 1 for anything else.
func ExitCode(err error) int {
	var ee *ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.Code
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitInput
}
