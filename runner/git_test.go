package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitSaysNo: git merge-base --is-ancestor answers "no" with exit
// status 1, and fails with 128 on a revision it does not know; only the
// first is an answer.
func TestGitSaysNo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	sh := func(script string) {
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh("git init -q -b main . && echo 1 > f && git add f && git commit -qm one && git tag one && echo 2 > f && git commit -qam two")
	ctx := context.Background()
	if _, err := Git(ctx, dir, "merge-base", "--is-ancestor", "one", "main"); err != nil {
		t.Fatalf("one is an ancestor of main: %v", err)
	}
	_, err := Git(ctx, dir, "merge-base", "--is-ancestor", "main", "one")
	if err == nil || !GitSaysNo(err) {
		t.Errorf("main is no ancestor of one: err %v, says no %v", err, GitSaysNo(err))
	}
	_, err = Git(ctx, dir, "merge-base", "--is-ancestor", "nosuchrev", "main")
	if err == nil || GitSaysNo(err) || !strings.Contains(err.Error(), "nosuchrev") {
		t.Errorf("an unknown revision: err %v, says no %v", err, GitSaysNo(err))
	}
	if GitSaysNo(nil) {
		t.Error("no error is no answer")
	}
	_, err = Git(ctx, filepath.Join(dir, "missing"), "status")
	if err == nil || GitSaysNo(err) {
		t.Errorf("git in a missing directory: %v", err)
	}
}
