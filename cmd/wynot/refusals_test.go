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
)

// Refusals and causes: what wynot says, with which exit status, when it
// must not or cannot go on, and that it then changes nothing.

// TestCacheRefusesOtherFiles: --cache names a file that is not a cache
// (a text, another program's JSON): wynot says so in one line, exits 1,
// and the file keeps every byte. A cache wynot made is used again.
func TestCacheRefusesOtherFiles(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	for name, content := range map[string]string{
		"notes.txt":   strings.Repeat("A line of someone's notes, not a cache.\n", 500),
		"config.json": `{"key":"value","outcome":"yes"}` + "\n",
	} {
		path := filepath.Join(dir, name)
		write(t, path, []byte(content))
		r := wynotRun(t, dir, nil, "reduce", "--cache", name, "-o", "out", "in", "--", prog("mystery"), "{}")
		if r.code != 1 || !strings.Contains(r.stderr, name+": not a wynot cache") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("--cache %s: exit %d, stderr:\n%s\nwant exit 1 and one line saying it is not a wynot cache", name, r.code, r.stderr)
		}
		if got := read(t, path); !bytes.Equal(got, []byte(content)) {
			t.Errorf("--cache %s: the file changed from %d to %d bytes", name, len(content), len(got))
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("--cache %s: a result was written", name)
		}
	}
	// An empty file becomes a cache, and the next run reads it. (A
	// calibrated timeout is part of what a cached outcome answers: it is
	// given, so that the two runs ask the same question however long the
	// original takes on a busy machine.)
	write(t, filepath.Join(dir, "empty"), nil)
	for i := range 2 {
		r := wynotRun(t, dir, nil, "reduce", "--json", "-q", "--timeout", "20s", "--cache", "empty", "-o", "out", "in", "--", prog("mystery"), "{}")
		if r.code != 0 {
			t.Fatalf("run %d with an empty --cache file: exit %d\n%s", i+1, r.code, r.stderr)
		}
		if s := r.summary(t); i == 1 && s.Tests != s.Checks {
			t.Errorf("the second run made %d tests besides its %d checks: the cache was not read", s.Tests-s.Checks, s.Checks)
		}
	}
}

// TestTimeoutTooShort: one rule for a --timeout too short to run a test,
// in every command, before anything runs; the shortest allowed one runs.
func TestTimeoutTooShort(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	for _, cmd := range []string{"reduce", "isolate", "maximize", "changes", "fuzz", "trace", "chain"} {
		for _, d := range []string{"1ns", "1ms", "99ms"} {
			r := wynotRun(t, dir, nil, cmd, "--timeout", d, "in", "--", prog("mystery"), "{}")
			if r.code != 1 || !strings.Contains(r.stderr, "--timeout "+d+" is too short to run a test") {
				t.Errorf("%s --timeout %s: exit %d, stderr:\n%s\nwant exit 1 and that it is too short", cmd, d, r.code, r.stderr)
			}
		}
	}
	if got := string(read(t, filepath.Join(dir, "in"))); got != mysteryInput {
		t.Errorf("the input changed: %q", got)
	}
	// The shortest one is accepted: the run goes on (how it ends depends
	// on how fast the machine runs the test, so only that is checked).
	r := wynotRun(t, dir, nil, "reduce", "-q", "--timeout", "100ms", "-o", "out", "in", "--", "sh", "-c", `grep -q '(' "$1" && exit 1; exit 0`, "sh", "{}")
	if r.code == 1 || strings.Contains(r.stderr, "too short") {
		t.Errorf("reduce --timeout 100ms: exit %d\n%s", r.code, r.stderr)
	}
}

// TestBusyConfirmation: without --timeout, the timeout is calibrated on
// the original (at least 1 s here). The result's confirmation run is
// slow once, as on a machine busy for a moment: it outlasts that
// timeout, runs again with three times as long, and the result is
// confirmed without calling the test flaky (which made every later test
// run three times, or ended exit 3, "did not behave the same when run
// again"), and wynot says what happened.
func TestBusyConfirmation(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte("a\nb\nc\n"))
	write(t, filepath.Join(dir, "result"), []byte("b\n"))
	// Fails when the input holds b; the second run of exactly "b\n" (the
	// search's cache answers repeats: the second is the confirmation)
	// sleeps until the timeout ends it, whatever the calibration made of
	// the timeout on a busy machine (a sleep of 2.5 s fit into a timeout
	// of 3 s calibrated under load), and the run after it is quick.
	script := `if cmp -s "$1" ` + filepath.Join(dir, "result") + `; then
	echo run >> ` + filepath.Join(dir, "count") + `
	[ "$(wc -l < ` + filepath.Join(dir, "count") + `)" -eq 2 ] && sleep 600
fi
grep -q b "$1" && exit 1; exit 0`
	r := wynotRun(t, dir, nil, "reduce", "-j1", "--split", "lines", "--json", "in", "--", "sh", "-c", script, "sh", "{}")
	if r.code != 0 || !strings.Contains(r.stderr, "1 confirmation run timed out under the timeout calibrated on the original") || strings.Contains(r.stderr, "flaky") {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(dir, "in"))); got != "b\n" {
		t.Errorf("result %q", got)
	}
	if s := r.summary(t); !s.Confirmed {
		t.Errorf("not confirmed: %+v", s)
	}
	t.Logf("%s", wynotSaid(r.stderr))
}

// hangingMain is a Go program that prints, and when given an argument
// records its run in the file named by $RUNS and hangs.
const hangingMain = `package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	n := 6
	fmt.Println(n * 7)
	if len(os.Args) > 1 {
		f, err := os.OpenFile(os.Getenv("RUNS"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
		if err == nil {
			f.WriteString("run\n")
			f.Close()
		}
		time.Sleep(time.Hour)
	}
}
`

// TestOriginalHangsTwice: trace and chain whose original (failing) run
// hangs with --timeout say so after its two runs, not after five.
func TestOriginalHangsTwice(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module hang\n\ngo 1.22\n"))
	write(t, filepath.Join(dir, "main.go"), []byte(hangingMain))
	for _, args := range [][]string{
		{"trace", "--timeout", "1s", ".", "--", "hang"},
		{"chain", "--timeout", "1s", "--pass", "", "--fail", "hang", "--at", "main.go:11", "."},
	} {
		runs := filepath.Join(t.TempDir(), "runs")
		r := wynotRun(t, dir, []string{"RUNS=" + runs}, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "did not finish within 1s (--timeout)") {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 2 and that it did not finish", args[0], r.code, r.stderr)
		}
		if n := strings.Count(string(read(t, runs)), "run\n"); n != 2 {
			t.Errorf("%s: the hanging run ran %d times, want 2", args[0], n)
		}
	}
}

// TestInterruptBeforeSearch: SIGINT while the original runs (its first
// or second run) says what was interrupted and that nothing was changed,
// exits 130, and leaves the input byte for byte and no FILE.orig.
func TestInterruptBeforeSearch(t *testing.T) {
	e2e(t)
	t.Parallel()
	for _, run := range []int{1, 2} {
		dir, marks := t.TempDir(), t.TempDir()
		in := filepath.Join(dir, "in")
		write(t, in, []byte(mysteryInput))
		// Each run of the test leaves a mark; the run to be interrupted
		// then sleeps, the others fail at once.
		script := filepath.Join(marks, "test.sh")
		writeScript(t, script, fmt.Sprintf(`#!/bin/sh
n=$(($(ls %[1]s | grep -c '^run') + 1))
touch %[1]s/run$n
if [ $n -eq %[2]d ]; then sleep 60; fi
echo 'panic: boom' >&2
exit 2
`, marks, run))
		cmd := exec.Command(wynotBin, "reduce", "--timeout", "120s", "in", "--", script, "{}")
		cmd.Dir = dir
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the run to be interrupted to start (its mark), then
		// interrupt.
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(marks, fmt.Sprintf("run%d", run))); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("run %d of the original never started; stderr:\n%s", run, errb.String())
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		want := fmt.Sprintf("interrupted while running the original input (run %d of 2), before the search started; nothing was changed", run)
		if code != 130 || !strings.Contains(errb.String(), want) || strings.Contains(errb.String(), "context canceled") {
			t.Errorf("SIGINT in run %d: exit %d, stderr:\n%s\nwant exit 130 and %q", run, code, errb.String(), want)
		}
		if got := read(t, in); string(got) != mysteryInput {
			t.Errorf("SIGINT in run %d: the input changed to %q", run, got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("SIGINT in run %d: the directory holds %v, not only the input", run, names)
		}
	}
}

// smallFS mounts a tmpfs of 2 MiB for the test, or skips it where
// mounting is not permitted.
func smallFS(t *testing.T) string {
	t.Helper()
	return tmpfsOf(t, "2m")
}

// tmpfsOf mounts a tmpfs of size (as mount -o size= takes it) for the
// test, or skips it where mounting is not permitted.
func tmpfsOf(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		// A process that had a file there open may still be exiting
		// (busy): try again a while, then detach it.
		for range 20 {
			if exec.Command("umount", dir).Run() == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		exec.Command("umount", "-l", dir).Run()
	})
	return dir
}

// TestNoRoom: a test that fills the file system of the work directories,
// and a candidate that does not fit into it, are named as what they are
// (no space left on device in WYNOT_TMPDIR, and what to do), not as a
// flaky test; the input is left alone.
func TestNoRoom(t *testing.T) {
	e2e(t)
	t.Parallel()
	small := smallFS(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	// The test appends a log of 1.2 MB to a file beside the work
	// directories: the second run of the original finds no room for it.
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, `#!/bin/sh
head -c 1200000 /dev/zero >> "$WYNOT_TMPDIR/log" || { echo "cannot write the log" >&2; exit 1; }
grep -q '(' "$1" || exit 0
echo 'panic: boom' >&2
exit 2
`)
	big := []byte(strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789\n", 40000) + "(\n")
	for _, c := range []struct {
		name  string
		input []byte
		argv  []string
		code  int
	}{
		{"the test fills it", []byte(mysteryInput), []string{script, "{}"}, 2},
		{"the candidate does not fit", big, []string{"sh", "-c", `grep -q '(' "$1" || exit 0; echo 'panic: boom' >&2; exit 2`, "sh", "{}"}, 1},
	} {
		os.Remove(filepath.Join(small, "log"))
		write(t, in, c.input)
		r := wynotRun(t, dir, []string{"WYNOT_TMPDIR=" + small}, append([]string{"reduce", "-j", "2", "in", "--"}, c.argv...)...)
		want := "wynot: no space left on device in WYNOT_TMPDIR " + small + " (a file system of 2.0 MiB): set WYNOT_TMPDIR to a directory on a file system with more room"
		if r.code != c.code || !strings.HasPrefix(r.stderr, want) && !strings.Contains(r.stderr, "\n"+want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit %d and %q", c.name, r.code, r.stderr, c.code, want)
		}
		if got := read(t, in); !bytes.Equal(got, c.input) {
			t.Errorf("%s: the input changed", c.name)
		}
		if _, err := os.Stat(in + ".orig"); err == nil {
			t.Errorf("%s: in.orig was made", c.name)
		}
	}
}
