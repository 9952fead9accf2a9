package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wynot/wynot/internal/fixtures"
)

func TestFuzz(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	if err := fixtures.FuzzPackage(dir); err != nil {
		t.Fatal(err)
	}
	orig := read(t, filepath.Join(dir, "testdata/fuzz/FuzzDepth/crasher"))
	r := wynotRun(t, dir, goEnv(), "fuzz", "--json", ".", "FuzzDepth")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	result := s.Result
	if !filepath.IsAbs(result) {
		result = filepath.Join(dir, result)
	}
	got := string(read(t, result))
	want := "go test fuzz v1\nstring(\"\")\n[]byte(\"[{]\")\nint(101)\nbool(true)\n"
	if got != want {
		t.Errorf("reduced entry\n%s\nwant\n%s\n%s", got, want, r.stderr)
	}
	if s.SizeBefore < 5000 || s.SizeAfter != 5 || !s.Minimal || !s.Confirmed {
		t.Errorf("summary %+v", s)
	}
	if string(read(t, filepath.Join(dir, "testdata/fuzz/FuzzDepth/crasher"))) != string(orig) {
		t.Errorf("the original entry changed")
	}
	// Go's own test run reads the written entry and fails on it, with the
	// same panic.
	cmd := exec.Command("go", "test", "-run=FuzzDepth/"+filepath.Base(s.Result), ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goEnv()...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--- FAIL: FuzzDepth/crasher-min") || !strings.Contains(string(out), "assignment to entry in nil map") {
		t.Errorf("go test on the reduced entry: %v\n%s", err, out)
	}
}

// TestFuzzTempFiles: the compiled tests live in a directory named by
// wynot's one rule for temporary files, so that after a SIGKILL the next
// run removes it; interrupted while compiling, wynot fuzz exits with 130.
func TestFuzzTempFiles(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, tmp := t.TempDir(), t.TempDir()
	if err := fixtures.FuzzPackage(dir); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		cmd := exec.Command(wynotBin, "fuzz", ".", "FuzzDepth")
		cmd.Dir = dir
		// A cold build cache makes the compilation long enough to be
		// interrupted.
		cmd.Env = append(os.Environ(), append(goEnv(), "WYNOT_TMPDIR="+tmp, "GOCACHE="+t.TempDir())...)
		errFile := filepath.Join(t.TempDir(), "stderr")
		ef, err := os.Create(errFile)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = ef
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stderr := func() string { b, _ := os.ReadFile(errFile); return string(b) }
		for deadline := time.Now().Add(patience); !strings.Contains(stderr(), "compiling the tests"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("no compilation:\n%s", stderr())
			}
		}
		time.Sleep(300 * time.Millisecond)
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		ef.Close()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		switch sig {
		case syscall.SIGINT:
			if code != 130 {
				t.Errorf("SIGINT while compiling: exit %d, want 130\n%s", code, stderr())
			}
		case syscall.SIGKILL:
			left, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("wynot-%d-fuzzbin-*", cmd.Process.Pid)))
			if len(left) != 1 {
				t.Fatalf("after SIGKILL: %v in %s, want the compiled tests' directory", left, tmp)
			}
			// The next run removes it.
			write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
			if r := wynotRun(t, dir, []string{"WYNOT_TMPDIR=" + tmp}, "reduce", "-q", "-o", "out", "in", "--", prog("mystery"), "{}"); r.code != 0 {
				t.Fatalf("the next run: exit %d\n%s", r.code, r.stderr)
			}
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%v: left in the temporary directory: %v", sig, left)
		}
	}
}

// TestFuzzFromOutside: the package directory named from outside its
// module compiles there (go test -c found no go.mod where wynot was
// started), and nothing of it is touched but the entry written.
func TestFuzzFromOutside(t *testing.T) {
	e2e(t)
	t.Parallel()
	parent := t.TempDir()
	dir := filepath.Join(parent, "pkg")
	if err := fixtures.FuzzPackage(dir); err != nil {
		t.Fatal(err)
	}
	files := func() map[string]string {
		m := map[string]string{}
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				m[p] = string(read(t, p))
			}
			return nil
		})
		return m
	}
	before := files()
	r := wynotRun(t, parent, goEnv(), "fuzz", "--json", "pkg", "FuzzDepth")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	after := files()
	for p, data := range before {
		if after[p] != data {
			t.Errorf("%s changed or went", p)
		}
	}
	if len(after) != len(before)+1 {
		t.Errorf("%d files after, %d before: want the written entry alone more", len(after), len(before))
	}
	if !strings.Contains(r.stderr, "(cd pkg && go test -run=FuzzDepth/") {
		t.Errorf("how to reproduce it:\n%s", r.stderr)
	}
}

// TestFuzzQuotedInput: a target whose t.Fatalf quotes the value it got
// (as fuzz targets do: "… %q", s) fails with another message at every
// candidate; with quoted strings aside the entry reduces to the one
// character the check needs, and a second check's message, quoting too,
// is still another failure.
func TestFuzzQuotedInput(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module fz\n\ngo 1.22\n"))
	write(t, filepath.Join(dir, "fz_test.go"), []byte(`package fz

import (
	"strings"
	"testing"
)

func FuzzQuoted(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n > 5 && len(s) < 10 {
			t.Fatalf("B: short string %q with big n %d", s, n)
		}
		if strings.Contains(s, "Q") {
			t.Fatalf("A: contains Q in %q", s)
		}
	})
}
`))
	write(t, filepath.Join(dir, "testdata/fuzz/FuzzQuoted/e1"), []byte("go test fuzz v1\nstring(\"hello \\\"world\\\" Q and more\")\nint(100)\n"))
	r := wynotRun(t, dir, goEnv(), "fuzz", ".", "FuzzQuoted")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	got := string(read(t, filepath.Join(dir, "testdata/fuzz/FuzzQuoted/e1-min")))
	if want := "go test fuzz v1\nstring(\"Q\")\nint(0)\n"; got != want {
		t.Errorf("reduced entry\n%s\nwant\n%s\n%s", got, want, r.stderr)
	}
	if !strings.Contains(r.stderr, "(numbers, addresses, paths and quoted strings aside)") {
		t.Errorf("the failure rule:\n%s", r.stderr)
	}
}
