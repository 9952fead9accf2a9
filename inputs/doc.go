// Package inputs finds failure causes in program inputs: it reduces a
// failing input to a 1-minimal one (wynot reduce), isolates the
// failure-inducing difference between a passing and a failing input
// (wynot isolate) and maximizes a passing part of a failing input (wynot
// maximize). It composes the pieces of wynot: inputs are cut by package
// decomp, searched by package dd, tested by package runner through a
// session, and reported by package report. It starts no process itself.
package inputs

import "github.com/wynot/wynot/internal/session"

// Test says how candidates are tested and what counts as the failure.
type Test = session.Test

// Output says where messages go.
type Output = session.Output

// ExitError is an error with the exit status it calls for.
type ExitError = session.ExitError

// Exit statuses of the commands (DESIGN.md, "Command line").
const (
	ExitOK            = session.ExitOK
	ExitInput         = session.ExitInput
	ExitNotReproduced = session.ExitNotReproduced
	ExitInterrupted   = session.ExitInterrupted
)
