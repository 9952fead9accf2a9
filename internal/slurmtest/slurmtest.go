// Package slurmtest helps tests that run on a Slurm cluster: they skip
// unless one answers (.ci/slurm-up starts a single-node cluster on
// loopback), and check that nothing of theirs is left running on it.
package slurmtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Need skips the test unless a Slurm cluster answers and the test runs
// outside an allocation (the tests obtain their own).
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("srun"); err != nil {
		t.Skip("no srun on PATH: .ci/slurm-up starts a single-node Slurm cluster")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sinfo", "-h", "-o", "%T").Output()
	state := strings.TrimSpace(string(out))
	if err != nil || (state != "idle" && state != "mixed" && state != "allocated") {
		t.Skipf("no Slurm node up (sinfo: %q %v): .ci/slurm-up starts a single-node cluster", state, err)
	}
	if os.Getenv("SLURM_JOB_ID") != "" {
		t.Skip("these tests obtain allocations of their own; run them outside one")
	}
}

// Steps lists the job steps running in job, one "ID NAME" a line.
func Steps(t testing.TB, job string) string {
	t.Helper()
	out, err := exec.Command("squeue", "-h", "-s", "-j", job, "-o", "%i %j").CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "Invalid job id") {
			return ""
		}
		t.Fatalf("squeue: %v %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// Jobs lists the jobs named name that are still running or pending,
// after waiting up to 10 s for them to end.
func Jobs(t testing.TB, name string) string {
	t.Helper()
	var left string
	for range 100 {
		out, err := exec.Command("squeue", "-h", "-n", name, "-t", "PENDING,RUNNING,SUSPENDED", "-o", "%i %j %T").CombinedOutput()
		if err != nil {
			t.Fatalf("squeue: %v %s", err, out)
		}
		if left = strings.TrimSpace(string(out)); left == "" {
			return ""
		}
		time.Sleep(100 * time.Millisecond)
	}
	return left
}

// WaitGone waits until job no longer runs; it fails the test if it
// still runs after 10 s.
func WaitGone(t testing.TB, job string) {
	t.Helper()
	for range 100 {
		out, _ := exec.Command("squeue", "-h", "-j", job, "-t", "PENDING,RUNNING,SUSPENDED", "-o", "%T").Output()
		if strings.TrimSpace(string(out)) == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("Slurm job %s still runs", job)
}
