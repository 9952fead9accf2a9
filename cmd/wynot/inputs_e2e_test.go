package main

import (
	"bytes"
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
