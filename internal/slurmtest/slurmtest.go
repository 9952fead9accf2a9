// Package slurmtest helps tests that run on a Slurm cluster: they skip
// unless one answers (.ci/slurm-up starts a single-node cluster on
// loopback), and check that nothing of theirs is left running on it.
package slurmtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Need skips the test unless a Slurm cluster answers and the test runs
// outside an allocation (the tests obtain their own); under -short it
// skips without asking. The cluster is asked once per test binary: a
// controller that does not answer makes sinfo wait seconds.
func Need(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs on a Slurm cluster")
	}
	if why := unavailable(); why != "" {
		t.Skip(why)
	}
}

var unavailable = sync.OnceValue(func() string {
	// The go command caches a test's result by the environment
	// variables it reads: .ci/run sets this one anew whenever it starts
	// a cluster, so that a result from a run without one (skipped) is
	// not taken for a result with it.
	_ = os.Getenv("WYNOT_SLURM_CLUSTER")
	if _, err := exec.LookPath("srun"); err != nil {
		return "no srun on PATH: .ci/slurm-up starts a single-node Slurm cluster"
	}
	if os.Getenv("SLURM_JOB_ID") != "" {
		return "these tests obtain allocations of their own; run them outside one"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sinfo", "-h", "-o", "%T").Output()
	state := strings.TrimSpace(string(out))
	if err != nil || (state != "idle" && state != "mixed" && state != "allocated") {
		return fmt.Sprintf("no Slurm node up (sinfo: %q %v): .ci/slurm-up starts a single-node cluster", state, err)
	}
	return ""
})

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

// StepsLeft lists the job steps still in job after waiting up to 10 s
// for them to end: Slurm lists a cancelled step until its node reports
// it ended, a moment after srun has returned on a busy machine.
func StepsLeft(t testing.TB, job string) string {
	t.Helper()
	var left string
	for range 100 {
		if left = Steps(t, job); left == "" {
			return ""
		}
		time.Sleep(100 * time.Millisecond)
	}
	return left
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
