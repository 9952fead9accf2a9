package remote

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wynot/wynot/runner"
)

// said collects what an executor says.
type said struct {
	mu    sync.Mutex
	lines []string
}

func (s *said) say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

// count returns how many lines hold sub.
func (s *said) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.lines {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

func (s *said) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

// await waits until cond holds, failing the test if it never does
// within a minute (a bound on a hang, not a measurement).
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

// Time in the service's queue is not the test's: a test held queued
// for longer than its timeout and wynot's overtime together, then
// released, gives its real outcome; wynot says that tests are queued,
// and that they execute again. A service that does not enforce the
// timeout has the test ended by wynot once it executes past its timeout
// and the overtime. Queued for good, a test ends with an error naming
// the service and the flag that waits longer.
func TestRemoteQueued(t *testing.T) {
	c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte("x\n")}}}
	cmd := sh("cat in; exit 1")
	cmd.Timeout = 2 * time.Second
	for _, drop := range []bool{false, true} {
		srv := server(t)
		var s said
		e := executor(t, Options{Target: "reapi://" + srv.Addr, QueueTimeout: time.Hour, Say: s.say})
		// Said only after the test was queued longer than its timeout
		// and the overtime together.
		e.overtime, e.noticeAfter = 100*time.Millisecond, 2500*time.Millisecond
		srv.Hold()
		if drop {
			// The stream dropped while the action is queued: wynot waits
			// for it again by name, still queued.
			srv.DropStreams = 1
		}
		type result struct {
			r   runner.Run
			err error
		}
		done := make(chan result, 1)
		var started atomic.Int32
		c := c
		c.Started = func() { started.Add(1) }
		go func() {
			r, err := tester(t, cmd, e).Exec(context.Background(), c)
			done <- result{r, err}
		}()
		await(t, "the action queued", func() bool { return srv.Queued() == 1 })
		await(t, "wynot to say that tests are queued", func() bool { return s.count("queued") > 0 })
		if n := started.Load(); n != 0 {
			t.Errorf("dropped %v: a queued test was said to have started (%d times)", drop, n)
		}
		srv.Release()
		got := <-done
		if n := started.Load(); n != 1 {
			t.Errorf("dropped %v: the test was said to have started %d times, want once", drop, n)
		}
		if got.err != nil || got.r.TimedOut || got.r.Exit != 1 || string(got.r.Stdout) != "x\n" {
			t.Errorf("dropped %v: queued, then released: %s %q %v, want exit 1 and its output", drop, got.r.Describe(), got.r.Stdout, got.err)
		}
		await(t, "wynot to say that tests execute again", func() bool { return s.count("execute again") > 0 })
		want := "1 remote test queued for "
		if s.count(want) != 1 || s.count("no worker of "+srv.Addr+" is executing it (is a worker down?)") != 1 {
			t.Errorf("dropped %v: said\n%s\nwant once %q", drop, &s, want)
		}
		t.Logf("dropped %v:\n%s", drop, &s)
	}

	// A service that does not enforce the timeout: a test executing past
	// it is ended once another test has executed since it should have
	// ended (the service is at work: its worker is not lost).
	srv := server(t)
	srv.IgnoreTimeouts = true
	var s said
	e := executor(t, Options{Target: "reapi://" + srv.Addr, Say: s.say})
	e.overtime, e.noticeAfter = 100*time.Millisecond, 300*time.Millisecond
	hang := runner.Command{Argv: []string{"sleep", "30"}, Timeout: 200 * time.Millisecond}
	hung := make(chan runner.Run, 1)
	go func() {
		r, err := tester(t, hang, e).Exec(context.Background(), c)
		if err != nil {
			t.Error(err)
		}
		hung <- r
	}()
	await(t, "wynot to say that the test executes past its timeout", func() bool { return s.count("executing past its timeout") > 0 })
	if r, err := tester(t, sh("true"), e).Exec(context.Background(), c); err != nil || r.Exit != 0 {
		t.Fatalf("another test: %s %v", r.Describe(), err)
	}
	if r := <-hung; !r.TimedOut {
		t.Errorf("a service that runs past the timeout: %s, want timed out", r.Describe())
	}

	// Queued for good.
	srv = server(t)
	s = said{}
	e = executor(t, Options{Target: "reapi://" + srv.Addr, QueueTimeout: 2 * time.Second, Say: s.say})
	srv.Hold()
	_, err := tester(t, cmd, e).Exec(context.Background(), c)
	for _, want := range []string{"no worker of " + srv.Addr + " has executed a remote test for ", "1 remote test stayed queued (is a worker down?)", "--remote-queue-timeout"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("queued for good: %v, want %q", err, want)
		}
	}
	if errors.Is(err, runner.ErrStart) || s.count("queued") != 1 {
		t.Errorf("queued for good: %v, said\n%s", err, &s)
	}
	srv.Release()
}

// The watch, at given moments: which tests are ended, what is said.
func TestRemoteWatch(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ago := func(s int) time.Time { return now.Add(-time.Duration(s) * time.Second) }
	type op struct {
		phase   phase
		since   int // seconds ago
		timeout int // seconds
	}
	for _, tc := range []struct {
		name     string
		ops      []op
		progress int // seconds ago, -1 for never
		bound    time.Duration
		say      string // what is said, "" for nothing
		ended    []int  // the ops ended
		cause    string
	}{
		{"queued briefly", []op{{waiting, 5, 1}}, -1, time.Hour, "", nil, ""},
		{"queued", []op{{waiting, 25, 1}, {waiting, 22, 1}}, -1, time.Hour,
			"2 remote tests queued for 25 s: no worker of svc is executing them (is a worker down?); wynot waits up to 60 min (--remote-queue-timeout)", nil, ""},
		{"queued, progress since", []op{{waiting, 25, 1}}, 10, time.Hour, "", nil, ""},
		{"queued behind a test within its timeout", []op{{waiting, 50, 1}, {executing, 40, 60}}, -1, time.Hour, "", nil, ""},
		{"queued behind a test without a timeout", []op{{waiting, 50, 1}, {executing, 40, 0}}, -1, time.Hour, "", nil, ""},
		{"queued behind a test past its timeout", []op{{waiting, 50, 1}, {executing, 40, 10}}, 45, time.Hour,
			"2 remote tests queued or executing past their timeout for 45 s: no worker of svc is executing them (is a worker down?); wynot waits up to 60 min (--remote-queue-timeout)", nil, ""},
		{"executing past its timeout", []op{{executing, 40, 10}}, 45, time.Hour,
			"1 remote test executing past its timeout for 30 s: no worker of svc is executing it (is a worker down?); wynot waits up to 60 min (--remote-queue-timeout)", nil, ""},
		{"executing past its timeout, another within", []op{{executing, 40, 10}, {executing, 5, 10}}, 45, time.Hour, "", nil, ""},
		{"executing past its timeout and overtime, no progress since", []op{{executing, 200, 60}}, 190, time.Hour,
			"1 remote test executing past its timeout for 2 min 20 s: no worker of svc is executing it (is a worker down?); wynot waits up to 60 min (--remote-queue-timeout)", nil, ""},
		{"executing past its timeout, given up", []op{{executing, 100, 10}, {waiting, 30, 10}}, 100, time.Minute,
			"2 remote tests queued or executing past their timeout for 1 min 30 s: no worker of svc is executing them (is a worker down?); wynot waits up to 1 min (--remote-queue-timeout)",
			[]int{0, 1}, "--exec: no worker of svc has executed a remote test for 1 min 30 s: 2 remote tests stayed queued or executing past their timeout (is a worker down?); --remote-queue-timeout waits longer"},
		{"queued without bound", []op{{waiting, 30, 1}}, -1, 0,
			"1 remote test queued for 30 s: no worker of svc is executing it (is a worker down?); wynot waits until one is back", nil, ""},
		{"queued too long", []op{{waiting, 90, 1}, {between, 90, 1}}, 100, time.Minute,
			"1 remote test queued for 1 min 30 s: no worker of svc is executing it (is a worker down?); wynot waits up to 1 min (--remote-queue-timeout)",
			[]int{0}, "--exec: no worker of svc has executed a remote test for 1 min 30 s: 1 remote test stayed queued (is a worker down?); --remote-queue-timeout waits longer"},
		{"executing past its timeout and overtime", []op{{executing, 200, 60}, {asked, 200, 60}, {executing, 100, 60}, {waiting, 200, 60}}, 10, time.Hour,
			"", []int{0, 1}, errOvertime.Error()},
	} {
		e := &Executor{display: "svc", opts: Options{QueueTimeout: tc.bound}, overtime: time.Minute}
		if tc.bound == 0 {
			e.opts.QueueTimeout = -1
		}
		var s said
		e.opts.Say = s.say
		e.watch.ops = map[*tracked]bool{}
		if tc.progress >= 0 {
			e.watch.progress = ago(tc.progress)
		}
		var causes []error
		for i, o := range tc.ops {
			causes = append(causes, nil)
			e.watch.ops[&tracked{phase: o.phase, since: ago(o.since), timeout: time.Duration(o.timeout) * time.Second,
				cancel: func(err error) { causes[i] = err }}] = true
		}
		more, say := e.check(now)
		say()
		if !more || s.String() != tc.say {
			t.Errorf("%s: said %q, want %q", tc.name, &s, tc.say)
		}
		for i, cause := range causes {
			want := ""
			for _, j := range tc.ended {
				if i == j {
					want = tc.cause
				}
			}
			if got := fmt.Sprint(cause); want == "" && cause != nil || want != "" && got != want {
				t.Errorf("%s: op %d ended by %v, want %q", tc.name, i, cause, want)
			}
		}
		// Said once: the same stall is not said again.
		_, say = e.check(now.Add(time.Second))
		say()
		if n := strings.Count(s.String(), "(is a worker down?)"); tc.say != "" && n != 1 {
			t.Errorf("%s: said %d times:\n%s", tc.name, n, &s)
		}
		// Progress ends the stall, and says so if it was said.
		e.ended()
		if again := strings.Contains(s.String(), "remote tests execute again at svc"); again != (tc.say != "") {
			t.Errorf("%s: after progress, said\n%s", tc.name, &s)
		}
	}
}

// A stall goes on when its action, executing past its timeout, fails and
// is queued anew: it is said again, with the time since it began, and
// given up after the queue timeout from its beginning.
func TestRemoteWatchStallGoesOn(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	e := &Executor{display: "svc", opts: Options{QueueTimeout: 2 * time.Minute}, overtime: 2 * time.Minute}
	var s said
	e.opts.Say = s.say
	var cause error
	op := &tracked{phase: executing, since: now.Add(-40 * time.Second), timeout: 10 * time.Second, cancel: func(err error) { cause = err }}
	e.watch.ops = map[*tracked]bool{op: true}
	for _, step := range []struct {
		at   time.Duration // from now
		say  string
		gone bool
	}{
		{0, "1 remote test executing past its timeout for 30 s: no worker of svc is executing it (is a worker down?); wynot waits up to 2 min (--remote-queue-timeout)", false},
		{time.Minute, "1 remote test queued for 1 min 30 s: no worker of svc is executing it (is a worker down?); wynot waits up to 2 min (--remote-queue-timeout)", false},
		{90 * time.Second, "", true},
	} {
		if step.at == time.Minute {
			op.phase, op.since = waiting, now.Add(50*time.Second)
		}
		before := len(s.lines)
		_, say := e.check(now.Add(step.at))
		say()
		if got := strings.Join(s.lines[before:], "\n"); got != step.say {
			t.Errorf("after %s: said %q, want %q", step.at, got, step.say)
		}
		if gone := cause != nil; gone != step.gone || gone && !strings.Contains(cause.Error(), "for 2 min: 1 remote test stayed queued") {
			t.Errorf("after %s: ended by %v", step.at, cause)
		}
	}
}
