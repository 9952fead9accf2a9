package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of wynot changes on generated Go modules, built with
// the real go command.

// goModule writes a Go module into dir: files maps relative paths to
// contents; go.mod is added.
func goModule(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	files["go.mod"] = "module example.com/app\n\ngo 1.22\n"
	for p, data := range files {
		write(t, filepath.Join(dir, p), []byte(data))
	}
}

// appVersions generates the two versions of the first case: ≥ 300 hunks
// across 12 files in 4 directories, none of which changes behavior
// except one, the version string that main parses (the GDB case: a
// changed string constant).
func appVersions(t *testing.T, old, nw string) {
	t.Helper()
	gen := func(newer bool) map[string]string {
		files := map[string]string{}
		dirs := []string{"internal/calc", "internal/text", "pkg/util"}
		var calls []string
		for d, dir := range dirs {
			for f := range 4 {
				pkg := filepath.Base(dir)
				var b strings.Builder
				fmt.Fprintf(&b, "package %s\n", pkg)
				for k := range 26 {
					name := fmt.Sprintf("F%d%d", f, k)
					expr := fmt.Sprintf("x + %d", k)
					if newer {
						// The same value, written differently.
						expr = fmt.Sprintf("%d + x", k)
					}
					fmt.Fprintf(&b, "\n// %s computes a value.\nfunc %s(x int) int {\n\ty := %s\n\treturn y\n}\n", name, name, expr)
					if k == 0 {
						calls = append(calls, fmt.Sprintf("%s.%s(%d)", pkg, name, d))
					}
				}
				files[fmt.Sprintf("%s/f%d.go", dir, f)] = b.String()
			}
		}
		version := "1.4.2"
		if newer {
			version = "1.4.2-rc1"
		}
		// An unrelated edit two lines above the culprit: one hunk with a
		// context of 2, which refinement splits.
		comment := "the release"
		if newer {
			comment = "the current release"
		}
		files["internal/version/version.go"] = "package version\n\n// Version is " + comment + ".\n// main parses it.\nconst Version = \"" + version + "\"\n"
		files["cmd/app/main.go"] = `package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"example.com/app/internal/calc"
	"example.com/app/internal/text"
	"example.com/app/internal/version"
	"example.com/app/pkg/util"
)

func main() {
	sum := ` + strings.Join(calls, " + ") + `
	for _, part := range strings.Split(version.Version, ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad version:", err)
			os.Exit(1)
		}
		sum += n
	}
	fmt.Println(sum)
}
`
		return files
	}
	goModule(t, old, gen(false))
	goModule(t, nw, gen(true))
}

// goTest is the test of a Go module: it builds (unresolved when it
// cannot) and runs the app.
func goTest(t *testing.T) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "test.sh")
	write(t, script, []byte("#!/bin/sh\ngo build -o app.bin ./cmd/app 2>build.log || { cat build.log >&2; exit 125; }\nexec ./app.bin\n"))
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

func goEnv() []string { return []string{"GOTOOLCHAIN=local", "GOFLAGS="} }

func TestChangesGoModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go modules")
	}
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	appVersions(t, old, nw)
	script := goTest(t)
	runs := map[string]int{}
	for _, group := range []string{"auto", "none"} {
		r := wynotRun(t, dir, goEnv(), "changes", "--json", "-j2", "--group", group, "-o", filepath.Join(dir, group+".patch"), "old", "new", "--", script)
		if r.code != 0 {
			t.Fatalf("--group %s: exit %d\n%s", group, r.code, r.stderr)
		}
		s := r.summary(t)
		if s.ElementsBefore < 300 {
			t.Fatalf("only %d hunks", s.ElementsBefore)
		}
		if len(s.Hunks) != 1 || s.Hunks[0] != "internal/version/version.go:5-5" || s.Granularity != "lines" {
			t.Fatalf("--group %s: result %v, want the version line\n%s", group, s.Hunks, r.stderr)
		}
		if !s.Confirmed || s.Complement != "PASS" {
			t.Errorf("--group %s: confirmed %v, complement %q", group, s.Confirmed, s.Complement)
		}
		if !strings.Contains(s.Diff, "-const Version = \"1.4.2\"\n+const Version = \"1.4.2-rc1\"\n") {
			t.Errorf("diff:\n%s", s.Diff)
		}
		runs[group] = s.Tests
		// The patch applies to the old version, and then it fails.
		cp := filepath.Join(dir, "check-"+group)
		copyTree(t, old, cp)
		apply := exec.Command("git", "apply", filepath.Join(dir, group+".patch"))
		apply.Dir = cp
		if out, err := apply.CombinedOutput(); err != nil {
			t.Fatalf("git apply: %v\n%s", err, out)
		}
		run := exec.Command(script)
		run.Dir = cp
		run.Env = append(os.Environ(), goEnv()...)
		if err := run.Run(); err == nil {
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
	want := []string{"d0/a.conf:4-4", "d2/b.conf:1-1"}
	if strings.Join(s.Hunks, " ") != strings.Join(want, " ") {
		t.Errorf("result %v, want %v\n%s", s.Hunks, want, r.stderr)
	}
	if s.Complement != "PASS" || !s.Confirmed {
		t.Errorf("complement %q, confirmed %v", s.Complement, s.Confirmed)
	}
}

// renameVersions: a function renamed together with its call sites in
// several files, so that most subsets do not build, and one
// failure-inducing change elsewhere.
func renameVersions(t *testing.T, old, nw string) {
	gen := func(newer bool) map[string]string {
		name := "computeTotal"
		if newer {
			name = "sumAll"
		}
		files := map[string]string{}
		var calls []string
		for f := range 8 {
			var b strings.Builder
			fmt.Fprintf(&b, "package shop\n\n// Price%d is a price.\nfunc Price%d() int {\n\treturn %s(%d, 1)\n}\n", f, f, name, f)
			for k := range 5 {
				v := k
				if newer {
					v = k * 1
				}
				fmt.Fprintf(&b, "\n\n\n// Extra%d%d is more.\nfunc Extra%d%d() int {\n\treturn %s\n}\n", f, k, f, k, fmt.Sprint(v))
			}
			files[fmt.Sprintf("shop/p%d.go", f)] = b.String()
			calls = append(calls, fmt.Sprintf("shop.Price%d()", f))
		}
		limit := 100
		if newer {
			limit = 10
		}
		files["shop/total.go"] = fmt.Sprintf("package shop\n\n// %s adds.\nfunc %s(a, b int) int {\n\treturn a + b\n}\n\n\n\n// Limit is the largest total.\nconst Limit = %d\n", name, name, limit)
		files["cmd/app/main.go"] = `package main

import (
	"fmt"
	"os"

	"example.com/app/shop"
)

func main() {
	total := ` + strings.Join(calls, " + ") + `
	if total > shop.Limit {
		fmt.Fprintln(os.Stderr, "over the limit:", total)
		os.Exit(1)
	}
	fmt.Println(total)
}
`
		return files
	}
	goModule(t, old, gen(false))
	goModule(t, nw, gen(true))
}

func TestChangesInconsistent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go modules")
	}
	dir := t.TempDir()
	old, nw := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	renameVersions(t, old, nw)
	script := goTest(t)
	unresolved := map[string]int{}
	for _, resolve := range []bool{true, false} {
		args := []string{"changes", "--json", "-j2", "--algorithm", "ddplus", "--group", "none", "--no-refine"}
		if !resolve {
			args = append(args, "--no-resolve")
		}
		r := wynotRun(t, dir, goEnv(), append(args, "old", "new", "--", script)...)
		if r.code != 0 {
			t.Fatalf("resolve=%v: exit %d\n%s", resolve, r.code, r.stderr)
		}
		s := r.summary(t)
		if len(s.Hunks) != 1 || s.Hunks[0] != "shop/total.go:11-11" {
			t.Fatalf("resolve=%v: result %v, want the limit\n%s", resolve, s.Hunks, r.stderr)
		}
		key := "without resolution"
		if resolve {
			key = "with resolution"
			if s.Resolutions == 0 {
				t.Errorf("no resolution attempted")
			}
		}
		unresolved[key] = s.Outcomes.Unresolved
		t.Logf("%s: %d tests, %d unresolved, %d resolution attempts (%d resolved)", key, s.Tests, s.Outcomes.Unresolved, s.Resolutions, s.Resolved)
	}
	if unresolved["with resolution"] >= unresolved["without resolution"] {
		t.Errorf("the resolution loop did not cut unresolved tests: %v", unresolved)
	}
}

// gitRepo builds a repository with 64 commits on top of a base commit;
// commit 41 (200 changed lines) carries the failure-inducing line.
func gitRepo(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	table := func(n int, culprit bool) string {
		var b strings.Builder
		b.WriteString("package data\n\n// Table holds values.\nvar Table = []int{\n")
		for k := range 200 {
			v := k
			if k < n*3 {
				v = k + 1000 // rewritten by earlier commits
			}
			fmt.Fprintf(&b, "\t%d,\n", v)
		}
		b.WriteString("}\n")
		limit := 5000
		if culprit {
			limit = 50
		}
		fmt.Fprintf(&b, "\n// Limit is checked by main.\nconst Limit = %d\n", limit)
		return b.String()
	}
	files := map[string]string{
		"data/table.go": table(0, false),
		"cmd/app/main.go": `package main

import (
	"fmt"
	"os"

	"example.com/app/data"
)

func main() {
	if len(data.Table) > data.Limit {
		fmt.Fprintln(os.Stderr, "table too long")
		os.Exit(1)
	}
}
`,
	}
	goModule(t, dir, files)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	good = git("rev-parse", "HEAD")
	for i := 1; i <= 64; i++ {
		if i == 41 {
			// A commit of 200 changed lines: the table rewritten, and the limit.
			var b strings.Builder
			b.WriteString("package data\n\n// Table holds values.\nvar Table = []int{\n")
			for k := range 200 {
				fmt.Fprintf(&b, "\t%d, // rewritten\n", k+2000)
			}
			b.WriteString("}\n\n// Limit is checked by main.\nconst Limit = 50\n")
			write(t, filepath.Join(dir, "data/table.go"), []byte(b.String()))
		} else {
			write(t, filepath.Join(dir, fmt.Sprintf("notes/n%02d.txt", i)), []byte(fmt.Sprintf("note %d\n", i)))
		}
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprintf("change %d", i))
	}
	bad = git("rev-parse", "HEAD")
	return good, bad
}

func TestChangesGit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go modules")
	}
	dir := t.TempDir()
	good, bad := gitRepo(t, dir)
	// Something uncommitted but ignored by git status --untracked-files=no.
	write(t, filepath.Join(dir, "scratch.txt"), []byte("mine\n"))
	state := func() string {
		out, err := exec.Command("sh", "-c", "cd "+dir+" && git rev-parse HEAD && git status --porcelain && git for-each-ref && git worktree list && ls -lA").CombinedOutput()
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
	if !strings.Contains(s.Commit, "change 41") {
		t.Errorf("commit %q, want change 41", s.Commit)
	}
	if len(s.Hunks) != 1 || !strings.HasPrefix(s.Hunks[0], "data/table.go:") || !strings.Contains(s.Diff, "+const Limit = 50") {
		t.Errorf("result %v\n%s", s.Hunks, s.Diff)
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

func TestChangesBadInput(t *testing.T) {
	dir := t.TempDir()
	old, nw, same := filepath.Join(dir, "old"), filepath.Join(dir, "new"), filepath.Join(dir, "same")
	write(t, filepath.Join(old, "f.txt"), []byte("a\n"))
	write(t, filepath.Join(same, "f.txt"), []byte("a\n"))
	write(t, filepath.Join(nw, "f.txt"), []byte("b\n"))
	failsOnB := []string{"--", "sh", "-c", "! grep -q b f.txt"}
	repo := filepath.Join(dir, "repo")
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn("init", "-q")
	write(t, filepath.Join(repo, "f.txt"), []byte("a\n"))
	gitIn("add", "f.txt")
	gitIn("commit", "-q", "-m", "one")
	write(t, filepath.Join(repo, "f.txt"), []byte("b\n"))
	gitIn("commit", "-q", "-a", "-m", "two")
	write(t, filepath.Join(repo, "f.txt"), []byte("dirty\n"))
	for _, c := range []struct {
		name string
		dir  string
		args []string
		code int
		msg  string
	}{
		{"old missing", dir, append([]string{"changes", "nothere", "new"}, failsOnB...), 1, "the old version nothere"},
		{"not a directory", dir, append([]string{"changes", "old", "new/f.txt"}, failsOnB...), 1, "is not a directory"},
		{"identical", dir, append([]string{"changes", "old", "same"}, failsOnB...), 1, "the same"},
		{"old fails", dir, []string{"changes", "old", "new", "--", "sh", "-c", "echo broken >&2; exit 3"}, 2, "the old version does not pass"},
		{"new passes", dir, []string{"changes", "old", "new", "--", "true"}, 2, "new version does not fail"},
		{"no command", dir, []string{"changes", "old", "new"}, 1, "no test"},
		{"one argument", dir, append([]string{"changes", "old"}, failsOnB...), 1, "want OLD_DIR NEW_DIR"},
		{"bad group", dir, append([]string{"changes", "--group", "x", "old", "new"}, failsOnB...), 1, "unknown --group"},
		{"not a repository", dir, append([]string{"changes", "--git", "HEAD~1", "HEAD"}, failsOnB...), 1, "not in a git repository"},
		{"dirty", repo, append([]string{"changes", "--git", "HEAD~1", "HEAD"}, failsOnB...), 1, "uncommitted changes"},
		{"unknown revision", repo, append([]string{"changes", "--git", "--allow-dirty", "nosuch", "HEAD"}, failsOnB...), 1, `unknown revision "nosuch"`},
		{"reversed", repo, append([]string{"changes", "--git", "--allow-dirty", "HEAD", "HEAD~1"}, failsOnB...), 1, "not an ancestor"},
	} {
		r := wynotRun(t, c.dir, nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, r.code, r.stderr, c.code, c.msg)
		}
	}
	// Old fails: the message shows the command's output.
	r := wynotRun(t, dir, nil, "changes", "old", "new", "--", "sh", "-c", "echo broken >&2; exit 3")
	if !strings.Contains(r.stderr, "broken") {
		t.Errorf("no output tail in %q", r.stderr)
	}
	// With the dirty worktree allowed, the search runs on the revisions.
	r = wynotRun(t, repo, nil, append([]string{"changes", "--git", "--allow-dirty", "--json", "HEAD~1", "HEAD"}, failsOnB...)...)
	if r.code != 0 || !strings.Contains(r.summary(t).Diff, "+b") {
		t.Errorf("--allow-dirty: exit %d\n%s", r.code, r.stderr)
	}
	if got := string(read(t, filepath.Join(repo, "f.txt"))); got != "dirty\n" {
		t.Errorf("the worktree's file became %q", got)
	}
}
