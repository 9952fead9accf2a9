package runner

import (
	"bytes"
	"context"
	"errors"
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
	if err := RunChild(cmd); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		status := -1
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			status = exit.ExitCode()
		}
		return stdout.Bytes(), &GitError{Args: args, Status: status, Msg: msg}
	}
	return stdout.Bytes(), nil
}

// GitError is a git command that failed.
type GitError struct {
	Args   []string
	Status int    // the exit status; -1 when git did not exit by itself
	Msg    string // git's message, or how it ended
}

func (e *GitError) Error() string {
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), e.Msg)
}

// GitSaysNo reports whether err is git answering a question in the
// negative (exit status 1, as git merge-base --is-ancestor says "no" and
// git merge-base says there is no common ancestor), not failing.
func GitSaysNo(err error) bool {
	var g *GitError
	return errors.As(err, &g) && g.Status == 1
}
