package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScripts runs the scripts of testdata/script: wynot's command-line
// contract (what a user types wrong, what wynot answers and the status it
// exits with) as a user types it, each script in a fresh directory of its
// own files. wynot there is this test binary (TestMain), so the scripts
// run under -short too; one that builds Go programs begins with
// [short] skip.
//
// Besides testscript's commands and conditions: exits N PROG [ARG...]
// runs PROG as exec does and checks that it exits with status N and that
// its standard error holds no Go stack trace; [grammars] is true when
// this build has the tree-sitter grammars (cgo); $EXAMPLES is the
// repository's examples directory, and $WYNOTBIN the directory of the
// scripts' wynot (for a script that sets PATH).
func TestScripts(t *testing.T) {
	t.Parallel()
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	goenv := map[string]string{}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", v, err)
		}
		goenv[v] = strings.TrimSpace(string(out))
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			// wynot's own cache of files reduced in place, and the Go
			// toolchain's, without a network.
			e.Setenv("XDG_CACHE_HOME", filepath.Join(e.WorkDir, ".cache"))
			e.Setenv("EXAMPLES", examples) // the repository's examples/
			// Where the scripts' wynot is, for a script that sets PATH.
			e.Setenv("WYNOTBIN", strings.SplitN(e.Getenv("PATH"), string(os.PathListSeparator), 2)[0])
			for k, v := range goenv {
				e.Setenv(k, v)
			}
			e.Setenv("GOTOOLCHAIN", "local")
			e.Setenv("GOFLAGS", "")
			e.Setenv("GOPROXY", "off")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "grammars" {
				return grammars, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"exits": exits},
	})
}

// exits N PROG [ARG...] runs PROG as exec does (its output is then
// stdout and stderr) and checks that it exits with status N and that its
// standard error holds no Go stack trace.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROG [ARG...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if code != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], code, want)
	}
	if strings.Contains(ts.ReadFile("stderr"), "goroutine ") {
		ts.Fatalf("a Go stack trace on standard error")
	}
}
