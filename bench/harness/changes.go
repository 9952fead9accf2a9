package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wynot/wynot/internal/fixtures"
	"github.com/wynot/wynot/report"
)

// changesSection measures wynot changes on the generated cases of
// internal/fixtures: grouping and algorithms on the 313-hunk module, the
// resolution loop on the inconsistent one, wynot --git against git bisect
// run on the 64-commit history, and the cost of materializing a
// configuration in a tree of 5,000 files.
func changesSection(root, work, bin string) string {
	var b strings.Builder
	b.WriteString("## Code changes\n\n")
	b.WriteString("`wynot changes -j 1` on the generated Go modules of `internal/fixtures`; every test builds the module with `go build` (exit 125 when it does not build) and runs it. `tests` counts every run of the test script (the checks of both versions and the final verification included), `unresolved` those that did not build.\n\n")

	type sum struct {
		Tests       int      `json:"tests"`
		Hunks       []string `json:"hunks"`
		Granularity string   `json:"granularity"`
		Before      int      `json:"elements_before"`
		Commit      string   `json:"commit"`
		Resolutions int      `json:"resolutions"`
		Outcomes    struct {
			Unresolved int `json:"unresolved"`
		} `json:"outcomes"`
	}
	run := func(dir string, args ...string) (sum, int, float64) {
		counter := filepath.Join(dir, "counter")
		os.Remove(counter)
		cmd := exec.Command(filepath.Join(bin, "wynot"), append([]string{"changes", "--json", "-q", "-j", "1"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), fixtures.Env...), "BENCH_COUNTER="+counter)
		t0 := time.Now()
		out, err := cmd.Output()
		el := time.Since(t0).Seconds()
		var s sum
		if err != nil {
			fmt.Printf("wynot changes %v: %v\n", args, err)
			return s, 0, el
		}
		check(json.Unmarshal(out, &s))
		n, _ := os.ReadFile(counter)
		return s, bytes.Count(n, []byte("\n")), el
	}
	dir := filepath.Join(work, "changes")
	check(os.MkdirAll(dir, 0o755))
	script, err := fixtures.TestScript(dir)
	check(err)

	// Grouping and algorithms.
	app := filepath.Join(dir, "app")
	check(fixtures.App(filepath.Join(app, "old"), filepath.Join(app, "new")))
	var rows strings.Builder
	before := 0
	for _, alg := range []string{"dd", "ddplus"} {
		for _, g := range []string{"auto", "none"} {
			s, tests, el := run(app, "--group", g, "--algorithm", alg, "old", "new", "--", script)
			before = s.Before
			fmt.Fprintf(&rows, "| %s | %s | %d | %d | %.1f | %s |\n", g, alg, tests, s.Outcomes.Unresolved, el, strings.Join(s.Hunks, ", "))
			fmt.Printf("changes app %-5s %-7s %4d tests %6.1fs %v\n", g, alg, tests, el, s.Hunks)
		}
	}

	fmt.Fprintf(&b, "**Grouping and algorithms** (the `App` fixture, also `examples/release`: %d changes in 16 files, one failure-inducing line, two lines below an unrelated edit in the same hunk):\n\n", before)
	b.WriteString("| --group | --algorithm | tests | unresolved | seconds | result |\n|---|---|---:|---:|---:|---|\n")
	b.WriteString(rows.String())

	// Resolution.
	ren := filepath.Join(dir, "rename")
	check(fixtures.Rename(filepath.Join(ren, "old"), filepath.Join(ren, "new")))
	b.WriteString("\n**Inconsistent changes** (a function renamed with its call sites in 8 files, 51 hunks; most subsets do not build; `--group none --no-refine`):\n\n")
	b.WriteString("| --algorithm | resolution | tests | unresolved | resolution attempts | seconds | result |\n|---|---|---:|---:|---:|---:|---|\n")
	for _, alg := range []string{"ddplus", "dd"} {
		for _, res := range []bool{true, false} {
			args := []string{"--group", "none", "--no-refine", "--algorithm", alg}
			word := "on"
			if !res {
				args, word = append(args, "--no-resolve"), "off"
			}
			s, tests, el := run(ren, append(args, "old", "new", "--", script)...)
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.1f | %s |\n", alg, word, tests, s.Outcomes.Unresolved, s.Resolutions, el, strings.Join(s.Hunks, ", "))
			fmt.Printf("changes rename %-7s resolve=%-3s %4d tests %6.1fs %v\n", alg, word, tests, el, s.Hunks)
		}
	}

	b.WriteString("\nFSE 1999 Algorithm 1 (dd) reads an unresolved outcome of both halves as interference; without resolution it may therefore return hunks that only make the build work, where dd+ (Algorithm 2) still isolates the failure-inducing one.\n")

	// wynot --git against git bisect run.
	repo := filepath.Join(dir, "repo")
	check(os.MkdirAll(repo, 0o755))
	good, bad, err := fixtures.History(repo)
	check(err)
	b.WriteString("\n**History** (64 commits; commit 41 rewrites 200 lines, one of which causes the failure): builds are runs of the test script; wynot's include three checks of the two revisions (the bad one is run twice, for a flaky failure), the tests of the hunks of the commit and two of the final verification.\n\n")
	b.WriteString("| tool | builds | seconds | names |\n|---|---:|---:|---|\n")
	logFile := filepath.Join(dir, "git.log")
	s, tests, el := run(repo, "--log", logFile, "--git", good, bad, "--", script)
	logData, _ := os.ReadFile(logFile)
	revs := bytes.Count(logData, []byte(" commits): "))
	fmt.Fprintf(&b, "| wynot changes --git | %d (%d revisions bisected) | %.1f | %s (%s in commit %q) |\n", tests, revs, el, strings.Join(s.Hunks, ", "),
		report.Plural(len(s.Hunks), "changed line"), s.Commit[13:])
	fmt.Printf("changes git wynot %d builds %.1fs %v\n", tests, el, s.Hunks)
	clone := filepath.Join(dir, "bisect")
	_, err = fixtures.Git(dir, "clone", "-q", repo, clone)
	check(err)
	counter := filepath.Join(dir, "bisect-counter")
	_, err = fixtures.Git(clone, "bisect", "start", bad, good)
	check(err)
	cmd := exec.Command("git", "bisect", "run", script)
	cmd.Dir = clone
	cmd.Env = append(append(os.Environ(), fixtures.Env...), "BENCH_COUNTER="+counter)
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	el = time.Since(t0).Seconds()
	check(err)
	n, _ := os.ReadFile(counter)
	first := regexp.MustCompile(`([0-9a-f]{40}) is the first bad commit`).FindSubmatch(out)
	names := "nothing"
	if first != nil {
		stat, err := fixtures.Git(clone, "show", "--numstat", "--format=%s", string(first[1]))
		check(err)
		lines := strings.Split(stat, "\n")
		changed := 0
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) >= 2 {
				a, _ := strconv.Atoi(f[0])
				d, _ := strconv.Atoi(f[1])
				changed += a + d
			}
		}
		names = fmt.Sprintf("commit %q (%d lines added or deleted)", lines[0], changed)
	}
	fmt.Fprintf(&b, "| git bisect run | %d | %.1f | %s |\n", bytes.Count(n, []byte("\n")), el, names)
	fmt.Printf("changes git bisect %d builds %.1fs %s\n", bytes.Count(n, []byte("\n")), el, names)

	// A wide history: what a revision costs in a tree of 5,000 files.
	wide := filepath.Join(dir, "wide")
	check(os.MkdirAll(wide, 0o755))
	good, bad, err = fixtures.WideHistory(wide)
	check(err)
	wideTest := filepath.Join(dir, "wide-test.sh")
	check(os.WriteFile(wideTest, []byte("#!/bin/sh\n[ -z \"$BENCH_COUNTER\" ] || echo >> \"$BENCH_COUNTER\"\n! grep -q BUG d01/f0001.txt\n"), 0o755))
	b.WriteString("\n**Wide history** (5,000 files of 1 KB, 64 commits each appending a line to one file, commit 41 also replacing a 16-line file by the line BUG; the test is a grep, so the time is the tools' own):\n\n")
	b.WriteString("| tool | runs of the test | seconds | names |\n|---|---:|---:|---|\n")
	s, tests, el = run(wide, "--git", good, bad, "--", wideTest)
	fmt.Fprintf(&b, "| wynot changes --git | %d | %.2f | %s |\n", tests, el, strings.Join(s.Hunks, ", "))
	fmt.Printf("changes wide wynot %d runs %.2fs %v\n", tests, el, s.Hunks)
	clone = filepath.Join(dir, "wide-bisect")
	_, err = fixtures.Git(dir, "clone", "-q", wide, clone)
	check(err)
	os.Remove(counter)
	_, err = fixtures.Git(clone, "bisect", "start", bad, good)
	check(err)
	cmd = exec.Command("git", "bisect", "run", wideTest)
	cmd.Dir = clone
	cmd.Env = append(os.Environ(), "BENCH_COUNTER="+counter)
	t0 = time.Now()
	out, err = cmd.CombinedOutput()
	el = time.Since(t0).Seconds()
	check(err)
	n, _ = os.ReadFile(counter)
	names = "nothing"
	if m := regexp.MustCompile(`[0-9a-f]{40} is the first bad commit\s+commit [0-9a-f]+\s+Author[^\n]*\n[^\n]*\n\s+(.*)`).FindSubmatch(out); m != nil {
		names = "commit " + strconv.Quote(string(m[1]))
	}
	fmt.Fprintf(&b, "| git bisect run | %d | %.2f | %s |\n", bytes.Count(n, []byte("\n")), el, names)
	fmt.Printf("changes wide bisect %d runs %.2fs %s\n", bytes.Count(n, []byte("\n")), el, names)

	// Materialization.
	b.WriteString("\n**Materializing a configuration** in a tree of 5,000 files of 1 KB (`go test ./changes -bench Materialize`): `sync` brings a kept work tree from one configuration to another (20 changed files, 10 of them rewritten per test); `copy` copies the tree afresh for each test.\n\n")
	b.WriteString("| temporary directory | sync | copy | ratio |\n|---|---:|---:|---:|\n")
	for _, tmp := range []string{"/dev/shm", os.TempDir()} {
		if st, err := os.Stat(tmp); err != nil || !st.IsDir() {
			continue
		}
		cmd := exec.Command("go", "test", "./changes", "-run", "XXX", "-bench", "Materialize", "-benchtime", "10x")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		out, err := cmd.CombinedOutput()
		check(err)
		ns := map[string]float64{}
		for _, m := range regexp.MustCompile(`Materialize/(\w+)\S*\s+\d+\s+(\d+) ns/op`).FindAllSubmatch(out, -1) {
			ns[string(m[1])], _ = strconv.ParseFloat(string(m[2]), 64)
		}
		fmt.Fprintf(&b, "| %s | %.2f ms | %.0f ms | %.0f× |\n", tmp, ns["sync"]/1e6, ns["copy"]/1e6, ns["copy"]/ns["sync"])
		fmt.Printf("materialize %s: sync %.2f ms, copy %.0f ms\n", tmp, ns["sync"]/1e6, ns["copy"]/1e6)
	}
	return b.String() + "\n"
}

// splice replaces the sections of md (by their "## " headings) with those
// of part, inserting new ones before "## Overhead per test" or at the end.
func splice(md, part string) string {
	for _, sec := range strings.SplitAfter(part, "\n## ") {
		sec = "## " + strings.TrimPrefix(strings.TrimSuffix(sec, "\n## "), "## ")
		heading := sec[:strings.IndexByte(sec, '\n')+1]
		if !strings.HasSuffix(sec, "\n") {
			sec += "\n"
		}
		if i := strings.Index(md, heading); i >= 0 {
			j := strings.Index(md[i+len(heading):], "\n## ")
			end := len(md)
			if j >= 0 {
				end = i + len(heading) + j + 1
			}
			md = md[:i] + sec + md[end:]
		} else if k := strings.Index(md, "## Overhead per test"); k >= 0 {
			md = md[:k] + sec + md[k:]
		} else {
			md += sec
		}
	}
	return md
}

// fuzzSection measures wynot fuzz on the FuzzPackage fixture: tests per
// second with the test binary compiled once, against running go test
// for each candidate as a naive reducer would (the same entry, five
// times).
func fuzzSection(work, bin string) string {
	dir := filepath.Join(work, "fuzz")
	check(fixtures.FuzzPackage(dir))
	cmd := exec.Command(filepath.Join(bin, "wynot"), "fuzz", "--json", "-q", "-j", "1", ".", "FuzzDepth")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), fixtures.Env...)
	t0 := time.Now()
	out, err := cmd.Output()
	el := time.Since(t0).Seconds()
	check(err)
	var s struct {
		Tests      int `json:"tests"`
		SizeBefore int `json:"size_before"`
		SizeAfter  int `json:"size_after"`
	}
	check(json.Unmarshal(out, &s))
	const naiveRuns = 5
	t0 = time.Now()
	for range naiveRuns {
		cmd := exec.Command("go", "test", "-count=1", "-run=FuzzDepth/crasher", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), fixtures.Env...)
		cmd.Run() // fails: the entry crashes the target
	}
	naive := time.Since(t0).Seconds() / naiveRuns
	per := el / float64(s.Tests)
	var b strings.Builder
	b.WriteString("## Fuzz corpus entries\n\n")
	b.WriteString("`wynot fuzz -j 1` on the `FuzzPackage` fixture (a 6 KB entry of four values that crashes a fuzz target); its time per test includes compiling the tests once. Naive: `go test -run=FuzzDepth/crasher` per candidate, as a reducer driving `go test` would, measured over five runs with a warm build cache.\n\n")
	b.WriteString("| | tests | time per test | tests per second |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| wynot fuzz (test binary compiled once) | %d | %.1f ms | %.0f |\n", s.Tests, per*1e3, 1/per)
	fmt.Fprintf(&b, "| go test per candidate | | %.1f ms | %.1f |\n", naive*1e3, 1/naive)
	fmt.Fprintf(&b, "\nRatio: %.0f× more tests per second; the entry went from %d to %d bytes.\n\n", naive/per, s.SizeBefore, s.SizeAfter)
	fmt.Printf("fuzz: %d tests, %.1f ms per test; go test %.1f ms per run (%.0f×)\n", s.Tests, per*1e3, naive*1e3, naive/per)
	return b.String()
}
