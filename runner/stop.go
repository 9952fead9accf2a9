package runner

import (
	"sync"
	"syscall"
	"time"
)

// A test wynot no longer needs (cancelled, timed out, or wynot was
// interrupted) is stopped in steps, so that it gets to clean up (remove
// its temporary files, as a shell's trap, a Python finally or the go
// command on an interrupt do) before its group is killed:
//
//   - SIGINT to its process group, as Ctrl-C in a terminal sends it. It
//     comes first because it is the signal most tests clean up after:
//     the go command (go run, go test) removes its go-build directory on
//     SIGINT but dies at once, leaving it, on SIGTERM; Python runs its
//     finally blocks on SIGINT (KeyboardInterrupt) but not on SIGTERM;
//     a shell runs its traps on either.
//   - SIGTERM to the group after interruptGrace, for what ignores
//     SIGINT (a shell script's background processes do) or handles it
//     without exiting.
//   - SIGKILL to the group after another termGrace: whatever is left.
//
// A test that acts on the signal ends within milliseconds (measured: a
// go run removes its build directory in about 10ms, a bash trap that
// removes a temporary directory in about 5ms), and its work slot is free
// again as soon as it has; only a test that ignores both signals holds
// its slot for the whole grace, 300ms. That is short against a test
// that a reduction waits for (--timeout is at least 100ms, by default
// ten times the original run) and long enough for cleanup that removes
// files rather than doing new work. Once the test's own process has
// exited, its group is killed at once, as after any test, so nothing
// the test started outlives it.
const (
	// interruptGrace is how long a stopped test has to end after SIGINT
	// before it gets SIGTERM.
	interruptGrace = 100 * time.Millisecond
	// termGrace is how long it has after SIGTERM before it is killed.
	termGrace = 200 * time.Millisecond
)

// groupStopper stops a test's process group in steps, and never signals
// the group once the test has been waited for (its id may then name
// another group).
type groupStopper struct {
	mu       sync.Mutex
	pgid     int
	stopping bool
	done     bool
	timers   [2]*time.Timer
}

// stop begins stopping the group; stopping it again does nothing.
func (s *groupStopper) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping || s.done {
		return
	}
	s.stopping = true
	_ = syscall.Kill(-s.pgid, syscall.SIGINT)
	s.timers[0] = time.AfterFunc(interruptGrace, func() { s.signal(syscall.SIGTERM) })
	s.timers[1] = time.AfterFunc(interruptGrace+termGrace, func() { s.signal(syscall.SIGKILL) })
}

// signal sends sig to the group unless the test has been waited for.
func (s *groupStopper) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		_ = syscall.Kill(-s.pgid, sig)
	}
}

// finish says that the test's process has been waited for: the steps
// not taken yet are not taken.
func (s *groupStopper) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	for _, t := range s.timers {
		if t != nil {
			t.Stop()
		}
	}
}
