package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMkdirTempRemovesStale: the folders of wynot's temporary files
// (work directories, the build folders of trace and chain, compiled fuzz
// tests) that a process which no longer exists left behind are removed
// by the next MkdirTemp in their directory, with what still runs in
// them; those of a live process are kept, as are folders that only look
// alike.
func TestMkdirTempRemovesStale(t *testing.T) {
	parent := t.TempDir()
	t.Setenv("WYNOT_TMPDIR", parent)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := exec.Command("sleep", "1000")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { live.Process.Kill(); live.Wait() }()
	type folder struct {
		name string
		kept bool
	}
	var folders []folder
	for _, purpose := range []string{"", "trace-", "chain-", "fuzzbin-"} {
		folders = append(folders,
			folder{fmt.Sprintf("wynot-%d-%sx1", dead.Process.Pid, purpose), false},
			folder{fmt.Sprintf("wynot-%d-%sx2", live.Process.Pid, purpose), true},
			folder{fmt.Sprintf("wynot-%d-%sx3", os.Getpid(), purpose), true})
	}
	folders = append(folders, folder{"wynot-trace-x4", true}, folder{"other-1-x5", true})
	for _, f := range folders {
		if err := os.MkdirAll(filepath.Join(parent, f.name, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// A process left running in a dead process's folder ends with it.
	straggler := exec.Command("sleep", "1000")
	straggler.Dir = filepath.Join(parent, folders[0].name, "sub")
	if err := straggler.Start(); err != nil {
		t.Fatal(err)
	}
	defer straggler.Process.Kill()
	dir, err := MkdirTemp(parent, "trace")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("wynot-%d-trace-", os.Getpid()); !strings.HasPrefix(filepath.Base(dir), want) {
		t.Errorf("made %s, want a name starting %s", dir, want)
	}
	for _, f := range folders {
		_, err := os.Stat(filepath.Join(parent, f.name))
		if kept := err == nil; kept != f.kept {
			t.Errorf("%s kept: %v, want %v", f.name, kept, f.kept)
		}
	}
	if err := straggler.Wait(); err == nil {
		t.Errorf("the process in the stale folder was not killed")
	}
}
