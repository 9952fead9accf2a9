package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// regression is a case of bench/regressions: a real regression between
// two released versions of a Go module (see its case file).
type regression struct {
	name, dir string
	vars      map[string]string
	culprit   *regexp.Regexp
}

func loadRegressions(root, casesFlag string) []regression {
	base := filepath.Join(root, "bench", "regressions")
	entries, err := os.ReadDir(base)
	check(err)
	var out []regression
	for _, e := range entries {
		f := filepath.Join(base, e.Name(), "case")
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if casesFlag != "" && !strings.Contains(","+casesFlag+",", ","+e.Name()+",") {
			continue
		}
		r := regression{name: e.Name(), dir: filepath.Join(base, e.Name()), vars: map[string]string{}}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			l := sc.Text()
			if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
				r.vars[k] = strings.Trim(v, "'")
			}
		}
		if r.vars["slow"] != "" && casesFlag == "" {
			continue // hours a run: only when named with -cases
		}
		r.culprit = regexp.MustCompile("(?m)" + r.vars["culprit"])
		out = append(out, r)
	}
	return out
}

// changesSummary is what the harness reads of wynot changes --json.
type changesSummary struct {
	Tests    int             `json:"tests"`
	Hunks    []string        `json:"hunks"`
	Before   int             `json:"elements_before"`
	Diff     string          `json:"diff"`
	Commit   string          `json:"commit"`
	Confirm  bool            `json:"confirmed"`
	Gran     string          `json:"granularity"`
	Verdict  []string        `json:"verdict"`
	Skipped  []skippedCommit `json:"skipped_commits"`
	Outcomes struct {
		Unresolved int `json:"unresolved"`
	} `json:"outcomes"`
}

// regressionsSection measures wynot changes on the real regressions of
// bench/regressions: each algorithm, with and without the grouping by
// what Go changes need, and (with -baseline) an earlier wynot, against
// git bisect run on the module's history where a clone is at hand.
//
// With gitOnly, only the comparison with git bisect run is made, and a
// baseline wynot is run with --git beside this one.
//
// configsFlag names the configurations of wynot to run (files, dd,
// ddplus, ddmin; empty: all).
func regressionsSection(root, work, bin, baseline, casesFlag, configsFlag string, gitOnly bool, limit time.Duration) string {
	var b strings.Builder
	b.WriteString("## Real regressions\n\n")
	b.WriteString("`wynot changes -j 2` on real regressions between two released versions of public Go modules (`bench/regressions`: each case names its upstream issue and the culprit). A client program passes against the old version and fails against the new one; the test script builds it against the module's tree with a subset of the changes (exit 125 when the module does not build). `tests` counts every run of the test script, the checks included; `culprit` says whether the reported patch holds the documented culprit; `confirmed` whether it failed again when run again. Runs are cut off after " + limit.String() + ".\n\n")
	cases := loadRegressions(root, casesFlag)
	wynot := filepath.Join(bin, "wynot")
	type config struct {
		key, label, bin string
		args            []string
	}
	all := []config{
		{"files", "dd, --group files", wynot, []string{"--algorithm", "dd", "--group", "files"}},
		{"dd", "dd", wynot, []string{"--algorithm", "dd"}},
		{"ddplus", "ddplus", wynot, []string{"--algorithm", "ddplus"}},
		{"ddmin", "ddmin", wynot, []string{"--algorithm", "ddmin"}},
	}
	var configs []config
	for _, cf := range all {
		if configsFlag == "" || strings.Contains(","+configsFlag+",", ","+cf.key+",") {
			configs = append(configs, cf)
		}
	}
	before := ""
	if baseline != "" {
		before = buildBaseline(root, work, baseline)
		configs = append([]config{{"before", "before (" + baseline + ")", before, nil}}, configs...)
	}
	if gitOnly {
		configs = nil
	}
	b.WriteString("`minimal` is checked by the harness, by brute force: it takes the printed diff apart into the changes wynot names (hunks or line edits), applies all of them to the old version but one, for each, and runs the test: `yes` when the patch fails as the new version does and none of these does (`pass` and `do not build` count the removals' outcomes; a removal that fails another way, say the client no longer compiles where the new version's round trip fails, counts as not building: wynot's definition of the same failure, runner.Signature at --precision message), `no` when some still fail.\n\n")
	b.WriteString("| case | hunks | wynot | tests | unresolved | seconds | confirmed | culprit | result | minimal |\n|---|---:|---|---:|---:|---:|---|---|---|---|\n")
	var mc minimalChecker
	type tally struct{ right, minimal, cases, tests, unresolved int }
	tallies := map[string]*tally{}
	fewer, compared := 0, 0
	var git strings.Builder
	git.WriteString("\n**Against git bisect run** on the module's repository, from the old release's tag to the new one's. `builds` are runs of the test script. git bisect tests neither end (it takes the user's word) and descends into every merged branch; wynot runs the bad revision twice and the good one once before it starts, bisects the first-parent line over the commits that change a file the test's build reads (a merge weighed as the commits it brings), tests the commit it names and that commit's parent, and searches a failure-inducing merge's branch the same way: `to name the commit` counts its tests of revisions after those checks (a merge's branch head and merge base included), `in all` adds the checks, the search within the commit and the verification.\n\n")
	if gitOnly && before != "" {
		git.WriteString("| case | commits (first parent) | git bisect builds | git bisect names | wynot builds to name the commit, before (" + baseline + ") → after | in all, before → after | wynot names, before → after | culprit lines | not candidates (why) |\n|---|---:|---:|---|---:|---:|---|---|---|\n")
	} else {
		git.WriteString("| case | commits (first parent) | git bisect builds | git bisect names | wynot builds to name the commit | in all | wynot names | culprit lines |\n|---|---:|---:|---|---:|---:|---|---|\n")
	}
	for _, c := range cases {
		dir := filepath.Join(work, "regressions", c.name)
		setup := exec.Command(filepath.Join(root, "bench", "regressions", "setup"), c.name, dir)
		setup.Stderr = os.Stderr
		check(setup.Run())
		test := filepath.Join(root, "bench", "regressions", "test.sh")
		for _, cf := range configs {
			args := append([]string{"changes", "-j", "2"}, cf.args...)
			args = append(args, "old", "new", "--", test, c.name, "{}")
			s, tests, el, done := runChanges(dir, cf.bin, args, limit)
			res := fmt.Sprintf("%d %s", len(s.Hunks), s.Gran)
			confirmed, culprit := yes(s.Confirm), yes(c.culprit.MatchString(s.Diff))
			secs := fmt.Sprintf("%.0f", el)
			minimal := "—"
			if !done {
				res, confirmed, culprit, secs = "cut off", "—", "—", "> "+fmt.Sprintf("%.0f", el)
			} else {
				minimal = mc.check(work, filepath.Join(dir, "old"), filepath.Join(dir, "new"), test, c.name, s)
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %d | %d | %s | %s | %s | %s | %s |\n", c.name, s.Before, cf.label, tests, s.Outcomes.Unresolved, secs, confirmed, culprit, res, minimal)
			tl := tallies[cf.label]
			if tl == nil {
				tl = &tally{}
				tallies[cf.label] = tl
			}
			tl.cases++
			tl.tests += tests
			tl.unresolved += s.Outcomes.Unresolved
			if done && s.Confirm && c.culprit.MatchString(s.Diff) {
				tl.right++
			}
			if strings.HasPrefix(minimal, "yes") {
				tl.minimal++
			}
			fmt.Printf("regression %-24s %-22s %4d tests %4d unresolved %6.1fs confirmed=%v culprit=%s minimal=%s %v\n", c.name, cf.label, tests, s.Outcomes.Unresolved, el, s.Confirm, culprit, minimal, s.Hunks)
		}
		repo := filepath.Join(dir, "repo")
		if _, err := os.Stat(repo); err != nil {
			fmt.Fprintf(&git, "| %s | — | — | no clone of %s at hand | — | — | — | — |%s\n", c.name, c.vars["repo"], map[bool]string{true: " — |"}[gitOnly && before != ""])
			continue
		}
		good, bad := c.vars["tag_old"], c.vars["tag_new"]
		n, _ := exec.Command("git", "-C", repo, "rev-list", "--count", good+".."+bad).Output()
		fp, _ := exec.Command("git", "-C", repo, "rev-list", "--count", "--first-parent", good+".."+bad).Output()
		builds, names := bisectRun(repo, test, c.name, good, bad, limit)
		type gitRun struct {
			revs, tests  int
			names, lines string
			skipped      []skippedCommit
		}
		runGit := func(wynot, label string) gitRun {
			logFile := filepath.Join(dir, label+".log")
			s, tests, _, done := runChanges(repo, wynot, []string{"changes", "-j", "2", "--log", logFile, "--git", good, bad, "--", test, c.name, "{}"}, limit)
			logData, _ := os.ReadFile(logFile)
			g := gitRun{tests: tests, revs: revisionTests(string(logData)), names: s.Commit, lines: yes(c.culprit.MatchString(s.Diff)), skipped: s.Skipped}
			if !done {
				g.names, g.lines = "cut off", "—"
			}
			return g
		}
		after := runGit(wynot, "git")
		compared++
		if after.revs < builds {
			fewer++
		}
		if gitOnly && before != "" {
			b4 := runGit(before, "git-before")
			wn := after.names
			if b4.names != after.names {
				wn = b4.names + " → " + after.names
			}
			fmt.Fprintf(&git, "| %s | %s (%s) | %d | %s | %d → %d | %d → %d | %s | %s | %s |\n", c.name, strings.TrimSpace(string(n)), strings.TrimSpace(string(fp)), builds, names, b4.revs, after.revs, b4.tests, after.tests, wn, after.lines, whySkipped(after.skipped))
			fmt.Printf("regression %-24s git bisect %d builds (%s); wynot --git before %d+%d (%s), after %d+%d builds (%s) culprit lines %s; %d not candidates\n", c.name, builds, names, b4.revs, b4.tests, b4.names, after.revs, after.tests, after.names, after.lines, len(after.skipped))
			continue
		}
		fmt.Fprintf(&git, "| %s | %s (%s) | %d | %s | %d | %d | %s | %s |\n", c.name, strings.TrimSpace(string(n)), strings.TrimSpace(string(fp)), builds, names, after.revs, after.tests, after.names, after.lines)
		fmt.Printf("regression %-24s git bisect %d builds (%s); wynot --git %d+%d builds (%s) culprit lines %s\n", c.name, builds, names, after.revs, after.tests, after.names, after.lines)
	}
	if !gitOnly {
		b.WriteString("\nIn all:\n\n| wynot | right (confirmed, culprit named) | 1-minimal (brute force) | tests | unresolved |\n|---|---:|---:|---:|---:|\n")
		for _, cf := range configs {
			if tl := tallies[cf.label]; tl != nil {
				fmt.Fprintf(&b, "| %s | %d of %d | %d of %d | %d | %d |\n", cf.label, tl.right, tl.cases, tl.minimal, tl.cases, tl.tests, tl.unresolved)
			}
		}
		b.WriteString("\n" + ddplusNote)
	}
	b.WriteString(git.String())
	if compared > 0 {
		fmt.Fprintf(&b, "\nwynot needed fewer builds than git bisect run to name the commit in %d of %d cases.\n", fewer, compared)
	}
	b.WriteString("\n")
	return b.String()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// runChanges runs wynot changes with --json in dir, counting test script
// runs, within limit; done is false when it was cut off.
func runChanges(dir, wynot string, args []string, limit time.Duration) (s changesSummary, tests int, seconds float64, done bool) {
	counter := filepath.Join(dir, "counter")
	os.Remove(counter)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args = append([]string{args[0], "--json", "-q"}, args[1:]...)
	cmd := exec.CommandContext(ctx, wynot, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BENCH_COUNTER="+counter)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
	t0 := time.Now()
	out, err := cmd.Output()
	seconds = time.Since(t0).Seconds()
	if n, rerr := os.ReadFile(counter); rerr == nil {
		tests = bytes.Count(n, []byte("\n"))
	}
	if len(out) > 0 {
		json.Unmarshal(out, &s)
	}
	if ctx.Err() != nil {
		return s, tests, seconds, false
	}
	if err != nil {
		fmt.Printf("wynot %v in %s: %v\n", args, dir, err)
	}
	return s, tests, seconds, true
}

// bisectRun runs git bisect run with the test script in a clone and
// returns the builds it made and the commit it names.
func bisectRun(repo, test, name, good, bad string, limit time.Duration) (int, string) {
	counter := filepath.Join(filepath.Dir(repo), "bisect-counter")
	os.Remove(counter)
	git := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "BENCH_COUNTER="+counter, "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	git("bisect", "reset", "-q")
	if out, err := git("bisect", "start", bad, good); err != nil {
		return 0, "bisect start failed: " + strings.TrimSpace(out)
	}
	out, _ := git("bisect", "run", test, name, repo)
	git("bisect", "reset", "-q")
	n, _ := os.ReadFile(counter)
	builds := bytes.Count(n, []byte("\n"))
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, " is the first bad commit") {
			h := strings.Fields(l)[0]
			subj, _ := exec.Command("git", "-C", repo, "log", "-1", "--format=%s", h).Output()
			return builds, h[:12] + " " + strings.TrimSpace(string(subj))
		}
	}
	if strings.Contains(out, "only 'skip'ped commits left") {
		return builds, "a range of skipped commits"
	}
	return builds, "nothing"
}

// buildBaseline builds wynot at a git revision of this repository (in a
// temporary worktree) and returns the binary.
func buildBaseline(root, work, rev string) string {
	wt := filepath.Join(work, "baseline-src")
	if out, err := exec.Command("git", "-C", root, "worktree", "add", "-f", "--detach", wt, rev).CombinedOutput(); err != nil {
		fatalf("baseline %s: %v\n%s", rev, err, out)
	}
	defer exec.Command("git", "-C", root, "worktree", "remove", "--force", wt).Run()
	bin := filepath.Join(work, "wynot-baseline")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wynot")
	cmd.Dir = wt
	if out, err := cmd.CombinedOutput(); err != nil {
		fatalf("building the baseline: %v\n%s", err, out)
	}
	return bin
}

// ddplusNote reads the totals of the regressions section.
const ddplusNote = "Where ddplus does not name the culprit, its patch is smaller and verified, and fails as the new version does: the failure is read from the test script's output, so a patch that breaks the client another way (it no longer compiles) is not taken for it. dd is the default.\n"

// skippedCommit is a commit wynot changes --git did not take for a
// candidate, and why.
type skippedCommit struct {
	Commit string `json:"commit"`
	Why    string `json:"why"`
}

// whySkipped counts skipped commits by their reason.
func whySkipped(s []skippedCommit) string {
	if len(s) == 0 {
		return "0"
	}
	n := map[string]int{}
	var whys []string
	for _, c := range s {
		if n[c.Why] == 0 {
			whys = append(whys, c.Why)
		}
		n[c.Why]++
	}
	parts := make([]string, len(whys))
	for i, w := range whys {
		parts[i] = fmt.Sprintf("%d %s", n[w], w)
	}
	return fmt.Sprintf("%d (%s)", len(s), strings.Join(parts, "; "))
}

// revisionTests counts the tests of revisions in a wynot changes --git
// log made to name the commit: those of the search over commits and of
// a merge's branch, not the checks of GOOD and BAD before it nor the
// search within the commit after it.
func revisionTests(log string) int {
	n := 0
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "Test #") && (strings.Contains(l, " commits): ") || strings.Contains(l, " merged branch ") || strings.Contains(l, " merge base ")) {
			n++
		}
	}
	return n
}
