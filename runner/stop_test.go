package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cleanupScript is a test that makes a scratch file, says it is ready,
// and removes the scratch file when it is stopped by one of the traps
// (a shell's traps), which the file's absence after the run shows.
func cleanupScript(scratch, ready, traps string) Command {
	return sh(traps + `
echo x > ` + scratch + `
echo > ` + ready + `
sleep 30
echo never`)
}

// whenReady calls f once the file ready exists.
func whenReady(ready string, f func()) {
	go func() {
		for {
			if _, err := os.Stat(ready); err == nil {
				f()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
}

func TestCancelLetsTheTestCleanUp(t *testing.T) {
	for _, traps := range []string{
		// Cleans up on either signal: SIGINT comes first.
		`trap 'rm -f "$S"; exit 130' INT; trap 'rm -f "$S"; exit 143' TERM`,
		// Ignores SIGINT (as a shell's background processes do): SIGTERM.
		`trap '' INT; trap 'rm -f "$S"; exit 143' TERM`,
	} {
		tmp := t.TempDir()
		scratch, ready := filepath.Join(tmp, "scratch"), filepath.Join(tmp, "ready")
		c := cleanupScript(scratch, ready, "S="+scratch+"\n"+traps)
		ctx, cancel := context.WithCancel(context.Background())
		whenReady(ready, cancel)
		r, err := c.ExecIn(ctx, WorkDir(t.TempDir()), nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: err = %v, want context.Canceled (run %+v)", traps, err, r)
		}
		if _, err := os.Stat(scratch); err == nil {
			t.Errorf("%s: the cancelled test did not get to remove its scratch file (run: %s)", traps, r.Describe())
		}
	}
}

func TestTimeoutLetsTheTestCleanUp(t *testing.T) {
	tmp := t.TempDir()
	scratch, ready := filepath.Join(tmp, "scratch"), filepath.Join(tmp, "ready")
	c := cleanupScript(scratch, ready, "S="+scratch+"\ntrap 'rm -f \"$S\"; exit 143' INT TERM")
	// On a busy machine the shell may not have made its file within the
	// timeout: then the test runs again with a longer one.
	for c.Timeout = 300 * time.Millisecond; ; c.Timeout *= 2 {
		r, err := c.ExecIn(context.Background(), WorkDir(t.TempDir()), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.TimedOut {
			t.Fatalf("run %+v, want timed out", r)
		}
		if _, err := os.Stat(ready); err == nil {
			if _, err := os.Stat(scratch); err == nil {
				t.Errorf("the timed-out test did not get to remove its scratch file (run: %s)", r.Describe())
			}
			return
		}
		if c.Timeout > 10*time.Second {
			t.Fatal("the shell never got ready")
		}
	}
}

func TestStopKillsWhatIgnoresSignals(t *testing.T) {
	tmp := t.TempDir()
	ready, pidfile := filepath.Join(tmp, "ready"), filepath.Join(tmp, "bg.pid")
	// Ignored signals stay ignored in the children: only SIGKILL ends
	// the shell, its sleep and its background process.
	c := sh("trap '' INT TERM; sleep 30 & echo $! > " + pidfile + "; echo > " + ready + "; sleep 30")
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	whenReady(ready, func() { cancelled = time.Now(); cancel() })
	_, err := c.ExecIn(ctx, WorkDir(t.TempDir()), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(cancelled); d < interruptGrace+termGrace {
		t.Errorf("a test that ignores SIGINT and SIGTERM ended %s after the cancellation, before its grace (%s) was over", d, interruptGrace+termGrace)
	}
	waitGone(t, pidfile)
}
