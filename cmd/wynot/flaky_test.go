package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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

// TestFlakyOracle reduces an input with a test whose answer flips 10% of
// the time, $WYNOT_FLAKY times (default 2) for each --repeat mode, and
// checks every result against the test's true answer. Under --repeat auto
// (the default) an exit status 0 must come with a result that truly
// fails; the test prints the table of what it found (bench/flaky runs it
// at 30 and more).
func TestFlakyOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wynot dozens of times")
	}
	n := 2
	if v, err := strconv.Atoi(os.Getenv("WYNOT_FLAKY")); err == nil && v > 0 {
		n = v
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
	type tally struct{ runs, exit0, exit0Fails, exit0Minimal, exit3, other, tests int }
	modes := []string{"auto", "1", "3"}
	tallies := map[string]*tally{}
	for _, mode := range modes {
		tl := &tally{}
		tallies[mode] = tl
		for range n {
			dir := t.TempDir()
			in := input()
			write(t, filepath.Join(dir, "in.txt"), in)
			out := filepath.Join(dir, "out.txt")
			r := wynotRun(t, dir, []string{"FLAKY_P=0.1"}, "reduce", "--json", "--repeat", mode, "-o", out, "in.txt", "--", flaky, "{}")
			tl.runs++
			if r.code == 0 || r.code == 3 {
				tl.tests += r.summary(t).Tests
			}
			res, err := os.ReadFile(out)
			switch {
			case r.code == 0:
				tl.exit0++
				if err != nil {
					t.Fatalf("--repeat %s: exit 0 without a result: %v\n%s", mode, err, r.stderr)
				}
				if trulyFails(res) {
					tl.exit0Fails++
					if trulyMinimal(res) {
						tl.exit0Minimal++
					}
				} else if mode == "auto" {
					t.Errorf("--repeat auto: exit 0 with %q, which does not fail\n%s", res, r.stderr)
				}
			case r.code == 3:
				tl.exit3++
			case r.code == 2:
				tl.other++
			default:
				t.Errorf("--repeat %s: exit %d\n%s", mode, r.code, r.stderr)
			}
		}
	}
	var b strings.Builder
	b.WriteString("| --repeat | runs | exit 0 | exit 0, result truly fails | exit 0, truly fails and 1-minimal | exit 3 (not certified) | other exits (not reproduced) | mean tests |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, mode := range modes {
		tl := tallies[mode]
		mean := 0.0
		if k := tl.exit0 + tl.exit3; k > 0 {
			mean = float64(tl.tests) / float64(k)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %.0f |\n", mode, tl.runs, tl.exit0, tl.exit0Fails, tl.exit0Minimal, tl.exit3, tl.other, mean)
	}
	t.Logf("flaky oracle (answers flip 10%% of the time):\n%s", b.String())
}
