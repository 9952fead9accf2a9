package runner

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Git runs git with args in dir and returns its standard output. It is
// how wynot reads a repository (revisions, history, trees as archives);
// it never runs a git command that changes the repository, its worktree
// or its refs. The error carries git's own message.
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return GitInput(ctx, dir, nil, args...)
}

// GitInput is Git with data on git's standard input (for git cat-file
// --batch).
func GitInput(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(cmd.Environ(), "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	if err := runChild(cmd); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.Bytes(), fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}
