package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/command/changes"
	"github.com/wynot/wynot/internal/fixtures"
)

// End-to-end tests of wynot changes on generated Go modules, built with
// the real go command.

// goTest writes the fixtures' test script.
func goTest(t *testing.T) string {
	t.Helper()
	script, err := fixtures.TestScript(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return script
}

func goEnv() []string { return fixtures.Env }

// gitRepo makes a repository with a branch main in a new directory, and
// a function that commits files there and returns the commit's hash.
func gitRepo(t *testing.T) (string, func(msg string, files map[string]string) string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := fixtures.Git(dir, "init", "-q", "-b", "main"); err != nil {
		t.Fatal(err)
	}
	return dir, func(msg string, files map[string]string) string {
		t.Helper()
		h, err := fixtures.Commit(dir, msg, files)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

func TestChangesGoModule(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	if err := fixtures.App(old, nw); err != nil {
		t.Fatal(err)
	}
	script := goTest(t)
	runs := map[string]int{}
	for _, group := range []string{"auto", "none"} {
		events := filepath.Join(dir, group+".events")
		r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "--events", events, "--group", group, "-o", filepath.Join(dir, group+".patch"), "old", "new", "--", script)
		if r.code != 0 {
			t.Fatalf("--group %s: exit %d\n%s", group, r.code, r.stderr)
		}
		s := r.summary(t)
		if s.ElementsBefore < 300 {
			t.Fatalf("only %d hunks", s.ElementsBefore)
		}
		if len(s.Hunks) != 1 || s.Hunks[0] != fixtures.AppHunk || s.Granularity != "lines" {
			t.Fatalf("--group %s: result %v, want the version line\n%s", group, s.Hunks, r.stderr)
		}
		if !s.Confirmed || s.Complement != "PASS" {
			t.Errorf("--group %s: confirmed %v, complement %q", group, s.Confirmed, s.Complement)
		}
		if !strings.Contains(s.Diff, "-const Version = \"1.4.2\"\n+const Version = \"1.4.2-rc1\"\n") {
			t.Errorf("diff:\n%s", s.Diff)
		}
		// The tests the search needed: at -j2 the summary's count also
		// holds the speculative tests that happened to complete.
		runs[group] = neededTests(t, events)
		// The patch applies to the old version, and then it fails.
		if _, err := withPatch(t, old, filepath.Join(dir, group+".patch"), filepath.Join(dir, "check-"+group), script); err == nil {
			t.Errorf("the old version with the patch passes")
		}
	}
	t.Logf("tests: --group auto %d, --group none %d (%.2f×)", runs["auto"], runs["none"], float64(runs["none"])/float64(runs["auto"]))
	if runs["auto"] >= runs["none"] {
		t.Errorf("grouping did not save tests: auto %d, none %d", runs["auto"], runs["none"])
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
}

// TestChangesInterference: the failure needs two changes in different
// files together; each alone passes (FSE 1999 Table 2). dd finds both.
func TestChangesInterference(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	for _, v := range []struct {
		dir      string
		a, b     string
		newNoise bool
	}{{old, "A=1", "B=1", false}, {nw, "A=2", "B=2", true}} {
		for f := range 6 {
			var b strings.Builder
			for k := range 20 {
				word := "old"
				if v.newNoise && k%4 == 0 {
					word = "new"
				}
				fmt.Fprintf(&b, "line %d of file %d is %s\n\n\n\n", k, f, word)
			}
			write(t, filepath.Join(v.dir, fmt.Sprintf("d%d/f%d.txt", f%3, f)), []byte(b.String()))
		}
		write(t, filepath.Join(v.dir, "d0/a.conf"), []byte("x\n\n\n"+v.a+"\n"))
		write(t, filepath.Join(v.dir, "d2/b.conf"), []byte(v.b+"\n\n\ny\n"))
	}
	r := wynotRun(t, dir, nil, "changes", "--json", "-j2", "old", "new", "--",
		"sh", "-c", "! { grep -q A=2 d0/a.conf && grep -q B=2 d2/b.conf; }")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	// The lines with A=2 and B=2, inserted: the failure does not need
	// A=1 and B=1 deleted.
	want := []string{"d0/a.conf:5+1", "d2/b.conf:2+1"}
	if strings.Join(s.Hunks, " ") != strings.Join(want, " ") {
		t.Errorf("result %v, want %v\n%s", s.Hunks, want, r.stderr)
	}
	if s.Complement != "PASS" || !s.Confirmed {
		t.Errorf("complement %q, confirmed %v", s.Complement, s.Confirmed)
	}
	// ddmin, with the test as a script (--test, git bisect convention):
	// the same two changes, a 1-minimal failing subset.
	script := filepath.Join(t.TempDir(), "test.sh")
	writeScript(t, script, "#!/bin/sh\n! { grep -q A=2 d0/a.conf && grep -q B=2 d2/b.conf; }\n")
	r = wynotRun(t, dir, nil, "changes", "--json", "--algorithm", "ddmin", "--test", script, "old", "new")
	if r.code != 0 {
		t.Fatalf("ddmin: exit %d\n%s", r.code, r.stderr)
	}
	if s := r.summary(t); strings.Join(s.Hunks, " ") != strings.Join(want, " ") || s.Algorithm != "ddmin" || !s.Minimal {
		t.Errorf("ddmin: result %v (%s, minimal %v), want %v", s.Hunks, s.Algorithm, s.Minimal, want)
	}
	// The failure stated by --fail-on, the tree named by {}.
	r = wynotRun(t, dir, nil, "changes", "--json", "--fail-on", "BOOM", "old", "new", "--",
		"sh", "-c", "grep -q A=2 {}/d0/a.conf && grep -q B=2 {}/d2/b.conf && echo BOOM; exit 0")
	if r.code != 0 {
		t.Fatalf("--fail-on: exit %d\n%s", r.code, r.stderr)
	}
	if got := r.summary(t).Hunks; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("--fail-on: result %v, want %v", got, want)
	}
}

func TestLongChangesInconsistent(t *testing.T) {
	long(t)
	t.Parallel()
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	if err := fixtures.Rename(old, nw); err != nil {
		t.Fatal(err)
	}
	script := goTest(t)
	unresolved := map[string]int{}
	for _, resolve := range []bool{true, false} {
		// Without predictions: the type check would find the
		// configurations that do not build in both runs alike.
		args := []string{"changes", "--json", "-j2", "--algorithm", "ddplus", "--group", "none", "--no-refine", "--no-predict"}
		if !resolve {
			args = append(args, "--no-resolve")
		}
		r := wynotRun(t, dir, goEnv(), append(args, "old", "new", "--", script)...)
		if r.code != 0 {
			t.Fatalf("resolve=%v: exit %d\n%s", resolve, r.code, r.stderr)
		}
		s := r.summary(t)
		if len(s.Hunks) != 1 || s.Hunks[0] != fixtures.RenameHunk {
			t.Fatalf("resolve=%v: result %v, want the limit\n%s", resolve, s.Hunks, r.stderr)
		}
		key := "without resolution"
		if resolve {
			key = "with resolution"
			if s.Resolutions+s.Completed == 0 {
				t.Errorf("no resolution attempted")
			}
		}
		unresolved[key] = s.Outcomes.Unresolved
		t.Logf("%s: %d tests, %d unresolved, %d completed from the source, %d resolution attempts (%d resolved)", key, s.Tests, s.Outcomes.Unresolved, s.Completed, s.Resolutions, s.Resolved)
	}
	if unresolved["with resolution"] >= unresolved["without resolution"] {
		t.Errorf("the resolution loop did not cut unresolved tests: %v", unresolved)
	}
}

func TestChangesGit(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	good, bad, err := fixtures.History(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Something uncommitted but ignored by git status --untracked-files=no.
	write(t, filepath.Join(dir, "scratch.txt"), []byte("mine\n"))
	state := func() string {
		// The git commands say what of .git matters (HEAD, refs,
		// worktrees, the index); the listing leaves .git out, whose
		// time stamp any git command may touch.
		out, err := exec.Command("sh", "-c", "cd "+dir+" && git rev-parse HEAD && git --no-optional-locks status --porcelain && git for-each-ref && git worktree list && ls -lA -I .git").CombinedOutput()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	before := state()
	script := goTest(t)
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-v", "-j1", "--git", good[:10], bad[:10], "--", script)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !strings.Contains(s.Commit, fixtures.CulpritCommit) {
		t.Errorf("commit %q, want change 41", s.Commit)
	}
	if len(s.Hunks) != 1 || !strings.HasPrefix(s.Hunks[0], "data/table.go:") || !strings.Contains(s.Diff, "+const Limit = 50") {
		t.Errorf("result %v\n%s", s.Hunks, s.Diff)
	}
	// The versions of the search within the commit are named.
	if s.Culprit == nil {
		t.Fatal("no culprit in the summary")
	}
	parent, err := fixtures.Git(dir, "rev-parse", s.Culprit.Hash+"^")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("between the versions (new: the commit %s, old: its parent %s)", s.Culprit.Hash[:12], strings.TrimSpace(parent)[:12]); !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q", want)
	}
	// The commit phase: tests of revisions (not counting the checks of
	// GOOD and BAD) at most ⌈log₂ 64⌉ + 2.
	revTests := strings.Count(r.stderr, "commits): ")
	t.Logf("%d revisions tested, %d tests in all, %d predicted", revTests, s.Tests, s.Predicted)
	if revTests > 6+2 {
		t.Errorf("%d revisions tested, want at most 8\n%s", revTests, r.stderr)
	}
	t.Log(r.stderr)
	if after := state(); after != before {
		t.Errorf("the repository changed:\n%s\nthen\n%s", before, after)
	}
}

// TestChangesDiskFull: a full file system while copying the versions
// gives a message that names the way out, and leaves nothing behind.
// (The other bad inputs of wynot changes are testdata/script/
// changes_bad_input.txtar.)
func TestChangesDiskFull(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	tiny := filepath.Join(dir, "tiny")
	if err := os.Mkdir(tiny, 0o755); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	write(t, filepath.Join(big, "old", "blob"), bytes.Repeat([]byte("x\n"), 64<<10))
	write(t, filepath.Join(big, "new", "blob"), bytes.Repeat([]byte("y\n"), 64<<10))
	if exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny).Run() != nil {
		t.Skip("cannot mount a small tmpfs (not root?): the disk-full case is not tested")
	}
	defer exec.Command("umount", tiny).Run()
	r := wynotRun(t, big, []string{"WYNOT_TMPDIR=" + tiny}, "changes", "old", "new", "--", "sh", "-c", "! grep -q y blob")
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, "WYNOT_TMPDIR") {
		t.Errorf("disk full: exit %d, stderr %q", r.code, r.stderr)
	}
	if left, _ := os.ReadDir(tiny); len(left) != 0 {
		t.Errorf("disk full: left %v", left)
	}
}

// TestChangesRefineToLineEdits: a block of lines rewritten, of which one
// inserted line causes the failure: refinement goes from the hunk to
// runs of lines to the single inserted line.
func TestChangesRefineToLineEdits(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "old", "f.txt"), []byte("a\nb\nc\nd\ne\nf\ng\n"))
	write(t, filepath.Join(dir, "new", "f.txt"), []byte("a\nB\nC\nBUG\nD\ne\nf\ng\n"))
	r := wynotRun(t, dir, nil, "changes", "--json", "old", "new", "--", "sh", "-c", "! grep -q BUG f.txt")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	// One insertion (where among the rewritten lines it goes is the
	// diff's choice).
	if s.Granularity != "line edits" || len(s.Hunks) != 1 || !strings.HasPrefix(s.Hunks[0], "f.txt:") || !strings.HasSuffix(s.Hunks[0], "+1") {
		t.Errorf("granularity %q, result %v, want one inserted line\n%s", s.Granularity, s.Hunks, r.stderr)
	}
	if !strings.Contains(s.Diff, "+BUG\n") || strings.Contains(s.Diff, "+B\n") || strings.Contains(s.Diff, "\n-b\n") {
		t.Errorf("diff:\n%s", s.Diff)
	}
}

// TestChangesGitMerge: the failure came with a merged branch, and the
// first-parent line holds a commit that does not build. wynot bisects
// the first-parent line (skipping what does not build), finds the merge,
// sees that the merged branch fails on its own, descends into it, and
// names the branch commit and its line.
func TestChangesGitMerge(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	good, bad, culprit, err := fixtures.MergeHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	script := mergeTest(t)
	r := wynotRun(t, dir, nil, "changes", "--json", "-j2", "--report", "rep", "--git", good, bad, "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !strings.HasPrefix(s.Commit, culprit[:12]) {
		t.Errorf("commit %q, want %s (b2)\n%s", s.Commit, culprit[:12], r.stderr)
	}
	// Two bisections: the first-parent line, which names the merge, then
	// its merged branch, which names b2.
	if len(s.Bisection) != 2 || s.Bisection[0].Branch || !strings.Contains(s.Bisection[0].Found, "merge topic") ||
		!s.Bisection[1].Branch || !strings.HasPrefix(s.Bisection[1].Found, culprit[:12]) || s.Culprit == nil || s.Culprit.Hash != culprit {
		t.Errorf("bisection %+v, culprit %+v", s.Bisection, s.Culprit)
	}
	if page := string(read(t, filepath.Join(dir, "rep", "index.html"))); !strings.Contains(page, "The failure-inducing commit is a merge: its merged branch") || !strings.Contains(page, culprit) {
		t.Errorf("the report does not show the search of the merged branch")
	}
	if len(s.Hunks) != 1 || !strings.Contains(s.Diff, "+a 10 BUG") || !s.Confirmed {
		t.Errorf("result %v, confirmed %v\n%s", s.Hunks, s.Confirmed, s.Diff)
	}
	if !strings.Contains(r.stderr, "brought the failure with a branch that fails on its own") {
		t.Errorf("no descent into the merge:\n%s", r.stderr)
	}
	// The patch is verified on the culprit's parent, and tried on GOOD.
	if !slices.Contains(s.Verdict, "the good revision "+good+" with these changes applied fails too") {
		t.Errorf("verdict %q", s.Verdict)
	}
}

// TestChangesGitBranches: the good revision is on a release branch of
// its own, not an ancestor of the bad one (as with the tags of
// elastic/go-elasticsearch). As git bisect does, wynot starts at the
// two revisions' merge base, which it tests, and names the commit on
// the bad side; when the merge base fails too, it says so and stops.
func TestChangesGitBranches(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	must := func(_ string, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string, files map[string]string) string {
		t.Helper()
		h, err := fixtures.Commit(dir, msg, files)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	must(fixtures.Git(dir, "init", "-q", "-b", "main"))
	base := commit("base", map[string]string{"a.txt": "one\n", "b.txt": "x\n", "c.txt": "c\n"})
	must(fixtures.Git(dir, "checkout", "-q", "-b", "release"))
	commit("release fix", map[string]string{"c.txt": "c fixed\n"})
	must(fixtures.Git(dir, "tag", "v1.0.1"))
	must(fixtures.Git(dir, "checkout", "-q", "main"))
	for i := range 6 {
		files := map[string]string{"b.txt": fmt.Sprintf("x%d\n", i)}
		if i == 3 {
			files["a.txt"] = "one\nBUG\n"
		}
		commit(fmt.Sprintf("main %d", i), files)
	}
	must(fixtures.Git(dir, "tag", "v1.1.0"))
	failsOnBug := []string{"--", "sh", "-c", "! grep -q BUG a.txt"}
	r := wynotRun(t, dir, nil, append([]string{"changes", "--json", "--git", "v1.0.1", "v1.1.0"}, failsOnBug...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !strings.Contains(s.Commit, "main 3") || !strings.Contains(s.Diff, "+BUG") || !s.Confirmed {
		t.Errorf("commit %q, confirmed %v, diff:\n%s\n%s", s.Commit, s.Confirmed, s.Diff, r.stderr)
	}
	if !strings.Contains(r.stderr, "v1.0.1 (") || !strings.Contains(r.stderr, "is not an ancestor of v1.1.0: the search starts at their merge base "+base[:12]) {
		t.Errorf("no word of the merge base %s:\n%s", base[:12], r.stderr)
	}
	if s.Commits != 6 {
		t.Errorf("%d commits searched, want the 6 after the merge base", s.Commits)
	}
	if s.Revisions == nil || s.Revisions.MergeBase != base || s.Revisions.Good.Name != "v1.0.1" || s.Revisions.Bad.Name != "v1.1.0" {
		t.Errorf("revisions %+v, want the merge base %s", s.Revisions, base)
	}
	// The merge base fails: nothing to search on the bad side.
	must(fixtures.Git(dir, "checkout", "-q", "-b", "old", base))
	broken := commit("broken base", map[string]string{"a.txt": "BUG\n"})
	must(fixtures.Git(dir, "checkout", "-q", "-b", "fixed"))
	commit("fix", map[string]string{"a.txt": "one\n"})
	must(fixtures.Git(dir, "checkout", "-q", "old"))
	commit("more", map[string]string{"b.txt": "more\n"})
	r = wynotRun(t, dir, nil, append([]string{"changes", "--git", "fixed", "old"}, failsOnBug...)...)
	if r.code != 2 || !strings.Contains(r.stderr, "the merge base "+broken[:12]+" of fixed and old does not pass") {
		t.Errorf("merge base failing: exit %d\n%s", r.code, r.stderr)
	}
	// The bad revision an ancestor of the good one: the order is wrong.
	r = wynotRun(t, dir, nil, append([]string{"changes", "--git", "v1.1.0", base}, failsOnBug...)...)
	if r.code != 1 || !strings.Contains(r.stderr, "give the working revision first") {
		t.Errorf("reversed: exit %d\n%s", r.code, r.stderr)
	}
}

// TestChangesGitPassesOver: a Go module's history of 40 commits, most
// of which change only documentation, CI configuration or Go tests. The
// failure comes with a commit that changes only a Markdown file, which
// a package embeds (//go:embed): it looks like documentation, but the
// build reads it. wynot passes over the commits no build reads, tests
// fewer revisions than a binary search over all 40 commits, and names
// the embedding commit, testing it and its parent. With --paths that
// leave the culprit out (the user vouched wrongly), the answer is still
// the same commit, found by testing around the commits passed over.
func TestChangesGitPassesOver(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, commit := gitRepo(t)
	good := commit("base", map[string]string{
		"go.mod":        "module example.com/app\n\ngo 1.22\n",
		"README.md":     "# app\n",
		"web/web.go":    "package web\n\nimport _ \"embed\"\n\n// Banner is shown on start.\n//\n//go:embed banner.md\nvar Banner string\n",
		"web/banner.md": "Welcome\n",
		"data/data.go":  "package data\n\n// Limit is checked by main.\nconst Limit = 100\n",
		"cmd/app/main.go": `package main

import (
	"fmt"
	"os"
	"strings"

	"example.com/app/data"
	"example.com/app/web"
)

func main() {
	if data.Limit < 100 || strings.Contains(web.Banner, "BUG") {
		fmt.Fprintln(os.Stderr, "broken")
		os.Exit(1)
	}
}
`,
	})
	var culprit string
	for i := 1; i <= 40; i++ {
		var files map[string]string
		switch {
		case i == 27:
			files = map[string]string{"web/banner.md": "Welcome BUG\n"}
		case i%8 == 0:
			files = map[string]string{fmt.Sprintf("data/f%d.go", i): fmt.Sprintf("package data\n\n// F%d is a value.\nconst F%d = %d\n", i, i, i)}
		case i%8 == 3:
			files = map[string]string{"data/data_test.go": fmt.Sprintf("package data\n\n// Check %d.\n", i)}
		case i%8 == 5:
			files = map[string]string{".github/workflows/ci.yml": fmt.Sprintf("# run %d\n", i)}
		default:
			files = map[string]string{"README.md": fmt.Sprintf("# app\n\nrelease %d\n", i), fmt.Sprintf("docs/d%d.md", i): "doc\n"}
		}
		h := commit(fmt.Sprintf("change %d", i), files)
		if i == 27 {
			culprit = h
		}
	}
	bad, err := fixtures.Git(dir, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	script := goTest(t)
	type skipped struct {
		Commit string `json:"commit"`
		Why    string `json:"why"`
	}
	for _, c := range []struct {
		name       string
		args       []string
		fewer      bool // fewer revisions tested than ⌈log₂ 40⌉
		candidates int  // commits taken for candidates
	}{
		{"default", nil, true, 6},
		// The culprit, outside the paths, is passed over, found all
		// the same, and no longer listed as passed over.
		{"paths leave the culprit out", []string{"--paths", "data,cmd"}, false, 10},
	} {
		args := append([]string{"changes", "--json", "-v", "-j1"}, c.args...)
		r := wynotRun(t, dir, goEnv(), append(args, "--git", good, bad, "--", script)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", c.name, r.code, r.stderr)
		}
		s := r.summary(t)
		if !strings.HasPrefix(s.Commit, culprit[:12]) || !strings.Contains(s.Diff, "+Welcome BUG") {
			t.Errorf("%s: commit %q, diff\n%s\n%s", c.name, s.Commit, s.Diff, r.stderr)
		}
		// The commit named and its parent were tested.
		for _, rev := range []string{culprit[:12], "change 26"} {
			if rev == "change 26" {
				p, _ := fixtures.Git(dir, "rev-parse", culprit+"^")
				rev = p[:12]
			}
			if !regexp.MustCompile(rev + ` \(\d+ of 40 commits\): `).MatchString(r.stderr) {
				t.Errorf("%s: revision %s was not tested\n%s", c.name, rev, r.stderr)
			}
		}
		var js struct {
			Skipped []skipped `json:"skipped_commits"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &js); err != nil {
			t.Fatal(err)
		}
		sk := js.Skipped
		if got := 40 - len(sk); got != c.candidates {
			t.Errorf("%s: %d candidates, want %d: %v", c.name, got, c.candidates, sk)
		}
		for _, k := range sk {
			if strings.HasPrefix(k.Commit, culprit[:12]) {
				t.Errorf("%s: the culprit is listed as passed over (%s)", c.name, k.Why)
			}
		}
		if said := strings.Contains(r.stderr, "but the failure begins with it"); said != (c.args != nil) {
			t.Errorf("%s: the culprit passed over at first said so: %v\n%s", c.name, said, r.stderr)
		}
		revTests := strings.Count(r.stderr, "commits): ")
		t.Logf("%s: %d revisions tested, %d tests in all; passed over %v", c.name, revTests, s.Tests, sk)
		if c.fewer && revTests >= 6 {
			t.Errorf("%s: %d revisions tested, want fewer than a binary search over 40 commits (6)\n%s", c.name, revTests, r.stderr)
		}
	}
}

// flakyTrees writes an old and a new tree of one text file whose three
// changes (BUG at line 5, B at line 15, C at line 25) are separate
// hunks, and a test script that fails whenever BUG is present, except
// that a configuration for which stable says nothing fails only the
// first time it runs: a flaky test, as real ones are.
func flakyTrees(t *testing.T, stable string) (dir, script string) {
	state := t.TempDir()
	return textTrees(t, map[int]string{5: "BUG", 15: "B", 25: "C"}, `grep -q BUG a.txt || exit 0
if ! { `+stable+`; }; then
	key=$(cksum < a.txt | cut -d' ' -f1)
	[ -e "`+state+`/$key" ] && exit 0
	touch "`+state+`/$key"
fi
exit 1
`)
}

// TestChangesFallbackToVerified: the search's result fails only once;
// run again, it passes. wynot does not report it, but the smallest
// configuration that failed during the search and fails again. Its
// removals, rechecked by certainty as any command's are once the test
// showed itself flaky, all pass: it is certified 1-minimal, and the
// verdict says it is not the search's own result.
func TestChangesFallbackToVerified(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, script := flakyTrees(t, "grep -q '^B$' a.txt")
	r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "old", "new", "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !s.Confirmed || !s.Minimal || !strings.Contains(s.Diff, "+BUG") || !strings.Contains(s.Diff, "+B\n") {
		t.Errorf("confirmed %v minimal %v result %v\n%s", s.Confirmed, s.Minimal, s.Hunks, r.stderr)
	}
	if len(s.Verdict) < 2 || !strings.Contains(s.Verdict[0], "smallest set that failed during the search") || !strings.HasPrefix(s.Verdict[1], "the changes are 1-minimal") {
		t.Errorf("verdict %q", s.Verdict)
	}
	// The terminal says what the JSON says, word for word.
	for _, v := range s.Verdict {
		if !strings.Contains(r.stderr, "wynot: "+v+"\n") {
			t.Errorf("the terminal does not say %q:\n%s", v, r.stderr)
		}
	}
}

// TestChangesUnverified: every configuration but the whole new version
// fails only once. Nothing can be verified; wynot says so, reports no
// patch and exits with status 3.
func TestChangesUnverified(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, script := flakyTrees(t, "grep -q '^B$' a.txt && grep -q '^C$' a.txt")
	out := filepath.Join(dir, "fix.patch")
	r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "-o", out, "old", "new", "--", script, "{}")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if s.Confirmed || s.Diff != "" || len(s.Hunks) != 0 {
		t.Errorf("confirmed %v, result %v %q", s.Confirmed, s.Hunks, s.Diff)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("an unverified patch was written to -o")
	}
	if !strings.Contains(r.stderr, "wynot: no set of changes could be verified") || strings.Contains(r.stderr, "with these changes applied it fails") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestChangesRefinementNeverBuilds: the failure-inducing hunk is a block
// whose lines only build together (OPEN ... CLOSE, like a function and
// its braces); every subset of its lines that splits the block is
// unresolved. The refinement cannot make the patch smaller: the result is
// the block, verified, next to an unrelated hunk that is left out.
func TestChangesRefinementNeverBuilds(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	var old, nw strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		fmt.Fprintf(&nw, "line %d\n", i)
		switch i {
		case 5:
			nw.WriteString("note\n")
		case 20:
			nw.WriteString("OPEN\nBUG\nCLOSE\n")
		}
	}
	write(t, filepath.Join(dir, "old", "a.txt"), []byte(old.String()))
	write(t, filepath.Join(dir, "new", "a.txt"), []byte(nw.String()))
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, `#!/bin/sh
cd "$1" || exit 128
n=$(grep -c -e '^OPEN$' -e '^CLOSE$' a.txt)
[ "$n" = 1 ] && exit 125
grep -q '^OPEN$' a.txt && ! grep -q '^BUG$' a.txt && exit 125
grep -q '^BUG$' a.txt && ! grep -q '^OPEN$' a.txt && exit 125
grep -q '^BUG$' a.txt && exit 1
exit 0
`)
	r := wynotRun(t, dir, nil, "changes", "--json", "-j2", "old", "new", "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !s.Confirmed || strings.Contains(s.Diff, "note") || !strings.Contains(s.Diff, "+OPEN\n+BUG\n+CLOSE\n") {
		t.Errorf("confirmed %v, result %v:\n%s\n%s", s.Confirmed, s.Hunks, s.Diff, r.stderr)
	}
	if s.Outcomes.Unresolved == 0 {
		t.Errorf("no unresolved test: the refinement was not tried\n%s", r.stderr)
	}
}

// oneFileRepo is a new git repository whose commits, made by commit,
// each set its one file a.txt; commit returns the commit's hash.
func oneFileRepo(t *testing.T) (string, func(msg, data string) string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := fixtures.Git(dir, "init", "-q", "-b", "main"); err != nil {
		t.Fatal(err)
	}
	return dir, func(msg, data string) string {
		h, err := fixtures.Commit(dir, msg, map[string]string{"a.txt": data})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

// TestChangesGitSkip: the commit before the culprit does not build. As
// git bisect skip does, wynot cannot tell which of the two introduced the
// failure and says so; the lines it names are those of both commits
// together, in which the broken line comes and goes.
func TestChangesGitSkip(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, commit := oneFileRepo(t)
	lines := func(extra string) string {
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, "line %d\n", i)
			if i == 10 {
				b.WriteString(extra)
			}
		}
		return b.String()
	}
	good := commit("base", lines(""))
	commit("c1", lines("")+"c1\n")
	commit("c2 breaks the build", lines("BROKEN\n")+"c1\n")
	commit("c3 fixes it and brings the bug", lines("BUG\n")+"c1\n")
	bad := commit("c4", lines("BUG\n")+"c1\nc4\n")
	script := mergeTest(t)
	r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "--git", good, bad, "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !strings.Contains(r.stderr, "the failure-inducing commit is one of 2") || !strings.Contains(s.Commit, "c3 fixes it") {
		t.Errorf("commit %q\n%s", s.Commit, r.stderr)
	}
	// The JSON names no one culprit: both commits, and the verdict says
	// so first.
	if s.Culprit != nil || len(s.Culprits) != 2 || s.Culprits[0].Subject != "c2 breaks the build" || s.Culprits[1].Subject != "c3 fixes it and brings the bug" ||
		len(s.Verdict) == 0 || !strings.HasPrefix(s.Verdict[0], "no one commit is the culprit: the failure came with one of the 2 commits from ") {
		t.Errorf("culprit %+v, culprits %+v, verdict %q", s.Culprit, s.Culprits, s.Verdict)
	}
	if !s.Confirmed || !strings.Contains(s.Diff, "+BUG") || strings.Contains(s.Diff, "BROKEN") {
		t.Errorf("confirmed %v\n%s", s.Confirmed, s.Diff)
	}
}

// TestChangesGitSkipSaysWhy: the commit before the culprit builds and
// fails, another way than the bad revision; the range wynot names says
// so, with how it failed, not that it does not build or test.
func TestChangesGitSkipSaysWhy(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, commit := oneFileRepo(t)
	good := commit("base", "a\n")
	commit("c1", "a\nc1\n")
	commit("c2 brings another failure", "a\nc1\nOTHER\n")
	commit("c3 removes it and brings the bug", "a\nc1\nBUG\n")
	bad := commit("c4", "a\nc1\nBUG\nc4\n")
	script := filepath.Join(t.TempDir(), "test.sh")
	writeScript(t, script, "#!/bin/sh\ncd \"$1\" || exit 128\nif grep -q OTHER a.txt; then echo 'FAIL: other'; exit 1; fi\nif grep -q BUG a.txt; then echo 'FAIL: bug'; exit 1; fi\nexit 0\n")
	r := wynotRun(t, dir, nil, "changes", "-j1", "--git", good, bad, "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "the failure-inducing commit is one of 2") || !strings.Contains(r.stderr, "fails another way: exit status 1: FAIL: other") || strings.Contains(r.stderr, "do not build or test") {
		t.Errorf("the range does not say how the commit before the culprit fails:\n%s", r.stderr)
	}
}

// TestChangesGitReport: the HTML report of a --git run names the
// revisions, the failure-inducing commit (full hash, subject, author,
// date), the commits passed over (one that changes only documentation,
// one whose revision does not build: exit status 125) and each revision
// the bisection tested, with its outcome and what it left, before the
// search over the commit's changes; --json has the same.
func TestChangesGitReport(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	if _, err := fixtures.Git(dir, "init", "-q", "-b", "main"); err != nil {
		t.Fatal(err)
	}
	commit := func(msg string, files map[string]string, by ...string) string {
		t.Helper()
		if err := fixtures.WriteFiles(dir, files); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"commit", "-q", "-m", msg}, by...)
		if _, err := fixtures.Git(dir, "add", "-A"); err != nil {
			t.Fatal(err)
		}
		if _, err := fixtures.Git(dir, args...); err != nil {
			t.Fatal(err)
		}
		h, err := fixtures.Git(dir, "rev-parse", "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	items := ""
	good := commit("base", map[string]string{"a.txt": "ok\n", "items.txt": "", "README.md": "# demo\n"})
	if _, err := fixtures.Git(dir, "tag", "v1"); err != nil {
		t.Fatal(err)
	}
	hashes := map[string]string{}
	for i := 1; i <= 12; i++ {
		files := map[string]string{}
		msg := fmt.Sprintf("add item %d", i)
		var by []string
		switch i {
		case 3:
			files["README.md"] = "# demo\n\nMore words.\n"
			msg = "docs: more words"
		case 6:
			files["build.txt"] = "BROKEN\n"
			msg = "build: half a rewrite"
		case 7:
			files["build.txt"] = "fixed\n"
			msg = "build: the rewrite finished"
		case 9:
			files["a.txt"] = "ok\nBUG\n"
			// A subject longer than the page is wide.
			msg = "parse: treat <none> & empty alike, " + strings.Repeat("and more words ", 20) + strings.Repeat("x", 200)
			by = []string{"--author=Ada Lovelace <ada@example.com>", "--date=2021-03-04T05:06:07+01:00"}
		default:
			items += fmt.Sprintf("item %d\n", i)
			files["items.txt"] = items
		}
		hashes[msg] = commit(msg, files, by...)
	}
	if _, err := fixtures.Git(dir, "tag", "v2"); err != nil {
		t.Fatal(err)
	}
	var culprit string
	for msg, h := range hashes {
		if strings.HasPrefix(msg, "parse: ") {
			culprit = h
		}
	}
	docs, broken := hashes["docs: more words"], hashes["build: half a rewrite"]
	script := mergeTest(t)
	r := wynotRun(t, dir, nil, "changes", "--json", "-v", "-j1", "--report", "rep", "--git", "v1", "v2", "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if s.Culprit == nil || s.Culprit.Hash != culprit || s.Culprit.Author != "Ada Lovelace <ada@example.com>" || s.Culprit.Date != "2021-03-04T05:06:07+01:00" {
		t.Errorf("culprit %+v, want %s by Ada Lovelace\n%s", s.Culprit, culprit, r.stderr)
	}
	if s.Revisions == nil || s.Revisions.Good != (changes.Revision{Name: "v1", Hash: good}) || s.Revisions.Bad.Name != "v2" || s.Revisions.MergeBase != "" {
		t.Errorf("revisions %+v", s.Revisions)
	}
	// The bisection: one line, its steps the revisions the test log shows
	// tested, in order; the culprit's revision fails and leaves it alone.
	if len(s.Bisection) != 1 {
		t.Fatalf("bisection %+v", s.Bisection)
	}
	line := s.Bisection[0]
	logged := regexp.MustCompile(`Test #\d+ ([0-9a-f]{12}) \(\d+ of 12 commits\): (PASS|FAIL|UNRESOLVED)`).FindAllStringSubmatch(r.stderr, -1)
	if line.Commits != 12 || line.Candidates != 11 || len(line.Steps) != len(logged) || len(logged) < 3 {
		t.Fatalf("line %+v, tests logged %q\n%s", line, logged, r.stderr)
	}
	unresolved := false
	for i, st := range line.Steps {
		if st.Revision[:12] != logged[i][1] || st.Outcome != logged[i][2] {
			t.Errorf("step %d: %s %s, the log says %s %s", i+1, st.Revision[:12], st.Outcome, logged[i][1], logged[i][2])
		}
		if st.Revision == broken && st.Outcome == "UNRESOLVED" {
			unresolved = true
		}
	}
	last := line.Steps[len(line.Steps)-1]
	if last.Revision != culprit || last.Outcome != "FAIL" || last.Left != 1 || !strings.HasPrefix(last.First, culprit[:12]) {
		t.Errorf("last step %+v, want the culprit failing, alone left", last)
	}
	if !unresolved {
		t.Errorf("the revision that does not build (%s) was not tested: steps %+v", broken[:12], line.Steps)
	}
	if len(s.SkippedCommits) != 1 || !strings.HasPrefix(s.SkippedCommits[0].Commit, docs[:12]) {
		t.Errorf("skipped %+v, want the documentation commit %s", s.SkippedCommits, docs[:12])
	}

	page := string(read(t, filepath.Join(dir, "rep", "index.html")))
	for _, want := range []string{
		"<h2>Revisions</h2>", good[:12], "v2",
		"<h2>Failure-inducing commit</h2>", culprit, "parse: treat &lt;none&gt; &amp; empty alike, and more words",
		"Ada Lovelace &lt;ada@example.com&gt;", "2021-03-04T05:06:07+01:00",
		"<h2>Commits passed over</h2>", docs[:12] + " docs: more words", "not a candidate: it changes only documentation",
		broken[:12] + " build: half a rewrite", "exit status 125",
		"<h2>Bisection</h2>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// Each step is a row, in order, colored by its outcome.
	at := strings.Index(page, "<h2>Bisection</h2>")
	for i, st := range line.Steps {
		row := fmt.Sprintf("<tr class=%q><td class=n>%d</td><td class=s title=\"%s", st.Outcome, i+1, st.Revision[:12])
		k := strings.Index(page[max(at, 0):], row)
		if k < 0 {
			t.Errorf("no row %q for step %d after the last", row, i+1)
			continue
		}
		at += k
	}
	// The commits come before the search over the culprit's changes.
	if c, tests := strings.Index(page, "<h2>Failure-inducing commit</h2>"), strings.Index(page, "<h2>Tests</h2>"); c < 0 || tests < 0 || c > tests {
		t.Errorf("the commit at %d, the tests at %d", c, tests)
	}
	// Long subjects are cut or wrapped: the page does not scroll sideways.
	if browser := findChromium(); browser != "" {
		if scroll, client := pageWidth(t, browser, dir, "rep/index.html"); scroll > client {
			t.Errorf("the report is %d pixels wide in a %d-pixel window: it scrolls sideways", scroll, client)
		}
	}
}

// mergeTest writes fixtures.MergeTest as an executable script.
func mergeTest(t *testing.T) string {
	script := filepath.Join(t.TempDir(), "test.sh")
	writeScript(t, script, fixtures.MergeTest)
	return script
}

// textTrees writes old/a.txt with lines "line 1".."line 30" and new/a.txt
// with the given lines replaced, each replacement a hunk of its own, and
// an executable test script with body.
func textTrees(t *testing.T, replace map[int]string, body string) (dir, script string) {
	return textTreesN(t, 30, replace, body)
}

// textTreesN is textTrees with n lines.
func textTreesN(t *testing.T, n int, replace map[int]string, body string) (dir, script string) {
	dir = t.TempDir()
	var old, nw strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		if r, ok := replace[i]; ok {
			nw.WriteString(r + "\n")
		} else {
			fmt.Fprintf(&nw, "line %d\n", i)
		}
	}
	write(t, filepath.Join(dir, "old", "a.txt"), []byte(old.String()))
	write(t, filepath.Join(dir, "new", "a.txt"), []byte(nw.String()))
	script = filepath.Join(dir, "test.sh")
	writeScript(t, script, "#!/bin/sh\ncd \"$1\" || exit 128\n"+body)
	return dir, script
}

// TestChangesTwoCauses: either of two changes alone makes the old version
// fail. wynot reports one, and says that the failure has another cause.
func TestChangesTwoCauses(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, script := textTrees(t, map[int]string{5: "BUG1", 15: "note", 25: "BUG2"}, "grep -q BUG a.txt && exit 1\nexit 0\n")
	r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "old", "new", "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !s.Confirmed || len(s.Hunks) != 1 || !strings.Contains(s.Diff, "+BUG") {
		t.Errorf("result %v\n%s", s.Hunks, s.Diff)
	}
	if !slices.Contains(s.Verdict, "the new version without the 1 hunk holding these changes still fails: the failure has another cause besides these changes") {
		t.Errorf("verdict %q", s.Verdict)
	}
}

// TestChangesFailsDifferently: the test exits 1 on any failure and
// prints what failed; its output names no failure wynot can read, so the
// exit status is all that tells failures apart. The smallest patch makes
// the old version fail with other output than the new version: wynot
// shows it, but says first that it may be another failure, calls it
// neither confirmed nor 1-minimal, says so in the JSON summary, and
// exits 3.
func TestChangesFailsDifferently(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, script := textTrees(t, map[int]string{5: "BUG", 15: "MORE"},
		"grep -q BUG a.txt || exit 0\nif grep -q MORE a.txt; then echo 'broken: the whole release'; else echo 'broken: half of it'; fi\nexit 1\n")
	r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "old", "new", "--", script, "{}")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	want := `its output ends "broken: half of it", where the new version's ends "broken: the whole release"`
	if len(s.Hunks) != 1 || len(s.Caveats) != 1 || !strings.Contains(s.Caveats[0], want) || s.Minimal || s.Confirmed {
		t.Errorf("result %v, caveats %q, minimal %v, confirmed %v", s.Hunks, s.Caveats, s.Minimal, s.Confirmed)
	}
	caution, claim := strings.Index(r.stderr, "caution: "), strings.Index(r.stderr, "the failure is caused by")
	if caution < 0 || claim < 0 || caution > claim || strings.Contains(r.stderr, "1-minimal") {
		t.Errorf("the caution must come before any claim, and no 1-minimality be claimed:\n%s", r.stderr)
	}
}

// TestChangesOneMinimalLineEdits: the new version requires a newer
// version of a module (a go.mod requirement bump) and adds an entry to a
// map literal that uses the newer version's API and fails; in the same
// line of the diff it deletes an unrelated entry. The hunks each replace
// one line by another; a search that stops there reports the unrelated
// deletion too. Checked line edit by line edit, the patch is the new
// requirement, the deletion of the old one (two requirements of one
// module do not build) and the new entry, and each of them removed alone
// passes or does not build.
func TestChangesOneMinimalLineEdits(t *testing.T) {
	e2e(t)
	dir := t.TempDir()
	dep := func(v string, extra string) string {
		d := filepath.Join(dir, "dep"+v)
		if err := fixtures.WriteFiles(d, map[string]string{
			"go.mod": "module example.com/dep\n\ngo 1.22\n",
			"dep.go": "package dep\n\n// Old is one.\nfunc Old() int { return 1 }\n" + extra,
		}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	dep1, dep2 := dep("1", ""), dep("2", "\n// Twice doubles n, wrongly.\nfunc Twice(n int) int { return n + 1 }\n")
	version := func(require, entry string) map[string]string {
		return map[string]string{
			"go.mod": "module example.com/app\n\ngo 1.22\n\nrequire example.com/dep " + require + "\n\nreplace example.com/dep v1.0.0 => " + dep1 + "\n\nreplace example.com/dep v1.1.0 => " + dep2 + "\n",
			"cmd/app/main.go": `package main

import (
	"fmt"
	"os"

	"example.com/dep"
)

var checks = map[string]func() bool{
	"alpha": func() bool { return true },
` + entry + `
	"gamma": func() bool { return true },
}

func main() {
	for name, check := range checks {
		if !check() {
			fmt.Fprintln(os.Stderr, "check failed:", name)
			os.Exit(1)
		}
	}
	fmt.Println(len(checks), "checks passed")
}
`}
	}
	if err := fixtures.WriteFiles(filepath.Join(dir, "old"), version("v1.0.0", `	"beta":  func() bool { return dep.Old() == 1 },`)); err != nil {
		t.Fatal(err)
	}
	if err := fixtures.WriteFiles(filepath.Join(dir, "new"), version("v1.1.0", `	"delta": func() bool { return dep.Twice(2) == 4 },`)); err != nil {
		t.Fatal(err)
	}
	script := goTest(t)
	patch := filepath.Join(dir, "fix.patch")
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "-o", patch, "old", "new", "--", script)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if s.Granularity != "line edits" || !strings.Contains(s.Diff, "+\t\"delta\"") || !strings.Contains(s.Diff, "+require example.com/dep v1.1.0\n") {
		t.Fatalf("granularity %q, result %v:\n%s", s.Granularity, s.Hunks, s.Diff)
	}
	if strings.Contains(s.Diff, "-\t\"beta\"") {
		t.Errorf("the patch deletes the unrelated entry:\n%s", s.Diff)
	}
	if !s.Minimal || s.RemovalsPassed+s.RemovalsUnresolved != len(s.Hunks) || s.RemovalsPassed == 0 {
		t.Errorf("minimal %v, removals %d passed %d unresolved, of %v", s.Minimal, s.RemovalsPassed, s.RemovalsUnresolved, s.Hunks)
	}
	want := fmt.Sprintf("with any one of these %d line edits removed, the old version passes (%d of them) or does not build or fails another way (%d: UNRESOLVED", len(s.Hunks), s.RemovalsPassed, s.RemovalsUnresolved)
	if !strings.Contains(strings.Join(s.Verdict, "\n"), want) {
		t.Errorf("verdict %q, want %q", s.Verdict, want)
	}
	// The patch applies to the old version, and then it fails.
	if out, err := withPatch(t, filepath.Join(dir, "old"), patch, filepath.Join(dir, "check"), script); err == nil || !strings.Contains(string(out), "check failed: delta") {
		t.Errorf("the old version with the patch: %v\n%s", err, out)
	}
}

// TestChangesOneMinimalLarge: the failure needs 69 of the 70 hunks of a
// file. A patch of 69 hunks, more than refinement takes apart, is
// checked hunk by hunk like a small one and called 1-minimal, each hunk
// removed alone passing.
func TestChangesOneMinimalLarge(t *testing.T) {
	e2e(t)
	t.Parallel()
	replace := map[int]string{700: "EXTRA"}
	for i := 10; i < 700; i += 10 {
		replace[i] = fmt.Sprintf("NEED %d", i)
	}
	dir, script := textTreesN(t, 710, replace, "[ \"$(grep -c NEED a.txt)\" -eq 69 ] && exit 1\nexit 0\n")
	r := wynotRun(t, dir, nil, "changes", "--json", "-j2", "old", "new", "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if len(s.Hunks) != 69 || strings.Contains(s.Diff, "EXTRA") || !s.Minimal || s.RemovalsPassed != 69 {
		t.Fatalf("result %d hunks, minimal %v, %d removals passed\n%s\n%s", len(s.Hunks), s.Minimal, s.RemovalsPassed, s.Verdict, r.stderr)
	}
	if want := "the changes are 1-minimal: with any one of these 69 changes removed, the old version passes"; !slices.Contains(s.Verdict, want) {
		t.Errorf("verdict %q, want %q", s.Verdict, want)
	}
}

// TestChangesOneMinimalFiles: m.txt's two changes do not build one
// without the other, z.txt's does not build beside the culprit (c.txt)
// unless m.txt's are there too. Without grouping, dd and ddmin end with
// the culprit and m.txt's two changes, none of which can be removed
// alone (the rest passes or does not build). The check removes each
// file's changes together first: without m.txt's, the culprit alone
// still fails, and it is the patch.
func TestChangesOneMinimalFiles(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	var lines strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	for _, v := range []string{"old", "new"} {
		m, c, z := lines.String(), "base\n", "base\n"
		if v == "new" {
			m = strings.Replace(strings.Replace(m, "line 3\n", "M1\n", 1), "line 30\n", "M2\n", 1)
			c, z = "BUG\n", "Z\n"
		}
		write(t, filepath.Join(dir, v, "m.txt"), []byte(m))
		write(t, filepath.Join(dir, v, "c.txt"), []byte(c))
		write(t, filepath.Join(dir, v, "z.txt"), []byte(z))
	}
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, `#!/bin/sh
cd "$1" || exit 128
m1=0; m2=0; c=0; z=0
grep -q '^M1$' m.txt && m1=1
grep -q '^M2$' m.txt && m2=1
grep -q BUG c.txt && c=1
grep -q Z z.txt && z=1
[ $m1 != $m2 ] && exit 125
[ $z = 1 ] && [ $c = 1 ] && [ $m1 = 0 ] && exit 125
[ $c = 1 ] && exit 1
exit 0
`)
	for _, algo := range []string{"dd", "ddmin"} {
		r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "--no-refine", "--group", "none", "--algorithm", algo, "old", "new", "--", script, "{}")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", algo, r.code, r.stderr)
		}
		s := r.summary(t)
		if strings.Join(s.Hunks, " ") != "c.txt:1-1" || !s.Minimal || s.RemovalsPassed != 1 {
			t.Errorf("%s: result %v, minimal %v, %d removals passed\n%s", algo, s.Hunks, s.Minimal, s.RemovalsPassed, r.stderr)
		}
		if want := "without the changes of 1 file (m.txt) the old version still fails: the patch leaves them out"; !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr does not say %q:\n%s", algo, want, r.stderr)
		}
	}
}

// TestChangesComplementDoesNotBuild: a helper moves from one file into a
// new one, and its behaviour changes in the move; another file changes
// to use a function the new file adds. The patch is the move, refined to
// the declaration the failure needs of the new file; the new version
// without it does not build (the other file's new call has no
// function to call). What that configuration would give is not known:
// wynot says so, and does not claim another cause from a run in which
// the build put back changes of the patch.
func TestChangesComplementDoesNotBuild(t *testing.T) {
	e2e(t)
	dir := t.TempDir()
	parse := `package p

// Parse counts the fields of s.
func Parse(s string) int {
	return len(split(s))
}
`
	count := `package p

// Count counts the fields of each line.
func Count(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(%s(l))
	}
	return n
}
`
	main := `package main

import (
	"fmt"
	"os"

	"example.com/app/p"
)

func main() {
	fmt.Println(p.Count([]string{"a b", "c"}))
	if n := p.Parse("a,b,c"); n != 3 {
		fmt.Fprintln(os.Stderr, "Parse gives", n)
		os.Exit(1)
	}
}
`
	mod := "module example.com/app\n\ngo 1.22\n"
	if err := fixtures.WriteFiles(filepath.Join(dir, "old"), map[string]string{
		"go.mod": mod, "cmd/app/main.go": main, "p/count.go": fmt.Sprintf(count, "split"),
		"p/parse.go": strings.Replace(parse, "package p\n", "package p\n\nimport \"strings\"\n", 1) +
			"\n// split cuts s into fields.\nfunc split(s string) []string {\n\treturn strings.Split(s, \",\")\n}\n",
	}); err != nil {
		t.Fatal(err)
	}
	if err := fixtures.WriteFiles(filepath.Join(dir, "new"), map[string]string{
		"go.mod": mod, "cmd/app/main.go": main, "p/count.go": fmt.Sprintf(count, "fields"), "p/parse.go": parse,
		"p/split.go": "package p\n\nimport \"strings\"\n\n// split cuts s into fields.\nfunc split(s string) []string {\n\treturn strings.Split(s, \";\")\n}\n\n" +
			"// fields cuts s at white space.\nfunc fields(s string) []string {\n\treturn strings.Fields(s)\n}\n",
	}); err != nil {
		t.Fatal(err)
	}
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "old", "new", "--", goTest(t))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !s.Confirmed || strings.Contains(s.Diff, "p/count.go") || !strings.Contains(s.Diff, "+func split(s string) []string {") {
		t.Fatalf("result %v\n%s", s.Hunks, r.stderr)
	}
	// The new file is refined by its declarations: the patch adds split,
	// which the failure needs, with its import, not fields, which only
	// the change to count.go (not in the patch) uses.
	if slices.Contains(s.Hunks, "add p/split.go") || strings.Contains(s.Diff, "func fields") || !strings.Contains(s.Diff, "new file mode") {
		t.Errorf("the added file is not refined by its declarations: %v\n%s\n%s", s.Hunks, s.Diff, r.stderr)
	}
	verdict := strings.Join(s.Verdict, "\n")
	t.Logf("verdict:\n%s", verdict)
	if strings.Contains(verdict, "has another cause besides") || s.Complement != "UNRESOLVED" ||
		!strings.Contains(verdict, "hunks holding these changes gives UNRESOLVED (") {
		t.Errorf("complement %q, verdict:\n%s", s.Complement, verdict)
	}
}

// withPatch copies the tree old to dir, applies patch to it with git
// apply, and runs script there: what the test says of the old version
// with the patch.
func withPatch(t *testing.T, old, patch, dir, script string) ([]byte, error) {
	t.Helper()
	copyTree(t, old, dir)
	apply := exec.Command("git", "apply", patch)
	apply.Dir = dir
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	run := exec.Command(script)
	run.Dir = dir
	run.Env = append(os.Environ(), goEnv()...)
	return run.CombinedOutput()
}

// TestChangesPredictsUnbuildable: two new guard blocks and a changed
// limit in one function. At line edits, configurations that hold part
// of a block do not parse; wynot finds that without a build (after one
// build has shown that the test builds the package), and reports the
// same patch as when every configuration is built (--no-predict): the
// changed limit, with the blocks' braces, which no single removal can
// take out (the blocks' bodies go).
// A test that greps the source instead of building it sees such
// configurations: the probe shows it, and they are tested from then on.
func TestChangesPredictsUnbuildable(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	version := func(body string) map[string]string {
		return map[string]string{
			"go.mod":         "module example.com/app\n\ngo 1.22\n",
			"limit/limit.go": "package limit\n\n// Fits reports whether n fits.\nfunc Fits(n int) bool {\n" + body + "}\n",
			"cmd/app/main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\n\t\"example.com/app/limit\"\n)\n\n" +
				"func main() {\n\tif !limit.Fits(7) {\n\t\tfmt.Println(\"7 does not fit\")\n\t\tos.Exit(1)\n\t}\n}\n",
		}
	}
	if err := fixtures.WriteFiles(filepath.Join(dir, "old"), version("\treturn n <= 10\n")); err != nil {
		t.Fatal(err)
	}
	if err := fixtures.WriteFiles(filepath.Join(dir, "new"), version("\tif n < 0 {\n\t\tpanic(\"negative\")\n\t}\n\tif n == 0 {\n\t\treturn true\n\t}\n\treturn n <= 5\n")); err != nil {
		t.Fatal(err)
	}
	script := goTest(t)
	unresolved, diffs := map[string]int{}, map[string]string{}
	for _, predict := range []bool{true, false} {
		args := []string{"changes", "--json", "-j1", "old", "new", "--", script}
		if !predict {
			args = slices.Insert(args, 1, "--no-predict")
		}
		r := wynotRun(t, dir, goEnv(), args...)
		if r.code != 0 {
			t.Fatalf("predict %v: exit %d\n%s", predict, r.code, r.stderr)
		}
		s := r.summary(t)
		if s.Granularity != "line edits" || !strings.Contains(s.Diff, "+\treturn n <= 5\n") || strings.Contains(s.Diff, "panic") || strings.Contains(s.Diff, "return true") {
			t.Fatalf("predict %v: result %v\n%s", predict, s.Hunks, s.Diff)
		}
		diffs[fmt.Sprint(predict)] = s.Diff
		if predict != (s.Predicted > 0) {
			t.Errorf("predict %v: %d predicted", predict, s.Predicted)
		}
		// The check removes each brace alone: the rest does not parse.
		if notBuilt := strings.Contains(strings.Join(s.Verdict, "\n"), "not built: their Go code does not type-check"); predict != (s.RemovalsPredicted > 0) || predict != notBuilt {
			t.Errorf("predict %v: %d removals predicted; verdict %q", predict, s.RemovalsPredicted, s.Verdict)
		}
		unresolved[fmt.Sprint(predict)] = s.Outcomes.Unresolved
		t.Logf("predict %v: %d tests, %d unresolved, %d predicted", predict, s.Tests, s.Outcomes.Unresolved, s.Predicted)
	}
	if diffs["true"] != diffs["false"] {
		t.Errorf("with predictions:\n%s\nwithout:\n%s", diffs["true"], diffs["false"])
	}
	if unresolved["true"] >= unresolved["false"] {
		t.Errorf("unresolved tests: %d with predictions, %d without", unresolved["true"], unresolved["false"])
	}

	// A test that reads the source without building it.
	grep := filepath.Join(dir, "grep.sh")
	if err := os.WriteFile(grep, []byte("#!/bin/sh\n! grep -q 'n <= 5' limit/limit.go\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j1", "old", "new", "--", grep)
	if r.code != 0 {
		t.Fatalf("grep: exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if !strings.Contains(r.stderr, "the test does not build that package") || s.Predicted != 0 {
		t.Errorf("grep: %d predicted\n%s", s.Predicted, r.stderr)
	}
	if !strings.Contains(s.Diff, "+\treturn n <= 5\n") || strings.Contains(s.Diff, "if n") {
		t.Errorf("grep: result %v\n%s", s.Hunks, s.Diff)
	}
}

// TestChangesGitNestedGoTest: the test is a script that runs another
// that runs go test, so neither command line nor script says go test,
// and the failure-inducing commit only adds a failing test. The bad
// revision's output is go test's: Go test files are read, and the commit
// is a candidate. When the output says nothing (the inner script hides
// it), the commit is passed over at first, found anyway (its parent is
// tested), and the report says the prediction was wrong instead of
// leaving "not a candidate" standing.
func TestChangesGitNestedGoTest(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir, commit := gitRepo(t)
	good := commit("base", map[string]string{
		"go.mod": "module example.com/lib\n\ngo 1.22\n",
		"lib.go": "package lib\n\n// Double doubles x.\nfunc Double(x int) int { return x + x }\n",
	})
	commit("docs", map[string]string{"README.md": "# lib\n"})
	culprit := commit("a failing test", map[string]string{
		"lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 5 {\n\t\tt.Fatal(\"Double(2) is not 5\")\n\t}\n}\n",
	})
	bad := commit("a comment", map[string]string{
		"lib.go": "package lib\n\n// Double doubles x (x+x).\nfunc Double(x int) int { return x + x }\n",
	})
	scripts := t.TempDir()
	for name, body := range map[string]string{
		"outer.sh":       "#!/bin/sh\nexec " + filepath.Join(scripts, "inner.sh") + " \"$1\"\n",
		"inner.sh":       "#!/bin/sh\ncd \"$1\" && go test -count=1 .\n",
		"outer-quiet.sh": "#!/bin/sh\nexec " + filepath.Join(scripts, "inner-quiet.sh") + " \"$1\"\n",
		"inner-quiet.sh": "#!/bin/sh\ncd \"$1\" && go test -count=1 . >/dev/null 2>&1\n",
	} {
		write(t, filepath.Join(scripts, name), []byte(body))
		if err := os.Chmod(filepath.Join(scripts, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		script  string
		skipped string // what is said of the culprit commit
		notSaid string
		correct bool // the report says the prediction was wrong
	}{
		{"outer.sh", "1 only documentation)", "only Go tests", false},
		{"outer-quiet.sh", "only Go tests", "", true},
	} {
		revs := []string{good, bad}
		if c.script == "outer.sh" {
			revs = []string{good + ".." + bad} // as git log takes a range
		}
		args := append(append([]string{"changes", "--json", "-j1", "--git"}, revs...), "--", filepath.Join(scripts, c.script), "{}")
		r := wynotRun(t, dir, goEnv(), args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", c.script, r.code, r.stderr)
		}
		if s := r.summary(t); !strings.HasPrefix(s.Commit, culprit[:12]) {
			t.Errorf("%s: commit %q, want %s\n%s", c.script, s.Commit, culprit[:12], r.stderr)
		}
		if !strings.Contains(r.stderr, c.skipped) || c.notSaid != "" && strings.Contains(r.stderr, c.notSaid) {
			t.Errorf("%s: want %q said, %q not:\n%s", c.script, c.skipped, c.notSaid, r.stderr)
		}
		if got := strings.Contains(r.stderr, "but the failure begins with it"); got != c.correct {
			t.Errorf("%s: the prediction corrected: %v, want %v\n%s", c.script, got, c.correct, r.stderr)
		}
		var js struct {
			Skipped []struct {
				Commit string `json:"commit"`
			} `json:"skipped_commits"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &js); err != nil {
			t.Fatal(err)
		}
		if len(js.Skipped) != 1 || strings.HasPrefix(js.Skipped[0].Commit, culprit[:12]) {
			t.Errorf("%s: skipped_commits %v, want the docs commit alone", c.script, js.Skipped)
		}
	}
	r := wynotRun(t, dir, goEnv(), "changes", "--git", good+"..."+bad, "--", filepath.Join(scripts, "outer.sh"), "{}")
	if r.code != 1 || !strings.Contains(r.stderr, "want GOOD BAD (or GOOD..BAD)") {
		t.Errorf("GOOD...BAD: exit %d\n%s", r.code, r.stderr)
	}
}
