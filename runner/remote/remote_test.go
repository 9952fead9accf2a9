package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/reapitest"
	"github.com/wynot/wynot/runner"
)

func server(t *testing.T) *reapitest.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: starts the REAPI test service")
	}
	s, err := reapitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

func executor(t *testing.T, o Options) *Executor {
	t.Helper()
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.Check(context.Background(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return e
}

func sh(script string) runner.Command { return runner.Command{Argv: []string{"sh", "-c", script}} }

// tester tests with e (nil: locally) and a script oracle of the git
// bisect convention (exit status 1 is a failure).
func tester(t *testing.T, c runner.Command, e runner.Executor) *runner.Tester {
	t.Helper()
	tr, err := runner.NewTester(c, &runner.ScriptOracle{Convention: runner.Bisect}, 1, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	tr.Executor = e
	return tr
}

// A test run as a remote action runs as it does locally.
func TestRemoteSameAsLocal(t *testing.T) {
	srv := server(t)
	sameAsLocal(t, executor(t, Options{Target: "reapi://" + srv.Addr}))
}

// sameAsLocal runs tests locally and with e and compares what they did:
// exit statuses, signals, outputs (3 MiB of them too), standard input,
// the environment, a script named by path, a timeout.
func sameAsLocal(t *testing.T, e *Executor) {
	script := filepath.Join(t.TempDir(), "test.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ngrep -c l \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := runner.File{Name: "input.txt", Data: []byte("hello\n")}
	timeout := runner.Command{Argv: []string{"sh", "-c", "echo before; sleep 30"}, Timeout: 300 * time.Millisecond}
	for _, c := range []runner.Command{
		sh("exit 3"), sh("true"), sh("kill -SEGV $$"), sh("kill -ABRT $$"), sh("echo out; echo err >&2; exit 1"),
		{Argv: []string{"cat", "{}"}}, {Argv: []string{"cat"}, Stdin: true}, {Argv: []string{"cat"}},
		{Argv: []string{"sh", "-c", "cat \"$1\"; ls", "sh", "{}"}}, {Argv: []string{script, "{}"}},
		{Argv: []string{"sh", "-c", "echo $WYNOT_X", "sh"}, Env: append(os.Environ(), "WYNOT_X=set")},
		sh(`head -c 3145728 /dev/zero | tr '\0' x; echo; exit 2`), timeout,
	} {
		var runs [2]runner.Run
		for i, ex := range []runner.Executor{nil, e} {
			r, err := tester(t, c, ex).Exec(context.Background(), runner.Candidate{Files: []runner.File{f}})
			if err != nil {
				t.Fatalf("%v: %v", c.Argv, err)
			}
			runs[i] = r
		}
		l, r := runs[0], runs[1]
		// How a test that timed out ended (its exit status, the signal)
		// is how the executor stopped it: locally, it gets to clean up.
		if l.TimedOut != r.TimedOut || r.Lost != "" ||
			!l.TimedOut && (l.Exit != r.Exit || l.Signal != r.Signal || !bytes.Equal(l.Stdout, r.Stdout) || !bytes.Equal(l.Stderr, r.Stderr)) {
			t.Errorf("%q:\nlocal  %s out %.80q err %.80q\nremote %s out %.80q err %.80q", c.Argv,
				l.Describe(), l.Stdout, l.Stderr, r.Describe(), r.Stdout, r.Stderr)
		}
	}
}

// A candidate costs the bytes it changed: the second candidate shares a
// large file with the first, which is not sent again.
func TestRemoteUploadsOnlyMissing(t *testing.T) {
	srv := server(t)
	e := executor(t, Options{Target: "reapi://" + srv.Addr + "/main"})
	big := bytes.Repeat([]byte("a large file that stays the same\n"), 200000) // 6.6 MB: by ByteStream
	tr := tester(t, runner.Command{Argv: []string{"sh", "-c", "wc -c big; cat small"}}, e)
	for i, small := range []string{"one\n", "two\n"} {
		before := e.Stats.BytesUploaded.Load()
		rec, err := tr.Test(context.Background(), runner.Candidate{Files: []runner.File{{Name: "big", Data: big}, {Name: "small", Data: []byte(small)}}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(rec.Run.Stdout), "6600000 big\n"+small) {
			t.Fatalf("output %q", rec.Run.Stdout)
		}
		sent := e.Stats.BytesUploaded.Load() - before
		t.Logf("candidate %d: %d bytes sent", i+1, sent)
		if i == 0 && sent < int64(len(big)) {
			t.Errorf("the first candidate sent %d bytes, less than its large file", sent)
		}
		if i == 1 && sent > 4096 {
			t.Errorf("the second candidate sent %d bytes; only a small file and directory changed", sent)
		}
	}
	if _, ok := srv.Blob(digestOf(big).Hash); !ok {
		t.Error("the large file is not in the storage")
	}
}

// Failing outcomes are cached too (the service caches only exit status
// 0: the remote command records the real status in a file), so another
// run of wynot gets them without running the test. The action cache is
// asked first: a service whose Execute does not look it up (Buildbarn)
// answers as one whose Execute does.
func TestRemoteCachesFailingOutcomes(t *testing.T) {
	for _, inExecute := range []bool{false, true} {
		srv := server(t)
		srv.LookupInExecute = inExecute
		e := executor(t, Options{Target: "reapi://" + srv.Addr})
		c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte("crash\n")}}}
		cmd := runner.Command{Argv: []string{"sh", "-c", "grep -q crash in && exit 1; exit 0"}}
		var recs []runner.Test
		for range 2 {
			rec, err := tester(t, cmd, e).Test(context.Background(), c) // a fresh Tester: no local cache
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		if recs[0].Outcome != dd.Fail || recs[1].Outcome != dd.Fail {
			t.Errorf("lookup in Execute %v: outcomes %s, %s, want FAIL twice", inExecute, recs[0].Outcome, recs[1].Outcome)
		}
		if srv.Executed != 1 || srv.Hits != 1 || e.Stats.CacheHits.Load() != 1 {
			t.Errorf("lookup in Execute %v: executed %d, cache hits %d (client %d); want 1 and 1", inExecute, srv.Executed, srv.Hits, e.Stats.CacheHits.Load())
		}
	}
}

// Outputs and inputs of any size: the service advertises no batch limit
// but refuses batches above its message size (2 MiB, as Buildbarn), or
// above a smaller one; a test printing 3 MiB, and one reading 3 MiB and
// several files that together exceed the limit, run as locally.
func TestRemoteLargeBlobs(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<16) // 3 MiB
	var files []runner.File
	for i := range 4 {
		files = append(files, runner.File{Name: fmt.Sprintf("part%d", i), Data: bytes.Repeat([]byte{'a' + byte(i)}, 700<<10)})
	}
	for _, limit := range []int64{2 << 20, 256 << 10} {
		srv := server(t)
		srv.BatchLimit = limit
		e := executor(t, Options{Target: "reapi://" + srv.Addr})
		for _, tc := range []struct {
			name  string
			cmd   runner.Command
			files []runner.File
		}{
			{"prints 3 MiB", sh(`head -c 3145728 /dev/zero | tr '\0' x; echo; head -c 3000000 /dev/zero | tr '\0' y >&2; exit 1`), nil},
			{"reads 3 MiB", sh(`wc -c big; cksum big`), []runner.File{{Name: "big", Data: big}}},
			{"reads 2.8 MB in 4 files", sh(`cat part* | cksum; cat part3 | head -c 10`), files},
		} {
			var runs [2]runner.Run
			for i, ex := range []runner.Executor{nil, e} {
				r, err := tester(t, tc.cmd, ex).Exec(context.Background(), runner.Candidate{Files: tc.files})
				if err != nil {
					t.Fatalf("limit %d, %s: %v", limit, tc.name, err)
				}
				runs[i] = r
			}
			l, r := runs[0], runs[1]
			if l.Exit != r.Exit || r.Lost != "" || !bytes.Equal(l.Stdout, r.Stdout) || !bytes.Equal(l.Stderr, r.Stderr) || len(r.Stdout) == 0 {
				t.Errorf("limit %d, %s:\nlocal  %s, %d bytes out, %d err\nremote %s, %d bytes out, %d err", limit, tc.name,
					l.Describe(), len(l.Stdout), len(l.Stderr), r.Describe(), len(r.Stdout), len(r.Stderr))
			}
		}
		t.Logf("batch limit %d: %d batches refused", limit, srv.Refused)
		if limit < safeBatch && srv.Refused == 0 {
			t.Errorf("limit %d below the batch size: no batch was refused, the fallback was not tried", limit)
		}
	}
}

// A test that writes to its input: the worker hard-links input files
// from its file cache (Buildbarn; the test service too), and a test
// running as root could change the cached file for every later action.
// Every run reads what a local run reads.
func TestRemoteTestWritesInput(t *testing.T) {
	srv := server(t)
	e := executor(t, Options{Target: "reapi://" + srv.Addr})
	writesInput(t, e, "x\n", 0)
	writesInput(t, e, "x\n", 3) // enough files to be copied at once
}

func writesInput(t *testing.T, e *Executor, data string, more int) {
	c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte(data)}, {Name: "d/in2", Data: []byte("y\n")}}}
	for i := range more {
		c.Files = append(c.Files, runner.File{Name: fmt.Sprintf("d%d/more", i), Data: []byte("z\n")})
	}
	cmd := sh(`echo more >> in && echo more >> d/in2; cat in d/in2`)
	for i := range 3 {
		for _, ex := range []runner.Executor{nil, e} {
			r, err := tester(t, cmd, ex).Exec(context.Background(), c) // fresh runs: each executes
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Stdout) != data+"more\ny\nmore\n" || r.Exit != 0 {
				t.Errorf("run %d, remote %v: %s, out %q err %q", i+1, ex != nil, r.Describe(), r.Stdout, r.Stderr)
			}
		}
	}
}

// The timeout, calibrated anew on every run of wynot, is not part of the
// action cache's key: a test run under one timeout is answered from the
// cache under another, unless it took longer than the new timeout.
func TestRemoteCacheKeyWithoutTimeout(t *testing.T) {
	for _, inExecute := range []bool{false, true} {
		srv := server(t)
		srv.LookupInExecute = inExecute
		e := executor(t, Options{Target: "reapi://" + srv.Addr})
		c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte("x")}}}
		test := func(script string, timeout time.Duration) runner.Run {
			cmd := sh(script)
			cmd.Timeout = timeout
			rec, err := tester(t, cmd, e).Test(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			return rec.Run
		}
		for i, tc := range []struct {
			script   string
			timeout  time.Duration
			executed int
			timedOut bool
		}{
			{"cat in; exit 1", 10 * time.Second, 1, false},
			{"cat in; exit 1", 13 * time.Second, 1, false}, // the cache
			{"cat in; exit 1", 0, 1, false},                // no timeout: the cache too
			{"sleep 0.3", 10 * time.Second, 2, false},
			{"sleep 0.3", 0, 2, false},                     // the cache
			{"sleep 0.3", 100 * time.Millisecond, 3, true}, // it took longer than that: run again
		} {
			r := test(tc.script, tc.timeout)
			if srv.Executed != tc.executed || r.TimedOut != tc.timedOut || !tc.timedOut && r.Describe() != test(tc.script, tc.timeout).Describe() {
				t.Errorf("lookup in Execute %v, run %d (%q, timeout %s): %s, %d actions executed; want %d, timed out %v",
					inExecute, i+1, tc.script, tc.timeout, r.Describe(), srv.Executed, tc.executed, tc.timedOut)
			}
		}
	}
}

// Repeated runs of a test, and runs of the original, carry a fresh salt
// each: none is served from the action cache, so that flakiness shows.
func TestRemoteRepeatRunsAfresh(t *testing.T) {
	srv := server(t)
	e := executor(t, Options{Target: "reapi://" + srv.Addr})
	c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte("x")}}}
	cmd := runner.Command{Argv: []string{"sh", "-c", "exit 1"}}
	if _, err := tester(t, cmd, e).Test(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	tr := tester(t, cmd, e)
	tr.SetRepeat(3)
	rec, err := tr.Test(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Runs != 3 || srv.Executed != 4 || srv.Hits != 0 {
		t.Errorf("runs %d, executed %d, hits %d; want 3 runs, 4 executed, no hits", rec.Runs, srv.Executed, srv.Hits)
	}
	if _, err := tr.Decide(context.Background(), c, 3); err != nil || srv.Executed != 7 {
		t.Errorf("deciding by 3 runs: executed %d, %v", srv.Executed, err)
	}
	// A decision by one run (a recheck) is a fresh run too.
	if _, err := tr.Decide(context.Background(), c, 1); err != nil || srv.Executed != 8 {
		t.Errorf("deciding by 1 run: executed %d, %v", srv.Executed, err)
	}
	// The runs of the original: its duration sets the timeout, and its
	// two runs show whether the failure reproduces.
	for range 2 {
		if _, err := tr.Exec(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	if srv.Executed != 10 || srv.Hits != 0 {
		t.Errorf("two runs of the original: executed %d, hits %d; want 10 and none", srv.Executed, srv.Hits)
	}
}

// The action's timeout is the test's; a test that exceeds it timed out,
// also when the service says so only by killing it (Buildbarn's runner
// may answer exit code -1 and status OK). A test killed before its
// timeout did not time out.
func TestRemoteTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		kill     bool
		argv     []string
		timedOut bool
	}{
		{"status DEADLINE_EXCEEDED", false, []string{"sleep", "30"}, true},
		{"killed, status OK", true, []string{"sleep", "30"}, true},
		{"killed before its timeout", true, []string{"sh", "-c", "kill -9 $PPID $$"}, false},
	} {
		srv := server(t)
		srv.KillWithoutStatus = tc.kill
		e := executor(t, Options{Target: "reapi://" + srv.Addr})
		cmd := runner.Command{Argv: tc.argv, Timeout: 500 * time.Millisecond}
		r, err := tester(t, cmd, e).Exec(context.Background(), runner.Candidate{})
		if err != nil || r.TimedOut != tc.timedOut || tc.timedOut && r.Lost != "" {
			t.Errorf("%s: run %+v, %v; want timed out %v", tc.name, r, err, tc.timedOut)
		}
	}
}

// Blobs the storage evicted after they were found are sent again.
func TestRemoteEvictedBlobs(t *testing.T) {
	srv := server(t)
	e := executor(t, Options{Target: "reapi://" + srv.Addr})
	c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte("x")}}}
	tr := tester(t, runner.Command{Argv: []string{"cat", "{}"}}, e)
	if _, err := tr.Exec(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	srv.Forget()
	// Found missing, uploaded, then forgotten again before Execute:
	// simulate by asking the executor to run what it believes present.
	r, err := tr.Exec(context.Background(), c)
	if err != nil || string(r.Stdout) != "x" {
		t.Errorf("after eviction: %q %v", r.Stdout, err)
	}
}

// Headers and credentials go with every call.
func TestRemoteHeadersAndCredentials(t *testing.T) {
	srv := server(t)
	srv.Header = "x-api-key=secret"
	e, err := New(Options{Target: "reapi://" + srv.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.Check(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "--remote-header") {
		t.Errorf("without the header: %v", err)
	}
	cred := filepath.Join(t.TempDir(), "token")
	os.WriteFile(cred, []byte("tok123\n"), 0o600)
	e = executor(t, Options{Target: "reapi://" + srv.Addr, Headers: []string{"X-Api-Key=secret"}, CredentialsFile: cred})
	if _, err := tester(t, sh("true"), e).Exec(context.Background(), runner.Candidate{}); err != nil {
		t.Fatal(err)
	}
	md := srv.Headers[len(srv.Headers)-1]
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer tok123" {
		t.Errorf("authorization %q", got)
	}
}

// Mistakes are said clearly.
func TestRemoteErrors(t *testing.T) {
	srv := server(t)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Target: "http://" + srv.Addr}, "want reapi://HOST:PORT"},
		{Options{Target: "reapi://" + srv.Addr, Headers: []string{"novalue"}}, "want KEY=VALUE"},
		{Options{Target: "reapi://" + srv.Addr, Platform: []string{"os"}}, "want KEY=VALUE"},
		{Options{Target: "reapi://" + srv.Addr, Inputs: []string{"/nonexistent/data"}}, "--remote-input"},
		{Options{Target: "reapi://" + srv.Addr, CredentialsFile: "/nonexistent/token"}, "--remote-credentials"},
	} {
		if _, err := New(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	// Nothing listens on the port.
	gone, release, err := reapitest.Unreachable()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	e, err := New(Options{Target: "reapi://" + gone})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.Check(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "cannot reach the remote execution service at "+gone) ||
		!strings.Contains(err.Error(), "is it running?") {
		t.Errorf("unreachable: %v", err)
	}
	// The service answers, but its scheduler is gone: the message names
	// the service, then the part of it that is missing.
	part := server(t)
	part.BackendDown = "127.0.0.1:8983"
	e = executor(t, Options{Target: "reapi://" + part.Addr, RetryFor: 2 * time.Second}) // the message, not the retries
	_, err = tester(t, sh("true"), e).Exec(context.Background(), runner.Candidate{})
	if err == nil || !strings.Contains(err.Error(), "service at "+part.Addr+" answers, but cannot reach a part of itself at 127.0.0.1:8983") {
		t.Errorf("a part of the service stopped: %v", err)
	}
	// An instance name the service does not execute for.
	for _, tc := range []struct{ instance, want string }{
		{"", "does not execute actions of the default instance"},
		{"/other", `does not execute actions of instance "other": check the instance name`},
	} {
		named := server(t)
		named.Instance = "main"
		e, err := New(Options{Target: "reapi://" + named.Addr + tc.instance})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		if err := e.Check(context.Background(), ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("instance %q: %v, want %q", tc.instance, err, tc.want)
		}
	}
	// A platform no worker offers.
	srv.Platform = map[string]string{"OSFamily": "linux"}
	e = executor(t, Options{Target: "reapi://" + srv.Addr, Platform: []string{"OSFamily=windows"}})
	_, err = tester(t, sh("true"), e).Exec(context.Background(), runner.Candidate{})
	if !errors.Is(err, runner.ErrStart) || !strings.Contains(err.Error(), "has no worker for --platform OSFamily=windows") {
		t.Errorf("platform: %v", err)
	}
	e = executor(t, Options{Target: "reapi://" + srv.Addr, Platform: []string{"OSFamily=linux"}})
	if _, err = tester(t, sh("true"), e).Exec(context.Background(), runner.Candidate{}); err != nil {
		t.Errorf("a platform the worker offers: %v", err)
	}
}

// A file the test reads that was not sent is named, with the flag that
// sends it; declared, it is there.
func TestRemoteMissingInput(t *testing.T) {
	if !reapitest.CanHide() {
		t.Skip("the test service cannot hide a directory from its worker here (needs unshare -m and mount)")
	}
	srv := server(t)
	srv.Hide = t.TempDir()
	data := filepath.Join(srv.Hide, "data.txt")
	os.WriteFile(data, []byte("needed\n"), 0o644)
	var mu sync.Mutex
	var said []string
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		said = append(said, fmt.Sprintf(format, args...))
	}
	cmd := runner.Command{Argv: []string{"sh", "-c", "cat " + data}}
	e := executor(t, Options{Target: "reapi://" + srv.Addr, Say: say})
	if r, _ := tester(t, cmd, e).Exec(context.Background(), runner.Candidate{}); r.Clean() || len(said) != 1 || !strings.Contains(said[0], "--remote-input") {
		t.Errorf("undeclared: %s, said %q", r.Describe(), said)
	}
	t.Log(said)
	e = executor(t, Options{Target: "reapi://" + srv.Addr, Inputs: []string{filepath.Dir(data)}})
	r, err := tester(t, cmd, e).Exec(context.Background(), runner.Candidate{})
	if err != nil || string(r.Stdout) != "needed\n" {
		t.Errorf("declared: %s %q %q %v", r.Describe(), r.Stdout, r.Stderr, err)
	}
}

// realService is the service WYNOT_REAPI_TEST=HOST:PORT[/INSTANCE]
// names (Buildbarn, BuildBuddy, ...); the test is skipped without one.
// WYNOT_REAPI_STARTED, which CI sets to the time it started the
// service, is read too, so that go test's cache never answers with a
// result from a run against another service, or without one.
func realService(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs against a real remote execution service")
	}
	target := os.Getenv("WYNOT_REAPI_TEST")
	_ = os.Getenv("WYNOT_REAPI_STARTED")
	if target == "" {
		t.Skip("set WYNOT_REAPI_TEST=HOST:PORT[/INSTANCE] to run against a real remote execution service")
	}
	return "reapi://" + target
}

// Against a real service: tests run as they do locally, a second
// identical test is answered by the action cache under another timeout,
// and runs of the original are not.
func TestRemoteRealService(t *testing.T) {
	e := executor(t, Options{Target: realService(t)})
	sameAsLocal(t, e)
	writesInput(t, e, fmt.Sprintf("x %d\n", time.Now().UnixNano()), 0)
	writesInput(t, e, fmt.Sprintf("x %d\n", time.Now().UnixNano()), 3)

	tr := tester(t, runner.Command{Argv: []string{"sh", "-c", "grep -q crash {} && exit 1; exit 0"}}, e)
	for _, tc := range []struct {
		data string
		want dd.Outcome
	}{{"crash\n", dd.Fail}, {"fine\n", dd.Pass}} {
		rec, err := tr.Test(context.Background(), runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte(tc.data)}}})
		if err != nil || rec.Outcome != tc.want {
			t.Errorf("%q: %s %v, want %s", tc.data, rec.Outcome, err, tc.want)
		}
	}

	// A candidate no earlier run has sent: the first test runs, the
	// second (another timeout, a fresh Tester) is a cache hit, failing
	// outcome and 3 MiB of output included; the original's runs are not.
	unique := fmt.Sprintf("crash %d\n", time.Now().UnixNano())
	c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte(unique)}}}
	cmd := sh(`sleep 0.15; head -c 3145728 /dev/zero | tr '\0' x; grep -q crash in && exit 1; exit 0`)
	var outs [][]byte
	for i, timeout := range []time.Duration{20 * time.Second, 25 * time.Second, 0} {
		cmd.Timeout = timeout
		hits := e.Stats.CacheHits.Load()
		rec, err := tester(t, cmd, e).Test(context.Background(), c)
		if err != nil || rec.Outcome != dd.Fail {
			t.Fatalf("test %d: %s %v", i+1, rec.Outcome, err)
		}
		outs = append(outs, rec.Run.Stdout)
		if hit := e.Stats.CacheHits.Load() > hits; hit != (i > 0) {
			t.Errorf("test %d (timeout %s): answered by the action cache %v, want %v", i+1, timeout, hit, i > 0)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(outs[0], outs[2]) || len(outs[0]) == 0 {
		t.Errorf("the cached outputs differ from the first: %d, %d, %d bytes", len(outs[0]), len(outs[1]), len(outs[2]))
	}
	hits := e.Stats.CacheHits.Load()
	for range 2 {
		if _, err := tester(t, cmd, e).Exec(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	if e.Stats.CacheHits.Load() != hits {
		t.Errorf("a run of the original was answered by the action cache")
	}
}

// --remote-env: a remote test gets the variables given, KEY=VALUE or
// KEY with wynot's own value, besides PATH and what the test sets; one
// that wynot does not have, or a malformed one, is an error before any
// test.
func TestRemoteEnv(t *testing.T) {
	srv := server(t)
	t.Setenv("WYNOT_REMOTE_OWN", "own value")
	t.Setenv("WYNOT_REMOTE_OTHER", "not passed")
	e := executor(t, Options{Target: "reapi://" + srv.Addr, Env: []string{"WYNOT_REMOTE_SET=given", "WYNOT_REMOTE_OWN"}})
	r, err := tester(t, sh(`echo "$WYNOT_REMOTE_SET|$WYNOT_REMOTE_OWN|$WYNOT_REMOTE_OTHER"`), e).Exec(context.Background(),
		runner.Candidate{Files: []runner.File{{Name: "x", Data: []byte("x")}}})
	if err != nil || string(r.Stdout) != "given|own value|\n" {
		t.Errorf("remote environment: %q %v", r.Stdout, err)
	}
	for _, bad := range []string{"WYNOT_REMOTE_NOT_SET", "=x", "A B=c"} {
		if _, err := New(Options{Target: "reapi://" + srv.Addr, Env: []string{bad}}); err == nil || !strings.Contains(err.Error(), "--remote-env") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Short outages do not end the run: Execute streams dropped while their
// actions run (the actions are waited for again by name), responses of
// status UNAVAILABLE, a service restarted with its storage emptied; a
// service that stays away is given up after RetryFor, with a message
// that says so.
func TestRemoteRetries(t *testing.T) {
	c := runner.Candidate{Files: []runner.File{{Name: "in", Data: []byte("x\n")}}}
	cmd := sh("cat in; exit 1")
	for _, tc := range []struct {
		name  string
		fault func(*reapitest.Server) func() *reapitest.Server
	}{
		{"a dropped stream", func(s *reapitest.Server) func() *reapitest.Server { s.DropStreams = 1; return nil }},
		{"two UNAVAILABLE responses", func(s *reapitest.Server) func() *reapitest.Server { s.UnavailableResponses = 2; return nil }},
		{"a restart", func(s *reapitest.Server) func() *reapitest.Server {
			s.Stop()
			back := make(chan *reapitest.Server, 1)
			go func() {
				time.Sleep(300 * time.Millisecond)
				n, err := reapitest.Listen(s.Addr)
				if err != nil {
					t.Error(err)
				}
				back <- n
			}()
			return func() *reapitest.Server { n := <-back; t.Cleanup(n.Stop); return n }
		}},
	} {
		srv := server(t)
		e := executor(t, Options{Target: "reapi://" + srv.Addr, RetryFor: 30 * time.Second})
		restarted := tc.fault(srv)
		r, err := tester(t, cmd, e).Exec(context.Background(), c)
		if err != nil || r.Exit != 1 || string(r.Stdout) != "x\n" {
			t.Errorf("%s: %s %q, %v", tc.name, r.Describe(), r.Stdout, err)
		}
		if restarted != nil {
			srv = restarted()
		}
		if srv.Executed != 1 {
			t.Errorf("%s: %d actions executed, want 1", tc.name, srv.Executed)
		}
		if tc.name == "a dropped stream" && srv.Waits != 1 {
			t.Errorf("%s: %d WaitExecution calls, want 1", tc.name, srv.Waits)
		}
	}
	// Gone for good.
	srv := server(t)
	e := executor(t, Options{Target: "reapi://" + srv.Addr, RetryFor: time.Second})
	srv.Stop()
	_, err := tester(t, cmd, e).Exec(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), "the remote execution service at "+srv.Addr) || !strings.Contains(err.Error(), "is it running?") {
		t.Errorf("a service gone for good: %v", err)
	}
}
