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
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/fixtures"
	"github.com/wynot/wynot/internal/proctest"
)

// TestFaultInjection sends SIGKILL, SIGINT or SIGTERM at a random moment
// to wynot reduce, wynot changes and wynot fuzz, and checks after each:
// the input is the original or a smaller input that fails, FILE.orig
// holds the original, the trees of changes are untouched, every process
// of a test ends (the table counts those still running one second
// later), and the next run leaves no temporary file behind.
// $WYNOT_FAULTS sets the number of signals per command (default 2);
// bench/faults runs it at 100 and more, and the test prints the table of
// what it found.
func TestFaultInjection(t *testing.T) {
	e2e(t)
	t.Parallel()
	per := 2
	if n, err := strconv.Atoi(os.Getenv("WYNOT_FAULTS")); err == nil && n > 0 {
		per = n
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	type tally struct{ runs, delivered, corrupt, orig, orphans, left int }
	tallies := map[string]*tally{}
	sigs := []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM}

	// The fuzz package, compiled once into the Go build cache here, so
	// that later runs are quick to start.
	fuzzDir := t.TempDir()
	if err := fixtures.FuzzPackage(fuzzDir); err != nil {
		t.Fatal(err)
	}
	// The trees of changes.
	chDir := t.TempDir()
	if err := fixtures.Rename(filepath.Join(chDir, "old"), filepath.Join(chDir, "new")); err != nil {
		t.Fatal(err)
	}
	oldTree, newTree := treeDigest(t, filepath.Join(chDir, "old")), treeDigest(t, filepath.Join(chDir, "new"))
	testScript := goTest(t)

	orig := []byte(strings.Repeat("abcdefgh", 40) + "(" + strings.Repeat("ijklmnop", 40) + ")" + strings.Repeat("qrstuvwx", 40))
	for _, command := range []string{"reduce", "changes", "fuzz"} {
		tl := &tally{}
		tallies[command] = tl
		for range per {
			sig := sigs[rng.IntN(len(sigs))]
			// A moment while it runs: reduce and changes take seconds,
			// fuzz (its tests compiled and cached) about one.
			delay := time.Duration(300+rng.IntN(2500)) * time.Millisecond
			if command == "fuzz" {
				delay = time.Duration(50+rng.IntN(900)) * time.Millisecond
			}
			dir, tmp := t.TempDir(), t.TempDir()
			var cmd *exec.Cmd
			switch command {
			case "reduce":
				write(t, filepath.Join(dir, "in"), orig)
				cmd = exec.Command(wynotBin, "reduce", "-j", "2", "--split", "runes", "in", "--", prog("slow"), "{}")
				cmd.Env = append(os.Environ(), "SLEEP=60ms")
			case "changes":
				dir = chDir
				cmd = exec.Command(wynotBin, "changes", "-j", "2", "--group", "none", "old", "new", "--", testScript)
				cmd.Env = append(os.Environ(), goEnv()...)
			case "fuzz":
				dir = fuzzDir
				cmd = exec.Command(wynotBin, "fuzz", ".", "FuzzDepth", "crasher")
				cmd.Env = append(os.Environ(), goEnv()...)
			}
			cmd.Dir = dir
			cmd.Env = append(cmd.Env, "WYNOT_TMPDIR="+tmp)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			tl.runs++
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done: // finished before the signal
			case <-time.After(delay):
				cmd.Process.Signal(sig)
				tl.delivered++
				select {
				case <-done:
				case <-time.After(30 * time.Second):
					cmd.Process.Kill()
					<-done
					t.Errorf("%s: wynot still ran 30s after %v", command, sig)
				}
			}
			// The table counts what still runs one second later; the test
			// fails on what has not ended within patience (on a busy
			// machine the guardian's kill and the reap can take seconds).
			time.Sleep(time.Second)
			if n := len(proctest.In(tmp)); n > 0 {
				tl.orphans += n
				for deadline := time.Now().Add(patience); len(proctest.In(tmp)) > 0 && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
				if n := len(proctest.In(tmp)); n > 0 {
					t.Errorf("%s, %v after %v: %d test processes still run %s later", command, sig, delay, n, patience)
				}
			}
			switch command {
			case "reduce":
				got := read(t, filepath.Join(dir, "in"))
				if backup, err := os.ReadFile(filepath.Join(dir, "in.orig")); err == nil && !bytes.Equal(backup, orig) {
					tl.orig++
					t.Errorf("reduce, %v: in.orig changed", sig)
				}
				if !bytes.Equal(got, orig) {
					if s, clean := signatureOf(t, "in", got, prog("mystery"), "{}"); len(got) >= len(orig) || clean || !strings.Contains(s.Message, "Invalid input") {
						tl.corrupt++
						t.Errorf("reduce, %v: in holds %q", sig, got)
					}
				}
			case "changes":
				if treeDigest(t, filepath.Join(chDir, "old")) != oldTree || treeDigest(t, filepath.Join(chDir, "new")) != newTree {
					tl.corrupt++
					t.Errorf("changes, %v: the trees changed", sig)
				}
			case "fuzz":
				if got := read(t, filepath.Join(fuzzDir, "testdata/fuzz/FuzzDepth/crasher")); len(got) < 5000 {
					tl.corrupt++
					t.Errorf("fuzz, %v: the original entry changed", sig)
				}
			}
			// The next run cleans up what a killed one left.
			write(t, filepath.Join(dir, "next"), []byte(mysteryInput))
			if r := wynotRun(t, dir, []string{"WYNOT_TMPDIR=" + tmp}, "reduce", "-q", "-o", filepath.Join(t.TempDir(), "out"), "next", "--", prog("mystery"), "{}"); r.code != 0 {
				t.Errorf("the next run: exit %d\n%s", r.code, r.stderr)
			}
			os.Remove(filepath.Join(dir, "next"))
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				tl.left += len(left)
				t.Errorf("%s, %v: left in the temporary directory: %v", command, sig, left)
			}
		}
	}
	var b strings.Builder
	b.WriteString("| command | runs | signals delivered | corrupt inputs | .orig mismatches | orphan processes after 1 s | temp files left after the next run |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range []string{"reduce", "changes", "fuzz"} {
		tl := tallies[c]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", c, tl.runs, tl.delivered, tl.corrupt, tl.orig, tl.orphans, tl.left)
	}
	t.Logf("fault injection:\n%s", b.String())
}

// treeDigest summarizes a directory's files, for comparing it before and
// after.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %o %d %x\n", strings.TrimPrefix(p, dir), info.Mode(), len(data), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
