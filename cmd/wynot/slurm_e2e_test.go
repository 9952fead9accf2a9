package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/slurmtest"
)

// slurmRun runs wynot in dir under salloc -n tasks (an allocation of its
// own that wynot finds in SLURM_JOB_ID).
func slurmRun(t *testing.T, dir string, tasks int, args ...string) result {
	t.Helper()
	argv := append([]string{"-n", fmt.Sprint(tasks), "-J", "wynot-e2e", wynotBin}, args...)
	cmd := exec.Command("salloc", argv...)
	cmd.Dir = dir
	return runResult(t, cmd)
}

// withExec adds --exec to the command line args, after the command.
func withExec(args []string, exec string) []string {
	return append([]string{args[0], "--exec", exec}, args[1:]...)
}

// wynot reduce and wynot changes under salloc -n 2 with --exec slurm
// give exactly the results they give locally, a step per test or
// through agents (--slurm-steps slot), and leave no step behind.
func TestSlurmSameResults(t *testing.T) {
	e2e(t)
	slurmtest.Need(t)
	// A C program that crashes (SIGSEGV through srun), and a flaky-free
	// Go program whose failure is a message.
	cases := []struct {
		name  string
		input []byte
		argv  []string
	}{
		{"t16", fuzz(3, 5000, true), []string{prog("crtplot"), "{}"}},
		{"mystery", []byte(mysteryInput), []string{prog("mystery"), "{}"}},
	}
	for _, c := range cases {
		var results []string
		modes := []string{"local", "steps", "slots"}
		for _, mode := range modes {
			dir := t.TempDir()
			write(t, filepath.Join(dir, c.name), c.input)
			args := append([]string{"reduce", "--json", "-j", "2", c.name, "--"}, c.argv...)
			var r result
			switch mode {
			case "local":
				r = wynotRun(t, dir, nil, args...)
			case "steps":
				r = slurmRun(t, dir, 2, withExec(args, "slurm")...)
			case "slots":
				r = slurmRun(t, dir, 2, withExec(append([]string{args[0], "--slurm-steps", "slot"}, args[1:]...), "slurm")...)
			}
			if r.code != 0 {
				t.Fatalf("%s (%s): exit %d:\n%s", c.name, mode, r.code, r.stderr)
			}
			if mode != "local" && !strings.Contains(r.stderr, "tests run on Slurm job") {
				t.Errorf("the run does not say where tests run:\n%s", r.stderr)
			}
			s := r.summary(t)
			results = append(results, fmt.Sprintf("%q minimal=%v confirmed=%v signature=%q", read(t, filepath.Join(dir, c.name)), s.Minimal, s.Confirmed, s.Signature))
		}
		for i := 1; i < len(modes); i++ {
			if results[0] != results[i] {
				t.Errorf("%s:\nlocal %s\nslurm %s %s", c.name, results[0], modes[i], results[i])
			}
		}
	}

	dir, args := twoChanges(t)
	local, remote := wynotRun(t, dir, nil, args...), slurmRun(t, dir, 2, withExec(args, "slurm")...)
	if local.code != 0 || remote.code != 0 {
		t.Fatalf("exit %d, %d:\n%s\n%s", local.code, remote.code, local.stderr, remote.stderr)
	}
	l, r := local.summary(t), remote.summary(t)
	if strings.Join(l.Hunks, " ") != "d0/a.conf:5+1 d2/b.conf:2+1" || strings.Join(l.Hunks, " ") != strings.Join(r.Hunks, " ") || l.Diff != r.Diff || !r.Confirmed {
		t.Errorf("changes: local %v, slurm %v (confirmed %v)\n%s", l.Hunks, r.Hunks, r.Confirmed, remote.stderr)
	}
	if left := slurmtest.Jobs(t, "wynot-e2e"); left != "" {
		t.Errorf("allocations left: %s", left)
	}
}

// twoChanges writes two versions of a tree, old and new, where new fails
// by two of its changes together, and returns the directory and the
// wynot changes command line that finds them.
func twoChanges(t *testing.T) (string, []string) {
	dir := t.TempDir()
	for _, v := range []struct{ dir, a, b string }{{"old", "A=1", "B=1"}, {"new", "A=2", "B=2"}} {
		for f := range 6 {
			write(t, filepath.Join(dir, v.dir, fmt.Sprintf("d%d/f%d.txt", f%3, f)), []byte(strings.Repeat(v.dir+" line\n\n\n\n", 10+f)))
		}
		write(t, filepath.Join(dir, v.dir, "d0/a.conf"), []byte("x\n\n\n"+v.a+"\n"))
		write(t, filepath.Join(dir, v.dir, "d2/b.conf"), []byte(v.b+"\n\n\ny\n"))
	}
	return dir, []string{"changes", "--json", "-j", "2", "old", "new", "--", "sh", "-c", "! { grep -q A=2 d0/a.conf && grep -q B=2 d2/b.conf; }"}
}

// Ctrl-C leaves no step and no allocation behind: wynot obtained the
// allocation itself (no salloc around it) and gives it back.
func TestSlurmInterrupt(t *testing.T) {
	e2e(t)
	slurmtest.Need(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t16"), fuzz(5, 3000, true))
	// A job name of its own: the runner's tests, which may run at the
	// same time, obtain allocations named wynot too.
	cmd := exec.Command(wynotBin, "reduce", "--exec", "slurm", "--slurm-args", "-J wynot-e2e-interrupt", "-j", "2", "t16", "--", "sh", "-c", "sleep 0.3; exec \"$0\" \"$1\"", prog("crtplot"), "{}")
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	job := ""
	if i := strings.Index(errb.String(), "Slurm job "); i >= 0 {
		job = strings.Fields(errb.String()[i+len("Slurm job "):])[0]
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130; stderr:\n%s", err, errb.String())
	}
	if job == "" {
		t.Fatalf("no Slurm job named:\n%s", errb.String())
	}
	slurmtest.WaitGone(t, job)
	if left := slurmtest.Jobs(t, "wynot-e2e-interrupt"); left != "" {
		t.Errorf("jobs left after Ctrl-C: %s", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "t16.orig")); err != nil {
		t.Errorf("the original is not kept: %v\n%s", err, errb.String())
	}
}
