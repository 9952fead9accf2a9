package slurm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/wynot/wynot/runner"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// slot is one long-lived Slurm job step running a test agent
// (ServeAgent): the tests of one work slot run through it, each a local
// process on the step's node, so that a test costs what a local one
// does instead of a job step's start (tens of milliseconds).
type slot struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	enc  *json.Encoder
	// replies holds room for the reply of a cancelled test that came
	// after the slot was given up, so that the reader never blocks.
	replies chan runner.AgentReply
	done    chan struct{} // closed when the step (srun) has ended
	stderr  lockedTail    // what srun and slurmstepd said
	exit    int           // srun's exit status, once done
}

// send writes a request to the agent.
func (sl *slot) send(r runner.AgentRequest) error { return sl.enc.Encode(r) }

// ended says whether the step has ended.
func (sl *slot) ended() bool {
	select {
	case <-sl.done:
		return true
	default:
		return false
	}
}

// slots is the pool of a Slurm executor's agents: at most Tasks, started
// when first needed, each serving one test at a time.
type slots struct {
	mu   sync.Mutex
	n    int // started and not forgotten
	idle chan *slot
	all  map[*slot]bool
}

// getSlot takes an idle agent, or starts one while fewer than Tasks run
// and none is idle, or waits for one to be free. An agent whose step
// ended while idle is dropped.
func (s *Executor) getSlot(ctx context.Context) (*slot, error) {
	for {
		s.pool.mu.Lock()
		start := s.pool.n < s.Tasks && len(s.pool.idle) == 0
		if start {
			s.pool.n++
		}
		s.pool.mu.Unlock()
		if start {
			sl, err := s.startSlot(ctx)
			if err != nil {
				s.pool.mu.Lock()
				s.pool.n--
				s.pool.mu.Unlock()
			}
			return sl, err
		}
		select {
		case sl := <-s.pool.idle:
			if !sl.ended() {
				return sl, nil
			}
			s.forget(sl)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// forget drops an agent whose step ended.
func (s *Executor) forget(sl *slot) {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	if s.pool.all[sl] {
		delete(s.pool.all, sl)
		s.pool.n--
	}
}

// startSlot starts an agent as a job step of the allocation.
func (s *Executor) startSlot(ctx context.Context) (*slot, error) {
	sl := &slot{name: fmt.Sprintf("wynot-%d-slot-%d", os.Getpid(), s.seq.Add(1)), replies: make(chan runner.AgentReply, 2), done: make(chan struct{})}
	sl.stderr.Limit = 64 << 10
	argv := []string{"--jobid=" + s.JobID, "--exact", "-n1", "-c", strconv.Itoa(s.opts.CPUs),
		"--quiet", "--unbuffered", "--job-name=" + sl.name}
	argv = append(argv, s.opts.StepArgs...)
	argv = append(append(argv, "--"), s.opts.Agent...)
	sl.cmd = exec.Command(s.srun, argv...)
	// srun cancels its step on SIGTERM, also when wynot dies.
	sl.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	sl.cmd.Stderr = &sl.stderr
	in, err := sl.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := sl.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := runner.StartChild(sl.cmd); err != nil {
		return nil, fmt.Errorf("%w: --exec slurm: %v", runner.ErrStart, err)
	}
	sl.in, sl.enc = in, json.NewEncoder(in)
	go func() {
		dec := json.NewDecoder(bufio.NewReader(out))
		for {
			var r runner.AgentReply
			if err := dec.Decode(&r); err != nil {
				break
			}
			sl.replies <- r
		}
		_, _ = io.Copy(io.Discard, out)
		err := runner.WaitChild(sl.cmd)
		sl.exit = sl.cmd.ProcessState.ExitCode()
		if err != nil && sl.exit == 0 {
			sl.exit = -1
		}
		close(sl.done)
	}()
	s.pool.mu.Lock()
	s.pool.all[sl] = true
	s.pool.mu.Unlock()
	return sl, nil
}

// executeInSlot runs p through an agent.
func (s *Executor) executeInSlot(ctx context.Context, p runner.Process, dir string) (runner.Run, error) {
	sl, err := s.getSlot(ctx)
	if err != nil {
		return runner.Run{Exit: -1}, err
	}
	id := s.seq.Add(1)
	req := runner.AgentRequest{ID: id, Argv: p.Argv, Env: p.Env, Dir: dir, Stdin: p.Stdin, NoStdin: p.Stdin == nil, Timeout: p.Timeout}
	if err := sl.send(req); err != nil {
		// The agent no longer reads: its step is ending.
		s.stopSlot(sl)
		return s.slotEnded(sl)
	}
	// The agent starts the test as it reads the request.
	if p.Started != nil {
		p.Started()
	}
	select {
	case rep := <-sl.replies:
		if rep.ID != id {
			// Not this test's: the agent is not to be trusted.
			s.stopSlot(sl)
			s.forget(sl)
			return runner.Run{Exit: -1}, fmt.Errorf("--slurm-steps slot: the test agent answered request %d with the reply to %d", id, rep.ID)
		}
		s.pool.idle <- sl
		return s.fromReply(ctx, rep)
	case <-sl.done:
		select {
		case rep := <-sl.replies:
			// The test ended, then the step (Close, say).
			s.forget(sl)
			if rep.ID == id {
				return s.fromReply(ctx, rep)
			}
		default:
		}
		return s.slotEnded(sl)
	case <-ctx.Done():
		_ = sl.send(runner.AgentRequest{ID: id, Cancel: true})
		select {
		case rep := <-sl.replies:
			s.pool.idle <- sl
			return rep.Run, ctx.Err()
		case <-sl.done:
			s.forget(sl)
		case <-time.After(stepGrace):
			s.stopSlot(sl)
			s.forget(sl)
		}
		return runner.Run{Exit: -1, Signal: syscall.SIGKILL}, ctx.Err()
	}
}

// fromReply is the runner.Run and error of an agent's reply.
func (s *Executor) fromReply(ctx context.Context, rep runner.AgentReply) (runner.Run, error) {
	switch {
	case rep.Start:
		return rep.Run, fmt.Errorf("%w (Slurm step): %s", runner.ErrStart, trimStart(rep.Err))
	case rep.Canceled:
		return rep.Run, ctx.Err()
	case rep.Err != "":
		return rep.Run, errors.New(rep.Err)
	}
	return rep.Run, nil
}

// trimStart drops runner.ErrStart's own words from an agent's message, which
// the executor's error says again.
func trimStart(msg string) string {
	rest, _ := strings.CutPrefix(msg, runner.ErrStart.Error()+": ")
	return rest
}

// slotEnded is the outcome of a test whose agent's step ended under it:
// Slurm ended the step (its time limit, out of memory, a node failure,
// a cancellation) and the test's own outcome is unknown, or the
// allocation is gone.
func (s *Executor) slotEnded(sl *slot) (runner.Run, error) {
	s.forget(sl)
	r := runner.Run{Exit: sl.exit, Stderr: []byte(sl.stderr.String() + "\n")}
	if err := classifySlurm(&r, false); err != nil {
		var gone allocationGone
		if errors.As(err, &gone) {
			err = fmt.Errorf("%w: the Slurm allocation (job %s) is gone, cancelled or past its time limit (srun: %s)", runner.ErrStart, s.JobID, string(gone))
		}
		return r, err
	}
	if r.Lost == "" {
		r.Lost = fmt.Sprintf("unresolved: the job step running the tests (%s) ended (srun exit status %d)", sl.name, sl.exit)
	}
	return r, nil
}

// stopSlot ends an agent's step: SIGTERM to srun, which cancels the
// step; scancel if it has not ended after a grace period.
func (s *Executor) stopSlot(sl *slot) {
	_ = sl.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-sl.done:
	case <-time.After(stepGrace):
		s.cancelStep(sl.name)
		_ = syscall.Kill(-sl.cmd.Process.Pid, syscall.SIGKILL)
		<-sl.done
	}
}

// closeSlots ends every agent: its input closes, so it ends its test (if
// any) and exits, and its step ends; those that do not are stopped.
func (s *Executor) closeSlots() {
	s.pool.mu.Lock()
	all := make([]*slot, 0, len(s.pool.all))
	for sl := range s.pool.all {
		all = append(all, sl)
	}
	s.pool.mu.Unlock()
	var wg sync.WaitGroup
	for _, sl := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sl.in.Close()
			select {
			case <-sl.done:
			case <-time.After(stepGrace):
				s.stopSlot(sl)
			}
		}()
	}
	wg.Wait()
}

// checkAgent runs a first process through an agent, so that an agent
// that cannot start on the nodes (wynot's executable not where the
// nodes see it) is said before the first test.
func (s *Executor) checkAgent(ctx context.Context, dir string) error {
	r, err := s.executeInSlot(ctx, runner.Process{Argv: []string{"true"}, Dir: dir, Timeout: 2 * time.Minute}, dir)
	if err == nil && r.Clean() {
		return nil
	}
	why := r.Describe()
	if err != nil {
		why = err.Error()
	} else if t := runner.LastLines(r.Stderr, 4); t != "" {
		why += ":\n" + t + "\n"
	}
	return fmt.Errorf("--slurm-steps slot: the test agent (%s) does not run in a job step (%s); wynot's executable must be where the nodes see it, or leave --slurm-steps out", strings.Join(s.opts.Agent, " "), why)
}
