package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wynot/wynot/runner/slurm"

	"github.com/wynot/wynot/runner"
	"github.com/wynot/wynot/runner/remote"
)

// ExecFlags say where tests run: --exec and the settings of each
// executor.
type ExecFlags struct {
	Exec        string // local, slurm, or reapi://HOST:PORT[/INSTANCE] (grpcs:// for TLS)
	CPUsPerTest int
	SlurmArgs   string
	SrunArgs    string
	SlurmSteps  string // test (a job step per test) or slot (one per work slot, through an agent)
	// Remote execution.
	RemoteInputs      listFlag
	RemoteHeaders     listFlag
	RemoteCredentials string
	Platform          listFlag
	RemoteEnv         listFlag
	// RemoteQueueTimeout bounds the time remote tests wait in the
	// service's queue while none executes; zero for no bound.
	RemoteQueueTimeout time.Duration
	// Sandbox confines each local test (runner.Sandbox): it writes only
	// its work directory and SandboxWrite, does not see the home
	// directory, and reaches the network only with SandboxNet.
	Sandbox      bool
	SandboxWrite listFlag
	SandboxNet   bool
}

// listFlag is a flag that may be given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func (e *ExecFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.Exec, "exec", "", "where tests run: local, slurm, or reapi://HOST:PORT[/INSTANCE] (default $WYNOT_EXEC, else local)")
	fs.IntVar(&e.CPUsPerTest, "cpus-per-test", 1, "CPUs each test gets under --exec slurm (srun -c)")
	fs.StringVar(&e.SlurmArgs, "slurm-args", "", "arguments for salloc when wynot obtains the Slurm allocation itself")
	fs.StringVar(&e.SrunArgs, "srun-args", "", "arguments for every srun that runs a test (memory, time limit)")
	fs.StringVar(&e.SlurmSteps, "slurm-steps", "test", "under --exec slurm: test (a job step per test, with Slurm's limits per test) or slot (one long-lived step per work slot running its tests, each as cheap as a local one; --srun-args limits then apply to the slot)")
	fs.Var(&e.RemoteInputs, "remote-input", "a file or directory the test needs besides the candidate, sent with every remote test (repeatable)")
	fs.Var(&e.RemoteHeaders, "remote-header", "KEY=VALUE header sent with every remote call (repeatable)")
	fs.StringVar(&e.RemoteCredentials, "remote-credentials", "", "file holding a token sent as \"authorization: Bearer TOKEN\" to the remote service")
	fs.Var(&e.Platform, "platform", "KEY=VALUE platform property a remote worker must have (repeatable)")
	fs.DurationVar(&e.RemoteQueueTimeout, "remote-queue-timeout", remote.QueueTimeout, "how long remote tests may wait in the service's queue while none of them executes (its workers gone?) before wynot gives up, keeping its best result; 0 waits without bound")
	fs.BoolVar(&e.Sandbox, "sandbox", false, "confine each test (Linux, bubblewrap): it writes only its private directory, does not see your home directory, and reaches no network")
	fs.Var(&e.SandboxWrite, "sandbox-write", "with --sandbox: a directory the tests may write too, e.g. $(go env GOCACHE) (repeatable)")
	fs.BoolVar(&e.SandboxNet, "sandbox-net", false, "with --sandbox: leave the network reachable")
	fs.Var(&e.RemoteEnv, "remote-env", "KEY=VALUE, or KEY for wynot's own value, set in every remote test's environment (repeatable; a remote test gets only PATH and what the test sets otherwise)")
}

// execKind is the executor the flags and WYNOT_EXEC name.
func (inv *Invocation) execKind() string {
	e := inv.Flags.ExecFlags.Exec
	if e == "" {
		e = os.Getenv("WYNOT_EXEC")
	}
	if e == "" {
		return "local"
	}
	return e
}

// checkExecFlags rejects executor settings that nothing would read.
func (inv *Invocation) checkExecFlags() error {
	kind := inv.execKind()
	isRemote := remote.IsTarget(kind)
	switch {
	case kind != "local" && kind != "slurm" && !isRemote:
		return fmt.Errorf("unknown --exec %q (want local, slurm, or reapi://HOST:PORT[/INSTANCE])", kind)
	case inv.Flags.CPUsPerTest < 1:
		return fmt.Errorf("--cpus-per-test must be at least 1")
	case inv.Flags.SlurmSteps != "test" && inv.Flags.SlurmSteps != "slot":
		return fmt.Errorf("--slurm-steps %q: want test or slot", inv.Flags.SlurmSteps)
	}
	for _, name := range []string{"cpus-per-test", "slurm-args", "srun-args", "slurm-steps"} {
		if inv.IsSet(name) && kind != "slurm" {
			return fmt.Errorf("--%s applies to --exec slurm", name)
		}
	}
	if inv.Flags.RemoteQueueTimeout < 0 {
		return fmt.Errorf("--remote-queue-timeout %s is negative", inv.Flags.RemoteQueueTimeout)
	}
	for _, name := range []string{"remote-input", "remote-header", "remote-credentials", "platform", "remote-env", "remote-queue-timeout"} {
		if inv.IsSet(name) && !isRemote {
			return fmt.Errorf("--%s applies to --exec reapi://HOST:PORT", name)
		}
	}
	for _, name := range []string{"sandbox-write", "sandbox-net"} {
		if inv.IsSet(name) && !inv.Flags.Sandbox {
			return fmt.Errorf("--%s applies to --sandbox", name)
		}
	}
	if inv.Flags.Sandbox && kind != "local" {
		return fmt.Errorf("--sandbox confines tests on this machine; with --exec %s they run elsewhere (a remote action runs in its own sandbox already)", kind)
	}
	return nil
}

// sandbox sets up the sandbox --sandbox asks for; where tests cannot be
// confined here, it says why and the tests run as they would without.
func (inv *Invocation) sandbox(ctx context.Context, say func(string, ...any)) error {
	if !inv.Flags.Sandbox {
		return nil
	}
	sb, err := runner.NewSandbox(ctx, inv.Flags.SandboxWrite, inv.Flags.SandboxNet)
	switch {
	case errors.Is(err, runner.ErrNoSandbox):
		say("--sandbox: %v; the tests run unconfined", err)
		return nil
	case err != nil:
		return InputError("%v", err)
	}
	inv.Test.Sandbox = sb
	say("each test runs %s", sb)
	return nil
}

// executor makes the executor the flags name, nil for local processes,
// once the job is known: a persistent test (a debugger) runs locally.
func (inv *Invocation) executor(ctx context.Context, say func(string, ...any)) (runner.Executor, error) {
	kind := inv.execKind()
	if kind == "local" {
		return nil, nil
	}
	if inv.Test.Persistent {
		return nil, InputError("--exec %s: this command keeps a debugger running per test slot, which runs on this machine only; leave --exec out", kind)
	}
	if kind == "slurm" {
		opts := slurm.Options{
			CPUs: inv.Flags.CPUsPerTest, Tasks: inv.Flags.Jobs,
			AllocArgs: strings.Fields(inv.Flags.SlurmArgs), StepArgs: strings.Fields(inv.Flags.SrunArgs), Say: say}
		if inv.Flags.SlurmSteps == "slot" {
			exe, err := os.Executable()
			if err != nil {
				return nil, InputError("--slurm-steps slot: cannot find wynot's own executable for the test agents: %v", err)
			}
			opts.Agent = []string{exe, runner.AgentFlag}
		}
		s, err := slurm.New(ctx, opts)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, InputError("%v", err)
		}
		if !inv.IsSet("j") {
			inv.Flags.Jobs = s.Tasks
		}
		if os.Getenv("WYNOT_TMPDIR") == "" && !s.OnThisHost() {
			// Work directories in memory on this machine are not seen by
			// other nodes: by default they go where a cluster's nodes
			// usually share files, the home directory (checked by a
			// first step all the same).
			if cache, err := os.UserCacheDir(); err == nil {
				dir := filepath.Join(cache, "wynot", "tmp")
				if err := os.MkdirAll(dir, 0o700); err == nil {
					os.Setenv("WYNOT_TMPDIR", dir)
					say("work directories go to %s, which the nodes of %s must share (WYNOT_TMPDIR chooses another)", dir, s)
				}
			}
		}
		return s, nil
	}
	return newRemote(ctx, inv, kind)
}

// newRemote makes the executor of a remote execution service.
func newRemote(_ context.Context, inv *Invocation, target string) (runner.Executor, error) {
	f := inv.Flags.ExecFlags
	if inv.Test.Dir != "" {
		return nil, InputError("--exec %s: this command runs its test in %s, which a remote worker does not have; the test must run in the candidate's directory", target, inv.Test.Dir)
	}
	queue := f.RemoteQueueTimeout
	if queue == 0 {
		queue = -1 // no bound
	}
	e, err := remote.New(remote.Options{Target: target, Inputs: f.RemoteInputs, Headers: f.RemoteHeaders,
		CredentialsFile: f.RemoteCredentials, Platform: f.Platform, Env: f.RemoteEnv, QueueTimeout: queue, Say: inv.Say})
	if err != nil {
		return nil, InputError("%v", err)
	}
	return e, nil
}

// AgentMain makes wynot a test agent when its arguments are the agent
// flag (how --slurm-steps slot starts it in a job step): it serves the
// tests it is sent and exits. Otherwise it returns.
func AgentMain(args []string) {
	if len(args) == 1 && args[0] == runner.AgentFlag {
		runner.MainAgent()
	}
}

// AdoptOrphans makes wynot the reaper of what its tests detach
// (runner.AdoptOrphans): every process a test starts ends with the
// test, however it detaches. Only wynot's main function calls it, since
// it reaps children that nothing else waits for.
func AdoptOrphans() { runner.AdoptOrphans() }

// EndOrphans ends, at the end of a run, whatever detached process of a
// test is still running (runner.EndOrphans).
func EndOrphans() { runner.EndOrphans() }
