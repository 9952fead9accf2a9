package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestClassify decides made-up runs of wynot on a changes case, a
// reduce case and a test that fails whatever the input.
func TestClassify(t *testing.T) {
	changes := typedCase{
		args:    []string{"changes", "--git", "v1", "v2", "--", "go", "test", "./..."},
		want:    "--- FAIL: TestMaxNegative",
		culprit: regexp.MustCompile(`stats: Max`),
		defect:  regexp.MustCompile(`(?m)^\+\s*m := 0\s*$`),
	}
	reduce := typedCase{
		args:    []string{"reduce", "-o", "g.out", "g.conf", "--", "go", "run", "./cmd/kvcat"},
		want:    "panic: runtime error: index out of range [N] with length N",
		trigger: regexp.MustCompile(`listen`),
	}
	always := typedCase{
		args:    []string{"reduce", "-o", "f.out", "m.conf", "--", "false"},
		refuse:  true,
		refusal: alwaysFails,
	}
	patch := "diff --git a/stats/stats.go b/stats/stats.go\n--- a/stats/stats.go\n+++ b/stats/stats.go\n@@ -3,3 +3,3 @@\n func Max(xs []int) int {\n-\tm := xs[0]\n+\tm := 0\n"
	breaks := "diff --git a/stats/stats.go b/stats/stats.go\n--- a/stats/stats.go\n+++ b/stats/stats.go\n@@ -3,3 +3,2 @@\n func Max(xs []int) int {\n-\tm := xs[0]\n"
	named := &typedSummary{Commit: "9eaa0ac65ba2 stats: Max and Min share their loop", Diff: patch, Hunks: []string{"stats/stats.go:4-4"}, Granularity: "line edits"}
	other := &typedSummary{Commit: "0123abcd4567 README: note 3", Diff: patch, Hunks: []string{"stats/stats.go:4-4"}, Granularity: "line edits"}
	buildBreak := &typedSummary{Commit: named.Commit, Diff: breaks, Hunks: []string{"stats/stats.go:4-4"}, Granularity: "line edits"}
	for _, tc := range []struct {
		name    string
		c       typedCase
		r       typedRun
		a       typedAnswer
		outcome string
		note    string // a part of the note
	}{
		{"changes right", changes, typedRun{summary: named}, typedAnswer{got: "--- FAIL: TestMaxNegative"}, "right", `commit "stats: Max and Min share their loop", 1 line edit: ` + "`+m := 0`"},
		{"changes wrong commit", changes, typedRun{summary: other}, typedAnswer{got: "--- FAIL: TestMaxNegative"}, "wrong", "not the culprit commit"},
		{"changes build break", changes, typedRun{summary: buildBreak}, typedAnswer{got: "build failed"}, "wrong", `the patch lacks the defect's line; the old version with the patch gives "build failed"`},
		{"changes another failure", changes, typedRun{summary: named}, typedAnswer{got: "--- FAIL: TestMax"}, "wrong", `gives "--- FAIL: TestMax", the new one`},
		{"changes patch does not apply", changes, typedRun{summary: named}, typedAnswer{err: errString("the patch does not apply")}, "wrong", "the patch does not apply"},
		{"changes refused with a flag", changes, typedRun{code: 2, stderr: "wynot: 20 commits\nwynot: the good revision v1 does not pass: go.mod not found; give the module with -C DIR\n"}, typedAnswer{}, "refused", "the good revision v1 does not pass: go.mod not found; give the module with -C DIR"},
		{"changes refused, false and nothing to do", changes, typedRun{code: 2, stderr: "wynot: the good revision v1 does not pass (FAIL): exit status 1; its output ends:\n    # x\n    directory outside main module\n\n"}, typedAnswer{}, "wrong", "unclear, and not so when run as typed: the good revision v1 does not pass (FAIL): exit status 1; its output ends: … directory outside main module"},
		{"changes refused for a reason", changes, typedRun{code: 3, stderr: "wynot: progress\nwynot: no patch failed again: the test is flaky\n"}, typedAnswer{}, "refused", "no patch failed again: the test is flaky"},
		{"no message", changes, typedRun{code: 1}, typedAnswer{}, "wrong", "unclear: exit status 1 without a message"},
		{"wynot panics", changes, typedRun{code: 2, stderr: "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n"}, typedAnswer{}, "wrong", "unclear: exit status 2: panic: runtime error"},
		{"cut off", changes, typedRun{code: 130, cutOff: true}, typedAnswer{}, "wrong", "no end"},
		{"reduce right", reduce, typedRun{summary: &typedSummary{SizeAfter: 7}}, typedAnswer{result: []byte("listen=\n"), got: "panic: runtime error: index out of range [N] with length N"}, "right", "8 bytes `listen=⏎`"},
		{"reduce empty result", reduce, typedRun{summary: &typedSummary{Minimal: true}}, typedAnswer{result: nil, got: ""}, "wrong", "an empty result, without the trigger (called 1-minimal and not confirmed); it gives a pass"},
		{"reduce another panic", reduce, typedRun{summary: &typedSummary{}}, typedAnswer{result: []byte("listen\n"), got: "panic: nil map"}, "wrong", `7 bytes ` + "`listen⏎`" + ` (called not minimal and not confirmed); it gives "panic: nil map"`},
		{"reduce no result file", reduce, typedRun{summary: &typedSummary{}}, typedAnswer{err: errString("no result: open g.out: no such file")}, "wrong", "no result"},
		{"always fails answered", always, typedRun{summary: &typedSummary{Minimal: true, Confirmed: true}}, typedAnswer{}, "wrong", "answered: a result of 0 bytes, called 1-minimal and confirmed"},
		{"always fails refused", always, typedRun{code: 2, stderr: "wynot: the original input fails: exit status 1\nwynot: the empty input fails too (exit status 1): the failure does not depend on the input; state it with --fail-on REGEX\n"}, typedAnswer{}, "refused", "the empty input fails too"},
		{"always fails, refused: no input tells it", always, typedRun{code: 4, stderr: "wynot: the empty input fails as the original input does: the test always fails\n"}, typedAnswer{}, "refused", "the empty input fails as the original input does: the test always fails"},
		{"always fails, unclear", always, typedRun{code: 2, stderr: "wynot: something went wrong\n"}, typedAnswer{}, "wrong", "unclear: something went wrong"},
	} {
		v := classify(tc.c, tc.r, tc.a)
		if v.outcome != tc.outcome || !strings.Contains(v.note, tc.note) {
			t.Errorf("%s: got %s (%s), want %s (… %s …)", tc.name, v.outcome, v.note, tc.outcome, tc.note)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestSignatures reads the outputs of the cases' tests as they fail.
func TestSignatures(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  func(int, string) string
		code int
		out  string
		want string
	}{
		{"go test passes", goTestSig, 0, "ok  \texample.com/stats/stats\t0.002s\n", ""},
		{"go test fails", goTestSig, 1, "--- FAIL: TestMaxNegative (0.00s)\n    stats_test.go:13: Max(-3, -1, -2) = 0, want -1\nFAIL\nFAIL\texample.com/stats/stats\t0.002s\nFAIL\n", "--- FAIL: TestMaxNegative"},
		{"go test subtests", goTestSig, 1, "--- FAIL: TestB (0.00s)\n    --- FAIL: TestB/x (0.00s)\n--- FAIL: TestA (0.00s)\n", "--- FAIL: TestA, --- FAIL: TestB, --- FAIL: TestB/x"},
		{"go test does not build", goTestSig, 1, "# example.com/stats/stats\nstats/stats.go:6:19: undefined: m\nFAIL\texample.com/stats/stats [build failed]\nFAIL\n", "build failed"},
		{"go test outside a module", goTestSig, 1, "go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n", "exit status 1: go: go.mod file not found in current directory or any parent directory; see 'go help modules'"},
		{"vet finding", vetSig, 1, "# example.com/tally/cmd/tally\n# [example.com/tally/cmd/tally]\ncmd/tally/main.go:36:3: fmt.Printf format %d has arg share of wrong type string\n", "fmt.Printf format %d has arg share of wrong type string"},
		{"vet type error", vetSig, 1, "# example.com/tally/cmd/tally\nvet: cmd/tally/main.go:35:12: undefined: total\n", "undefined: total"},
		{"make check", makeCheckSig, 2, "cc -O0 -Wall -o calc main.c calc.c\n./calc test\nFAIL: mean(2, 4, 6) = 3, want 4\nmake: *** [Makefile:8: check] Error 1\n", "FAIL: mean(N, N, N) = N, want N"},
		{"make does not build", makeCheckSig, 2, "cc -O0 -Wall -o calc main.c calc.c\nmain.c:22:3: error: implicit declaration of function 'mean'\nmake: *** [Makefile:5: calc] Error 1\n", "exit status 2: main.c:22:3: error: implicit declaration of function 'mean'"},
		{"unittest", unittestSig, 1, "..F\n======================================================================\nFAIL: test_count_double_space (test_textstats.TextStatsTest.test_count_double_space)\n", "FAIL: test_count_double_space"},
		{"unittest import", unittestSig, 1, "E\n======================================================================\nERROR: test_textstats (unittest.loader._FailedTest.test_textstats)\nImportError: cannot import name 'word_count'\n", "ERROR: test_textstats"},
		{"go panic", goPanicSig, 2, "panic: runtime error: index out of range [1] with length 1\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:31 +0x1b3\nexit status 2\n", "panic: runtime error: index out of range [N] with length N"},
		{"python", pythonSig, 1, "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nTypeError: unsupported operand type(s) for +: 'float' and 'str'\n", "TypeError: unsupported operand type(s) for +: 'float' and 'str'"},
		{"python json", pythonSig, 1, "Traceback (most recent call last):\n    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n", "json.decoder.JSONDecodeError: Expecting value: line N column N (char N)"},
		{"python exits", pythonSig, 1, "summarize: no header item;qty;price\n", "exit status 1: summarize: no header item;qty;price"},
		{"exit", exitSig, 1, "", "exit 1"},
		{"greet", greetSig, 0, "Hello World!\n", "prints Hello World!"},
		{"greet passes", greetSig, 0, "Hello, World!\n", ""},
		{"cargo test fails", cargoTestSig, 101, "running 9 tests\ntest tests::max_negative ... FAILED\n\nfailures:\n\n---- tests::max_negative stdout ----\n\nthread 'tests::max_negative' (23126) panicked at src/lib.rs:43:9:\nassertion `left == right` failed\n\nfailures:\n    tests::max_negative\n\ntest result: FAILED. 8 passed; 1 failed\n\nerror: test failed, to rerun pass `--lib`\n", "failed: tests::max_negative"},
		{"cc link error", ccCheckSig, 1, "t.c: In function 'expect':\nt.c:9:20: warning: implicit declaration of function 'duration_seconds'\n/usr/bin/ld: /tmp/cc7xQ2.o: in function `expect':\nt.c:(.text+0x18): undefined reference to `duration_seconds'\ncollect2: error: ld returned 1 exit status\n", "build failed"},
		{"cc self-test", ccCheckSig, 1, "FAIL: duration_seconds(\"-5m\") = -300, want -1\n", `FAIL: duration_seconds("-Nm") = -N, want -N`},
	} {
		if got := tc.sig(tc.code, tc.out); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestToolSignatures reads the real outputs of failing runs that the
// runner's tests keep (runner/testdata/tools) as the cases' tests do.
func TestToolSignatures(t *testing.T) {
	for _, tc := range []struct {
		file string
		sig  func(int, string) string
		want string
	}{
		{"cargo-build", cargoTestSig, "build failed"},
		{"cargo-fail", cargoTestSig, "failed: tests::test_mx"},
		{"cargo-run-panic", rustPanicSig, "panicked: index out of bounds: the len is N but the index is N"},
		{"pytest-fail", pytestSig, "FAILED test_mylib.py::test_mx"},
		{"pytest-q", pytestSig, "collection error"},
		{"pytest-collect", pytestSig, "collection error"},
		{"make-build", ccCheckSig, "build failed"},
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", "runner", "testdata", "tools", tc.file+".out"))
		if err != nil {
			t.Fatal(err)
		}
		first, out, _ := strings.Cut(string(data), "\n")
		code, err := strconv.Atoi(strings.TrimPrefix(first, "# exit status "))
		if err != nil {
			t.Fatalf("%s: first line %q", tc.file, first)
		}
		if got := tc.sig(code, out); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestTypedCases checks what the harness reads of each case's command
// line.
func TestTypedCases(t *testing.T) {
	names := map[string]bool{}
	for _, c := range typedCases() {
		if names[c.name] {
			t.Errorf("two cases %s", c.name)
		}
		names[c.name] = true
		switch {
		case c.command() != "changes" && c.command() != "reduce":
			t.Errorf("%s: command %s", c.name, c.command())
		case c.refuse && c.refusal == nil:
			t.Errorf("%s: a test that always fails needs what its refusal says", c.name)
		case !c.refuse && (c.sig == nil || c.want == "" || c.test() == nil):
			t.Errorf("%s: no test, signature or failure to check an answer by", c.name)
		case !c.refuse && c.command() == "changes" && c.defect == nil:
			t.Errorf("%s: no defect", c.name)
		case !c.refuse && c.command() == "reduce" && (c.trigger == nil || c.outFlag() == ""):
			t.Errorf("%s: no trigger or no -o", c.name)
		}
	}
	missing := typedCase{name: "missing", args: []string{"changes", "old", "new", "--", "no-such-tool"}, requires: []string{"sh", "no-such-tool"}}
	if r := runTyped(missing, t.TempDir(), "wynot", "", 1, time.Second); r.v.outcome != "skipped" || !strings.Contains(r.v.note, "no no-such-tool on $PATH") {
		t.Errorf("a case without its tool: %s (%s), want skipped", r.v.outcome, r.v.note)
	}
	if len(names) < 12 {
		t.Errorf("%d cases, want at least 12", len(names))
	}
	c := typedCases()[0]
	if got, want := shellJoin(append(c.args[:len(c.args):len(c.args)], "sh", "-c", `grep -q "it's" {}`)), `changes --git v1 v2 -- go test ./... sh -c 'grep -q "it'\''s" {}'`; got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
	if got, want := mdCode("a | b `c`"), "`` a \\| b `c` ``"; got != want {
		t.Errorf("mdCode = %s, want %s", got, want)
	}
	if got, want := mdCode("a b"), "`a b`"; got != want {
		t.Errorf("mdCode = %s, want %s", got, want)
	}
}

// TestLeftovers finds and kills a process left working in a case's
// directory.
func TestLeftovers(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sleep", "60")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if got := leftovers(dir, 0); !strings.Contains(got, "(sleep)") {
		t.Errorf("leftovers = %q, want the sleep", got)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the leftover was not killed")
	}
	if got := leftovers(dir, 0); got != "" {
		t.Errorf("then leftovers = %q, want nothing", got)
	}
}
