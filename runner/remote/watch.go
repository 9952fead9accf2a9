package remote

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
)

// A test's clock starts when its action executes. A service whose
// workers are all gone keeps actions queued (Buildbarn does, and says so
// in each operation's ExecuteOperationMetadata.stage): time in the queue
// is not the test's, so it never makes a test time out. Instead the
// executor watches its operations: when tests stay queued while none
// executes, it says so, says again when they execute, and gives up after
// QueueTimeout.

// QueueTimeout is how long, by default, remote tests may wait in the
// service's queue while none of wynot's executes before wynot gives up:
// long enough for a worker to restart, or for a pool of workers to
// start from none; Options.QueueTimeout changes it.
const QueueTimeout = 10 * time.Minute

// queueNotice is how long tests wait in the queue, none executing,
// before wynot says so (a tenth of the queue timeout when that is
// shorter).
const queueNotice = 20 * time.Second

// overtime is how long past its timeout an executing action may go on
// before wynot ends the test as timed out itself, should the service not
// enforce the action's timeout. The service's own clock (the action's
// timeout, from its execution's start) comes first. An action executing
// past its timeout may also have lost its worker, which the service
// notices after a while (Buildbarn: a minute without news of the
// worker, checked at the latest a minute later) and either runs again
// when the worker is back or fails as UNAVAILABLE, when wynot executes
// the action anew: the margin is longer than that, and it applies only
// while other actions show the service at work (otherwise the test
// waits for a worker, as a queued one does).
const overtime = 5 * time.Minute

// phase is where an operation is, as the executor last heard.
type phase int

const (
	asked     phase = iota // Execute sent, no stage heard (or none reported)
	waiting                // QUEUED or CACHE_CHECK
	executing              // EXECUTING
	between                // between two attempts (backoff)
)

// tracked is one action in flight.
type tracked struct {
	phase   phase
	prev    phase         // the phase before between
	since   time.Time     // when the phase began
	began   time.Time     // when it was last seen begin to execute
	timeout time.Duration // the test's, zero for none
	cancel  context.CancelCauseFunc
	started func() // called once, when first seen executing; nil after
}

// watch is what the executor knows of its actions in flight.
type watch struct {
	mu       sync.Mutex
	ops      map[*tracked]bool
	progress time.Time // when an action last began to execute or ended
	stalled  time.Time // when the stall said began; zero when none was said
	saidN    int       // how many tests were said waiting
	saidWhat string    // and how
	ticking  bool
}

// errOvertime ends a test whose action executed past its timeout by
// more than overtime.
var errOvertime = errors.New("the action executed past its timeout")

// queueTimeout is the bound on a stall, zero for none.
func (e *Executor) queueTimeout() time.Duration {
	switch t := e.opts.QueueTimeout; {
	case t < 0:
		return 0
	case t == 0:
		return QueueTimeout
	default:
		return t
	}
}

// notice is how long a stall lasts before it is said.
func (e *Executor) notice() time.Duration {
	if e.noticeAfter > 0 {
		return e.noticeAfter
	}
	if b := e.queueTimeout(); b > 0 {
		return min(queueNotice, b/10)
	}
	return queueNotice
}

// track starts following an action; cancel ends its calls with a cause;
// started, if set, is called the first time it executes.
func (e *Executor) track(timeout time.Duration, cancel context.CancelCauseFunc, started func()) *tracked {
	w := &e.watch
	t := &tracked{phase: asked, since: time.Now(), timeout: timeout, cancel: cancel, started: started}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ops == nil {
		w.ops = map[*tracked]bool{}
	}
	w.ops[t] = true
	if !w.ticking {
		w.ticking = true
		go e.tick()
	}
	return t
}

// untrack stops following an action.
func (e *Executor) untrack(t *tracked) {
	e.watch.mu.Lock()
	defer e.watch.mu.Unlock()
	delete(e.watch.ops, t)
}

// phaseOf reads an operation's stage from its metadata; ok is false
// when it has none.
func phaseOf(md *repb.ExecuteOperationMetadata) (p phase, ok bool) {
	switch md.GetStage() {
	case repb.ExecutionStage_CACHE_CHECK, repb.ExecutionStage_QUEUED:
		return waiting, true
	case repb.ExecutionStage_EXECUTING:
		return executing, true
	}
	return 0, false
}

// enter records that t is now in phase p. An operation waited for
// again (after a dropped stream) in the phase it was in keeps its
// clock: queued or executing since it was first seen so.
func (e *Executor) enter(t *tracked, p phase) {
	if t == nil {
		return
	}
	w := &e.watch
	w.mu.Lock()
	switch {
	case t.phase == p:
		w.mu.Unlock()
		return
	case p == between:
		t.prev, t.phase = t.phase, p
		w.mu.Unlock()
		return
	case t.phase == between && p == t.prev && p != asked:
		t.phase = p
		w.mu.Unlock()
		return
	}
	now := time.Now()
	t.phase, t.since = p, now
	if p != executing {
		w.mu.Unlock()
		return
	}
	t.began = now
	say := e.progressLocked(now)
	w.mu.Unlock()
	say()
	e.start(t)
}

// start calls t's started, if it has not been called.
func (e *Executor) start(t *tracked) {
	e.watch.mu.Lock()
	started := t.started
	t.started = nil
	e.watch.mu.Unlock()
	if started != nil {
		started()
	}
}

// ended records that an action ended with a result.
func (e *Executor) ended() {
	w := &e.watch
	w.mu.Lock()
	say := e.progressLocked(time.Now())
	w.mu.Unlock()
	say()
}

// progressLocked records that the service executes actions again; it
// returns what to say once the lock is released.
func (e *Executor) progressLocked(now time.Time) func() {
	w := &e.watch
	w.progress = now
	if w.stalled.IsZero() {
		return func() {}
	}
	d := now.Sub(w.stalled)
	w.stalled, w.saidN, w.saidWhat = time.Time{}, 0, ""
	return func() {
		e.say("remote tests execute again at %s, after %s in which none did", e.display, about(d))
	}
}

func (e *Executor) say(format string, args ...any) {
	e.mu.Lock()
	say := e.opts.Say
	e.mu.Unlock()
	if say != nil {
		say(format, args...)
	}
}

// tick checks the actions in flight while there are any.
func (e *Executor) tick() {
	period := min(time.Second, e.notice()/4)
	tk := time.NewTicker(period)
	defer tk.Stop()
	for now := range tk.C {
		more, say := e.check(now)
		say()
		if !more {
			return
		}
	}
}

// check ends the tests that executed far past their timeouts, says when
// tests stay queued while none executes, and gives up on them after the
// queue timeout. A test executing past its timeout, which the service
// should have ended, waits too: its worker may be gone (Buildbarn keeps
// such an action executing until it notices, after a minute, or the
// worker is back and runs it again). It reports whether any action is
// still in flight, and returns what to say.
func (e *Executor) check(now time.Time) (bool, func()) {
	w := &e.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.ops) == 0 {
		w.ticking = false
		return false, func() {}
	}
	var stalled []*tracked // queued, or executing past the timeout
	queued, busy := 0, false
	var oldest, busyUntil time.Time
	for t := range w.ops {
		var since time.Time
		switch t.phase {
		case waiting:
			queued++
			since = t.since
		case asked, executing:
			// A service that reports no stages shows no stall either.
			if t.timeout > 0 && now.Sub(t.since) > t.timeout+e.overtime &&
				(t.phase == asked || w.progress.After(t.since.Add(t.timeout))) {
				t.cancel(errOvertime)
			}
			switch {
			case t.phase != executing:
				continue
			case t.timeout <= 0:
				// It may execute for ever: the queue may wait for it.
				busy = true
				continue
			case now.Sub(t.since) <= t.timeout:
				if end := t.since.Add(t.timeout); end.After(busyUntil) {
					busyUntil = end
				}
				continue
			}
			since = t.since.Add(t.timeout)
		default:
			continue
		}
		stalled = append(stalled, t)
		if oldest.IsZero() || since.Before(oldest) {
			oldest = since
		}
	}
	if len(stalled) == 0 || busy {
		return true, func() {}
	}
	start := oldest
	for _, t := range []time.Time{w.progress, busyUntil} {
		if t.After(start) {
			start = t
		}
	}
	if !w.stalled.IsZero() && w.stalled.Before(start) {
		// The stall said goes on (an action executing past its timeout
		// failed and was queued anew, say).
		start = w.stalled
	}
	d := now.Sub(start)
	if d < e.notice() {
		return true, func() {}
	}
	n := len(stalled)
	what := "queued"
	if queued < n {
		their := "their"
		if n == 1 {
			their = "its"
		}
		what = "queued or executing past " + their + " timeout"
		if queued == 0 {
			what = "executing past " + their + " timeout"
		}
	}
	bound := e.queueTimeout()
	if bound > 0 && d >= bound {
		err := fmt.Errorf("--exec: no worker of %s has executed a remote test for %s: %s stayed %s (is a worker down?); --remote-queue-timeout waits longer",
			e.display, about(d), tests(n), what)
		for _, t := range stalled {
			t.cancel(err)
		}
	}
	if !w.stalled.IsZero() && n == w.saidN && what == w.saidWhat {
		return true, func() {}
	}
	if w.stalled.IsZero() {
		w.stalled = start
	}
	w.saidN, w.saidWhat = n, what
	limit := "until one is back"
	if bound > 0 {
		limit = "up to " + about(bound) + " (--remote-queue-timeout)"
	}
	return true, func() {
		them := "them"
		if n == 1 {
			them = "it"
		}
		e.say("%s %s for %s: no worker of %s is executing %s (is a worker down?); wynot waits %s", tests(n), what, about(d), e.display, them, limit)
	}
}

// tests says "1 remote test", "2 remote tests".
func tests(n int) string {
	if n == 1 {
		return "1 remote test"
	}
	return fmt.Sprintf("%d remote tests", n)
}

// about says a duration in seconds or minutes: "0.5 s", "20 s",
// "1 min 5 s", "10 min".
func about(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
