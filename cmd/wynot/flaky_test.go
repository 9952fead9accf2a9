package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// trulyFails is the flaky program's answer without its flips.
func trulyFails(data []byte) bool {
	return bytes.Contains(data, []byte("foo")) && bytes.Contains(data, []byte("bar"))
}

// trulyMinimal says whether no single byte can be removed from data with
// the failure staying.
func trulyMinimal(data []byte) bool {
	for i := range data {
		if trulyFails(append(data[:i:i], data[i+1:]...)) {
			return false
		}
	}
	return true
}

// TestFlakyOracle reduces an input with a test whose answer flips at
// random, $WYNOT_FLAKY times (default 2) for each flip rate and --repeat
// mode, and checks every result against the test's true answer: under
// --repeat auto (the default) an exit status 0 must come with a result
// that truly fails and, when the summary calls it minimal, is truly
// 1-minimal. The rates are $WYNOT_FLAKY_RATES (default 0.1: a wrong
// verdict is possible at any rate, with at most 1% a decision, so the
// suite runs where it is far rarer; the seeded reductions of
// command/reduce's TestFlakyNoConfidentWrongResult and bench/flaky cover
// 0.1 to 0.4);
// --repeat 1 and 3, which promise nothing under flips and are only
// counted, run at the first rate when $WYNOT_FLAKY is set (as bench/flaky
// does) and $WYNOT_FLAKY_AUTO is not. The test prints the table of what
// it found (bench/flaky runs it at 50 and more).
func TestFlakyOracle(t *testing.T) {
	e2e(t)
	t.Parallel()
	n := 2
	if v, err := strconv.Atoi(os.Getenv("WYNOT_FLAKY")); err == nil && v > 0 {
		n = v
	}
	rates := []string{"0.1"}
	if v := os.Getenv("WYNOT_FLAKY_RATES"); v != "" {
		rates = strings.Split(v, ",")
	}
	flaky := filepath.Join(t.TempDir(), "flaky")
	if out, err := exec.Command("go", "build", "-o", flaky, "../../testdata/progs/flaky").CombinedOutput(); err != nil {
		t.Fatalf("building the flaky test: %v\n%s", err, out)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	input := func() []byte {
		var b bytes.Buffer
		for i := range 240 {
			switch i {
			case 70:
				b.WriteString("foo")
			case 150:
				b.WriteString("bar")
			}
			if rng.IntN(12) == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
		}
		return b.Bytes()
	}
	type row struct {
		rate, mode                                                                 string
		runs, exit0, exit0Fails, exit0Minimal, claimedMinimal, exit3, other, tests int
	}
	var rows []*row
	for i, rate := range rates {
		modes := []string{"auto"}
		if i == 0 && os.Getenv("WYNOT_FLAKY") != "" && os.Getenv("WYNOT_FLAKY_AUTO") == "" {
			modes = append(modes, "1", "3")
		}
		for _, mode := range modes {
			rw := &row{rate: rate, mode: mode}
			rows = append(rows, rw)
			for range n {
				dir := t.TempDir()
				in := input()
				write(t, filepath.Join(dir, "in.txt"), in)
				out := filepath.Join(dir, "out.txt")
				// A run at a high flip rate may take thousands of tests:
				// it gets more time than wynotRun gives.
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
				cmd := exec.CommandContext(ctx, wynotBin, "reduce", "--json", "--repeat", mode, "-o", out, "in.txt", "--", flaky, "{}")
				cmd.Dir, cmd.Env = dir, append(os.Environ(), "FLAKY_P="+rate)
				r := runResult(t, cmd)
				cancel()
				rw.runs++
				tests := 0
				if r.code == 0 || r.code == 2 || r.code == 3 {
					tests = r.summary(t).Tests
					rw.tests += tests
				}
				t.Logf("flip rate %s, --repeat %s, run %d: exit %d, %d tests", rate, mode, rw.runs, r.code, tests)
				res, err := os.ReadFile(out)
				switch {
				case r.code == 0:
					rw.exit0++
					if err != nil {
						t.Fatalf("--repeat %s: exit 0 without a result: %v\n%s", mode, err, r.stderr)
					}
					minimal := r.summary(t).Minimal
					if minimal {
						rw.claimedMinimal++
					}
					if trulyFails(res) {
						rw.exit0Fails++
						if trulyMinimal(res) {
							rw.exit0Minimal++
						} else if mode == "auto" && minimal {
							t.Errorf("flip rate %s, --repeat auto: exit 0 with %q called 1-minimal, which is not\n%s", rate, res, r.stderr)
						}
					} else if mode == "auto" {
						t.Errorf("flip rate %s, --repeat auto: exit 0 with %q, which does not fail\n%s", rate, res, r.stderr)
					}
				case r.code == 3:
					rw.exit3++
				case r.code == 2:
					rw.other++
				default:
					t.Errorf("--repeat %s: exit %d\n%s", mode, r.code, r.stderr)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("| flip rate | --repeat | runs | exit 0 | exit 0, result truly fails | exit 0, called 1-minimal | exit 0, truly fails and 1-minimal | exit 3 (not certified) | exit 2 (not reproduced) | mean tests |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, rw := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %.0f |\n", rw.rate, rw.mode, rw.runs, rw.exit0, rw.exit0Fails, rw.claimedMinimal, rw.exit0Minimal, rw.exit3, rw.other, float64(rw.tests)/float64(max(rw.runs, 1)))
	}
	t.Logf("flaky oracle:\n%s", b.String())
}
