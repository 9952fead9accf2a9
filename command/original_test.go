package command

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wynot/wynot/runner"
)

// TestJudgeOriginal: the decision about the original, on made-up runs
// (no process runs): when the failure reproduces, when it calls for more
// runs, and the error of each way it does not.
func TestJudgeOriginal(t *testing.T) {
	panicRun := runner.Run{Exit: 2, Stderr: []byte("panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:5 +0x1\nexit status 2\n")}
	otherPanic := runner.Run{Exit: 2, Stderr: []byte("panic: other\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:9 +0x1\n")}
	clean := runner.Run{Stdout: []byte("ok\n")}
	hung := runner.Run{Exit: -1, TimedOut: true, Duration: time.Second}
	notSetUp := runner.Run{Exit: 1, Stderr: []byte("go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n")}
	scriptFail := runner.Run{Exit: 1}
	n := func(r runner.Run, k int) []runner.Run {
		out := make([]runner.Run, k)
		for i := range out {
			out[i] = r
		}
		return out
	}
	obs := runner.Observation{Stdout: true, Stderr: true, Exit: true}
	for _, c := range []struct {
		name  string
		st    Test
		runs  []runner.Run
		fails int    // when reproduced
		more  bool   // more runs are called for
		err   string // a part of the error, when not reproduced
	}{
		{name: "fails twice", runs: n(panicRun, 2), fails: 2},
		{name: "passes twice", runs: n(clean, 2), err: "does not fail"},
		{name: "fails then passes: asked again", runs: []runner.Run{panicRun, clean}, more: true},
		{name: "passes then fails: asked again", runs: []runner.Run{clean, panicRun}, more: true},
		{name: "four of five", runs: append(n(panicRun, 4), clean), fails: 4},
		{name: "three of five", runs: append(n(panicRun, 3), clean, clean), err: "failed in 3 of 5 runs"},
		{name: "two ways of failing, then asked", runs: []runner.Run{panicRun, otherPanic}, more: true},
		{name: "--repeat 1 asks no more", st: Test{Repeat: 1}, runs: []runner.Run{panicRun, clean}, err: "run twice, the original input first gave FAIL, then PASS"},
		{name: "hung twice is not asked again", runs: n(hung, 2), fails: 2},
		{name: "fails before anything is built", runs: n(notSetUp, 2), err: "fails before anything is built or tested"},
		{name: "--fail-on matches", st: Test{FailOn: regexp.MustCompile("boom")}, runs: n(panicRun, 2), fails: 2},
		{name: "--fail-on does not match", st: Test{FailOn: regexp.MustCompile("nothing")}, runs: n(panicRun, 2), more: true},
		{name: "--fail-on does not match, asked", st: Test{FailOn: regexp.MustCompile("nothing")}, runs: n(panicRun, 5), err: "its output does not match"},
		{name: "two messages under --repeat 1", st: Test{Repeat: 1}, runs: []runner.Run{panicRun, otherPanic}, err: "run twice"},
		{name: "a creduce script that exits 1", st: Test{Script: "t.sh", Convention: runner.CReduce, Repeat: 1}, runs: n(scriptFail, 2), err: "give --convention bisect"},
		{name: "a bisect script that exits 1", st: Test{Script: "t.sh", Convention: runner.Bisect}, runs: n(scriptFail, 2), fails: 2},
		{name: "an output that changes", st: Test{Reproduce: &obs}, runs: []runner.Run{panicRun, otherPanic}, more: true},
		{name: "an output that changes once in five", st: Test{Reproduce: &obs}, runs: append(n(panicRun, 4), otherPanic), fails: 4},
		{name: "an output that changes twice in five", st: Test{Reproduce: &obs}, runs: append(n(panicRun, 3), otherPanic, otherPanic), err: "output is not deterministic"},
	} {
		if c.st.Precision == runner.Exit {
			c.st.Precision = runner.Message // the flag's default
		}
		f := originalFacts{settings: c.st, what: "original input", timeout: time.Second}
		j := judgeOriginal(c.runs, f, DefaultCertainty)
		switch {
		case c.err != "":
			if j.err == nil || !strings.Contains(j.err.Error(), c.err) {
				t.Errorf("%s: %+v, want an error with %q", c.name, j, c.err)
			} else if ExitCode(j.err) != ExitNotReproduced {
				t.Errorf("%s: exit %d", c.name, ExitCode(j.err))
			}
		case c.more:
			if !j.more || j.err != nil {
				t.Errorf("%s: %+v, want more runs", c.name, j)
			}
		default:
			if j.err != nil || j.more || j.oracle == nil || j.fails != c.fails {
				t.Errorf("%s: %+v (%v), want reproduced in %d runs", c.name, j, j.err, c.fails)
			}
		}
	}
}

// TestJudgeOriginalExitPrecision: under --precision exit, two panics
// with different messages and one exit status are one failure.
func TestJudgeOriginalExitPrecision(t *testing.T) {
	a := runner.Run{Exit: 2, Stderr: []byte("panic: boom\n")}
	b := runner.Run{Exit: 2, Stderr: []byte("panic: other\n")}
	f := originalFacts{settings: Test{Precision: runner.Exit}, what: "original input"}
	if j := judgeOriginal([]runner.Run{a, b}, f, DefaultCertainty); j.err != nil || j.fails != 2 {
		t.Errorf("%+v", j)
	}
}

// TestJudgeOriginalPolicy: the policy's numbers are the ones that
// decide (three runs first, reproduced in two of five).
func TestJudgeOriginalPolicy(t *testing.T) {
	panicRun := runner.Run{Exit: 2, Stderr: []byte("panic: boom\n")}
	clean := runner.Run{}
	c := DefaultCertainty
	c.OriginalRuns, c.OriginalRetry, c.ReproducedIf = 3, 2, 2
	f := originalFacts{what: "original input"}
	if j := judgeOriginal([]runner.Run{panicRun, clean, clean}, f, c); !j.more {
		t.Errorf("3 runs, 1 failing: %+v, want more", j)
	}
	if j := judgeOriginal([]runner.Run{panicRun, clean, clean, panicRun, clean}, f, c); j.err != nil || j.fails != 2 {
		t.Errorf("2 of 5 failing, reproduced from 2: %+v", j)
	}
}

// TestCalibrate: ten times the slowest run, between one second and five
// minutes.
func TestCalibrate(t *testing.T) {
	for _, c := range []struct {
		d    []time.Duration
		want time.Duration
	}{
		{[]time.Duration{10 * time.Millisecond, 20 * time.Millisecond}, time.Second},
		{[]time.Duration{300 * time.Millisecond, 1234 * time.Millisecond}, 12300 * time.Millisecond},
		{[]time.Duration{time.Minute, time.Second}, 300 * time.Second},
	} {
		var runs []runner.Run
		for _, d := range c.d {
			runs = append(runs, runner.Run{Duration: d})
		}
		if got := calibrate(runs, DefaultCertainty); got != c.want {
			t.Errorf("calibrate(%v) = %s, want %s", c.d, got, c.want)
		}
	}
}
