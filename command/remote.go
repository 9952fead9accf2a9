package command

import (
	"context"

	"github.com/wynot/wynot/runner"
)

func newRemote(ctx context.Context, inv *Invocation, kind string) (runner.Executor, error) {
	return nil, InputError("--exec %s: not yet", kind)
}
