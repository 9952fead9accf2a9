package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// needSandbox skips a test where bubblewrap cannot confine a process.
func needSandbox(t *testing.T) {
	t.Helper()
	if out, err := exec.Command("bwrap", "--ro-bind", "/", "/", "--unshare-net", "true").CombinedOutput(); err != nil {
		t.Skipf("no sandbox here (bubblewrap: %v %s): Debian's bubblewrap package, and namespaces it may create", err, out)
	}
}

// TestSandbox: with --sandbox, a test that writes outside its directory,
// reads the home directory or reaches the network cannot; each would
// change the test's outcome, so the reduction shows it.
func TestSandbox(t *testing.T) {
	e2e(t)
	t.Parallel()
	needSandbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	for _, c := range []struct {
		name string
		// escape is the test's attempt; it exits 2 when it succeeds,
		// before the test proper (NEEDLE in the candidate fails).
		escape string
		check  func(t *testing.T, dir, home string)
	}{
		{"writes outside", "echo x > \"$OUT/escape.txt\" 2>/dev/null && exit 2", func(t *testing.T, dir, home string) {
			if _, err := os.Stat(filepath.Join(dir, "escape.txt")); err == nil {
				t.Error("the test wrote outside its directory")
			}
		}},
		{"reads home", "cat \"$HOME/secret\" 2>/dev/null && exit 2", nil},
		{"reaches the network", "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " + strconv.Itoa(port) + "), timeout=2)' 2>/dev/null && exit 2", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, home := t.TempDir(), t.TempDir()
			write(t, filepath.Join(home, "secret"), []byte("the user's\n"))
			write(t, filepath.Join(dir, "in.txt"), []byte("one\ntwo\nNEEDLE\nthree\n"))
			script := c.escape + "; grep -q NEEDLE {} && exit 1; exit 0"
			env := []string{"HOME=" + home, "OUT=" + dir}
			// Unconfined, the escape succeeds: the original exits 2.
			if r := wynotRun(t, dir, env, "reduce", "-o", "out.txt", "in.txt", "--", "sh", "-c", script); !strings.Contains(r.stderr, "the original input fails: exit status 2") {
				t.Fatalf("unconfined: exit %d, the escape did not succeed\n%s", r.code, r.stderr)
			}
			os.Remove(filepath.Join(dir, "escape.txt"))
			r := wynotRun(t, dir, env, "reduce", "--sandbox", "-o", "out.txt", "in.txt", "--", "sh", "-c", script)
			if r.code != 0 || !strings.Contains(r.stderr, "each test runs confined by bubblewrap") || !strings.Contains(r.stderr, "exit status 1") {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			if got := read(t, filepath.Join(dir, "out.txt")); string(got) != "NEEDLE" {
				t.Errorf("result %q", got)
			}
			if c.check != nil {
				c.check(t, dir, home)
			}
		})
	}
}
