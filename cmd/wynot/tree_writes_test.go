package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/internal/fixtures"
)

// dirtyScript writes a test that writes into its tree as tests people
// write do, and then runs clean: it makes a build directory (and fails,
// unresolved, when one is already there, as `mkdir build && cd build &&
// cmake ..` does), appends to go.mod, touches a source file, tidies the
// module and leaves a new file behind.
func dirtyScript(t *testing.T, clean string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "dirty.sh")
	writeScript(t, script, `#!/bin/sh
mkdir build || { echo "build/ is left from an earlier test" >&2; exit 125; }
echo log > build/log.txt
if [ -f go.mod ]; then
	echo "// tested" >> go.mod
	go mod tidy >/dev/null 2>&1
fi
[ ! -f cmd/app/main.go ] || touch cmd/app/main.go
echo x >> newfile.txt
exec `+clean+`
`)
	return script
}

const restoredNote = "the test changes the tree it runs in ("

// TestTreeWritesChanges: wynot changes OLD NEW with a test that writes
// into its tree finds what it finds with the same test made clean
// (TestChangesGoModule): before every test the tree is exactly its
// candidate.
func TestTreeWritesChanges(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	if err := fixtures.App(filepath.Join(dir, "old"), filepath.Join(dir, "new")); err != nil {
		t.Fatal(err)
	}
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "old", "new", "--", dirtyScript(t, goTest(t)))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	checkDirtyRun(t, r)
	if s := r.summary(t); !s.Confirmed || len(s.Hunks) != 1 || s.Hunks[0] != fixtures.AppHunk {
		t.Errorf("found %v (confirmed %v), want %s as the clean test finds", s.Hunks, s.Confirmed, fixtures.AppHunk)
	}
}

// checkDirtyRun checks that no test of r saw an earlier test's writes,
// and that wynot said it puts the tree back.
func checkDirtyRun(t *testing.T, r result) {
	t.Helper()
	if strings.Contains(r.stderr, "left from an earlier test") || strings.Contains(r.stderr, "flaky") {
		t.Errorf("a test saw an earlier test's writes\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, restoredNote) || !strings.Contains(r.stderr, "build") {
		t.Errorf("wynot did not say it puts the tree back\n%s", r.stderr)
	}
}

// TestTreeWritesGit: wynot changes --git names the same commit and the
// same change with a test that writes into its tree as with the test
// made clean (TestChangesGit).
func TestTreeWritesGit(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	good, bad, err := fixtures.History(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "--git", good[:10], bad[:10], "--", dirtyScript(t, goTest(t)))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	checkDirtyRun(t, r)
	if s := r.summary(t); !strings.Contains(s.Commit, fixtures.CulpritCommit) || len(s.Hunks) != 1 || !strings.Contains(s.Diff, "+const Limit = 50") {
		t.Errorf("found %q %v, want %s and its limit\n%s", s.Commit, s.Hunks, fixtures.CulpritCommit, s.Diff)
	}
}

// TestTreeWritesReduce: wynot reduce DIR with a test that writes into
// its tree reduces it to what the same test made clean does.
func TestTreeWritesReduce(t *testing.T) {
	e2e(t)
	t.Parallel()
	work := t.TempDir()
	clean := filepath.Join(work, "clean.sh")
	write(t, clean, []byte("#!/bin/sh\ngrep -q bug notes/b.txt && grep -q two a.txt\n"))
	os.Chmod(clean, 0o755)
	var trees []string
	for _, script := range []string{clean, dirtyScript(t, clean)} {
		tree := filepath.Join(t.TempDir(), "tree")
		write(t, filepath.Join(tree, "a.txt"), []byte("one\ntwo\nthree\n"))
		write(t, filepath.Join(tree, "notes", "b.txt"), []byte("x\nbug\ny\n"))
		write(t, filepath.Join(tree, "notes", "c.txt"), []byte("unrelated\n"))
		r := wynotRun(t, work, nil, "reduce", "--json", "-j2", "--test", script, tree)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", filepath.Base(script), r.code, r.stderr)
		}
		if s := r.summary(t); !s.Minimal || s.Outcomes.Unresolved > 0 {
			t.Errorf("%s: minimal %v, %d unresolved\n%s", filepath.Base(script), s.Minimal, s.Outcomes.Unresolved, r.stderr)
		}
		if script != clean {
			checkDirtyRun(t, r)
		}
		trees = append(trees, strings.Join(listFiles(t, tree), "\n"))
	}
	if trees[0] != trees[1] {
		t.Errorf("clean test left\n%s\nthe test writing into its tree\n%s", trees[0], trees[1])
	}
}

// listFiles is every file under dir with its content.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel+": "+string(data))
		}
		return nil
	})
	return out
}
