package runner

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// A test's process group is killed as a whole when the test ends; but a
// test may leave its group: a daemon that calls setsid (a session and a
// group of its own) or forks twice. On Linux, a process that is a child
// subreaper (prctl PR_SET_CHILD_SUBREAPER) gets the orphans among its
// descendants as children instead of init, so that nothing a test starts
// can leave wynot's reach. Every test carries, in its environment, a tag
// of its own (TestIDEnv); its descendants inherit it. When a test ends,
// wynot kills (SIGKILL) and reaps every orphan it adopted that carries
// that tag, and the orphans that those leave in turn, until none is left.
// An orphan without a tag of this process (one that cleared its
// environment) cannot be told apart from another test's: it is killed
// when no test runs, at the latest when the run ends (EndOrphans).
//
// wynot must reap what it adopts, or zombies accumulate; but it must
// never reap a child that os/exec waits for (Wait would fail). So every
// process the runner starts is registered while os/exec owns it
// (startChild, waitChild), and only unregistered children are reaped,
// each by its own process id (wait4 on that id, never on any child).
// Starts and sweeps exclude each other, so that a child that exits
// before its start returns is never taken for an orphan.

// TestIDEnv is the environment variable that tags every process of a
// test, while wynot adopts orphans (AdoptOrphans): "PID-N", the wynot
// process's id and the test's number.
const TestIDEnv = "WYNOT_TEST_ID"

type orphanage struct {
	on      atomic.Bool
	sweep   sync.RWMutex // held to start a child (read) or to reap (write)
	mu      sync.Mutex   // own, running
	own     map[int]int  // children os/exec waits for, by pid
	running map[string]bool
	seq     atomic.Int64
	prefix  string // "PID-": the tags of this process
}

var orphans orphanage

// AdoptOrphans makes this process, on Linux, a child subreaper that
// ends what the tests it runs leave behind: after each test, every
// process the test started, however it detached, is killed and reaped.
// It must be called only by a program whose child processes are all
// started by this package, before it starts any (as wynot's main
// function does): it reaps children that nothing else waits for. It
// reports whether the system supports it.
func AdoptOrphans() bool {
	if orphans.on.Load() {
		return true
	}
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return false
	}
	orphans.mu.Lock()
	orphans.own = map[int]int{}
	orphans.running = map[string]bool{}
	orphans.prefix = strconv.Itoa(os.Getpid()) + "-"
	orphans.mu.Unlock()
	orphans.on.Store(true)
	return true
}

// EndOrphans kills and reaps every orphan this process adopted, whatever
// test it came from: for the end of a run.
func EndOrphans() {
	if orphans.on.Load() {
		orphans.reap(true)
	}
}

// StartChild starts cmd (on the calling thread, for a parent-death
// signal) and registers it as a child os/exec waits for, not an orphan.
func StartChild(cmd *exec.Cmd) error {
	if !orphans.on.Load() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		return cmd.Start()
	}
	orphans.sweep.RLock()
	defer orphans.sweep.RUnlock()
	runtime.LockOSThread()
	err := cmd.Start()
	runtime.UnlockOSThread()
	if err == nil {
		orphans.mu.Lock()
		orphans.own[cmd.Process.Pid]++
		orphans.mu.Unlock()
	}
	return err
}

// WaitChild waits for a child StartChild started.
func WaitChild(cmd *exec.Cmd) error {
	err := cmd.Wait()
	if orphans.on.Load() && cmd.Process != nil {
		orphans.mu.Lock()
		if orphans.own[cmd.Process.Pid]--; orphans.own[cmd.Process.Pid] <= 0 {
			delete(orphans.own, cmd.Process.Pid)
		}
		orphans.mu.Unlock()
	}
	return err
}

// RunChild runs cmd to its end, as cmd.Run does.
func RunChild(cmd *exec.Cmd) error {
	if err := StartChild(cmd); err != nil {
		return err
	}
	return WaitChild(cmd)
}

// OutputChild runs cmd to its end and returns its standard output, as
// cmd.Output does.
func OutputChild(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout = &out
	err := RunChild(cmd)
	return out.Bytes(), err
}

// beginTest tags the environment of a test's process, cmd (its Dir and
// Env set), and returns the tag; "" when orphans are not adopted.
func beginTest(cmd *exec.Cmd) string {
	if !orphans.on.Load() {
		return ""
	}
	tag := orphans.prefix + strconv.FormatInt(orphans.seq.Add(1), 10)
	// Environ is the environment the process would get, with PWD set
	// to Dir when Env is nil, as without a tag.
	env := cmd.Environ()
	tagged := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, TestIDEnv+"=") {
			tagged = append(tagged, kv)
		}
	}
	tagged = append(tagged, TestIDEnv+"="+tag)
	cmd.Env = tagged
	orphans.mu.Lock()
	orphans.running[tag] = true
	orphans.mu.Unlock()
	return tag
}

// endTest ends what the test tagged tag left running, once its own
// process has been waited for and its group killed.
func endTest(tag string) {
	if tag == "" {
		return
	}
	orphans.mu.Lock()
	delete(orphans.running, tag)
	orphans.mu.Unlock()
	orphans.reap(false)
}

// reap kills and reaps the adopted orphans of every test of this
// process that no longer runs; those of no test of this process when
// none runs or all is set; and reaps the adopted children that have
// exited. Killing an orphan makes its children orphans in turn: it goes
// on until a round kills nothing (or, against a process that forks
// faster than it is killed, for a bounded number of rounds; the next
// sweep goes on).
func (o *orphanage) reap(all bool) {
	o.sweep.Lock()
	defer o.sweep.Unlock()
	for range 1000 {
		if !o.reapRound(all) {
			return
		}
	}
}

// reapRound does one round of reap: it reports whether it killed
// anything (whose own orphans the next round sees).
func (o *orphanage) reapRound(all bool) bool {
	o.mu.Lock()
	idle := all || len(o.running) == 0
	o.mu.Unlock()
	var killed []int
	for _, pid := range children() {
		o.mu.Lock()
		owned := o.own[pid] > 0
		o.mu.Unlock()
		if owned {
			continue
		}
		state, ok := procState(pid)
		if !ok {
			continue
		}
		if state != 'Z' {
			tag, _ := procTag(pid)
			o.mu.Lock()
			mine := strings.HasPrefix(tag, o.prefix)
			end := (mine && !o.running[tag]) || (!mine && idle) || all
			o.mu.Unlock()
			if !end {
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		killed = append(killed, pid)
	}
	for _, pid := range killed {
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				break
			}
		}
	}
	return len(killed) > 0
}

// children lists this process's children that orphans may be among.
// The kernel hands an orphan to its subreaper's first live thread, the
// main thread, which never ends in a Go program: its list of children
// (/proc/PID/task/PID/children) holds them all, besides the children the
// main thread started (which startChild registered). Where the kernel
// offers no such list, every process's stat says whose child it is.
func children() []int {
	self := os.Getpid()
	if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", self, self)); err == nil {
		var pids []int
		for _, s := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(s); err == nil {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := procPPid(pid); ok && ppid == self {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procStat returns the fields of /proc/PID/stat after the command name:
// state, ppid, pgrp, session, ...
func procStat(pid int) ([]string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(string(data[i+1:]))
	return f, len(f) >= 4
}

func procState(pid int) (byte, bool) {
	f, ok := procStat(pid)
	if !ok {
		return 0, false
	}
	return f[0][0], true
}

func procPPid(pid int) (int, bool) {
	f, ok := procStat(pid)
	if !ok {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// procTag returns the test tag in the environment process pid started
// with.
func procTag(pid int) (string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	for _, kv := range bytes.Split(data, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(TestIDEnv+"=")); ok {
			return string(v), true
		}
	}
	return "", true
}
