package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wynot/wynot/internal/fixtures"
)

// The typed section: wynot run with the command lines people type, from
// inside a small repository or next to an input with a planted defect,
// and its answers checked by the harness, which runs the case's test
// itself on them. A case is right, refused or wrong; a test that fails
// whatever the input can only be refused.

// typedCase is one case of the typed section.
type typedCase struct {
	name, about string
	// args are wynot's arguments as typed (the harness adds --json and
	// -j after the command's name).
	args []string
	// setup writes the case into dir, the directory wynot is started in.
	setup func(dir string) (typedFixture, error)
	// path is a directory of the case put first on $PATH: a tool the
	// user has installed.
	path string
	// requires are the programs the case needs on $PATH (cargo, pytest,
	// cc): without one, the case is skipped, not measured.
	requires []string
	// verify is the test the harness runs to check an answer, in the
	// case's directory (reduce) or the tree (changes); default: the
	// command after "--" in args.
	verify []string
	// sig reads how a run of verify failed: "" when it passed.
	sig func(code int, out string) string
	// want is sig of the original input, or of the new version.
	want string
	// changes: the culprit commit's subject (--git), and a line of the
	// planted defect that the patch must hold.
	culprit, defect *regexp.Regexp
	// reduce: what the result must hold.
	trigger *regexp.Regexp
	// refuse: the test fails whatever the input; refusal is what its
	// message must say to be clear.
	refuse  bool
	refusal *regexp.Regexp
}

func (c typedCase) command() string { return c.args[0] }

// test is the command after "--", or nil (--test).
func (c typedCase) test() []string {
	if i := slices.Index(c.args, "--"); i >= 0 {
		return c.args[i+1:]
	}
	return nil
}

// outFlag is the value of -o, or "".
func (c typedCase) outFlag() string {
	if i := slices.Index(c.args, "-o"); i >= 0 && i+1 < len(c.args) {
		return c.args[i+1]
	}
	return ""
}

// input is the FILE of a reduce case: the argument before "--", or the
// last one.
func (c typedCase) input() string {
	if i := slices.Index(c.args, "--"); i > 0 {
		return c.args[i-1]
	}
	return c.args[len(c.args)-1]
}

// typedRun is what a run of wynot gave.
type typedRun struct {
	pid     int
	code    int // exit status
	cutOff  bool
	stderr  string
	stdout  []byte
	summary *typedSummary // nil: no JSON summary
	seconds float64
}

// typedSummary is what the harness reads of wynot's --json summary.
type typedSummary struct {
	Tests       int      `json:"tests"`
	Commit      string   `json:"commit"`
	Diff        string   `json:"diff"`
	Hunks       []string `json:"hunks"`
	Granularity string   `json:"granularity"`
	Confirmed   bool     `json:"confirmed"`
	Minimal     bool     `json:"minimal"`
	SizeAfter   int      `json:"size_after"`
	Unit        string   `json:"unit"`
}

// typedAnswer is what the harness found when it checked an answer
// (exit 0) itself.
type typedAnswer struct {
	result []byte // reduce: the result's content
	got    string // sig of the case's test on the result, or on the old version with the patch
	err    error  // the answer could not be checked (no result file, a patch that does not apply)
}

// verdict is a case's outcome and its note.
type verdict struct {
	outcome string // right, refused, wrong (or skipped: a tool it needs is missing; error: the harness failed)
	note    string
}

// classify decides a case's outcome from wynot's run and the harness's
// check of its answer (read only when wynot exited 0).
func classify(c typedCase, r typedRun, a typedAnswer) verdict {
	if r.cutOff {
		return verdict{"wrong", "no end: cut off"}
	}
	if r.code != 0 {
		msg, all := refusalMessage(r.stderr)
		switch {
		case msg == "":
			return verdict{"wrong", fmt.Sprintf("unclear: exit status %d without a message", r.code)}
		case r.code > 4 || strings.Contains(r.stderr, "goroutine ") || strings.HasPrefix(msg, "panic:"):
			return verdict{"wrong", fmt.Sprintf("unclear: exit status %d: %s", r.code, msg)}
		case c.refusal != nil && !c.refusal.MatchString(all):
			return verdict{"wrong", "unclear: " + msg}
		case !c.refuse && falseClaim.MatchString(msg) && !advice.MatchString(all):
			// The harness checked the claim: run as the user means it,
			// the old version passes and the new one (the original)
			// fails. Such a refusal counts only with something to do.
			return verdict{"wrong", "unclear, and not so when run as typed: " + msg}
		}
		return verdict{"refused", msg}
	}
	s := r.summary
	if s == nil {
		s = &typedSummary{}
	}
	if c.refuse {
		if c.command() == "changes" {
			return verdict{"wrong", fmt.Sprintf("answered: %s", report1(s))}
		}
		return verdict{"wrong", fmt.Sprintf("answered: a result of %s, called %s", plural(s.SizeAfter, "byte"), claims(s))}
	}
	if c.command() == "changes" {
		answer := report1(s)
		var wrong []string
		if c.culprit != nil && !c.culprit.MatchString(s.Commit) {
			wrong = append(wrong, "not the culprit commit")
		}
		if !c.defect.MatchString(s.Diff) {
			wrong = append(wrong, "the patch lacks the defect's line")
		}
		switch {
		case a.err != nil:
			wrong = append(wrong, a.err.Error())
		case a.got != c.want:
			wrong = append(wrong, fmt.Sprintf("the old version with the patch gives %s, the new one %q", quoteSig(a.got), c.want))
		}
		if wrong != nil {
			return verdict{"wrong", strings.Join(wrong, "; ") + "; " + answer}
		}
		if m := c.defect.FindString(s.Diff); m != "" { // the line that matters, not the patch's first
			answer = strings.Replace(answer, quoteResult([]byte(firstEdit(s.Diff))), quoteResult([]byte(m[:1]+strings.TrimSpace(m[1:]))), 1)
		}
		return verdict{"right", answer}
	}
	res := "an empty result"
	if len(a.result) > 0 {
		res = fmt.Sprintf("%s %s", plural(len(a.result), "byte"), quoteResult(a.result))
	}
	claim := fmt.Sprintf(" (called %s)", claims(s))
	switch {
	case a.err != nil:
		return verdict{"wrong", a.err.Error() + claim}
	case !c.trigger.Match(a.result):
		return verdict{"wrong", fmt.Sprintf("%s, without the trigger%s; it gives %s", res, claim, quoteSig(a.got))}
	case a.got != c.want:
		return verdict{"wrong", fmt.Sprintf("%s%s; it gives %s, the original %q", res, claim, quoteSig(a.got), c.want)}
	}
	return verdict{"right", res}
}

// claims says what wynot called a result.
func claims(s *typedSummary) string {
	var c []string
	if s.Minimal {
		c = append(c, "1-minimal")
	} else {
		c = append(c, "not minimal")
	}
	if s.Confirmed {
		c = append(c, "confirmed")
	} else {
		c = append(c, "not confirmed")
	}
	return strings.Join(c, " and ")
}

// report1 says in a few words what a changes summary names: the
// commit, the size of the patch and its first changed line.
func report1(s *typedSummary) string {
	gran := s.Granularity
	if gran == "" {
		gran = "changes"
	}
	if len(s.Hunks) == 1 {
		gran = strings.TrimSuffix(gran, "s")
	}
	what := fmt.Sprintf("%d %s", len(s.Hunks), gran)
	if l := firstEdit(s.Diff); l != "" {
		what += ": " + quoteResult([]byte(l))
	}
	if s.Commit != "" {
		return fmt.Sprintf("commit %q, %s", commitSubject(s.Commit), what)
	}
	return what
}

// firstEdit is the first inserted or deleted line of a diff.
func firstEdit(diff string) string {
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			return l[:1] + strings.TrimSpace(l[1:])
		}
	}
	return ""
}

// commitSubject drops the hash wynot puts before a commit's subject.
func commitSubject(c string) string {
	if h, subj, ok := strings.Cut(c, " "); ok && regexp.MustCompile(`^[0-9a-f]{7,40}$`).MatchString(h) {
		return subj
	}
	return c
}

func quoteSig(s string) string {
	if s == "" {
		return "a pass"
	}
	return strconv.Quote(s)
}

// quoteResult shows a short result whole, a longer one by its start.
func quoteResult(b []byte) string {
	s := string(b)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "`" + strings.ReplaceAll(strings.ReplaceAll(s, "\n", "⏎"), "`", "'") + "`"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// falseClaim is what a refusal of a case with a right answer may say
// that the harness found false: the old version (the good revision)
// passes, the new one (the original input) fails, as the user runs the
// test.
var falseClaim = regexp.MustCompile(`(?i)(good revision|old version|old tree|passing)\b.*\bdoes not pass|(bad revision|new version|new tree|original input|original tree)\b.*\b(does not fail|is not reproduced)`)

// advice is a flag, or "{}", or a command to type in a message.
var advice = regexp.MustCompile(`(^|[\s("'“])--?[a-zA-Z][\w-]*|\{\}|\bgo -C\b`)

// refusalMessage finds wynot's message in its standard error: the last
// line starting "wynot: " (its first line; progress lines come before
// it) and everything from there to the end.
func refusalMessage(stderr string) (first, all string) {
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(lines[i], "wynot: "); ok {
			first = strings.TrimSpace(rest)
			if strings.HasSuffix(first, ":") { // the output it quotes, indented: its last line says most
				last := ""
				for _, l := range lines[i+1:] {
					if strings.TrimSpace(l) != "" && l == strings.TrimLeft(l, " \t") {
						break
					}
					if l = strings.TrimSpace(l); l != "" {
						last = l
					}
				}
				if last != "" {
					first += " … " + last
				}
			}
			return first, strings.Join(lines[i:], "\n")
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return l, stderr
		}
	}
	return "", ""
}

// The signatures of the cases' tests: how a run failed, "" when it
// passed. Numbers are read as N, as wynot's --precision message does.

var digits = regexp.MustCompile(`[0-9]+`)

var errorLine = regexp.MustCompile(`(?im)^.*\berror\b.*$`)

// failedLine is the signature of a failure the reader does not know:
// its exit status and its first line that says "error", else its first
// line.
func failedLine(code int, out string) string {
	line := errorLine.FindString(out)
	if line == "" {
		line, _, _ = strings.Cut(strings.TrimSpace(out), "\n")
	}
	return fmt.Sprintf("exit status %d: %s", code, strings.TrimSpace(line))
}

var goTestFail = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// goTestSig: the failing tests of go test, or "build failed".
func goTestSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]") {
		return "build failed"
	}
	var names []string
	for _, m := range goTestFail.FindAllStringSubmatch(out, -1) {
		names = append(names, "--- FAIL: "+m[1])
	}
	if len(names) == 0 {
		return failedLine(code, out)
	}
	sort.Strings(names)
	return strings.Join(slices.Compact(names), ", ")
}

var vetMessage = regexp.MustCompile(`(?m)^(?:vet: )?\S+\.go:\d+:\d+: (.*)$`)

// vetSig: go vet's messages without their positions.
func vetSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	var msgs []string
	for _, m := range vetMessage.FindAllStringSubmatch(out, -1) {
		msgs = append(msgs, m[1])
	}
	if len(msgs) == 0 {
		return failedLine(code, out)
	}
	sort.Strings(msgs)
	return strings.Join(slices.Compact(msgs), "; ")
}

var checkFail = regexp.MustCompile(`(?m)^FAIL: .*$`)

// makeCheckSig: the FAIL lines of calc's self-test.
func makeCheckSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if m := checkFail.FindAllString(out, -1); m != nil {
		return digits.ReplaceAllString(strings.Join(m, "; "), "N")
	}
	return failedLine(code, out)
}

var unittestFail = regexp.MustCompile(`(?m)^(FAIL|ERROR): (\S+)`)

// unittestSig: the failing tests of python3 -m unittest.
func unittestSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	var names []string
	for _, m := range unittestFail.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1]+": "+m[2])
	}
	if len(names) == 0 {
		return failedLine(code, out)
	}
	sort.Strings(names)
	return strings.Join(slices.Compact(names), ", ")
}

var (
	cargoNotBuilt = regexp.MustCompile(`(?m)^error\[E\d+\]: |^error: could not compile`)
	cargoFail     = regexp.MustCompile(`(?m)^---- (\S+) stdout ----$`)
)

// cargoTestSig: the failing tests of cargo test, or "build failed".
func cargoTestSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if cargoNotBuilt.MatchString(out) {
		return "build failed"
	}
	var names []string
	for _, m := range cargoFail.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		return failedLine(code, out)
	}
	sort.Strings(names)
	return "failed: " + strings.Join(slices.Compact(names), ", ")
}

var pytestFailed = regexp.MustCompile(`(?m)^FAILED (\S+)`)

// pytestSig: the failing tests of pytest, or "collection error" when a
// test module did not import.
func pytestSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if strings.Contains(out, "during collection") {
		return "collection error"
	}
	var names []string
	for _, m := range pytestFailed.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		return failedLine(code, out)
	}
	sort.Strings(names)
	return "FAILED " + strings.Join(slices.Compact(names), ", ")
}

// compileError is a C compiler's or the linker's error.
var compileError = regexp.MustCompile(`(?m)^\S+:\d+:\d+: (fatal )?error: |undefined reference to |^collect2: error: `)

// ccCheckSig: the FAIL lines of a C program's self-test, or "build
// failed" when the compiler or the linker failed before it ran.
func ccCheckSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if compileError.MatchString(out) {
		return "build failed"
	}
	return makeCheckSig(code, out)
}

var rustPanic = regexp.MustCompile(`(?m)^thread '[^']*'(?: \(\d+\))? panicked at [^\n]*:\n(.*)$`)

// rustPanicSig: the panic message of a Rust program.
func rustPanicSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if m := rustPanic.FindStringSubmatch(out); m != nil {
		return "panicked: " + digits.ReplaceAllString(strings.TrimSpace(m[1]), "N")
	}
	return failedLine(code, out)
}

var goPanic = regexp.MustCompile(`(?m)^panic: .*$`)

// goPanicSig: the panic message of a Go program.
func goPanicSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if m := goPanic.FindString(out); m != "" {
		return digits.ReplaceAllString(strings.TrimSpace(m), "N")
	}
	return failedLine(code, out)
}

var pyException = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception)(?:: .*)?)$`)

// pythonSig: the exception a Python program ends with.
func pythonSig(code int, out string) string {
	if code == 0 {
		return ""
	}
	if m := pyException.FindAllString(out, -1); m != nil {
		return digits.ReplaceAllString(strings.TrimSpace(m[len(m)-1]), "N")
	}
	return failedLine(code, out)
}

// exitSig: the exit status only.
func exitSig(code int, _ string) string {
	if code == 0 {
		return ""
	}
	return fmt.Sprintf("exit %d", code)
}

// greetSig: what greet prints, unless it greets with a comma.
func greetSig(code int, out string) string {
	switch {
	case code != 0:
		return failedLine(code, out)
	case strings.Contains(out, "Hello, World"):
		return ""
	}
	return "prints " + strings.TrimSpace(out)
}

// typedEnv is the environment of wynot and of the harness's own runs of
// a case's test: the user's, with the local Go toolchain, no GOFLAGS, no
// git configuration, the C locale, and the case's tools first on $PATH.
func typedEnv(c typedCase, dir string) []string {
	env := append(os.Environ(), fixtures.Env...)
	env = append(env, "LC_ALL=C", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if c.path != "" {
		env = append(env, "PATH="+filepath.Join(dir, c.path)+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	return env
}

// runGroup runs cmd in a process group of its own, killed as a whole
// when it ends or after limit; it returns the exit status (-1: it did
// not start or was cut off) and the combined output.
func runGroup(cmd *exec.Cmd, limit time.Duration) (int, string, error) {
	var out bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &out
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return -1, "", err
	}
	pgid := cmd.Process.Pid
	timer := time.AfterFunc(limit, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	err := cmd.Wait()
	cut := !timer.Stop()
	syscall.Kill(-pgid, syscall.SIGKILL) // what the test left behind in its group
	if cut {
		return -1, out.String(), fmt.Errorf("cut off after %v", limit)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return -1, out.String(), err
	}
	return cmd.ProcessState.ExitCode(), out.String(), nil
}

// testLimit bounds each of the harness's own runs of a case's test.
const testLimit = 2 * time.Minute

// runVerify runs the case's test in dir as the user means it: with the
// input named by "{}" (a copy under work) or on standard input (reduce),
// or in a tree (changes: "{}" is the tree). It returns the test's
// signature.
func runVerify(c typedCase, caseDir, dir, work string, input []byte) (string, error) {
	argv := slices.Clone(c.verify)
	if argv == nil {
		argv = slices.Clone(c.test())
	}
	cmd := &exec.Cmd{}
	if c.command() == "reduce" {
		if slices.ContainsFunc(argv, func(a string) bool { return strings.Contains(a, "{}") }) {
			tmp, err := os.MkdirTemp(work, "input-")
			if err != nil {
				return "", err
			}
			defer os.RemoveAll(tmp)
			f := filepath.Join(tmp, filepath.Base(c.input()))
			if err := os.WriteFile(f, input, 0o644); err != nil {
				return "", err
			}
			for i := range argv {
				argv[i] = strings.ReplaceAll(argv[i], "{}", f)
			}
		} else {
			cmd.Stdin = bytes.NewReader(input)
		}
	} else {
		for i := range argv {
			argv[i] = strings.ReplaceAll(argv[i], "{}", dir)
		}
	}
	cmd.Args = argv
	cmd.Dir = dir
	cmd.Env = typedEnv(c, caseDir)
	if !strings.Contains(argv[0], "/") { // found on the test's $PATH, the case's tools first
		path := os.Getenv("PATH")
		if c.path != "" {
			path = filepath.Join(caseDir, c.path) + string(os.PathListSeparator) + path
		}
		cmd.Path = lookPathIn(argv[0], path)
	} else {
		cmd.Path = argv[0] // relative to Dir
	}
	code, out, err := runGroup(cmd, testLimit)
	if err != nil {
		return "", fmt.Errorf("running %s: %v", strings.Join(argv, " "), err)
	}
	return c.sig(code, out), nil
}

// missingTools are the programs of c.requires not found on $PATH.
func missingTools(c typedCase) []string {
	var missing []string
	for _, t := range c.requires {
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
		}
	}
	return missing
}

// lookPathIn finds an executable name in the directories of path.
func lookPathIn(name, path string) string {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return name
}

// exportTree writes the tree of a version of the case into dst: a git
// revision of the case's repository, or a copy of its directory.
func exportTree(caseDir string, fx typedFixture, version, dst string) error {
	if !fx.git {
		out, err := exec.Command("cp", "-a", filepath.Join(caseDir, version), dst).CombinedOutput()
		if err != nil {
			return fmt.Errorf("copying %s: %v: %s", version, err, out)
		}
		return nil
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	tar := dst + ".tar"
	defer os.Remove(tar)
	if _, err := fixtures.Git(caseDir, "archive", "--format=tar", "-o", tar, version); err != nil {
		return err
	}
	if out, err := exec.Command("tar", "-xf", tar, "-C", dst).CombinedOutput(); err != nil {
		return fmt.Errorf("tar: %v: %s", err, out)
	}
	return nil
}

// typedRow is a line of the section's table.
type typedRow struct {
	c       typedCase
	v       verdict
	code    int
	tests   string
	seconds float64
}

// runTyped runs one case with wynot and checks its answer.
// With logDir, wynot's standard output and error go to
// logDir/CASE.stdout and CASE.stderr.
func runTyped(c typedCase, work, wynot, logDir string, jobs int, limit time.Duration) typedRow {
	row := typedRow{c: c, tests: "—"}
	fail := func(err error) typedRow {
		row.v = verdict{"error", "harness: " + err.Error()}
		return row
	}
	if missing := missingTools(c); missing != nil {
		row.v = verdict{"skipped", "not measured: no " + strings.Join(missing, ", no ") + " on $PATH"}
		return row
	}
	base, err := os.MkdirTemp(work, c.name+"-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, "case")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fail(err)
	}
	fx, err := c.setup(dir)
	if err != nil {
		return fail(fmt.Errorf("setup: %v", err))
	}

	// The fixture's own check: the new version or the original input
	// fails as the case says, the old version passes.
	var original []byte
	if !c.refuse {
		if c.command() == "changes" {
			for _, v := range []struct {
				version, want string
			}{{fx.new, c.want}, {fx.old, ""}} {
				tree := filepath.Join(base, "check-"+filepath.Base(v.version))
				if err := exportTree(dir, fx, v.version, tree); err != nil {
					return fail(err)
				}
				got, err := runVerify(c, dir, tree, base, nil)
				os.RemoveAll(tree)
				if err != nil {
					return fail(err)
				}
				if got != v.want {
					return fail(fmt.Errorf("fixture: %s gives %s, not %s", v.version, quoteSig(got), quoteSig(v.want)))
				}
			}
		} else {
			if original, err = os.ReadFile(filepath.Join(dir, c.input())); err != nil {
				return fail(err)
			}
			got, err := runVerify(c, dir, dir, base, original)
			if err != nil {
				return fail(err)
			}
			if got != c.want {
				return fail(fmt.Errorf("fixture: the original gives %s, not %q", quoteSig(got), c.want))
			}
		}
	}

	r := runWynot(c, dir, wynot, jobs, limit)
	r.stderr = strings.ReplaceAll(r.stderr, dir, "$CASE") // the case's place, the same on every run
	keepLog(logDir, c.name, r.stdout, []byte(r.stderr))
	row.code, row.seconds = r.code, r.seconds
	if r.summary != nil {
		row.tests = strconv.Itoa(r.summary.Tests)
	}
	var a typedAnswer
	if r.code == 0 && !r.cutOff && !c.refuse {
		a = checkAnswer(c, dir, base, fx, r.summary)
	}
	row.v = classify(c, r, a)
	if left := leftovers(dir, r.pid); left != "" {
		row.v.note += "; " + left
	}
	return row
}

// checkAnswer runs the case's test on wynot's answer.
func checkAnswer(c typedCase, dir, base string, fx typedFixture, s *typedSummary) typedAnswer {
	var a typedAnswer
	if c.command() == "changes" {
		if s == nil || s.Diff == "" {
			a.err = errors.New("no patch in the summary")
			return a
		}
		files, err := parseDiff(s.Diff)
		if err != nil {
			a.err = fmt.Errorf("the patch: %v", err)
			return a
		}
		old := filepath.Join(base, "old")
		tree := filepath.Join(base, "patched")
		if err := exportTree(dir, fx, fx.old, old); err != nil {
			a.err = err
			return a
		}
		if err := exportTree(dir, fx, fx.old, tree); err != nil {
			a.err = err
			return a
		}
		if err := applyWithout(old, tree, files, nil, -1); err != nil {
			a.err = fmt.Errorf("the patch does not apply to the old version: %v", err)
			return a
		}
		a.got, a.err = runVerify(c, dir, tree, base, nil)
		return a
	}
	out := c.outFlag()
	if out == "" {
		out = c.input()
	}
	if a.result, a.err = os.ReadFile(filepath.Join(dir, out)); a.err != nil {
		a.err = fmt.Errorf("no result: %v", a.err)
		return a
	}
	a.got, a.err = runVerify(c, dir, dir, base, a.result)
	return a
}

// runWynot runs wynot with the case's arguments (and --json, -j) in dir,
// interrupted after limit (killed 30 s later if it does not stop).
func runWynot(c typedCase, dir, wynot string, jobs int, limit time.Duration) typedRun {
	args := append([]string{c.args[0], "--json", "-j", strconv.Itoa(jobs)}, c.args[1:]...)
	cmd := exec.Command(wynot, args...)
	cmd.Dir = dir
	cmd.Env = typedEnv(c, dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	t0 := time.Now()
	r := typedRun{code: -1}
	if err := cmd.Start(); err != nil {
		r.stderr = err.Error()
		return r
	}
	r.pid = cmd.Process.Pid
	var cut atomic.Bool
	var mu sync.Mutex
	var kill *time.Timer
	timer := time.AfterFunc(limit, func() {
		cut.Store(true)
		syscall.Kill(r.pid, syscall.SIGINT)
		mu.Lock()
		kill = time.AfterFunc(30*time.Second, func() { syscall.Kill(-r.pid, syscall.SIGKILL) })
		mu.Unlock()
	})
	cmd.Wait()
	timer.Stop()
	mu.Lock()
	if kill != nil {
		kill.Stop()
	}
	mu.Unlock()
	syscall.Kill(-r.pid, syscall.SIGKILL) // anything left in its group
	r.cutOff = cut.Load()
	r.seconds = time.Since(t0).Seconds()
	r.code = cmd.ProcessState.ExitCode()
	r.stderr, r.stdout = stderr.String(), stdout.Bytes()
	var s typedSummary
	if json.Unmarshal(stdout.Bytes(), &s) == nil {
		r.summary = &s
	}
	return r
}

// leftovers finds what a run of wynot (process pid, started in dir)
// left behind: processes of its tests (tagged WYNOT_TEST_ID=pid-N) or
// working in dir, and its temporary folders. It kills and removes them
// and says what it found ("" when nothing).
func leftovers(dir string, pid int) string {
	var found []string
	scan := func() map[int]string {
		procs, _ := filepath.Glob("/proc/[0-9]*")
		tag := []byte(fmt.Sprintf("WYNOT_TEST_ID=%d-", pid))
		out := map[int]string{}
		for _, p := range procs {
			n, err := strconv.Atoi(filepath.Base(p))
			if err != nil || n == os.Getpid() {
				continue
			}
			env, _ := os.ReadFile(filepath.Join(p, "environ"))
			cwd, _ := os.Readlink(filepath.Join(p, "cwd"))
			if pid > 0 && bytes.Contains(env, tag) || cwd == dir || strings.HasPrefix(cwd, dir+"/") {
				comm, _ := os.ReadFile(filepath.Join(p, "comm"))
				out[n] = strings.TrimSpace(string(comm))
			}
		}
		return out
	}
	// A process killed as wynot exits may not have ended yet: only
	// one still there a second later is left behind.
	if first := scan(); len(first) > 0 {
		time.Sleep(time.Second)
		var ns []int
		for n, comm := range scan() {
			if first[n] == comm {
				ns = append(ns, n)
				syscall.Kill(n, syscall.SIGKILL)
			}
		}
		sort.Ints(ns)
		for _, n := range ns {
			found = append(found, fmt.Sprintf("process %d (%s)", n, first[n]))
		}
	}
	if pid > 0 {
		for _, tmp := range []string{"/dev/shm", os.TempDir()} {
			dirs, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("wynot-%d-*", pid)))
			for _, d := range dirs {
				found = append(found, "folder "+d)
				os.RemoveAll(d)
			}
		}
	}
	if found == nil {
		return ""
	}
	return "left behind: " + strings.Join(found, ", ")
}

// typedSection runs the typed cases (all, or those named in casesFlag)
// one after the other with wynot -j jobs.
func typedSection(work, wynot, casesFlag, logDir string, jobs int, limit time.Duration) string {
	var rows []typedRow
	for _, c := range typedCases() {
		if casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), c.name) {
			continue
		}
		r := runTyped(c, work, wynot, logDir, jobs, limit)
		fmt.Printf("typed %-24s %-8s exit %3d %4s tests %6.1fs  %s\n", c.name, r.v.outcome, r.code, r.tests, r.seconds, r.v.note)
		rows = append(rows, r)
	}
	return typedTable(rows, describeWynot(wynot), jobs, limit)
}

// describeWynot says which wynot a binary is: the revision it was built
// from, when the binary says, else its path.
func describeWynot(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	info, err := buildinfo.ReadFile(real)
	if err != nil {
		return "`" + real + "`"
	}
	rev, modified := "", ""
	for _, st := range info.Settings {
		switch st.Key {
		case "vcs.revision":
			rev = st.Value
		case "vcs.modified":
			if st.Value == "true" {
				modified = ", with uncommitted changes"
			}
		}
	}
	if rev == "" {
		return fmt.Sprintf("`%s` (%s, no revision recorded)", real, info.GoVersion)
	}
	return fmt.Sprintf("`%s`, built from %s%s", real, rev[:min(12, len(rev))], modified)
}

// typedTable writes the section.
func typedTable(rows []typedRow, describe string, jobs int, limit time.Duration) string {
	var b strings.Builder
	b.WriteString("## Tests as people type them\n\n")
	fmt.Fprintf(&b, "wynot measured: %s.\n\n", describe)
	fmt.Fprintf(&b, "Each case is a small repository or input with a planted defect, written by the harness into a temporary directory (`bench/harness/typed_cases.go`); wynot is started in that directory with the command line a user types there (the harness adds only `--json -j %d`), and cut off after %v. The harness then checks the answer by running the case's test itself, as the user means it (in the repository, on the input): **right** is exit status 0 and, for `changes`, the culprit commit named, the planted defect's line in the patch, and the old version with the patch failing as the new version does (the same failing test, vet finding, check or output: not a build break); for `reduce`, a result that holds the planted trigger and fails the same way as the original (the same panic or exception, numbers aside). **refused** is a non-zero exit status with a message, whose first line is quoted. **wrong** is exit status 0 with an answer that is not right, or a refusal without a message or with an unclear one (for the tests that fail whatever the input, one that does not say so), or no end in time. A test that fails whatever the input can only be refused. A case whose tools (cargo, pytest, cc) are not installed is **skipped**.\n\n", jobs, limit)
	count := map[string]int{}
	for _, r := range rows {
		fmt.Fprintf(&b, "- **%s**: %s\n", r.c.name, r.c.about)
		count[r.v.outcome]++
	}
	b.WriteString("\n| case | command typed | outcome | exit | tests | seconds | note |\n|---|---|---|---:|---:|---:|---|\n")
	for _, r := range rows {
		code := strconv.Itoa(r.code)
		if r.code < 0 {
			code = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.1f | %s |\n", r.c.name, mdCode("wynot "+shellJoin(r.c.args)), r.v.outcome, code, r.tests, r.seconds, mdEscape(r.v.note))
	}
	fmt.Fprintf(&b, "\nIn all: %d right, %d refused, %d wrong", count["right"], count["refused"], count["wrong"])
	if count["skipped"] > 0 {
		fmt.Fprintf(&b, ", %d skipped (a tool they need is not installed)", count["skipped"])
	}
	if count["error"] > 0 {
		fmt.Fprintf(&b, ", %d not measured (the harness failed)", count["error"])
	}
	fmt.Fprintf(&b, " of %d cases.\n\n", len(rows))
	return b.String()
}

// shellJoin writes argv as a user types it in sh.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && regexp.MustCompile(`^[-\w./{}=:,+@%]+$`).MatchString(a) {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// mdCode puts s in a Markdown code span of a table cell.
func mdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	s = strings.ReplaceAll(s, "|", "\\|")
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdEscape keeps s on one table cell.
func mdEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

// keepLog writes a run's standard output and error to dir/name.stdout
// and name.stderr when dir is set (-typedlog).
func keepLog(dir, name string, stdout, stderr []byte) {
	if dir == "" {
		return
	}
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, name+".stdout"), stdout, 0o644)
	os.WriteFile(filepath.Join(dir, name+".stderr"), stderr, 0o644)
}
