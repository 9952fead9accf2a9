package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReduceDashName: an input whose name starts with "-" is given after
// a "--" of its own, which ends wynot's flags; the second "--" starts
// the test command.
func TestReduceDashName(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "-n.txt")
	write(t, in, []byte(mysteryInput))
	r := wynotRun(t, dir, nil, "reduce", "-q", "--", "-n.txt", "--", prog("mystery"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := string(read(t, in)); got != "()" {
		t.Errorf("-n.txt holds %q, want ()", got)
	}
	if got := string(read(t, in+".orig")); got != mysteryInput {
		t.Errorf("-n.txt.orig holds %q", got)
	}
}

// TestReduceNewlineName: a file name with a newline is quoted in
// messages as Go quotes it, so that each message stays one line; a
// plain name is written as it is.
func TestReduceNewlineName(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "a\nb.txt")
	write(t, in, []byte(mysteryInput))
	write(t, filepath.Join(dir, "plain name.txt"), []byte(mysteryInput))
	r := wynotRun(t, dir, nil, "reduce", "a\nb.txt", "plain name.txt", "--", prog("mystery"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
		if !strings.HasPrefix(l, "wynot: ") && !strings.HasPrefix(l, "reduce: ") {
			t.Errorf("a message spans lines: %q\n%s", l, r.stderr)
		}
	}
	for _, want := range []string{`"a\nb.txt" now holds the result; the original is in "a\nb.txt.orig"`,
		"plain name.txt now holds the result; the original is in plain name.txt.orig"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %s:\n%s", want, r.stderr)
		}
	}
	if got := string(read(t, in)); got != "()" {
		t.Errorf("the input holds %q, want ()", got)
	}
}

// TestReduceNoRoomBesideInput: a write beside the input (its copy in
// FILE.orig, or a smaller result replacing it) or at -o that finds its
// file system full names that file system and what to do, not the work
// directories' (WYNOT_TMPDIR, elsewhere and with room); the input stays
// intact. The small file system is a tmpfs of 64 KiB.
func TestReduceNoRoomBesideInput(t *testing.T) {
	e2e(t)
	t.Parallel()
	lines := func(n int) []byte { return []byte(strings.Repeat("abcdefghijklmno\n", n) + "()\n") }
	for _, c := range []struct {
		name  string
		input []byte // the input, on the small file system unless -o is
		out   bool   // -o onto the small file system, the input elsewhere
		want  string
	}{
		// 26 KB, and as much in m3.txt.orig: the first smaller result
		// (half of it) finds no room.
		{"the result", lines(1625), false, "no space left on device on the file system of the input m3.txt (in SMALL, a file system of 64.0 KiB, "},
		// 40 KB: its copy in m3.txt.orig does not fit.
		{"the original's copy", lines(2500), false, "no space left on device on the file system of the input m3.txt (in SMALL, a file system of 64.0 KiB, "},
		// 140 KB elsewhere: its first smaller result (half of it) does
		// not fit into -o.
		{"-o", lines(8750), true, "no space left on device on the file system of -o SMALL/out.txt (in SMALL, a file system of 64.0 KiB, "},
	} {
		t.Run(c.name, func(t *testing.T) {
			small, dir, tmp := tmpfsOf(t, "64k"), t.TempDir(), t.TempDir()
			in, args := filepath.Join(small, "m3.txt"), []string{"reduce", "-j", "2", "--split", "lines", "m3.txt"}
			if c.out {
				in = filepath.Join(dir, "m3.txt")
				args = append(args, "-o", filepath.Join(small, "out.txt"))
			}
			write(t, in, c.input)
			r := wynotRun(t, filepath.Dir(in), []string{"WYNOT_TMPDIR=" + tmp}, append(args, "--", prog("mystery"), "{}")...)
			want := strings.ReplaceAll(c.want, "SMALL", small)
			if r.code != 1 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "WYNOT_TMPDIR") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q, and no word of WYNOT_TMPDIR", r.code, r.stderr, want)
			}
			if !strings.Contains(r.stderr, "make room there, or give -o a path on a file system with more room") {
				t.Errorf("no advice:\n%s", r.stderr)
			}
			if got := read(t, in); !bytes.Equal(got, c.input) && !(c.name == "the result" && len(got) < len(c.input)) {
				t.Errorf("the input changed to %d bytes", len(got))
			}
		})
	}
}

// TestReduceInterruptWhilePreparing: SIGINT 0.3 s into a reduction of a
// Go tree, while wynot type-checks it (a file that imports the whole
// standard library, typed from source: seconds of work) or runs go list
// -export (with a build cache of its own, which has nothing built yet),
// ends wynot as quickly as later, with exit status 130, and says nothing
// of what the interruption cut short ("go list -export failed (.:
// context canceled)").
func TestReduceInterruptWhilePreparing(t *testing.T) {
	e2e(t)
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-f", "{{if not .Incomplete}}{{.ImportPath}}{{end}}", "std").Output()
	if err != nil {
		t.Fatal(err)
	}
	skip := regexp.MustCompile(`internal|vendor|^cmd/|^runtime/(cgo|race|msan|asan)$|^plugin$|^unsafe$|^builtin$|^syscall/js$|^testing/synctest$|^crypto/fips|^simd|^fmt$`)
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\t\"fmt\"\n")
	for _, p := range strings.Fields(string(out)) {
		if !skip.MatchString(p) {
			src.WriteString("\t_ \"" + p + "\"\n")
		}
	}
	src.WriteString(")\n\nfunc main() {\n\tfmt.Printf(\"%d\\n\", \"x\")\n}\n")
	dir := t.TempDir()
	tree := filepath.Join(dir, "m")
	write(t, filepath.Join(tree, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"))
	write(t, filepath.Join(tree, "main.go"), []byte(src.String()))
	cmd := exec.Command(wynotBin, "reduce", "-j", "2", "--fail-on", "format %d has arg", "m", "--", "go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOCACHE="+t.TempDir(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	sent := time.Now()
	err = cmd.Wait()
	took := time.Since(sent)
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 || took > 1500*time.Millisecond {
		t.Errorf("exit %d %s after SIGINT, want 130 within 1.5s; stderr:\n%s", code, took.Round(time.Millisecond), errb.String())
	}
	if strings.Contains(errb.String(), "context canceled") || !strings.Contains(errb.String(), "interrupted while") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	if _, err := os.Stat(tree + ".orig"); err == nil {
		t.Error("m.orig was made")
	}
	t.Logf("%s after SIGINT: %s", took.Round(time.Millisecond), errb.String())
}

// lockInput is an input of 960 bytes that slow fails on.
var lockInput = []byte(strings.Repeat("abcdefgh", 40) + "(" + strings.Repeat("ijklmnop", 40) + ")" + strings.Repeat("qrstuvwx", 40))

// startHolder starts wynot reducing dir/in in place with a slow test,
// and waits until it keeps the original in in.orig (it holds its lock
// by then). env is added to the environment.
func startHolder(t *testing.T, dir string, env []string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	write(t, filepath.Join(dir, "in"), lockInput)
	cmd := exec.Command(wynotBin, "reduce", "-j", "2", "--split", "runes", "in", "--", prog("slow"), "{}")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SLEEP=50ms"), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	waitUntil(t, cmd, "the original kept in in.orig", func() bool { _, err := os.Stat(filepath.Join(dir, "in.orig")); return err == nil })
	return cmd, &errb
}

// started matches how a run's start is written.
var started = `started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: wynot reduce -j 2 --split runes in -- \S+/slow \{\}\)`

// TestReduceSecondRunStopped: while a run reduces a file in place, a
// second run on it, in place or with -o (which reads it), stops at once
// with exit status 1 and a message that names the first run by its PID,
// its start and its command line; it changes nothing. Runs with -o to
// different outputs only read the input: they go on side by side.
func TestReduceSecondRunStopped(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, tmp := t.TempDir(), t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir(), "WYNOT_TMPDIR=" + tmp}
	holder, holderErr := startHolder(t, dir, env)
	for _, args := range [][]string{{"in"}, {"-o", "out", "in"}} {
		t0 := time.Now()
		r := wynotRun(t, dir, env, append(append([]string{"reduce"}, args...), "--", prog("mystery"), "{}")...)
		want := regexp.MustCompile(fmt.Sprintf(`^wynot: in is in use by another run of wynot \(PID %d, %s, which reduces in in place: wait for that run to end, or stop it\n$`,
			holder.Process.Pid, started))
		if r.code != 1 || !want.MatchString(r.stderr) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit 1 and %s", args, r.code, r.stderr, want)
		}
		if took := time.Since(t0); took > 5*time.Second {
			t.Errorf("%q: stopped after %s", args, took)
		}
	}
	for _, name := range []string{"in.orig.1", "out"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was made", name)
		}
	}
	holder.Process.Signal(syscall.SIGINT)
	if err := holder.Wait(); err == nil || holder.ProcessState.ExitCode() != 130 {
		t.Errorf("the first run: %v\n%s", err, holderErr)
	}

	// Two runs with -o to different outputs read the input side by side.
	other := t.TempDir()
	write(t, filepath.Join(other, "in"), lockInput)
	slow := append(append(os.Environ(), "SLEEP=50ms"), env...)
	first := exec.Command(wynotBin, "reduce", "-q", "-j", "1", "-o", "out1", "in", "--", prog("slow"), "{}")
	first.Dir, first.Env = other, slow
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, first, "a first result in out1", func() bool { _, err := os.Stat(filepath.Join(other, "out1")); return err == nil })
	r := wynotRun(t, other, env, "reduce", "-q", "-o", "out2", "in", "--", prog("mystery"), "{}")
	if r.code != 0 || string(read(t, filepath.Join(other, "out2"))) != "()" {
		t.Errorf("a second run with -o elsewhere: exit %d\n%s", r.code, r.stderr)
	}
	if err := first.Wait(); err != nil || string(read(t, filepath.Join(other, "out1"))) != "()" {
		t.Errorf("the first run with -o: %v", err)
	}
}

// TestReduceStaleLockTakenOver: a run killed with SIGKILL lets go of its
// lock with its process; the next run on the input says that it takes
// over what the killed run held (naming it), and goes on with the
// interrupted reduction to a correct result.
func TestReduceStaleLockTakenOver(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, tmp, cache := t.TempDir(), t.TempDir(), t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + cache, "WYNOT_TMPDIR=" + tmp}
	holder, _ := startHolder(t, dir, env)
	in := filepath.Join(dir, "in")
	waitUntil(t, holder, "a first reduction", func() bool { b, _ := os.ReadFile(in); return len(b) > 0 && len(b) < len(lockInput) })
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	r := wynotRun(t, dir, env, "reduce", "in", "--", prog("mystery"), "{}")
	want := regexp.MustCompile(fmt.Sprintf(`(?m)^wynot: in was held by a run of wynot that ended without letting go of it \(PID %d, %s: taking it over$`, holder.Process.Pid, started))
	if r.code != 0 || !want.MatchString(r.stderr) || !strings.Contains(r.stderr, "in.orig holds the original of an interrupted reduction of in") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and %s", r.code, r.stderr, want)
	}
	if got := string(read(t, in)); got != "()" {
		t.Errorf("in holds %q", got)
	}
	if !bytes.Equal(read(t, in+".orig"), lockInput) {
		t.Error("in.orig changed")
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "wynot", "runs", "*.json")); len(left) > 0 {
		t.Errorf("records left: %v", left)
	}
}

// TestChangesGitSideBySide: changes --git only reads the repository,
// so a second search of its history runs while the first does, and so
// does a reduction in place of a file of its checkout.
func TestChangesGitSideBySide(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := statsHistory(t)
	cache := t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + cache}
	mark := filepath.Join(t.TempDir(), "started")
	first := exec.Command(wynotBin, "changes", "-q", "--git", "v0.1", "v0.2", "--", "sh", "-c", "touch "+mark+"; sleep 30; exit 1")
	first.Dir, first.Env = dir, append(os.Environ(), env...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if first.ProcessState == nil {
			first.Process.Kill()
			first.Wait()
		}
	})
	waitUntil(t, first, "the first run's test", func() bool {
		_, err := os.Stat(mark)
		return err == nil
	})
	r := wynotRun(t, dir, env, "changes", "--git", "v0.1", "v0.2", "--", "go", "test", "./...")
	if r.code != 0 || strings.Contains(r.stderr, "in use by another run") {
		t.Errorf("a second --git beside the first: exit %d\n%s", r.code, r.stderr)
	}
	if first.ProcessState != nil {
		t.Fatalf("the first run ended before the second did: the test shows nothing")
	}
	write(t, filepath.Join(dir, "notes.txt"), []byte("a\nNEEDLE\nb\n"))
	r = wynotRun(t, dir, env, "reduce", "-q", "notes.txt", "--", "sh", "-c", "! grep -q NEEDLE {}")
	if r.code != 0 || string(read(t, filepath.Join(dir, "notes.txt"))) != "NEEDLE" {
		t.Errorf("a reduction in the checkout: exit %d\n%s", r.code, r.stderr)
	}
	first.Process.Signal(syscall.SIGINT)
	first.Wait()
}
