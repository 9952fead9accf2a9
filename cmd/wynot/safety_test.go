package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/proctest"
)

// TestSymlinkInputStays: an input given as a symbolic link is read
// through it, but neither the link nor its target is replaced or
// written next to; the result goes to the current directory, under a
// name no file has yet, and wynot says where.
func TestSymlinkInputStays(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "data", "target.txt")
	write(t, target, []byte(mysteryInput))
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"link.reduced", "link.reduced.1"} {
		r := wynotRun(t, dir, nil, "reduce", "link", "--", prog("mystery"), "{}")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if dest, err := os.Readlink(filepath.Join(dir, "link")); err != nil || dest != target {
			t.Fatalf("link is no longer a link to %s: %q, %v", target, dest, err)
		}
		if got := string(read(t, target)); got != mysteryInput {
			t.Errorf("the link's target changed: %q", got)
		}
		if got := read(t, filepath.Join(dir, want)); len(got) >= len(mysteryInput) {
			t.Errorf("%s holds %q", want, got)
		}
		if !strings.Contains(r.stderr, "input link is not a regular file; it stays as it is, and the result goes to "+want) {
			t.Errorf("stderr does not say where the result goes:\n%s", r.stderr)
		}
		if _, err := os.Lstat(filepath.Join(dir, "link.orig")); err == nil {
			t.Errorf("link.orig written next to a link")
		}
	}
}

// TestStaleOrig: FILE.orig is written only once the search starts, is
// removed again when nothing was found, is reused only for an interrupted
// reduction of the same file, and is never taken for the original of a
// new file: then the original goes to FILE.orig.1, and the closing
// message names it.
func TestStaleOrig(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	bug := filepath.Join(dir, "bug.txt")
	mystery := []string{"--", prog("mystery"), "{}"}

	// A run on an input that does not fail leaves no bug.txt.orig.
	write(t, bug, []byte("no parentheses"))
	if r := wynotRun(t, dir, nil, append([]string{"reduce", "bug.txt"}, mystery...)...); r.code != 2 {
		t.Fatalf("passing input: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(bug + ".orig"); err == nil {
		t.Fatalf("bug.txt.orig left by a run that found nothing to reduce")
	}

	// A bug.txt.orig of something else: kept, and the new original goes
	// to bug.txt.orig.1.
	write(t, bug+".orig", []byte("something else"))
	write(t, bug, []byte(mysteryInput))
	r := wynotRun(t, dir, nil, append([]string{"reduce", "bug.txt"}, mystery...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got := string(read(t, bug+".orig")); got != "something else" {
		t.Errorf("bug.txt.orig was written over: %q", got)
	}
	if got := string(read(t, bug+".orig.1")); got != mysteryInput {
		t.Errorf("bug.txt.orig.1 holds %q, not the original", got)
	}
	if !strings.Contains(r.stderr, "the original is in bug.txt.orig.1") {
		t.Errorf("the closing message does not name bug.txt.orig.1:\n%s", r.stderr)
	}

	// An input that is already as small as it gets: left as it is, and
	// no backup of it stays behind.
	small := filepath.Join(dir, "small.txt")
	write(t, small, read(t, bug))
	r = wynotRun(t, dir, nil, append([]string{"reduce", "small.txt"}, mystery...)...)
	if r.code != 0 || !strings.Contains(r.stderr, "small.txt is unchanged") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(small + ".orig"); err == nil {
		t.Errorf("small.txt.orig left although nothing was found")
	}
}

// TestResumeInterrupted: a reduction interrupted by SIGINT keeps the
// original in in.orig; the next run on in continues from it and keeps
// that in.orig as the original (its lineage says so), instead of taking
// the partly reduced file for a new original.
func TestResumeInterrupted(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, piddir := t.TempDir(), t.TempDir()
	orig := []byte(strings.Repeat("abcdefgh", 40) + "(" + strings.Repeat("ijklmnop", 40) + ")" + strings.Repeat("qrstuvwx", 40))
	in := filepath.Join(dir, "in")
	write(t, in, orig)
	cmd := exec.Command(wynotBin, "reduce", "-j", "2", "--split", "runes", "in", "--", prog("slow"), "{}")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIDDIR="+piddir, "SLEEP=50ms")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupted once a first smaller input was written.
	waitUntil(t, cmd, "a first reduction", func() bool { b, _ := os.ReadFile(in); return len(b) > 0 && len(b) < len(orig) })
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	partial := read(t, in)
	if bytes.Equal(partial, orig) {
		t.Fatalf("the reduced input is the original again after the interrupt:\n%s", errb.String())
	}
	r := wynotRun(t, dir, nil, "reduce", "in", "--", prog("mystery"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "in.orig holds the original of an interrupted reduction of in") || !strings.Contains(r.stderr, "the original is in in.orig\n") {
		t.Errorf("the second run did not keep in.orig as the original:\n%s", r.stderr)
	}
	if !bytes.Equal(read(t, in+".orig"), orig) {
		t.Errorf("in.orig changed")
	}
	if _, err := os.Stat(in + ".orig.1"); err == nil {
		t.Errorf("in.orig.1 made for a reduction that continued")
	}
}

// TestIsolateKeepsResults: a second isolate into the same directory
// writes NAME.1.pass and NAME.1.fail, leaving the first results alone.
func TestIsolateKeepsResults(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	for run := range 2 {
		r := wynotRun(t, dir, nil, "isolate", "-o", "out", "/dev/null", "in", "--", prog("mystery"), "{}")
		if r.code != 0 {
			t.Fatalf("run %d: exit %d\n%s", run, r.code, r.stderr)
		}
		if run == 1 && !strings.Contains(r.stderr, "in.pass or in.fail exists in out already; writing in.1.pass and .fail instead") {
			t.Errorf("the second run does not say where its results go:\n%s", r.stderr)
		}
	}
	for _, name := range []string{"in.pass", "in.fail", "in.1.pass", "in.1.fail"} {
		if _, err := os.Stat(filepath.Join(dir, "out", name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !bytes.Equal(read(t, filepath.Join(dir, "out", "in.pass")), read(t, filepath.Join(dir, "out", "in.1.pass"))) {
		t.Errorf("the two runs' passing results differ")
	}
}

// TestNoGrandchildrenAfterKill: wynot is killed by SIGKILL while a test
// script runs, which started children of its own without exec (a
// background sleep and a long foreground one). One second later none of
// them runs: the guardian killed the test's process group.
func TestNoGrandchildrenAfterKill(t *testing.T) {
	e2e(t)
	t.Parallel()
	for _, guardianToo := range []bool{false, true} {
		noGrandchildren(t, guardianToo)
	}
}

// noGrandchildren kills wynot during a test whose script started
// children; with guardianToo, the guardian as well, and then the next run
// of wynot kills what is left.
func noGrandchildren(t *testing.T, guardianToo bool) {
	dir, piddir, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, `#!/bin/sh
echo $$ > "$PIDDIR/$$"
sleep 1000 &
echo $! > "$PIDDIR/$!"
sleep 20 &
echo $! > "$PIDDIR/$!"
wait
`)
	cmd := exec.Command(wynotBin, "reduce", "-o", "out", "--test", script, "in")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIDDIR="+piddir, "WYNOT_TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the script and both of its children recorded their pids.
	for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		if entries, _ := os.ReadDir(piddir); len(entries) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the test script did not start its children")
		}
	}
	if guardianToo {
		// wynot's children: the test script (which the parent-death
		// signal ends anyway) and the guardian.
		// (/proc lists a process's children per thread that forked them.)
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", cmd.Process.Pid))
		killed := 0
		for _, task := range tasks {
			kids, _ := os.ReadFile(task)
			for _, k := range strings.Fields(string(kids)) {
				pid, _ := strconv.Atoi(k)
				syscall.Kill(pid, syscall.SIGKILL)
				killed++
			}
		}
		if killed < 2 {
			t.Fatalf("found %d children of wynot, want the test script and the guardian", killed)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if guardianToo {
		// The next run in the same temporary directory cleans up.
		if r := wynotRun(t, dir, []string{"WYNOT_TMPDIR=" + tmp}, "reduce", "-q", "-o", "out2", "in", "--", prog("mystery"), "{}"); r.code != 0 {
			t.Fatalf("the next run: exit %d\n%s", r.code, r.stderr)
		}
	}
	// The processes end once the guardian (or, without it, the next run)
	// has killed them: on a busy machine that can take seconds.
	entries, _ := os.ReadDir(piddir)
	for _, e := range entries {
		pid, _ := strconv.Atoi(e.Name())
		running := func() bool { return proctest.Running(pid) }
		for deadline := time.Now().Add(patience); running() && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if running() {
			t.Errorf("guardian killed too: %v: process %d of the test still runs %s after wynot was killed", guardianToo, pid, patience)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestFlagsChecked: numeric flags out of range and flags that contradict
// each other are refused with the reason; so is help for no command.
func TestFlagsChecked(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"reduce", "--timeout", "-1s", "in", "--", "true"}, "--timeout -1s is negative"},
		{[]string{"reduce", "-j", "0", "in", "--", "true"}, "-j must be between 1 and 1024"},
		{[]string{"reduce", "-j", "100000", "in", "--", "true"}, "-j must be between 1 and 1024"},
		{[]string{"reduce", "--repeat", "0", "in", "--", "true"}, "--repeat must be between 1 and 100"},
		{[]string{"reduce", "-q", "-v", "in", "--", "true"}, "-q and -v contradict each other"},
		{[]string{"reduce", "--fail-on", "x", "--precision", "exit", "in", "--", "true"}, "give one of them"},
		{[]string{"reduce", "--convention", "bisect", "in", "--", "true"}, "there is no --test"},
		{[]string{"changes", "--context", "-1", "a", "b", "--", "true"}, "--context must be at least 0"},
		{[]string{"reduce", "--report", "no/such/dir", "in", "--", "true"}, "the directory no/such does not exist"},
		{[]string{"reduce", "--exec", "reapi://127.0.0.1:1", "--remote-queue-timeout", "-1s", "in", "--", "true"}, "--remote-queue-timeout -1s is negative"},
		{[]string{"reduce", "--remote-queue-timeout", "1m", "in", "--", "true"}, "--remote-queue-timeout applies to --exec reapi://HOST:PORT"},
		{[]string{"help", "bogus"}, `no help for "bogus"`},
	} {
		r := wynotRun(t, dir, nil, c.args...)
		if r.code != 1 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, want 1 and %q:\n%s", c.args, r.code, c.want, r.stderr)
		}
	}
}

// TestHangingOriginalSaysSo: without --timeout, an original that runs
// long gets a message after 10s that says how to bound it.
func TestHangingOriginalSaysSo(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte("x"))
	cmd := exec.Command(wynotBin, "reduce", "-o", "out", "in", "--", "sleep", "60")
	cmd.Dir = dir
	errFile := filepath.Join(dir, "stderr")
	ef, err := os.Create(errFile)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	cmd.Stderr = ef
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Signal(syscall.SIGINT)
	for deadline := time.Now().Add(10*time.Second + patience); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if b, _ := os.ReadFile(errFile); strings.Contains(string(b), "the original input is still running after 10s; if it hangs, give --timeout D") {
			return
		}
	}
	b, _ := os.ReadFile(errFile)
	t.Errorf("no message about the running original:\n%s", b)
}

// TestLargeInputMemory: reducing a 10 MB text input takes a few times the
// input in memory, not tens of times (it took 620 MB when the bracket
// depth and the character count listed every token and offset).
func TestLargeInputMemory(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	var b bytes.Buffer
	words := []string{"alpha", "beta", "(x)", "[y]", "{z}", "foo"}
	for i := 0; b.Len() < 10<<20; i++ {
		b.WriteString(words[i%len(words)])
		if i%11 == 10 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		if i == 700000 {
			b.WriteString("NEEDLE ")
		}
	}
	write(t, filepath.Join(dir, "big.txt"), b.Bytes())
	write(t, filepath.Join(dir, "t.sh"), []byte("#!/bin/sh\ngrep -q NEEDLE \"$1\" && { echo 'panic: needle' >&2; exit 2; }; exit 0\n"))
	os.Chmod(filepath.Join(dir, "t.sh"), 0o755)
	cmd := exec.Command(wynotBin, "reduce", "-q", "--repeat", "1", "-o", "out.txt", "big.txt", "--", "./t.sh", "{}")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := string(read(t, filepath.Join(dir, "out.txt"))); got != "NEEDLE" {
		t.Errorf("result %q", got)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
	if limit := int64(15 * b.Len()); peak > limit {
		t.Errorf("peak memory %d MB for a %d MB input (more than %d MB)", peak>>20, b.Len()>>20, limit>>20)
	}
	t.Logf("peak memory %d MB for a %d MB input", peak>>20, b.Len()>>20)
}
