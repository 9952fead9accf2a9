package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("1000.%d9", os.Getpid())
	cmd := exec.Command("sh", "-c", "exec sleep "+mark)
	cmd.Dir = sub
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	// sh execs sleep: wait until the command line is sleep's.
	for !slices.Contains(Marked(mark), pid) {
		if !Running(pid) {
			t.Fatal("the process ended")
		}
		time.Sleep(time.Millisecond)
	}
	if !Running(pid) || !slices.Contains(In(dir), pid) {
		t.Errorf("running %v, in %s: %v", Running(pid), dir, In(dir))
	}
	if slices.Contains(In(sub), pid) {
		t.Errorf("a process whose working directory is %s counted as under it", sub)
	}
	cmd.Process.Kill()
	// Killed but not yet reaped: a zombie, which counts as gone.
	for Running(pid) {
		time.Sleep(time.Millisecond)
	}
	if got := Marked(mark); len(got) != 0 {
		t.Errorf("a zombie is listed: %v", got)
	}
	cmd.Wait()
	if Running(pid) || len(In(dir)) != 0 {
		t.Errorf("a reaped process is listed")
	}
}
