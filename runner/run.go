// Package runner is the only part of wynot that starts processes. It puts
// a candidate input into a private work directory, runs the user's test on
// it with a timeout, in a process group of its own that is killed as a
// whole, classifies the run as pass, fail or unresolved (by the original
// failure's signature, a regular expression, or the exit code of a test
// script), and caches outcomes by the candidate's content.
package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Placeholder in a command's arguments stands for the candidate's path.
const Placeholder = "{}"

// File is one file of a candidate, placed in the work directory under Name.
type File struct {
	Name string
	Data []byte
}

// Command is how to run the test on a candidate.
type Command struct {
	// Argv is the program and its arguments. Every "{}" in an argument is
	// replaced by the path of the candidate's first file. The program is
	// run directly, never through a shell; write "sh -c ..." to get one.
	Argv []string
	// Stdin feeds the first file's content on standard input; otherwise
	// standard input is empty.
	Stdin bool
	// Timeout bounds each run; the process group is killed when it
	// expires. Zero means no limit.
	Timeout time.Duration
	// Env is the environment; nil inherits wynot's. Every "{}" in it is
	// replaced as in Argv.
	Env []string
	// Dir, when set, is where the test runs instead of the work
	// directory, which still holds the candidate's files (a program run
	// in the user's directory that finds its candidate through Env).
	Dir string
	// Input, when set, is the test's standard input (instead of Stdin).
	Input []byte
	// Persistent keeps one process of the command running per work slot
	// and sends it each test, by the protocol described in persist.go,
	// instead of starting a process per test. Stdin, Input and "{}" do
	// not apply: the process is told where the candidate's first file is.
	Persistent bool
	// Sandbox, when set, confines each test (local tests only).
	Sandbox *Sandbox
	// File, when set, names the candidate's file that "{}" stands for
	// (and that Stdin feeds) instead of its first.
	File string
	// Paired, when set, is a second process of every test, run after
	// the first (unless that one timed out or was lost) with the same
	// candidate in the same work directory, by its own Argv, Env, Dir,
	// Input and File; Timeout and Sandbox are the first's. Its Run is
	// the first's Run.Paired, and a test of both is what an oracle
	// classifies: wynot trace --pass runs the failing and the passing
	// program with one plan. With Persistent, the paired command is a
	// persistent process of its own per work slot.
	Paired *Command
	// Name, when set, is how messages name the process ("the passing
	// run" for a paired one).
	Name string
	// literal, when above zero, is where Argv's arguments that are
	// values, not a template, begin (a candidate's own arguments: "{}"
	// there is what the program gets).
	literal int
}

// Run is what one run of a test did.
type Run struct {
	Exit     int            // exit status; -1 when killed by a signal or not started
	Signal   syscall.Signal // the signal that killed it, or 0
	TimedOut bool           // killed because the timeout expired (or exit status 124, as from timeout(1))
	Stdout   []byte         // the last OutputLimit bytes of standard output
	Stderr   []byte         // the last OutputLimit bytes of standard error
	Duration time.Duration
	// Lost, when set, says why the test's own outcome is unknown: what
	// ran it ended it (Slurm's time limit, out of memory, a node
	// failure), and the run is unresolved whatever its exit status.
	Lost string
	// Paired is the run of Command.Paired in the same test, when it
	// ran. TimedOut and Lost are then set when they are set for either
	// run, and Duration is that of both.
	Paired *Run
}

// OutputLimit is how much of each output stream a Run keeps (the end of it).
const OutputLimit = 256 << 10

// Clean reports whether the run exited with status 0 in time.
func (r Run) Clean() bool { return r.Exit == 0 && r.Signal == 0 && !r.TimedOut }

// Describe says in a few words how the run ended: "exit status 2",
// "killed by SIGSEGV", "timed out after 1s".
func (r Run) Describe() string {
	switch {
	case r.Lost != "":
		return r.Lost
	case r.TimedOut && r.Exit == 124:
		return "exit status 124 (timed out)"
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s", r.Duration.Round(time.Millisecond))
	case r.Signal != 0:
		return "killed by " + SignalName(r.Signal)
	}
	return fmt.Sprintf("exit status %d", r.Exit)
}

// Explain tells what a run did and how its output ends, for messages
// about a run that did not do what was expected of it.
func (r Run) Explain() string {
	var b strings.Builder
	b.WriteString(r.Describe())
	out := r.Stderr
	if len(bytes.TrimSpace(out)) == 0 {
		out = r.Stdout
	}
	if t := LastLines(out, 8); t != "" {
		b.WriteString("; its output ends:\n" + t)
	} else {
		b.WriteString(", with no output")
	}
	return b.String()
}

// LastLines is the last n lines of b, indented, or "" when they are blank.
func LastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// SignalName returns the conventional name of a signal, e.g. "SIGSEGV".
func SignalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGABRT: "SIGABRT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGBUS: "SIGBUS",
		syscall.SIGFPE: "SIGFPE", syscall.SIGILL: "SIGILL", syscall.SIGKILL: "SIGKILL",
		syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT", syscall.SIGTRAP: "SIGTRAP",
		syscall.SIGPIPE: "SIGPIPE", syscall.SIGQUIT: "SIGQUIT", syscall.SIGSYS: "SIGSYS",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

// ErrStart wraps failures to start a test program (not found, not
// executable, ...), which no candidate can change.
var ErrStart = errors.New("cannot start the test")

// WorkDir is a directory the runner owns: a run in it empties it first
// (Command.ExecIn). Never the user's directory.
type WorkDir string

// Exec runs c where it says (Command.Dir), else in the current
// directory, and writes nothing there. It returns when the process has
// exited and every process of its group has been killed. An error means
// the test could not be started; the end of ctx kills the test and
// returns ctx.Err().
func (c *Command) Exec(ctx context.Context) (Run, error) {
	return c.exec(ctx, "", nil, nil)
}

// ExecIn is Exec in the work directory w, on files, which it writes
// into w first: w is emptied before. An error also means the work
// directory could not be prepared.
func (c *Command) ExecIn(ctx context.Context, w WorkDir, files []File) (Run, error) {
	return c.exec(ctx, string(w), nil, files)
}

// Output runs c in the current directory and returns its standard
// output; a run that does not end cleanly (exit status 0, in time) is
// an error that explains how it ended.
func (c *Command) Output(ctx context.Context) ([]byte, error) {
	run, err := c.Exec(ctx)
	if err != nil {
		return nil, err
	}
	if !run.Clean() {
		return nil, errors.New(run.Explain())
	}
	return run.Stdout, nil
}

// exec is Exec; with outs set (two captures, for standard output and
// error), the test's output goes to them instead of through pipes.
func (c *Command) exec(ctx context.Context, dir string, outs []*capture, files []File) (Run, error) {
	if dir == "" {
		if len(files) > 0 {
			return Run{Exit: -1}, errors.New("runner: files need a work directory")
		}
	} else if err := prepare(dir, files); err != nil {
		return Run{Exit: -1}, err
	}
	p := c.process(dir, files)
	p.outs = outs
	return Local.Execute(ctx, p)
}

func substitute(argv []string, path string) []string {
	if argv == nil {
		return nil
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.ReplaceAll(a, Placeholder, path)
	}
	return out
}

// prepare empties dir and writes files into it. It uses system calls
// directly: os.Open and os.WriteFile add an fstat (and a poller
// registration attempt) per file, which is measurable against a test
// that takes half a millisecond.
func prepare(dir string, files []File) error {
	names, err := readDirNames(dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		// Everything the previous test left behind goes, the candidate's
		// own files too: writing a fresh file is much cheaper than
		// truncating an old one on some file systems (ext4 flushes a
		// truncated-and-rewritten file).
		p := dir + "/" + name
		if err := syscall.Unlink(p); err != nil {
			if err != syscall.EISDIR {
				return &os.PathError{Op: "remove", Path: p, Err: err}
			}
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if strings.ContainsRune(f.Name, filepath.Separator) {
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				return err
			}
		}
		if err := writeFile(p, f.Data); err != nil {
			return err
		}
	}
	return nil
}

func readDirNames(dir string) ([]string, error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	var names []string
	var buf [8192]byte
	for {
		n, err := syscall.ReadDirent(fd, buf[:])
		if err != nil {
			return nil, &os.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
}

func writeFile(path string, data []byte) error {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return &os.PathError{Op: "write", Path: path, Err: err}
		}
		data = data[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &os.PathError{Op: "close", Path: path, Err: err}
	}
	return nil
}

// devNull is standard input for tests that get none, opened once.
var devNull = sync.OnceValues(func() (*os.File, error) { return os.Open(os.DevNull) })

// Tail is a writer that keeps the last Limit bytes written to it: the
// output of a helper process (srun, a persistent test server) kept for
// messages, as much as a test's own output is.
type Tail struct {
	buf   []byte
	Limit int
}

// Write keeps the end of what was written.
func (t *Tail) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.Limit {
		t.buf = append(t.buf[:0], p[len(p)-t.Limit:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.Limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// Bytes returns what is kept.
func (t *Tail) Bytes() []byte { return t.buf }

// execute runs argv as a process group of its own in dir, stopped by
// ctl on timeout or when ctx ends.
func execute(ctx context.Context, dir string, outs []*capture, argv []string, stdin []byte, env []string, timeout time.Duration, ctl procControl) (Run, error) {
	if len(argv) == 0 {
		return Run{Exit: -1}, fmt.Errorf("%w: empty command", ErrStart)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	defer endTest(beginTest(cmd))
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	} else if f, err := devNull(); err == nil {
		cmd.Stdin = f
	}
	var stdout, stderr *Tail
	if outs != nil {
		for _, c := range outs {
			if err := c.reset(); err != nil {
				return Run{Exit: -1}, err
			}
		}
		cmd.Stdout, cmd.Stderr = outs[0].f, outs[1].f
		defer watch(outs...)()
	} else {
		stdout, stderr = &Tail{Limit: OutputLimit}, &Tail{Limit: OutputLimit}
		cmd.Stdout, cmd.Stderr = stdout, stderr
	}
	// A process group of its own, so that the whole test (a script and
	// everything it starts) can be killed at once; and SIGKILL for the
	// test if wynot dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: ctl.deathSignal}
	// If a background process keeps the output pipes open after the test
	// exits, stop waiting for it soon; it is killed below.
	cmd.WaitDelay = 100 * time.Millisecond

	if !ctl.unguarded {
		guard.ready()
	}
	start := time.Now()
	// The parent-death signal is tied to the thread that starts the
	// child; startChild keeps the goroutine on one thread while
	// starting. (Go does not end threads that goroutines merely ran on.)
	if err := StartChild(cmd); err != nil {
		return Run{Exit: -1}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	pgid := cmd.Process.Pid
	if ctl.started != nil {
		ctl.started()
	}
	unguard := func() {}
	if !ctl.unguarded {
		unguard = guarded(pgid)
	}
	// Stop the whole group on timeout or when ctx ends: by ctl.stop, or
	// in steps that let the test clean up (stop.go). Timers and context
	// callbacks cost no goroutine unless they fire.
	stopper := &groupStopper{pgid: pgid}
	stop := stopper.stop
	if ctl.stop != nil {
		stop = func() { ctl.stop(pgid) }
	}
	var timedOut atomic.Bool
	var expiry *time.Timer
	if timeout > 0 {
		expiry = time.AfterFunc(timeout, func() {
			timedOut.Store(true)
			stop()
		})
	}
	stopCancel := context.AfterFunc(ctx, stop)
	_ = WaitChild(cmd) // the exit status is read from ProcessState below
	stopCancel()
	if expiry != nil {
		expiry.Stop()
	}
	stopper.finish()
	// Nothing of the test outlives it: its group is killed here, and
	// what left the group (endTest, deferred) once the group is gone.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	unguard()

	// A run that outlasted its timeout timed out, also when it ended
	// before the timer's kill got to it (a busy machine).
	r := Run{Duration: time.Since(start), TimedOut: timedOut.Load()}
	if timeout > 0 && r.Duration > timeout {
		r.TimedOut = true
	}
	if outs != nil {
		r.Stdout, r.Stderr = outs[0].tail(OutputLimit), outs[1].tail(OutputLimit)
	} else {
		r.Stdout, r.Stderr = stdout.buf, stderr.buf
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.Exit, r.Signal = -1, ws.Signal()
	} else {
		r.Exit = cmd.ProcessState.ExitCode()
	}
	if r.Exit == 124 {
		r.TimedOut = true
	}
	if ctx.Err() != nil && !r.TimedOut {
		return r, ctx.Err()
	}
	return r, nil
}
