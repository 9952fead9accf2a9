package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/proctest"
)

// The orphan tests run in a child process of the test binary
// (orphanScenarioEnv), which adopts orphans as wynot does: adopting makes
// a process reap children that nothing else waits for, which the test
// binary's other tests must not be exposed to.
const orphanScenarioEnv = "WYNOT_ORPHAN_SCENARIO"

// detachings are tests that leave processes behind, each in another
// way; MARK stands for a unique sleep duration that marks the processes
// of one test.
var detachings = []struct{ name, script string }{
	{"setsid", "setsid sleep MARK & echo started"},
	{"nohup", "nohup sleep MARK >/dev/null 2>&1 & echo started"},
	{"double fork, fds closed", "( (exec setsid sleep MARK </dev/null >/dev/null 2>&1) & ) ; echo started"},
	// The daemon keeps the test's output pipes open.
	{"double fork, fds open", "( (exec setsid sleep MARK) & ) ; echo started"},
	// A daemon with a child of its own: the child is adopted only when
	// the daemon is killed.
	{"daemon with a child", "setsid sh -c 'sleep MARK & sleep MARK; :' & echo started"},
	// Without its environment, the daemon carries no test's tag.
	{"cleared environment", "env -i setsid sleep MARK & echo started"},
	{"exited orphan", "( (sleep 0 &) & ) ; echo started"},
}

// TestOrphansEndWithTheTest runs tests that detach processes (setsid,
// nohup, double forks, with and without their output open) in a child
// process adopting orphans, as wynot does: after each test, nothing it
// started runs, and no zombie is left (the child checks both in /proc).
func TestOrphansEndWithTheTest(t *testing.T) {
	for i, c := range detachings {
		t.Run(c.name, func(t *testing.T) {
			mark := orphanMark(i)
			runScenario(t, "sequence", mark, strings.ReplaceAll(c.script, "MARK", mark))
		})
	}
}

// TestOrphansOfATimedOutTest: a test that times out after detaching a
// daemon loses the daemon too.
func TestOrphansOfATimedOutTest(t *testing.T) {
	mark := orphanMark(100)
	runScenario(t, "timeout", mark, "setsid sleep "+mark+" & sleep "+mark)
}

// TestOrphansOfParallelTests: with two tests at once, the end of one
// kills its own daemon but not the other's, which is still running: the
// first test checks, after the second has ended, that its daemon lives.
func TestOrphansOfParallelTests(t *testing.T) {
	mark := orphanMark(200)
	runScenario(t, "parallel", mark, "")
}

// TestOrphansOfAgentTests: a test agent (a Slurm job step's) ends what
// its tests detach, as wynot does.
func TestOrphansOfAgentTests(t *testing.T) {
	mark := orphanMark(300)
	runScenario(t, "agent", mark, "setsid sleep "+mark+" & ( (exec setsid sleep "+mark+") & ) ; echo started")
}

// TestTestTag: every test gets a tag of its own, and keeps PWD.
func TestTestTag(t *testing.T) {
	runScenario(t, "env", orphanMark(500), "")
}

// TestOrphansOfAPersistentServer: what the tests of a persistent test
// process detach ends with that process.
func TestOrphansOfAPersistentServer(t *testing.T) {
	mark := orphanMark(400)
	runScenario(t, "server", mark, "while read l; do setsid sleep "+mark+" </dev/null >/dev/null 2>&1 & echo 'exit 0'; done")
}

// orphanMark is a sleep duration (over 1000 s) that no other test, nor
// another run of this one, uses.
func orphanMark(i int) string {
	return fmt.Sprintf("1000.%d%03d", os.Getpid(), i)
}

// runScenario runs scenario in a child process and then checks that no
// process marked with mark remains on the machine.
func runScenario(t *testing.T, scenario, mark, script string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanScenarioEnv+"="+scenario, "WYNOT_ORPHAN_MARK="+mark, "WYNOT_ORPHAN_SCRIPT="+script, "WYNOT_ORPHAN_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%v:\n%s", err, out)
	}
	if left := proctest.Marked(mark); len(left) > 0 {
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("processes left running after wynot ended: %v", left)
	}
}

// zombies lists this process's children that have exited and not been
// reaped.
func zombies() []int {
	var z []int
	for _, pid := range children() {
		if s, ok := procState(pid); ok && s == 'Z' {
			z = append(z, pid)
		}
	}
	return z
}

// orphanScenario is the child process of runScenario: it adopts orphans
// and runs the scenario, and says what went wrong; it returns the exit
// code.
func orphanScenario(scenario string) int {
	mark, script, dir := os.Getenv("WYNOT_ORPHAN_MARK"), os.Getenv("WYNOT_ORPHAN_SCRIPT"), os.Getenv("WYNOT_ORPHAN_DIR")
	if !AdoptOrphans() {
		fmt.Println("cannot adopt orphans")
		return 1
	}
	var mu sync.Mutex
	var problems []string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	check := func(when string) {
		if left := proctest.Marked(mark); len(left) > 0 {
			fail("%s: still running: %v", when, left)
		}
		if z := zombies(); len(z) > 0 {
			fail("%s: zombies: %v", when, z)
		}
	}
	ctx := context.Background()
	switch scenario {
	case "sequence":
		for i := range 3 {
			c := sh(script)
			r, err := c.ExecIn(ctx, WorkDir(dir), nil)
			if err != nil || !r.Clean() || string(r.Stdout) != "started\n" {
				fail("run %d: %v %s", i, err, r.Describe())
			}
			check(fmt.Sprintf("after run %d", i))
		}
	case "timeout":
		c := sh(script)
		c.Timeout = 500 * time.Millisecond
		r, err := c.ExecIn(ctx, WorkDir(dir), nil)
		if err != nil || !r.TimedOut {
			fail("not timed out: %v %s", err, r.Describe())
		}
		check("after the timeout")
	case "parallel":
		a := filepath.Join(dir, "a")
		if err := os.Mkdir(a, 0o700); err != nil {
			fail("%v", err)
			break
		}
		first := sh("setsid sleep " + mark + " & echo $! > pid; while [ ! -e go ]; do sleep 0.01; done; kill -0 $(cat pid) && echo alive")
		done := make(chan Run, 1)
		go func() {
			r, err := first.ExecIn(ctx, WorkDir(a), nil)
			if err != nil {
				fail("first: %v", err)
			}
			done <- r
		}()
		for {
			if _, err := os.Stat(filepath.Join(a, "pid")); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		second := sh("setsid sleep " + mark + "9 & echo started")
		if r, err := second.Exec(ctx); err != nil || string(r.Stdout) != "started\n" {
			fail("second: %v %s", err, r.Describe())
		}
		if left := proctest.Marked(mark + "9"); len(left) > 0 {
			fail("the second test's daemon still runs: %v", left)
		}
		if err := os.WriteFile(filepath.Join(a, "go"), nil, 0o600); err != nil {
			fail("%v", err)
		}
		if r := <-done; string(r.Stdout) != "alive\n" {
			fail("the first test's daemon died with the second test: %s", r.Describe())
		}
		check("after both tests")
	case "agent":
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		served := make(chan error, 1)
		go func() { served <- ServeAgent(inR, outW); outW.Close() }()
		enc, dec := json.NewEncoder(inW), json.NewDecoder(outR)
		for i := range 2 {
			if err := enc.Encode(AgentRequest{ID: int64(i), Argv: []string{"sh", "-c", script}, Dir: dir, NoStdin: true}); err != nil {
				fail("%v", err)
				break
			}
			var rep AgentReply
			if err := dec.Decode(&rep); err != nil {
				fail("%v", err)
				break
			}
			if rep.Err != "" || string(rep.Run.Stdout) != "started\n" {
				fail("agent run %d: %s %s", i, rep.Err, rep.Run.Describe())
			}
			check(fmt.Sprintf("after agent run %d", i))
		}
		inW.Close()
		if err := <-served; err != nil {
			fail("agent: %v", err)
		}
	case "env":
		// The tag is the only change to the environment: PWD is still
		// the directory the test runs in.
		seen := map[string]bool{}
		for i := range 2 {
			c := Command{Argv: []string{"env"}}
			r, err := c.ExecIn(ctx, WorkDir(dir), nil)
			var pwd, tag string
			for _, l := range strings.Split(string(r.Stdout), "\n") {
				if v, ok := strings.CutPrefix(l, "PWD="); ok {
					pwd = v
				}
				if v, ok := strings.CutPrefix(l, TestIDEnv+"="); ok {
					tag = v
				}
			}
			if err != nil || pwd != dir || !strings.HasPrefix(tag, strconv.Itoa(os.Getpid())+"-") || seen[tag] {
				fail("run %d: %v: PWD %q (want %q), %s %q", i, err, pwd, dir, TestIDEnv, tag)
			}
			seen[tag] = true
		}
	case "server":
		c := Command{Argv: []string{"sh", "-c", script}, Persistent: true}
		tester, err := NewTester(c, nil, 1, dir)
		if err != nil {
			fail("%v", err)
			break
		}
		for i := range 2 {
			if r, err := tester.Exec(ctx, Candidate{Files: []File{{Name: "in", Data: []byte{byte(i)}}}}); err != nil || !r.Clean() {
				fail("served test %d: %v %s", i, err, r.Describe())
			}
		}
		tester.Close()
		check("after the server ended")
	default:
		fail("no scenario %q", scenario)
	}
	EndOrphans()
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		return 1
	}
	return 0
}
