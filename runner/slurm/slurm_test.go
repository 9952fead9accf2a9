package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/wynot/wynot/runner"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/internal/slurmtest"
)

// sh is a command that runs script with sh -c.
func sh(script string) runner.Command { return runner.Command{Argv: []string{"sh", "-c", script}} }

// What srun and slurmstepd write when a step ends, as Slurm 22.05 wrote
// it on a single-node cluster (and, for out of memory and node failure,
// as Slurm's documentation and users' reports show it).
func TestClassifySlurm(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exit    int
		stderr  string
		stopped bool
		want    runner.Run
	}{
		{"exit code", 3, "srun: error: vm: task 0: Exited with exit code 3\nerr\n", false,
			runner.Run{Exit: 3, Stderr: []byte("err\n")}},
		{"signal", 139, "srun: error: vm: task 0: Segmentation fault (core dumped)\n", false,
			runner.Run{Exit: -1, Signal: syscall.SIGSEGV, Stderr: []byte{}}},
		{"killed", 137, "srun: error: vm: task 0: Killed\n", false,
			runner.Run{Exit: -1, Signal: syscall.SIGKILL, Stderr: []byte{}}},
		{"exit above 128", 130, "srun: error: vm: task 0: Exited with exit code 130\n", false,
			runner.Run{Exit: 130, Stderr: []byte{}}},
		{"clean", 0, "out of the test\n", false, runner.Run{Exit: 0, Stderr: []byte("out of the test\n")}},
		{"time limit", 143, "slurmstepd-vm: error: *** STEP 3.0 ON vm CANCELLED AT 2026-11-24T04:41:36 DUE TO TIME LIMIT ***\nsrun: error: vm: task 0: Terminated\n", false,
			runner.Run{Exit: 143, Lost: "unresolved: Slurm's time limit ended the step"}},
		{"node failure", 137, "slurmstepd: error: *** STEP 12.3 ON n7 CANCELLED AT 2026-01-02T03:04:05 DUE TO NODE FAILURE ***\n", false,
			runner.Run{Exit: 137, Lost: "unresolved: a node failure ended the step"}},
		{"scancel by someone", 143, "slurmstepd-vm: error: *** STEP 4.0 ON vm CANCELLED AT 2026-11-24T04:41:37 ***\nsrun: error: vm: task 0: Terminated\n", false,
			runner.Run{Exit: 143, Lost: "unresolved: the step was cancelled outside wynot"}},
		{"cancelled by wynot", 143, "slurmstepd-vm: error: *** STEP 4.0 ON vm CANCELLED AT 2026-11-24T04:41:37 ***\nsrun: error: vm: task 0: Terminated\n", true,
			runner.Run{Exit: -1, Signal: syscall.SIGKILL, Stderr: []byte{}}},
		{"out of memory", 137, "slurmstepd: error: Detected 1 oom_kill event in StepId=1234.0. Some of the step tasks have been OOM Killed.\nsrun: error: n1: task 0: Out Of Memory\n", false,
			runner.Run{Exit: 137, Lost: "unresolved: the step ran out of memory (Slurm's memory limit)"}},
		{"no step", 1, "srun: error: Unable to create step for job 5: Requested node configuration is not available\n", false,
			runner.Run{Exit: 1, Lost: "unresolved: srun: Unable to create step for job 5: Requested node configuration is not available"}},
		{"no directory", 0, "slurmstepd-vm: error: couldn't chdir to `/nonexist': No such file or directory: going to /tmp instead\n", false,
			runner.Run{Exit: 0, Lost: "unresolved: the step couldn't chdir to `/nonexist': No such file or directory: the work directories must be on a file system the nodes share (WYNOT_TMPDIR)"}},
		{"user's message", 1, "srun: error: vm: task 0: Exited with exit code 1\nsrun: error: not from srun\n", false,
			runner.Run{Exit: 1, Stderr: []byte("srun: error: not from srun\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runner.Run{Exit: tc.exit, Stderr: []byte(tc.stderr)}
			if err := classifySlurm(&r, tc.stopped); err != nil {
				t.Fatal(err)
			}
			if tc.want.Stderr == nil {
				tc.want.Stderr = []byte(tc.stderr) // kept as srun wrote it
			}
			if r.Exit != tc.want.Exit || r.Signal != tc.want.Signal || r.Lost != tc.want.Lost || !bytes.Equal(r.Stderr, tc.want.Stderr) {
				t.Errorf("got exit %d signal %v lost %q stderr %q\nwant exit %d signal %v lost %q stderr %q",
					r.Exit, r.Signal, r.Lost, r.Stderr, tc.want.Exit, tc.want.Signal, tc.want.Lost, tc.want.Stderr)
			}
		})
	}
}

// newSlurm obtains an allocation of tasks for the test, given back at
// its end.
func newSlurm(t *testing.T, o Options) *Executor {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		slurmtest.WaitGone(t, s.JobID)
	})
	return s
}

// agent is the command of a test agent: this test binary (TestMain).
func agent(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, runner.AgentFlag}
}

// A test run as a Slurm step, or through an agent's step, runs as it
// does locally: its exit status, signal, output, standard input and
// candidate file are the same.
func TestSlurmSameAsLocal(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 2})
	slots := newSlurm(t, Options{Tasks: 2, Agent: agent(t)})
	if err := slots.Check(context.Background(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if !s.Own || s.JobID == "" || s.Tasks != 2 {
		t.Fatalf("allocation: %+v", s)
	}
	// The single-node cluster of .ci/slurm-up runs on this machine.
	if !s.OnThisHost() {
		t.Errorf("nodes %q: not this host", s.Nodes)
	}
	if err := s.Check(context.Background(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	f := runner.File{Name: "input.txt", Data: []byte("hello\n")}
	for _, c := range []runner.Command{
		sh("exit 3"), sh("true"), sh("kill -SEGV $$"), sh("kill -ABRT $$"), sh("echo out; echo err >&2; exit 1"),
		{Argv: []string{"cat", "{}"}}, {Argv: []string{"cat"}, Stdin: true}, {Argv: []string{"cat"}},
		sh("pwd; ls"), {Argv: []string{"sh", "-c", "echo $WYNOT_X", "sh"}, Env: []string{"WYNOT_X=set", "PATH=" + os.Getenv("PATH")}},
	} {
		var runs [3]runner.Run
		for i, e := range []runner.Executor{nil, s, slots} {
			tr, err := runner.NewTester(c, nil, 1, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			tr.Executor = e
			r, err := tr.Exec(context.Background(), runner.Candidate{Files: []runner.File{f}})
			if err != nil {
				t.Fatalf("%v: %v", c.Argv, err)
			}
			r.Stdout = bytes.ReplaceAll(r.Stdout, []byte(tr.Root()), []byte("ROOT"))
			runs[i] = r
			tr.Close()
		}
		l := runs[0]
		for i, r := range runs[1:] {
			if l.Exit != r.Exit || l.Signal != r.Signal || l.TimedOut != r.TimedOut || r.Lost != "" ||
				!bytes.Equal(l.Stdout, r.Stdout) || !bytes.Equal(l.Stderr, r.Stderr) {
				t.Errorf("%q:\nlocal %s out %q err %q\nslurm (%s) %s out %q err %q", c.Argv,
					l.Describe(), l.Stdout, l.Stderr, []string{"steps", "slots"}[i], r.Describe(), r.Stdout, r.Stderr)
			}
		}
	}
}

// An allocation cancelled under wynot ends the run with a clear error
// rather than make every later test unresolved.
func TestSlurmAllocationCancelled(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1})
	p := runner.Process{Argv: []string{"true"}, Dir: t.TempDir()}
	if r, err := s.Execute(context.Background(), p); err != nil || !r.Clean() {
		t.Fatalf("first step: %s %v", r.Describe(), err)
	}
	if out, err := exec.Command("scancel", s.JobID).CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v %s", err, out)
	}
	slurmtest.WaitGone(t, s.JobID)
	_, err := s.Execute(context.Background(), p)
	if !errors.Is(err, runner.ErrStart) || !strings.Contains(err.Error(), "allocation (job "+s.JobID+") is gone") {
		t.Errorf("after scancel: %v", err)
	} else {
		t.Log(err)
	}
}

// An allocation on other nodes is not on this host.
func TestSlurmOnThisHost(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		nodes string
		want  bool
	}{{host, true}, {"", false}, {"node[1-4]", false}, {host + ",other", false}} {
		if got := (&Executor{Nodes: c.nodes}).OnThisHost(); got != c.want {
			t.Errorf("nodes %q: %v, want %v", c.nodes, got, c.want)
		}
	}
}

// A program that cannot start is the same error as locally.
func TestSlurmCannotStart(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1})
	_, err := s.Execute(context.Background(), runner.Process{Argv: []string{"/nonexistent/program"}, Dir: t.TempDir()})
	if !errors.Is(err, runner.ErrStart) || !strings.Contains(err.Error(), "/nonexistent/program: No such file") {
		t.Errorf("got %v", err)
	}
}

// wynot's own timeout and the end of the context cancel the step, not
// only srun: nothing is left running in the allocation.
func TestSlurmStopCancelsStep(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1})
	p := runner.Process{Argv: []string{"sleep", "300"}, Dir: t.TempDir(), Timeout: time.Second}
	start := time.Now()
	r, err := s.Execute(context.Background(), p)
	if err != nil || !r.TimedOut || r.Lost != "" {
		t.Errorf("timeout: %+v %v", r, err)
	}
	if left := slurmtest.StepsLeft(t, s.JobID); left != "" {
		t.Errorf("steps left after a timeout: %s", left)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	p.Timeout = 0
	// Stopped as a local test is (runner's stop sequence): it ends on
	// the first signal it does not survive.
	if r, err := s.Execute(ctx, p); err != context.Canceled || (r.Signal != syscall.SIGINT && r.Signal != syscall.SIGTERM && r.Signal != syscall.SIGKILL) {
		t.Errorf("cancelled: %+v %v", r, err)
	}
	if left := slurmtest.StepsLeft(t, s.JobID); left != "" {
		t.Errorf("steps left after cancellation: %s", left)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("stopping two steps took %s", d)
	}
}

// A step that Slurm's time limit ends is unresolved, whatever its exit
// status says. Slurm's limits count in minutes: this test takes one to
// two, in parallel with the others.
func TestSlurmTimeLimit(t *testing.T) {
	slurmtest.Need(t)
	t.Parallel()
	s := newSlurm(t, Options{Tasks: 1, StepArgs: []string{"--time=1"}})
	tr, err := runner.NewTester(sh("sleep 600"), &runner.ScriptOracle{}, 1, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Executor = s
	tr.Command.Timeout = 5 * time.Minute
	rec, err := tr.Test(context.Background(), runner.Candidate{Files: []runner.File{{Name: "x", Data: []byte("x")}}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != dd.Unresolved || !strings.Contains(rec.Detail, "time limit") {
		t.Errorf("a step ended by Slurm's time limit: %s (%s), run %+v", rec.Outcome, rec.Detail, rec.Run)
	}
}

// A work directory the step cannot reach (as on a node that does not
// share the file system) is said before any test runs.
func TestSlurmCheckNotShared(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1})
	dir := filepath.Join(t.TempDir(), "not-on-the-node")
	err := s.Check(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "WYNOT_TMPDIR") || !strings.Contains(err.Error(), "share") {
		t.Errorf("want an error naming WYNOT_TMPDIR, got %v", err)
	} else {
		t.Log(err)
	}
}

// wynot's own allocation is given back at Close.
func TestSlurmOwnAllocation(t *testing.T) {
	slurmtest.Need(t)
	s, err := New(context.Background(), Options{Tasks: 2, AllocArgs: []string{"--time=10"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("squeue", "-h", "-j", s.JobID, "-o", "%T %D %C").Output()
	if !strings.HasPrefix(string(out), "RUNNING") {
		t.Errorf("allocation %s: %q", s.JobID, out)
	}
	s.Close()
	slurmtest.WaitGone(t, s.JobID)
}

// Through agents: wynot's timeout and the end of the context end the
// test's process group, the agent's step serves the next test, and
// Close ends the agents' steps; a program that cannot start is the same
// error as locally.
func TestSlurmSlots(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1, Agent: agent(t)})
	dir := t.TempDir()
	marker := fmt.Sprintf("wynot-slot-test-%d", time.Now().UnixNano())
	p := runner.Process{Argv: []string{"sh", "-c", "sleep 300 & echo " + marker + " >/dev/null; wait"}, Dir: dir, Timeout: time.Second}
	r, err := s.Execute(context.Background(), p)
	if err != nil || !r.TimedOut || r.Lost != "" {
		t.Errorf("timeout: %+v %v", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	p.Timeout = 0
	// Stopped as a local test is (runner's stop sequence): it ends on
	// the first signal it does not survive.
	if r, err := s.Execute(ctx, p); err != context.Canceled || (r.Signal != syscall.SIGINT && r.Signal != syscall.SIGTERM && r.Signal != syscall.SIGKILL) {
		t.Errorf("cancelled: %+v %v", r, err)
	}
	if out, _ := exec.Command("pgrep", "-f", marker).Output(); len(out) > 0 {
		t.Errorf("processes left after a timeout and a cancellation: %s", out)
	}
	r, err = s.Execute(context.Background(), runner.Process{Argv: []string{"sh", "-c", "echo next"}, Dir: dir})
	if err != nil || string(r.Stdout) != "next\n" {
		t.Errorf("the next test: %+v %v", r, err)
	}
	if steps := slurmtest.Steps(t, s.JobID); !strings.Contains(steps, "slot") {
		t.Errorf("no agent step: %q", steps)
	}
	_, err = s.Execute(context.Background(), runner.Process{Argv: []string{"/nonexistent/program"}, Dir: dir})
	if !errors.Is(err, runner.ErrStart) || !strings.Contains(err.Error(), "/nonexistent/program") {
		t.Errorf("cannot start: %v", err)
	}
	s.Close()
	if left := slurmtest.StepsLeft(t, s.JobID); left != "" {
		t.Errorf("steps left after Close: %s", left)
	}
}

// A test whose agent's step Slurm ends (here cancelled from outside) is
// unresolved with the reason, and the next test gets a new agent.
func TestSlurmSlotEnded(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1, Agent: agent(t)})
	dir := t.TempDir()
	go func() {
		for range 100 {
			time.Sleep(200 * time.Millisecond)
			out, _ := exec.Command("squeue", "-h", "-s", "-j", s.JobID, "-o", "%i %j").Output()
			for _, line := range strings.Split(string(out), "\n") {
				if id, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok && strings.Contains(name, "slot") {
					_ = exec.Command("scancel", id).Run()
					return
				}
			}
		}
	}()
	r, err := s.Execute(context.Background(), runner.Process{Argv: []string{"sleep", "60"}, Dir: dir, Timeout: time.Minute})
	if err != nil || !strings.Contains(r.Lost, "cancelled outside wynot") {
		t.Errorf("a test whose step was cancelled: %+v %v", r, err)
	}
	r, err = s.Execute(context.Background(), runner.Process{Argv: []string{"true"}, Dir: dir})
	if err != nil || !r.Clean() {
		t.Errorf("the next test: %+v %v", r, err)
	}
}

// An agent that cannot start on the node is said by Check, before the
// first test.
func TestSlurmSlotBadAgent(t *testing.T) {
	slurmtest.Need(t)
	s := newSlurm(t, Options{Tasks: 1, Agent: []string{"/nonexistent/wynot", runner.AgentFlag}})
	err := s.Check(context.Background(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "--slurm-steps slot") || !strings.Contains(err.Error(), "/nonexistent/wynot") {
		t.Errorf("want an error naming the agent, got %v", err)
	} else {
		t.Log(err)
	}
}
