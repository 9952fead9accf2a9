package command

import (
	"context"

	"github.com/wynot/wynot/runner"
	"github.com/wynot/wynot/runner/remote"
)

// newRemote makes the executor of a remote execution service.
func newRemote(_ context.Context, inv *Invocation, target string) (runner.Executor, error) {
	f := inv.Flags.ExecFlags
	if inv.Test.Dir != "" {
		return nil, InputError("--exec %s: this command runs its test in %s, which a remote worker does not have; the test must run in the candidate's directory", target, inv.Test.Dir)
	}
	e, err := remote.New(remote.Options{Target: target, Inputs: f.RemoteInputs, Headers: f.RemoteHeaders,
		CredentialsFile: f.RemoteCredentials, Platform: f.Platform, Say: inv.Say})
	if err != nil {
		return nil, InputError("%v", err)
	}
	return e, nil
}
