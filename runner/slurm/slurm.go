// Package slurm runs wynot's tests on a Slurm cluster: each as a job
// step of one allocation (srun --exact), or through a test agent
// (runner.ServeAgent) in one long-lived step per work slot, so that a
// test costs what a local one does. Like runner/remote it is a
// runner.Executor built on the runner's exported parts only: a new
// --exec backend has these two to imitate.
package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/wynot/wynot/runner"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Options say how tests run as Slurm job steps.
type Options struct {
	// CPUs is how many CPUs each test gets (srun -c); at least 1.
	CPUs int
	// Tasks is how many tests the allocation wynot obtains itself holds
	// at once (salloc -n); ignored inside an allocation.
	Tasks int
	// AllocArgs are passed to salloc when wynot obtains the allocation.
	AllocArgs []string
	// StepArgs are passed to every srun (memory, a time limit, ...).
	StepArgs []string
	// Say, if set, is told what wynot waits for (an allocation queued).
	Say func(format string, args ...any)
	// Agent, when set, is the command of a test agent (ServeAgent; wynot
	// and AgentFlag): tests then run through one long-lived job step
	// per work slot instead of a step each, so a test costs what a local
	// one does. Slurm's limits (--srun-args) then apply to a slot's step,
	// not to each test.
	Agent []string
}

// Executor runs every test as a job step of one allocation, srun --exact
// -n1 -c CPUs, in the allocation wynot runs in (SLURM_JOB_ID) or in one it
// obtains with salloc and gives back on Close. A step inside an
// allocation starts in tens of milliseconds, where a job of its own
// would queue for a second or more. The work directories must be on a
// file system that the nodes share (Check).
type Executor struct {
	// JobID is the allocation's job id.
	JobID string
	// Tasks is how many steps the allocation runs at once: the default
	// number of tests in flight.
	Tasks int
	// Own is set when wynot obtained the allocation itself.
	Own bool
	// Nodes is the allocation's node list, as Slurm writes it
	// ("node[1-4]", "vm").
	Nodes string

	opts   Options
	srun   string
	seq    atomic.Int64
	holder *exec.Cmd      // salloc, holding wynot's own allocation
	hold   io.WriteCloser // its standard input: closing it ends the allocation
	closed sync.Once
	pool   slots // the agents' steps, with Agent
}

// stepGrace is how long a step has to end after srun was told to cancel
// it (SIGTERM), before srun is killed and the step cancelled by scancel.
const stepGrace = 5 * time.Second

// New makes the Slurm executor: in the current allocation when
// SLURM_JOB_ID is set, otherwise in one it obtains with salloc (which
// may wait in the queue until ctx ends).
func New(ctx context.Context, o Options) (*Executor, error) {
	o.CPUs = max(o.CPUs, 1)
	srun, err := exec.LookPath("srun")
	if err != nil {
		return nil, fmt.Errorf("--exec slurm: no srun on PATH: run wynot where Slurm's commands are installed (a login node of the cluster)")
	}
	s := &Executor{opts: o, srun: srun}
	defer func() {
		// The agents' pool, once Tasks is known.
		s.pool.idle, s.pool.all = make(chan *slot, max(s.Tasks, 1)), map[*slot]bool{}
	}()
	if id := os.Getenv("SLURM_JOB_ID"); id != "" {
		s.JobID = id
		s.Tasks = 1
		for _, v := range []string{"SLURM_NTASKS", "SLURM_NPROCS"} {
			if n, err := strconv.Atoi(os.Getenv(v)); err == nil && n > 0 {
				s.Tasks = n
				break
			}
		}
		s.Nodes = os.Getenv("SLURM_JOB_NODELIST")
		return s, nil
	}
	if err := s.allocate(ctx); err != nil {
		return nil, err
	}
	if out, err := runner.OutputChild(exec.CommandContext(ctx, "squeue", "-h", "-j", s.JobID, "-o", "%N")); err == nil {
		s.Nodes = strings.TrimSpace(string(out))
	}
	return s, nil
}

// OnThisHost reports whether the allocation's only node is the machine
// wynot runs on, whose local directories (/dev/shm) the steps then see.
func (s *Executor) OnThisHost() bool {
	host, err := os.Hostname()
	if err != nil || s.Nodes == "" {
		return false
	}
	short, _, _ := strings.Cut(host, ".")
	return s.Nodes == host || s.Nodes == short
}

// allocate obtains an allocation of Tasks tasks with salloc. salloc runs
// a shell that prints the job id and then reads its standard input, a
// pipe from wynot, until it closes: when wynot closes it, or exits, or
// is killed (even by SIGKILL), the shell ends and salloc gives the
// allocation back.
func (s *Executor) allocate(ctx context.Context) error {
	salloc, err := exec.LookPath("salloc")
	if err != nil {
		return fmt.Errorf("--exec slurm: not inside a Slurm allocation (no SLURM_JOB_ID) and no salloc on PATH to obtain one")
	}
	s.Tasks = max(s.opts.Tasks, 1)
	alloc := append([]string{"-n", strconv.Itoa(s.Tasks), "-c", strconv.Itoa(s.opts.CPUs), "-J", "wynot"}, s.opts.AllocArgs...)
	args := append(slices.Clone(alloc), "--", "sh", "-c", `echo "job $SLURM_JOB_ID"; exec cat`)
	cmd := exec.Command(salloc, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var msgs lockedTail
	msgs.Limit = 8 << 10
	cmd.Stderr = &msgs
	if err := runner.StartChild(cmd); err != nil {
		return fmt.Errorf("--exec slurm: %v", err)
	}
	s.holder, s.hold, s.Own = cmd, in, true
	ids := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		ids <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, r)
	}()
	waiting := time.NewTimer(2 * time.Second)
	defer waiting.Stop()
	for {
		select {
		case line := <-ids:
			if id, ok := strings.CutPrefix(line, "job "); ok && id != "" {
				s.JobID = id
				return nil
			}
			s.release()
			return fmt.Errorf("--exec slurm: salloc gave no allocation%s", indentTail(msgs.String()))
		case <-waiting.C:
			if s.opts.Say != nil {
				s.opts.Say("waiting for a Slurm allocation of %d tasks (salloc %s)", s.Tasks, strings.Join(alloc, " "))
			}
		case <-ctx.Done():
			s.release()
			return ctx.Err()
		}
	}
}

// release ends wynot's own allocation: closing salloc's input ends its
// shell, and salloc gives the allocation back (a pending request is
// withdrawn on SIGTERM); scancel if salloc does not end in time.
func (s *Executor) release() {
	if s.holder == nil {
		return
	}
	s.hold.Close()
	if s.JobID == "" {
		_ = s.holder.Process.Signal(syscall.SIGTERM)
	}
	done := make(chan struct{})
	go func() { _ = runner.WaitChild(s.holder); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.holder.Process.Kill()
		if s.JobID != "" {
			_ = runner.RunChild(exec.Command("scancel", s.JobID))
		}
		<-done
	}
}

// Close ends the agents' steps and gives back the allocation wynot
// obtained (inside the user's allocation, that stays).
func (s *Executor) Close() error {
	s.closed.Do(func() {
		s.closeSlots()
		s.release()
	})
	return nil
}

func (s *Executor) String() string {
	name := "Slurm job " + s.JobID
	var notes []string
	if s.Own {
		notes = append(notes, "allocated by wynot")
	}
	if s.opts.Agent != nil {
		notes = append(notes, "a job step per test slot")
	}
	if len(notes) > 0 {
		name += " (" + strings.Join(notes, ", ") + ")"
	}
	return name
}

// Execute runs p as a job step, or through an agent's step (Agent).
func (s *Executor) Execute(ctx context.Context, p runner.Process) (runner.Run, error) {
	dir := p.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return runner.Run{Exit: -1}, err
		}
	}
	if s.opts.Agent != nil {
		return s.executeInSlot(ctx, p, dir)
	}
	return s.executeStep(ctx, p, dir)
}

// executeStep runs p as a job step of its own.
func (s *Executor) executeStep(ctx context.Context, p runner.Process, dir string) (runner.Run, error) {
	name := fmt.Sprintf("wynot-%d-%d", os.Getpid(), s.seq.Add(1))
	argv := []string{s.srun, "--jobid=" + s.JobID, "--exact", "-n1", "-c", strconv.Itoa(s.opts.CPUs),
		"--quiet", "--job-name=" + name, "--chdir=" + dir}
	if p.Stdin == nil {
		argv = append(argv, "--input=none")
	}
	argv = append(argv, s.opts.StepArgs...)
	argv = append(argv, "--")
	argv = append(argv, p.Argv...)
	var stopped, finished atomic.Bool
	ctl := runner.Control{
		// srun cancels its step on SIGTERM and waits for it to end;
		// SIGKILL would leave the step running. If wynot dies, srun
		// gets SIGTERM too.
		DeathSignal: syscall.SIGTERM,
		Unguarded:   true,
		Stop: func(pid int) {
			stopped.Store(true)
			_ = syscall.Kill(pid, syscall.SIGTERM)
			time.AfterFunc(stepGrace, func() {
				if !finished.Load() {
					s.cancelStep(name)
					_ = syscall.Kill(-pid, syscall.SIGKILL)
				}
			})
		},
	}
	// srun itself runs in wynot's directory: the step's directory need
	// only exist on the node. The step runs in the job's allocation,
	// held already: srun started is the test started (p.Started).
	step := p
	step.Argv, step.Dir = argv, ""
	r, err := runner.Spawn(ctx, step, ctl)
	finished.Store(true)
	if errors.Is(err, runner.ErrStart) {
		return r, err
	}
	if serr := classifySlurm(&r, stopped.Load()); serr != nil {
		var gone allocationGone
		if errors.As(serr, &gone) {
			serr = fmt.Errorf("%w: the Slurm allocation (job %s) is gone, cancelled or past its time limit (srun: %s)", runner.ErrStart, s.JobID, string(gone))
		}
		return r, serr
	}
	return r, err
}

// cancelStep cancels the step named name, found by squeue.
func (s *Executor) cancelStep(name string) {
	out, err := runner.OutputChild(exec.Command("squeue", "-h", "-s", "-j", s.JobID, "-o", "%i %j"))
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		if id, n, ok := strings.Cut(strings.TrimSpace(line), " "); ok && n == name {
			_ = runner.RunChild(exec.Command("scancel", id))
		}
	}
}

// Check checks that dir is on a file system the allocation's
// nodes share: a step writes a file in it, which wynot then reads.
func (s *Executor) Check(ctx context.Context, dir string) error {
	probe := filepath.Join(dir, ".wynot-shared")
	defer os.Remove(probe)
	token := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	p := runner.Process{Argv: []string{"sh", "-c", `hostname; echo "$1" > "$2"`, "sh", token, probe}, Dir: dir, Timeout: 2 * time.Minute}
	// A step of its own, whose directory slurmstepd enters (and says
	// when it cannot).
	r, err := s.executeStep(ctx, p, dir)
	if err != nil {
		return err
	}
	host := strings.TrimSpace(string(r.Stdout))
	if host == "" {
		host = "a node"
	}
	got, rerr := os.ReadFile(probe)
	if r.Clean() && rerr == nil && strings.TrimSpace(string(got)) == token {
		if s.opts.Agent != nil {
			return s.checkAgent(ctx, dir)
		}
		return nil
	}
	why := "wynot does not see the file it wrote"
	if r.Lost != "" {
		why, _, _ = strings.Cut(strings.TrimPrefix(r.Lost, "unresolved: "), ": the work directories")
	} else if !r.Clean() {
		why = r.Describe()
		if t := runner.LastLines(r.Stderr, 4); t != "" {
			why += ":\n" + t + "\n"
		}
	}
	return fmt.Errorf("--exec slurm: the work directories in %s are not on a file system that the Slurm nodes share: a step on %s was to write a file there (%s); set WYNOT_TMPDIR to a directory every node sees, such as one in your home directory", filepath.Dir(dir), host, why)
}

var (
	// srun's line on how a task ended: "srun: error: node1: task 0:
	// Exited with exit code 3", "...: Segmentation fault (core dumped)".
	srunTaskLine = regexp.MustCompile(`(?m)^srun: error: [^:\n]+: tasks? [0-9,-]+: ([^\n]*)\n?`)
	// slurmstepd's line on a cancelled step, with the reason.
	stepCancelledLine = regexp.MustCompile(`(?m)^slurmstepd[^:\n]*: error: \*\*\* STEP \S+ ON \S+ CANCELLED AT \S+(?: DUE TO ([A-Z_ ]+?))?(?: \([^)\n]*\))? \*\*\*\n?`)
	// Lines saying the memory limit killed the step.
	oomLine = regexp.MustCompile(`(?m)^(?:slurmstepd|srun)[^:\n]*: error: [^\n]*(?:oom[-_]kill|Out Of Memory|out-of-memory)[^\n]*\n?`)
	// The step could not start the test's program.
	execveLine = regexp.MustCompile(`(?m)^slurmstepd[^:\n]*: error: execve\(\): ([^\n]*)`)
	// The step could not enter its directory (and went elsewhere).
	chdirLine = regexp.MustCompile(`(?m)^slurmstepd[^:\n]*: error: (couldn't chdir to [^\n]*?)(?:: going to \S+ instead)?\n`)
	// The allocation is gone (cancelled, or past its time limit).
	allocationGoneLine = regexp.MustCompile(`(?m)^srun: error: ([^\n]*(?:has expired|Invalid job id specified|already completing or completed|has been revoked)[^\n]*)`)
	// Any other error srun reports itself: the step did not run.
	srunErrorLine = regexp.MustCompile(`(?m)^srun: (?:error|fatal): ([^\n]*)\n?`)
)

// allocationGone is srun saying the allocation no longer exists: no
// further test can run.
type allocationGone string

func (g allocationGone) Error() string { return "srun: " + string(g) }

// classifySlurm reads what srun and slurmstepd wrote into a step's error
// output, removes it (so that the test's output is what it would be run
// locally) and says what it means: a task killed by a signal gets its
// Signal back (srun exits with 128 + the signal); a step that Slurm
// ended (its time limit, out of memory, a node failure, a cancellation
// wynot did not ask for, a directory it could not enter) or that never
// ran is Lost. stopped says that wynot itself cancelled the step
// (timeout, interrupt). A program the step could not start is runner.ErrStart,
// as for a local process; an allocation that is gone is
// allocationGone.
func classifySlurm(r *runner.Run, stopped bool) error {
	if m := execveLine.FindSubmatch(r.Stderr); m != nil && r.Exit != 0 {
		return fmt.Errorf("%w (Slurm step): %s", runner.ErrStart, m[1])
	}
	if m := allocationGoneLine.FindSubmatch(r.Stderr); m != nil && r.Exit != 0 && !stopped {
		return allocationGone(m[1])
	}
	var task string
	if m := srunTaskLine.FindSubmatch(r.Stderr); m != nil {
		task = string(m[1])
	}
	var lost string
	if m := stepCancelledLine.FindSubmatch(r.Stderr); m != nil && !stopped {
		switch reason := strings.TrimSpace(string(m[1])); reason {
		case "TIME LIMIT":
			lost = "Slurm's time limit ended the step"
		case "NODE FAILURE":
			lost = "a node failure ended the step"
		case "":
			lost = "the step was cancelled outside wynot"
		default:
			lost = "Slurm ended the step: " + strings.ToLower(reason)
		}
	}
	if m := chdirLine.FindSubmatch(r.Stderr); lost == "" && m != nil {
		lost = "the step " + string(m[1]) + ": the work directories must be on a file system the nodes share (WYNOT_TMPDIR)"
	}
	if lost == "" && (oomLine.Match(r.Stderr) || strings.Contains(task, "Out Of Memory")) {
		lost = "the step ran out of memory (Slurm's memory limit)"
	}
	if lost == "" && task == "" && r.Exit != 0 && !stopped {
		if m := srunErrorLine.FindSubmatch(r.Stderr); m != nil {
			lost = "srun: " + string(m[1])
		}
	}
	if lost != "" {
		// What srun said stays in the output, where the log shows it.
		r.Lost = "unresolved: " + lost
		return nil
	}
	r.Stderr = oomLine.ReplaceAll(stepCancelledLine.ReplaceAll(srunTaskLine.ReplaceAll(r.Stderr, nil), nil), nil)
	if r.Exit > 128 && r.Signal == 0 && task != "" && !strings.HasPrefix(task, "Exited with exit code") {
		r.Exit, r.Signal = -1, syscall.Signal(r.Exit-128)
	}
	if stopped && !r.TimedOut {
		r.Exit, r.Signal = -1, syscall.SIGKILL
	}
	return nil
}

// lockedTail is a tail safe for concurrent writes and reads.
type lockedTail struct {
	mu sync.Mutex
	runner.Tail
}

func (t *lockedTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.Tail.Write(p)
}

func (t *lockedTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.Bytes()))
}

// indentTail is ": " and text indented on lines of its own, or "".
func indentTail(text string) string {
	if text == "" {
		return ""
	}
	return ":\n    " + strings.ReplaceAll(text, "\n", "\n    ")
}
