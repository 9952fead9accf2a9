package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/proctest"
)

// TestReduceEndsDetachedProcesses: a test script that starts daemons
// (setsid, a double fork that keeps the test's output open, nohup)
// leaves none of them running once wynot reduce has ended, with two
// tests at a time. The daemons are sleeps of a duration no other run
// uses, which marks them.
func TestReduceEndsDetachedProcesses(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	mark := fmt.Sprintf("1000.%d%d", os.Getpid(), 7)
	var in bytes.Buffer
	for i := range 12 {
		fmt.Fprintf(&in, "line %d\n", i)
		if i == 7 {
			in.WriteString("bug\n")
		}
	}
	write(t, filepath.Join(dir, "input.txt"), in.Bytes())
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, "#!/bin/sh\n"+
		"setsid sleep "+mark+" &\n"+
		"( (exec setsid sleep "+mark+") & )\n"+
		"nohup sleep "+mark+" >/dev/null 2>&1 &\n"+
		"grep -q bug input.txt\n")
	r := wynotRun(t, dir, nil, "reduce", "--json", "-j", "2", "--test", "./test.sh", "input.txt")
	defer func() {
		for _, pid := range proctest.Marked(mark) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}()
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(dir, "input.txt"))); strings.TrimSpace(got) != "bug" {
		t.Errorf("reduced to %q", got)
	}
	s := r.summary(t)
	if s.Tests < 3 {
		t.Errorf("%d tests", s.Tests)
	}
	if left := proctest.Marked(mark); len(left) > 0 {
		t.Errorf("%d processes of %d tests still run after wynot ended: %v", len(left), s.Tests, left)
	}
}

// TestKilledBuildFoldersGoNext: wynot trace and wynot chain killed with
// SIGKILL (while the program they build runs, which never ends) leave
// their build folders, named after the dead process; the next run of
// another command removes them.
func TestKilledBuildFoldersGoNext(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := goModule(t, "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"time\"\n)\n\nfunc main() {\n\tn := len(os.Args)\n\ttime.Sleep(time.Hour)\n\tfmt.Println(n)\n}\n")
	for _, c := range []struct {
		purpose string
		args    []string
	}{
		{"trace", []string{"trace", "."}},
		{"chain", []string{"chain", "--pass", "a", "--fail", "b", "."}},
	} {
		t.Run(c.purpose, func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(wynotBin, c.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), append(goEnv(), "WYNOT_TMPDIR="+tmp)...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pattern := filepath.Join(tmp, fmt.Sprintf("wynot-%d-%s-*", cmd.Process.Pid, c.purpose))
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// Wait for the build folder; the program never ends, so
			// wynot does not remove it on its own.
			for !slices.ContainsFunc(entryNames(tmp), func(n string) bool { return strings.Contains(n, c.purpose) }) {
				select {
				case err := <-exited:
					t.Fatalf("wynot %s ended (%v) without a build folder", c.purpose, err)
				case <-time.After(20 * time.Millisecond):
				}
			}
			if left, _ := filepath.Glob(pattern); len(left) != 1 {
				t.Errorf("build folders %v, want one named %s", entryNames(tmp), filepath.Base(pattern))
			}
			cmd.Process.Kill()
			<-exited
			if left, _ := filepath.Glob(pattern); len(left) != 1 {
				t.Errorf("after SIGKILL: %v, want the build folder", entryNames(tmp))
			}
			write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
			if r := wynotRun(t, dir, []string{"WYNOT_TMPDIR=" + tmp}, "reduce", "-q", "-o", "out", "in", "--", prog("mystery"), "{}"); r.code != 0 {
				t.Fatalf("the next run: exit %d\n%s", r.code, r.stderr)
			}
			if left := entryNames(tmp); len(left) != 0 {
				t.Errorf("left after the next run: %v", left)
			}
		})
	}
}

func entryNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
