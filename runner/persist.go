package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A persistent test process (Command.Persistent) serves the tests of one
// work slot, one at a time, instead of a process per test: a debugger
// that would spend most of a test starting up. The runner writes the
// candidate's files into the slot as for any test, then one line to the
// process's standard input, three paths separated by tabs: where the
// test's standard output goes, where its standard error goes, and the
// candidate's first file ("" without files). The process runs the test
// and answers with one line on its standard output: "exit N" or
// "signal N". The runner kills its whole process group when a test times
// out, when the test's context ends, when it answers anything else or
// dies, and when the Tester closes; the next test starts a new one.

// server is the persistent process of one work slot.
type server struct {
	cmd     *exec.Cmd
	in      io.Writer
	out     *bufio.Reader
	pgid    int
	unguard func()
	stderr  *Tail
	dead    chan struct{} // closed when the process has been waited for
}

// kill ends the server's process group and waits for it.
func (s *server) kill() {
	_ = syscall.Kill(-s.pgid, syscall.SIGKILL)
	<-s.dead
	s.unguard()
}

// servers holds the persistent processes of a Tester, by slot.
type servers struct {
	mu sync.Mutex
	m  map[string]*server
}

func (ss *servers) take(slot string) *server {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s := ss.m[slot]
	delete(ss.m, slot)
	return s
}

func (ss *servers) put(slot string, s *server) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.m == nil {
		ss.m = map[string]*server{}
	}
	ss.m[slot] = s
}

// closeAll kills every server.
func (ss *servers) closeAll() {
	ss.mu.Lock()
	all := ss.m
	ss.m = nil
	ss.mu.Unlock()
	for _, s := range all {
		s.kill()
	}
}

// startServer starts the persistent process for a slot.
func startServer(c Command, slot string) (*server, error) {
	if len(c.Argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrStart)
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = slot
	if c.Dir != "" {
		cmd.Dir = c.Dir
	}
	cmd.Env = c.Env
	// What the server's tests detach carries its tag, and ends with it.
	tag := beginTest(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		endTest(tag)
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		endTest(tag)
		return nil, err
	}
	s := &server{cmd: cmd, in: inW, out: bufio.NewReader(outR), stderr: &Tail{Limit: OutputLimit}, dead: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, s.stderr
	cmd.WaitDelay = 100 * time.Millisecond
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = StartChild(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		endTest(tag)
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	s.pgid = cmd.Process.Pid
	s.unguard = guarded(s.pgid)
	go func() {
		_ = WaitChild(cmd)
		inW.Close()
		outR.Close()
		_ = syscall.Kill(-s.pgid, syscall.SIGKILL)
		endTest(tag)
		close(s.dead)
	}()
	return s, nil
}

// serve runs a test through the slot's persistent process, and its
// paired run (Command.Paired) through the slot's paired one.
func (t *Tester) serve(ctx context.Context, slot string, c Candidate, timeout time.Duration) (Run, error) {
	if err := prepare(slot, c.Files); err != nil {
		return Run{Exit: -1}, err
	}
	cmd := t.Command
	if timeout > 0 {
		cmd.Timeout = timeout
	}
	r, err := t.serveOne(ctx, cmd, &t.servers, slot, c, c.Started)
	if err != nil || cmd.Paired == nil || r.TimedOut || r.Lost != "" {
		return r, err
	}
	pc := *cmd.Paired
	pc.Timeout = cmd.Timeout
	r2, err := t.serveOne(ctx, pc, &t.paired, slot, c, nil)
	if err != nil {
		return r, err
	}
	return paired(r, r2), nil
}

// serveOne runs a test through the persistent process of cmd in ss for
// the slot, whose files are in place.
func (t *Tester) serveOne(ctx context.Context, cmd Command, ss *servers, slot string, c Candidate, started func()) (Run, error) {
	outs := t.outs[slot]
	for _, o := range outs {
		if err := o.reset(); err != nil {
			return Run{Exit: -1}, err
		}
	}
	first := ""
	for _, f := range c.Files {
		if cmd.File == "" || f.Name == cmd.File {
			first = filepath.Join(slot, f.Name)
			break
		}
	}
	s := ss.take(slot)
	if s == nil {
		var err error
		if s, err = startServer(cmd, slot); err != nil {
			return Run{Exit: -1}, err
		}
	}
	start := time.Now()
	if started != nil {
		started()
	}
	answer := make(chan string, 1)
	go func() {
		line, err := s.out.ReadString('\n')
		if err != nil {
			line = ""
		}
		answer <- line
	}()
	req := fmt.Sprintf("%s\t%s\t%s\n", outs[0].f.Name(), outs[1].f.Name(), first)
	if _, err := io.WriteString(s.in, req); err != nil {
		s.kill()
		return t.serverDied(s, outs, start), nil
	}
	var timeout <-chan time.Time
	if cmd.Timeout > 0 {
		tm := time.NewTimer(cmd.Timeout)
		defer tm.Stop()
		timeout = tm.C
	}
	r := Run{}
	select {
	case line := <-answer:
		r.Duration = time.Since(start)
		f := strings.Fields(line)
		n := -1
		if len(f) == 2 {
			n, _ = strconv.Atoi(f[1])
		}
		switch {
		case len(f) == 2 && f[0] == "exit" && n >= 0:
			r.Exit = n
		case len(f) == 2 && f[0] == "signal" && n > 0:
			r.Exit, r.Signal = -1, syscall.Signal(n)
		default:
			s.kill()
			return t.serverDied(s, outs, start), nil
		}
		if r.Exit == 124 {
			r.TimedOut = true
		}
		ss.put(slot, s)
	case <-timeout:
		s.kill()
		r = Run{Exit: -1, Signal: syscall.SIGKILL, TimedOut: true, Duration: time.Since(start)}
	case <-ctx.Done():
		s.kill()
		r = Run{Exit: -1, Signal: syscall.SIGKILL, Duration: time.Since(start)}
		r.Stdout, r.Stderr = outs[0].tail(OutputLimit), outs[1].tail(OutputLimit)
		return r, ctx.Err()
	}
	r.Stdout, r.Stderr = outs[0].tail(OutputLimit), outs[1].tail(OutputLimit)
	return r, nil
}

// serverDied is the run of a test whose persistent process died or
// answered nonsense: unresolved (status 125), with its error output.
func (t *Tester) serverDied(s *server, outs []*capture, start time.Time) Run {
	msg := strings.TrimSpace(string(s.stderr.Bytes()))
	if msg == "" {
		msg = "no message"
	}
	return Run{Exit: 125, Duration: time.Since(start), Stdout: outs[0].tail(OutputLimit),
		Stderr: append(outs[1].tail(OutputLimit), []byte("\nwynot: the persistent test process died: "+msg+"\n")...)}
}
