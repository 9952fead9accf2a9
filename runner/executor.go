package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/wynot/wynot/internal/rmtree"
)

// An Executor decides how a test process runs: here as a local process
// group (the default, when a Tester has none), as a Slurm job step, or as
// an action of a remote execution service. The Tester prepares the work
// directory and classifies the Run an Executor returns; an Executor only
// runs the process, so that everything above the runner (the algorithms,
// the domains, the commands) is the same whatever runs the tests.
type Executor interface {
	// Execute runs p and returns when it has ended and nothing of it
	// runs any longer. An error means the test could not be run at all
	// (not a failing test); the end of ctx ends the test and returns
	// ctx.Err().
	Execute(ctx context.Context, p Process) (Run, error)
	// Close gives back what the executor holds (an allocation, a
	// connection).
	Close() error
	// String names the executor for messages: "local", "Slurm job 12".
	String() string
}

// A Summarizer is an executor that can say in one line, once the tests
// are done, what running them elsewhere cost (a remote service's cache
// hits, the bytes uploaded); wynot prints it among the closing lines.
type Summarizer interface {
	Summary() string
}

// A Speaker is an executor with things to say while tests run (a
// remote queue that keeps tests waiting); SetSay gives it where wynot's
// own messages go, so that its words reach the user the same way.
type Speaker interface {
	SetSay(say func(format string, args ...any))
}

// A Checker is an Executor that checks, before the first test, that it
// can run tests on the work directories under root: that the nodes of a
// cluster see them, that a server answers.
type Checker interface {
	Check(ctx context.Context, root string) error
}

// A Hinter is an Executor that can say why a test that fails locally may
// not fail where it runs, for the message that the original's failure
// was not reproduced.
type Hinter interface {
	Hint() string
}

// A Placer is an Executor that runs tests in directories of its own,
// not in the work directories wynot makes on this machine (a remote
// service's workers): Where says where, for messages about a test that
// cannot work there.
type Placer interface {
	Where() string
}

// Process is one run of a test, as an Executor sees it.
type Process struct {
	// Argv is the program and its arguments, "{}" already replaced.
	Argv []string
	// Env is the environment; nil inherits wynot's.
	Env []string
	// Dir is where the process runs: the work directory, or the
	// directory the command names (Command.Dir).
	Dir string
	// WorkDir is the work directory holding the candidate: its files, or
	// the tree a Candidate's Setup brought it to ("" when the test runs
	// in place).
	WorkDir string
	// Stdin is the standard input; nil for none.
	Stdin []byte
	// Timeout bounds the run; zero for none.
	Timeout time.Duration
	// Fresh says the run must really happen, not be answered from an
	// executor's own cache of outcomes: a run of a repeated test (whose
	// runs are compared), or of the original (whose duration sets the
	// timeout and whose two runs show whether the failure reproduces).
	Fresh bool
	// Started, when set, is called once when the test begins to
	// execute: its local process has started, or the remote service
	// says the action is executing (not while it waits in a queue). An
	// action answered from a cache never starts.
	Started func()

	outs []*capture // the work slot's output captures, for local processes
	tmp  string     // the work slot's temporary directory, for local processes
}

// local runs a test as a local process group.
type local struct{}

func (local) Execute(ctx context.Context, p Process) (Run, error) {
	ctl := localProc
	ctl.started = p.Started
	env, done := testTemp(p)
	defer done()
	return execute(ctx, p.Dir, p.outs, p.Argv, p.Stdin, env, p.Timeout, ctl)
}

// testTemp gives a local test's process a temporary directory of its
// own as TMPDIR, and as GOTMPDIR where the environment does not set it:
// its work slot's (Process.tmp), else one made for it in the system's
// temporary directory. done empties it (a slot's) or removes it once
// the test has ended: what a test stopped by wynot leaves there (an
// interrupted go command's work directory, a killed test binary's
// t.TempDir) goes with it. The test's environment is p.Env (nil:
// wynot's, with PWD set to p.Dir as os/exec sets it); where it sets
// TMPDIR itself, it is left as it is. Where no directory can be made,
// the environment is left as it is.
func testTemp(p Process) ([]string, func()) {
	env := p.Env
	if sets(env, "TMPDIR") {
		return env, func() {}
	}
	tmp := p.tmp
	var done func()
	if tmp != "" {
		done = func() { emptyDir(tmp) }
	} else {
		var err error
		// Named after this process, so that a wynot killed before it
		// removes it has it removed by the next (MkdirTemp).
		if tmp, err = MkdirTemp("", "test"); err != nil {
			return env, func() {}
		}
		done = func() { rmtree.RemoveAll(tmp) }
	}
	if env == nil {
		env = os.Environ()
		if p.Dir != "" {
			if pwd, err := filepath.Abs(p.Dir); err == nil {
				env = append(env, "PWD="+pwd)
			}
		}
	}
	env = append(slices.Clip(env), "TMPDIR="+tmp)
	if !sets(env, "GOTMPDIR") {
		env = append(env, "GOTMPDIR="+tmp)
	}
	return env, done
}

// sets reports whether the environment env sets the variable name.
func sets(env []string, name string) bool {
	return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
}

// emptyDir makes dir an empty directory again: what is in it goes (one
// read of it when nothing is), and it is made again if it went.
func emptyDir(dir string) {
	f, err := os.Open(dir)
	if err != nil {
		os.RemoveAll(dir)
		os.Mkdir(dir, 0o700)
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	if len(names) > 0 {
		os.Chmod(dir, 0o700)
	}
	for _, n := range names {
		rmtree.RemoveAll(filepath.Join(dir, n))
	}
}

func (local) Close() error   { return nil }
func (local) String() string { return "local" }

// Local is the executor of local processes, which a Tester uses when it
// has none: each test in a process group of its own, killed as a whole.
var Local Executor = local{}

// Control says how a process an executor starts on this machine is
// stopped and guarded, when not as a test's local process group is: a
// Slurm step's srun is told to end with SIGTERM, so that it cancels its
// step, and stays out of the guardian.
type Control struct {
	// Stop ends the process (pid, also its group id) on timeout or
	// cancellation; nil stops its group as a local test's is (SIGINT,
	// then SIGTERM, then SIGKILL).
	Stop func(pid int)
	// DeathSignal is the process's parent-death signal.
	DeathSignal syscall.Signal
	// Unguarded keeps the process out of the guardian, which would kill
	// its group with SIGKILL if wynot died.
	Unguarded bool
}

// Spawn runs p's command on this machine as a process group of its own,
// in p.Dir, stopped by c on timeout or when ctx ends: what an executor
// that reaches elsewhere through a local process (srun) runs. p.Started
// is called once it has started.
func Spawn(ctx context.Context, p Process, c Control) (Run, error) {
	return execute(ctx, p.Dir, p.outs, p.Argv, p.Stdin, p.Env, p.Timeout,
		procControl{stop: c.Stop, deathSignal: c.DeathSignal, unguarded: c.Unguarded, started: p.Started})
}

// procControl says how a started process is stopped and guarded.
type procControl struct {
	// stop ends the process (pid, also its group id) on timeout or
	// cancellation; nil stops its group in steps (groupStopper).
	stop func(pid int)
	// deathSignal is the process's parent-death signal.
	deathSignal syscall.Signal
	// unguarded keeps the process out of the guardian, which would kill
	// its group with SIGKILL if wynot died (a Slurm step's srun must get
	// the chance to cancel its step).
	unguarded bool
	// started, when set, is called once the process has started.
	started func()
}

var localProc = procControl{deathSignal: syscall.SIGKILL}

// process makes the Process of running c on files in dir (already
// prepared): "{}" replaced by the first file's path, the standard input,
// and where it runs.
func (c *Command) process(dir string, files []File) Process {
	p := Process{Argv: c.Argv, Env: c.Env, Dir: dir, WorkDir: dir, Timeout: c.Timeout}
	first := slices.IndexFunc(files, func(f File) bool { return c.File == "" || f.Name == c.File })
	if first >= 0 {
		path := filepath.Join(dir, files[first].Name)
		p.Argv, p.Env = substitute(p.Argv, path), substitute(p.Env, path)
		if c.literal > 0 {
			p.Argv = append(p.Argv[:c.literal:c.literal], c.Argv[c.literal:]...)
		}
	}
	if c.Stdin && first >= 0 {
		p.Stdin = files[first].Data
	}
	if c.Input != nil {
		p.Stdin = c.Input
	}
	if c.Dir != "" {
		p.Dir = c.Dir
	}
	if c.Sandbox != nil {
		p = c.Sandbox.Wrap(p)
	}
	return p
}

// Relative rewrites the arguments of p that name the work directory or
// a path in it relative to the work directory ("." for the directory
// itself): how an executor that runs the test elsewhere, in a copy of
// the work directory as its working directory, passes the candidate.
func (p Process) Relative(args []string) []string {
	if p.WorkDir == "" {
		return args
	}
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case a == p.WorkDir:
			a = "."
		default:
			a = strings.ReplaceAll(a, p.WorkDir+"/", "")
		}
		out[i] = a
	}
	return out
}
