package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wynot/wynot/internal/reapitest"
)

// executors measures where tests run (--exec): the time per test of the
// same reduction run locally, as Slurm job steps (one per test, or one
// per work slot through an agent) and as remote actions,
// with a cheap test and with one of 200 ms, side by side, and how the
// wall time of the 200 ms reduction scales with the tasks of a Slurm
// allocation. Slurm rows need a cluster (.ci/slurm-up); without one
// they are left out and the table says so.
func executors(work, bin string) string {
	input := filepath.Join(work, "in60")
	check(os.WriteFile(input, bytes.ReplaceAll(fuzz(60, 60), []byte("\n"), []byte("x")), 0o644))
	// The test fails on 60 bytes or more: every candidate passes.
	prog := filepath.Join(bin, "exitsize60")
	src := filepath.Join(work, "exitsize60.c")
	check(os.WriteFile(src, []byte(`#include <sys/stat.h>
int main(int argc, char **argv) { struct stat st; if (stat(argv[1], &st) != 0) return 2; return st.st_size >= 60 ? 1 : 0; }
`), 0o644))
	if out, err := exec.Command("gcc", "-O2", "-o", prog, src).CombinedOutput(); err != nil {
		fatalf("gcc: %v\n%s", err, out)
	}
	srv, err := reapitest.Start()
	check(err)
	defer srv.Stop()
	_, slurmErr := exec.LookPath("srun")
	if slurmErr == nil {
		if out, err := exec.Command("sinfo", "-h", "-o", "%T").Output(); err != nil || strings.TrimSpace(string(out)) != "idle" {
			slurmErr = fmt.Errorf("no idle Slurm node")
		}
	}
	// run reduces input and returns the seconds per test and in all.
	run := func(jobs int, exe string, argv ...string) (perTest, wall float64, tests int) {
		args := []string{"reduce", "-q", "--json", "-j", strconv.Itoa(jobs), "--split", "bytes", "--precision", "exit", "--timeout", "10s",
			"-o", filepath.Join(work, "out60")}
		if name, ok := strings.CutSuffix(exe, "/slot"); ok {
			args = append(args, "--exec", name, "--slurm-steps", "slot")
		} else if exe != "" {
			args = append(args, "--exec", exe)
		}
		args = append(append(args, input, "--"), argv...)
		os.Remove(filepath.Join(work, "out60"))
		t0 := time.Now()
		b, err := exec.Command(filepath.Join(bin, "wynot"), args...).Output()
		wall = time.Since(t0).Seconds()
		if err != nil {
			fatalf("wynot %s: %v", strings.Join(args, " "), err)
		}
		i := bytes.Index(b, []byte(`"tests": `))
		tests, _ = strconv.Atoi(string(b[i+9 : i+9+bytes.IndexByte(b[i+9:], ',')]))
		return wall / float64(tests), wall, tests
	}
	type row struct {
		name string
		exe  string
		jobs int
		argv []string
	}
	cheap := []string{prog, "{}"}
	slow := []string{"sh", "-c", `sleep 0.2; exec "$0" "$1"`, prog, "{}"}
	rows := []row{
		{"cheap test, local", "", 1, cheap},
		{"cheap test, Slurm steps", "slurm", 1, cheap},
		{"cheap test, remote actions", "reapi://" + srv.Addr, 1, cheap},
		{"200 ms test, local", "", 1, slow},
		{"200 ms test, Slurm steps", "slurm", 1, slow},
		{"200 ms test, remote actions", "reapi://" + srv.Addr, 1, slow},
		{"200 ms test, local, -j 2", "", 2, slow},
		{"200 ms test, Slurm, 2 tasks", "slurm", 2, slow},
		{"200 ms test, local, -j 4", "", 4, slow},
		{"200 ms test, Slurm, 4 tasks", "slurm", 4, slow},
		{"cheap test, Slurm slots (--slurm-steps slot)", "slurm/slot", 1, cheap},
		{"200 ms test, Slurm slots", "slurm/slot", 1, slow},
		{"200 ms test, Slurm slots, 2 tasks", "slurm/slot", 2, slow},
		{"200 ms test, Slurm slots, 4 tasks", "slurm/slot", 4, slow},
	}
	per := make([][]float64, len(rows))
	walls := make([][]float64, len(rows))
	tests := make([]int, len(rows))
	const rounds = 3
	for range rounds {
		for i, r := range rows {
			if strings.HasPrefix(r.exe, "slurm") && slurmErr != nil {
				continue
			}
			// A fresh service each round for the remote rows, so that its
			// action cache does not answer (a second run is measured apart).
			if strings.HasPrefix(r.exe, "reapi://") {
				srv.Stop()
				srv, err = reapitest.Listen(srv.Addr)
				check(err)
			}
			p, w, n := run(r.jobs, r.exe, r.argv...)
			per[i], walls[i], tests[i] = append(per[i], p), append(walls[i], w), n
			fmt.Printf("executors: %s: %d tests, %.1f s, %.1f ms per test\n", r.name, n, w, p*1e3)
		}
	}
	// Bare Slurm steps: srun of the cheap test inside an allocation, one
	// at a time, as many as the reduction's tests: what a step costs
	// without wynot.
	var bareSteps []float64
	if slurmErr == nil {
		for range rounds {
			script := fmt.Sprintf(`t0=$(date +%%s%%N); for i in $(seq %d); do srun --exact -n1 -c1 --quiet --input=none -- %s %s; done; echo $(( $(date +%%s%%N) - t0 ))`, tests[0], prog, input)
			out, err := exec.Command("salloc", "-Q", "-n", "1", "sh", "-c", script).Output()
			check(err)
			ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			check(err)
			bareSteps = append(bareSteps, ns/1e9/float64(tests[0]))
		}
	}
	// A second remote run of the cheap reduction on the same service:
	// answered from its action cache.
	run(1, "reapi://"+srv.Addr, cheap...)
	var cached []float64
	for range rounds {
		p, _, _ := run(1, "reapi://"+srv.Addr, cheap...)
		cached = append(cached, p)
	}

	var s strings.Builder
	s.WriteString("## Where tests run (--exec)\n\n")
	fmt.Fprintf(&s, "One reduction, run locally, as Slurm job steps (`--exec slurm`, an allocation wynot obtains itself on the single-node cluster of `.ci/slurm-up`, on loopback; a step per test, or with `--slurm-steps slot` one step per work slot running a test agent) and as remote actions (`--exec reapi://`, wynot's in-process test service on loopback, its action cache emptied before each run): a 60-byte input, `-j N --split bytes`, every candidate passes (%d tests at -j 1, counted with wynot's start-up, the original's checks and, for Slurm, obtaining the allocation). The cheap test stats its input and exits (`exitsize`, C); the 200 ms test sleeps first. %d alternating rounds; medians.\n\n", tests[0], rounds)
	s.WriteString("| setting | tests | time per test | wall time | per test against local |\n|---|---:|---:|---:|---:|\n")
	// Each row against the local row of the same test and -j.
	base := func(r row) float64 {
		for i, l := range rows {
			if l.exe == "" && len(l.argv) == len(r.argv) && l.jobs == r.jobs {
				return median(per[i])
			}
		}
		return 0
	}
	for i, r := range rows {
		if len(per[i]) == 0 {
			fmt.Fprintf(&s, "| %s | | not measured: %v | | |\n", r.name, slurmErr)
			continue
		}
		fmt.Fprintf(&s, "| %s | %d | %.1f ms | %.1f s | %+.1f ms |\n", r.name, tests[i], median(per[i])*1e3, median(walls[i]), (median(per[i])-base(r))*1e3)
	}
	if len(bareSteps) > 0 {
		fmt.Fprintf(&s, "| cheap test, bare srun steps (no wynot; sh loop) | %d | %.1f ms | | %+.1f ms |\n", tests[0], median(bareSteps)*1e3, (median(bareSteps)-base(rows[0]))*1e3)
	}
	fmt.Fprintf(&s, "| cheap test, remote, second run (action cache) | %d | %.1f ms | | %+.1f ms |\n", tests[2], median(cached)*1e3, (median(cached)-base(rows[0]))*1e3)
	s.WriteString("\n")
	return s.String()
}
