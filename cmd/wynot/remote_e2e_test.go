package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/reapitest"
)

// wynot reduce and wynot changes with --exec reapi:// give the results
// they give locally; a second run is answered by the service's action
// cache, failing outcomes included.
//
// The first two runs test two candidates at a time: which speculative
// candidates start, and which of them end before they are cancelled, is
// up to the scheduler, and so is what the action cache holds afterwards
// besides the outcomes the search needed. The second remote run is
// therefore sequential (-j 1): it tests exactly the candidates the
// search needs, the same ones as the first remote run (the same
// outcomes give the same sequence of tests), whose outcomes the service
// cached, so the runs the service makes are exactly the fresh ones (the
// original's and the confirmations, salted) and the action cache answers
// every other. The timeout is part of an action: it is given, since one
// calibrated from the original's duration differs between runs on a
// busy machine, and so would every action.
func TestRemoteSameResults(t *testing.T) {
	e2e(t)
	t.Parallel()
	srv, err := reapitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	target := "reapi://" + srv.Addr
	var results []string
	for i, run := range []struct {
		remote bool
		jobs   string
	}{{false, "2"}, {true, "2"}, {true, "1"}} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "t16"), fuzz(3, 3000, true))
		args := []string{"reduce", "--json", "-j", run.jobs, "--timeout", "1m", "t16", "--", prog("crtplot"), "{}"}
		if run.remote {
			args = withExec(args, target)
		}
		executed, hits := srv.Idle()
		r := wynotRun(t, dir, nil, args...)
		if r.code != 0 {
			t.Fatalf("remote %v -j %s: exit %d:\n%s", run.remote, run.jobs, r.code, r.stderr)
		}
		s := r.summary(t)
		results = append(results, fmt.Sprintf("%q minimal=%v confirmed=%v signature=%q", read(t, filepath.Join(dir, "t16")), s.Minimal, s.Confirmed, s.Signature))
		if !run.remote {
			continue
		}
		e, h := srv.Idle()
		executed, hits = e-executed, h-hits
		t.Logf("-j %s: %d tests (%d checks), %d actions run by the service, %d answered by its action cache", run.jobs, s.Tests, s.Checks, executed, hits)
		if !strings.Contains(r.stderr, "tests run on the remote execution service at "+srv.Addr) {
			t.Errorf("the run does not say where tests run:\n%s", r.stderr)
		}
		if i == 2 && (executed != s.Checks || hits != s.Tests-s.Checks) {
			t.Errorf("the second remote run made %d tests (%d of them checks of the original and the result): the service ran %d actions and answered %d from its action cache, want %d and %d",
				s.Tests, s.Checks, executed, hits, s.Checks, s.Tests-s.Checks)
		}
	}
	if results[0] != results[1] || results[1] != results[2] {
		t.Errorf("local %s\nremote %s\nagain %s", results[0], results[1], results[2])
	}

	sameChanges(t, target)
}

// sameChanges runs wynot changes on the two-change tree locally and
// under --exec target: both find the two changes, the same patch, and
// the remote result is confirmed.
func sameChanges(t *testing.T, target string) {
	t.Helper()
	dir, args := twoChanges(t)
	local, remote := wynotRun(t, dir, nil, args...), wynotRun(t, dir, nil, withExec(args, target)...)
	if local.code != 0 || remote.code != 0 {
		t.Fatalf("exit %d, %d:\n%s\n%s", local.code, remote.code, local.stderr, remote.stderr)
	}
	l, r := local.summary(t), remote.summary(t)
	if strings.Join(l.Hunks, " ") != "d0/a.conf:5+1 d2/b.conf:2+1" || strings.Join(l.Hunks, " ") != strings.Join(r.Hunks, " ") || l.Diff != r.Diff || !r.Confirmed {
		t.Errorf("changes: local %v, remote %v (confirmed %v)\n%s", l.Hunks, r.Hunks, r.Confirmed, remote.stderr)
	}
}

// A service that does not answer is said before anything runs, and the
// input is left alone.
func TestRemoteUnreachable(t *testing.T) {
	e2e(t)
	t.Parallel()
	addr, release, err := reapitest.Unreachable()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in.txt"), []byte("x\n"))
	// Every scheme the manual names is taken (reapis:// and grpcs://
	// over TLS), and the service found missing.
	for _, scheme := range []string{"reapi", "reapis", "grpc", "grpcs"} {
		r := wynotRun(t, dir, nil, "reduce", "--exec", scheme+"://"+addr, "in.txt", "--", "grep", "x", "{}")
		if r.code != 1 || !strings.Contains(r.stderr, "cannot reach the remote execution service at "+addr) {
			t.Errorf("%s: exit %d:\n%s", scheme, r.code, r.stderr)
		}
	}
	if got := string(read(t, filepath.Join(dir, "in.txt"))); got != "x\n" {
		t.Errorf("the input changed: %q", got)
	}
}

// A test that needs a variable of wynot's environment does not get it
// remotely: the original is not reproduced, and the message says how to
// pass it (--remote-env), which then makes the run work.
func TestRemoteEnvNeeded(t *testing.T) {
	e2e(t)
	t.Parallel()
	srv, err := reapitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in.txt"), []byte("a\nBUG\nb\n"))
	env := []string{"WYNOT_E2E_NEEDED=BUG"}
	args := []string{"reduce", "--exec", "reapi://" + srv.Addr, "in.txt", "--", "sh", "-c", `test -z "$WYNOT_E2E_NEEDED" || ! grep -q "$WYNOT_E2E_NEEDED" "$1"`, "sh", "{}"}
	r := wynotRun(t, dir, env, args...)
	if r.code == 0 || !strings.Contains(r.stderr, "--remote-env KEY") {
		t.Errorf("without --remote-env: exit %d:\n%s", r.code, r.stderr)
	}
	r = wynotRun(t, dir, env, append([]string{args[0], "--remote-env", "WYNOT_E2E_NEEDED"}, args[1:]...)...)
	if got := string(read(t, filepath.Join(dir, "in.txt"))); r.code != 0 || got != "BUG" && got != "BUG\n" {
		t.Errorf("with --remote-env: exit %d, result %q:\n%s", r.code, read(t, filepath.Join(dir, "in.txt")), r.stderr)
	}

	// A test that fails without the variable whatever its input (as go
	// vet does without HOME: "GOCACHE is not defined"): the original
	// fails remotely, and so does the empty input; the refusal says
	// where the test ran and how to pass the variable.
	write(t, filepath.Join(dir, "in.txt"), []byte("a\nBUG\nb\n"))
	args = []string{"reduce", "--exec", "reapi://" + srv.Addr, "in.txt", "--", "sh", "-c", `test -n "$WYNOT_E2E_NEEDED" || { echo "WYNOT_E2E_NEEDED is not defined" >&2; exit 1; }; ! grep -q BUG "$1"`, "sh", "{}"}
	r = wynotRun(t, dir, env, args...)
	if r.code != 4 || !strings.Contains(r.stderr, "on the remote execution service at "+srv.Addr+", in a worker's directory") ||
		!strings.Contains(r.stderr, "--remote-env KEY") || strings.Contains(r.stderr, "private work directory") {
		t.Errorf("always failing without --remote-env: exit %d:\n%s", r.code, r.stderr)
	}
	r = wynotRun(t, dir, env, append([]string{args[0], "--remote-env", "WYNOT_E2E_NEEDED"}, args[1:]...)...)
	if got := string(read(t, filepath.Join(dir, "in.txt"))); r.code != 0 || got != "BUG" && got != "BUG\n" {
		t.Errorf("always failing, with --remote-env: exit %d, result %q:\n%s", r.code, got, r.stderr)
	}
}

// Against a real service (WYNOT_REAPI_TEST=HOST:PORT[/INSTANCE], as CI
// starts Buildbarn): reduce with the default calibrated timeout, a test
// of 150 ms, gives the local result; a second identical run gives it
// again and is answered by the action cache, all but the checks of the
// original and of the result; wynot changes gives the local changes.
func TestRemoteRealServiceSameResults(t *testing.T) {
	e2e(t)
	target := os.Getenv("WYNOT_REAPI_TEST")
	_ = os.Getenv("WYNOT_REAPI_STARTED") // go test's cache keys on the service started
	if target == "" {
		t.Skip("set WYNOT_REAPI_TEST=HOST:PORT[/INSTANCE] to run against a real remote execution service")
	}
	target = "reapi://" + target
	// A command of its own, so that no earlier run against the same
	// service answers the first run here.
	script := fmt.Sprintf(`: %d; sleep 0.15; exec "$0" "$1"`, time.Now().UnixNano())
	answered := regexp.MustCompile(`(\d+) of (\d+) runs on \S+ were answered by its action cache`)
	var results []string
	for i, remote := range []bool{false, true, true} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "t16"), fuzz(3, 3000, true))
		args := []string{"reduce", "--json", "-j", "2", "t16", "--", "sh", "-c", script, prog("crtplot"), "{}"}
		if remote {
			args = withExec(args, target)
		}
		r := wynotRun(t, dir, nil, args...)
		if r.code != 0 {
			t.Fatalf("remote %v: exit %d:\n%s", remote, r.code, r.stderr)
		}
		s := r.summary(t)
		results = append(results, fmt.Sprintf("%q minimal=%v confirmed=%v signature=%q", read(t, filepath.Join(dir, "t16")), s.Minimal, s.Confirmed, s.Signature))
		if !remote {
			continue
		}
		m := answered.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("no line on the action cache:\n%s", r.stderr)
		}
		hits, n := atoi(t, m[1]), atoi(t, m[2])
		t.Logf("run %d: %d tests, %d checks, %d of %d remote tests answered by the action cache", i, s.Tests, s.Checks, hits, n)
		if i == 2 && (hits == 0 || hits < n-s.Checks) {
			t.Errorf("the second remote run: %d of %d answered by the action cache, want all but its %d checks", hits, n, s.Checks)
		}
	}
	if results[0] != results[1] || results[1] != results[2] {
		t.Errorf("local %s\nremote %s\nagain %s", results[0], results[1], results[2])
	}

	sameChanges(t, target)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// syncBuffer is a buffer one process writes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// running is wynot started in the background, its standard error read
// while it runs.
type running struct {
	t      *testing.T
	stdout bytes.Buffer
	stderr syncBuffer
	exited chan error
	err    error
	ended  bool
}

// startWynot starts wynot in dir with args, to be killed after 10
// minutes.
func startWynot(t *testing.T, dir string, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, wynotBin, args...)
	cmd.Dir = dir
	r := &running{t: t, exited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exited <- cmd.Wait() }()
	return r
}

// await waits until cond holds while wynot runs; wynot ending first
// fails the test.
func (r *running) await(what string, cond func() bool) {
	r.t.Helper()
	for !cond() {
		select {
		case r.err = <-r.exited:
			r.ended = true
			r.t.Fatalf("wynot ended before %s; it said:\n%s", what, &r.stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// said reports whether wynot has written s to its standard error.
func (r *running) said(s string) func() bool {
	return func() bool { return strings.Contains(r.stderr.String(), s) }
}

// wait waits for wynot to end and returns what it did.
func (r *running) wait() result {
	r.t.Helper()
	if !r.ended {
		r.err, r.ended = <-r.exited, true
	}
	res := result{stdout: r.stdout.String(), stderr: r.stderr.String()}
	if ee, ok := r.err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if r.err != nil {
		r.t.Fatal(r.err)
	}
	return res
}

// wynotSaid is what wynot said, without the test log.
func wynotSaid(stderr string) string {
	return strings.Join(regexp.MustCompile(`(?m)^wynot: .*$`).FindAllString(stderr, -1), "\n")
}

// A service whose workers are all gone keeps wynot's actions queued:
// wynot says so, and says when they execute again. Workers back within
// --remote-queue-timeout, the result is the local one, and no test was
// made UNRESOLVED by its wait in the queue; never back, wynot gives up
// after it with a message naming the service and the flag, and keeps
// its best result.
func TestRemoteQueued(t *testing.T) {
	e2e(t)
	t.Parallel()
	input := fuzz(3, 3000, true)
	// run reduces input locally, or on a new test service whose workers
	// go once it has executed three actions; back says whether they come
	// back once wynot has said that tests are queued.
	run := func(remote, back bool, queue string) (result, summary, string) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "t16"), input)
		args := []string{"reduce", "--json", "-v", "-j", "2", "--timeout", "1m", "t16", "--", prog("crtplot"), "{}"}
		var srv *reapitest.Server
		if remote {
			var err error
			if srv, err = reapitest.Start(); err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			defer srv.Release()
			args = withExec(append([]string{args[0], "--remote-queue-timeout", queue}, args[1:]...), "reapi://"+srv.Addr)
		}
		w := startWynot(t, dir, args...)
		if remote {
			w.await("three tests", func() bool { ran, _ := srv.Counts(); return ran >= 3 })
			srv.Hold()
			w.await("a test queued", func() bool { return srv.Queued() > 0 })
			w.await("wynot to say so", w.said("queued for"))
			if back {
				srv.Release()
			}
		}
		r := w.wait()
		var s summary
		if r.code == 0 {
			s = r.summary(t)
		}
		if remote {
			ran, hits := srv.Counts()
			t.Logf("remote, workers back %v: exit %d, %d actions executed, %d answered by the action cache", back, r.code, ran, hits)
		}
		return r, s, string(read(t, filepath.Join(dir, "t16")))
	}

	local, ls, lres := run(false, false, "")
	if local.code != 0 {
		t.Fatalf("local: exit %d:\n%s", local.code, local.stderr)
	}
	back, bs, bres := run(true, true, "1m")
	t.Logf("workers back:\n%s", wynotSaid(back.stderr))
	if back.code != 0 || bres != lres || bs.Minimal != ls.Minimal || !bs.Minimal || bs.Outcomes.Unresolved != 0 || strings.Contains(back.stderr, "UNRESOLVED") {
		t.Errorf("workers back: exit %d, %q (minimal %v, %d unresolved), local %q (minimal %v):\n%s", back.code, bres, bs.Minimal, bs.Outcomes.Unresolved, lres, ls.Minimal, back.stderr)
	}
	for _, want := range []string{"queued for", "(is a worker down?); wynot waits up to 1 min (--remote-queue-timeout)",
		"remote tests execute again at "} {
		if !strings.Contains(back.stderr, want) {
			t.Errorf("workers back: wynot did not say %q:\n%s", want, back.stderr)
		}
	}

	gone, _, gres := run(true, false, "3s")
	if gone.code != 1 || !regexp.MustCompile(`no worker of 127\.0\.0\.1:\d+ has executed a remote test for [0-9.]+ s: \d remote tests? stayed queued`).MatchString(gone.stderr) ||
		!strings.Contains(gone.stderr, "--remote-queue-timeout waits longer; the smallest failing input so far is kept") {
		t.Errorf("workers gone: exit %d:\n%s", gone.code, gone.stderr)
	}
	if len(gres) > len(input) || !strings.Contains(gres, "f") {
		t.Errorf("workers gone: kept %d bytes of %d, %q", len(gres), len(input), gres)
	}
	t.Logf("workers gone: %d bytes of %d kept:\n%s", len(gres), len(input), wynotSaid(gone.stderr))
}

// TestRemoteQueuedOriginal: without --timeout, wynot says after 10 s
// that a slow original may hang; an original that waits in the remote
// queue for longer has not run at all, and wynot says that it is
// queued, not that it is still running.
func TestRemoteQueuedOriginal(t *testing.T) {
	e2e(t)
	t.Parallel()
	srv, err := reapitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	defer srv.Release()
	srv.Hold()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in.txt"), []byte("a b c\n"))
	// Said after 12 s (a tenth of the queue timeout), past the 10 s after
	// which a running original is said to be still running.
	args := withExec([]string{"reduce", "--remote-queue-timeout", "2m", "in.txt", "--", "sh", "-c", `grep -q b "$1" && exit 1; exit 0`, "sh", "{}"}, "reapi://"+srv.Addr)
	w := startWynot(t, dir, args...)
	w.await("wynot to say the original is queued", w.said("queued for"))
	srv.Release()
	r := w.wait()
	if r.code != 0 || strings.Contains(r.stderr, "still running") {
		t.Errorf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(dir, "in.txt"))); got != "b" {
		t.Errorf("result %q, want %q", got, "b")
	}
}

// Against a real service whose worker can be stopped and started
// (WYNOT_REAPI_WORKER stop|start, as CI's .ci/buildbarn-worker does for
// its Buildbarn): the worker killed during a reduction and started again
// once wynot has said that no worker executes its tests gives the local
// result, with no test UNRESOLVED, and wynot says that tests execute
// again; killed for good, wynot gives up after --remote-queue-timeout
// and keeps its best result.
func TestRemoteRealServiceWorkerLost(t *testing.T) {
	e2e(t)
	target := os.Getenv("WYNOT_REAPI_TEST")
	_ = os.Getenv("WYNOT_REAPI_STARTED") // go test's cache keys on the service started
	worker := os.Getenv("WYNOT_REAPI_WORKER")
	if target == "" || worker == "" {
		t.Skip("set WYNOT_REAPI_TEST=HOST:PORT[/INSTANCE] and WYNOT_REAPI_WORKER to a command that stops and starts its worker (stop|start) to run against a real service that loses its worker")
	}
	control := func(what string) {
		t.Helper()
		if out, err := exec.Command(worker, what).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", worker, what, err, out)
		}
	}
	defer control("start")
	// A line the test fails on while it holds k and Q; a command of its
	// own, so that no earlier run answers from the action cache.
	line := "v jARde2JgyMd8HocfCBeqfKCd2Lh pPPM dLkMAdpcK4itBjJhLuK2TmgMLPnygKVeLdOoGTJCZvEM9Eyuq0mUZqfLQuIG6wWDtNehHBlYwj9GBcSeYKL062v\n"
	script := fmt.Sprintf(`: %d; sleep 0.15; grep -q k "$1" && grep -q Q "$1" && exit 1; exit 0`, time.Now().UnixNano())
	run := func(remote bool, queue string, lost func(w *running)) (result, summary, string) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "in.txt"), []byte(line))
		args := []string{"reduce", "--json", "-v", "-j", "2", "--split", "bytes", "in.txt", "--", "sh", "-c", script, "sh", "{}"}
		if remote {
			args = withExec(append([]string{args[0], "--remote-queue-timeout", queue}, args[1:]...), "reapi://"+target)
		}
		w := startWynot(t, dir, args...)
		if lost != nil {
			w.await("four tests", w.said("Test #4 "))
			control("stop")
			lost(w)
		}
		r := w.wait()
		var s summary
		if r.code == 0 {
			s = r.summary(t)
		}
		return r, s, string(read(t, filepath.Join(dir, "in.txt")))
	}
	local, ls, lres := run(false, "", nil)
	if local.code != 0 {
		t.Fatalf("local: exit %d:\n%s", local.code, local.stderr)
	}
	back, bs, bres := run(true, "10m", func(w *running) {
		w.await("wynot to say that no worker executes the tests", w.said("(is a worker down?)"))
		control("start")
	})
	t.Logf("worker back:\n%s", wynotSaid(back.stderr))
	if back.code != 0 || bres != lres || !bs.Minimal || bs.Outcomes.Unresolved != 0 || !strings.Contains(back.stderr, "remote tests execute again at "+target) {
		t.Errorf("worker back: exit %d, %q (minimal %v, %d unresolved), local %q (minimal %v):\n%s", back.code, bres, bs.Minimal, bs.Outcomes.Unresolved, lres, ls.Minimal, back.stderr)
	}
	gone, _, gres := run(true, "30s", func(*running) {})
	control("start")
	t.Logf("worker gone:\n%s", wynotSaid(gone.stderr))
	if gone.code != 1 || !strings.Contains(gone.stderr, "no worker of "+target+" has executed a remote test for ") ||
		!strings.Contains(gone.stderr, "--remote-queue-timeout waits longer; the smallest failing input so far is kept") ||
		!strings.Contains(gres, "k") || !strings.Contains(gres, "Q") {
		t.Errorf("worker gone: exit %d, kept %q:\n%s", gone.code, gres, gone.stderr)
	}
}
