package runner

import (
	"regexp"
	"testing"

	"github.com/wynot/wynot/dd"
)

// TestOutputOracle: reproducing the reference output fails (the
// behavior is still there); another output passes; a crash the
// reference did not have, or a hang, is unresolved. The addresses of a
// Go traceback do not count.
func TestOutputOracle(t *testing.T) {
	crash := func(addr string) Run {
		return Run{Exit: 2, Stdout: []byte("added 0\n"), Stderr: []byte("panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.(*T).add(" + addr + ", {0x7ffe3b46ca7b, 0x3}, 0x1)\n\t/tmp/main.go:10 +0xe5\n")}
	}
	all := Observation{Stdout: true, Stderr: true, Exit: true}
	for _, c := range []struct {
		name string
		obs  Observation
		want Run
		run  Run
		out  dd.Outcome
	}{
		{"same output", all, Run{Stdout: []byte("sum = 15\n")}, Run{Stdout: []byte("sum = 15\n")}, dd.Fail},
		{"other output", all, Run{Stdout: []byte("sum = 15\n")}, Run{Stdout: []byte("sum = 14\n")}, dd.Pass},
		{"other exit status", all, Run{Exit: 1}, Run{Exit: 0}, dd.Pass},
		{"a crash the reference did not have", all, Run{Stdout: []byte("x\n")}, crash("0xc000010"), dd.Unresolved},
		{"a hang", all, Run{}, Run{TimedOut: true}, dd.Unresolved},
		{"the same crash at other addresses", all, crash("0x232f8488ee20"), crash("0x389f86d24e20"), dd.Fail},
		{"stdout only", Observation{Stdout: true}, Run{Stdout: []byte("a\n"), Exit: 1}, Run{Stdout: []byte("a\n")}, dd.Fail},
		{"matching lines", Observation{Lines: regexp.MustCompile(`^sum`)}, Run{Stdout: []byte("sum = 1\nmul = 0\n")},
			Run{Stdout: []byte("sum = 1\nmul = 7\n")}, dd.Fail},
		{"matching lines differ", Observation{Lines: regexp.MustCompile(`^sum`)}, Run{Stdout: []byte("sum = 1\n")},
			Run{Stdout: []byte("sum = 2\n")}, dd.Pass},
	} {
		o := &OutputOracle{Observe: c.obs, Want: c.want}
		if got, detail, _ := o.Classify(c.run); got != c.out {
			t.Errorf("%s: %s (%s), want %s", c.name, got, detail, c.out)
		}
	}
}

func TestObservation(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"all", "stdout+stderr+exit"},
		{"", "stdout+stderr+exit"},
		{"stdout", "stdout"},
		{"stderr+exit", "stderr+exit"},
		{"^sum", "lines matching ^sum"},
		{"stdout+x", "lines matching stdout+x"},
	} {
		o, err := ParseObservation(c.in)
		if err != nil || o.String() != c.want {
			t.Errorf("ParseObservation(%q) = %s, %v; want %s", c.in, o, err, c.want)
		}
	}
	if _, err := ParseObservation("("); err == nil {
		t.Error(`ParseObservation("(") = nil error`)
	}
}

// TestTwoReferences: with the passing run's output (or --pass-on) as a
// reference too, a run that does neither is unresolved.
func TestTwoReferences(t *testing.T) {
	fail := Run{Stdout: []byte("alice 50\n")}
	pass := Run{Stdout: []byte("alice 90\n")}
	out := &OutputOracle{Observe: Observation{Stdout: true, Exit: true}, Want: fail, Pass: &pass}
	re := &RegexOracle{Re: regexp.MustCompile(`alice 50`), Pass: regexp.MustCompile(`alice 90`)}
	for _, c := range []struct {
		r    Run
		want dd.Outcome
	}{
		{fail, dd.Fail},
		{pass, dd.Pass},
		{Run{Stdout: []byte("alice 70\n")}, dd.Unresolved},
		{Run{Stdout: []byte("alice 90\n"), Exit: 1}, dd.Unresolved},
		{Run{TimedOut: true, Exit: -1}, dd.Unresolved},
	} {
		if o, _, _ := out.Classify(c.r); o != c.want {
			t.Errorf("output oracle: %q exit %d: %s, want %s", c.r.Stdout, c.r.Exit, o, c.want)
		}
	}
	for _, c := range []struct {
		r    Run
		want dd.Outcome
	}{
		{fail, dd.Fail},
		{pass, dd.Pass},
		{Run{Stdout: []byte("alice 90\n"), Exit: 1}, dd.Pass},
		{Run{Stdout: []byte("alice 70\n")}, dd.Unresolved},
	} {
		if o, _, _ := re.Classify(c.r); o != c.want {
			t.Errorf("regex oracle: %q exit %d: %s, want %s", c.r.Stdout, c.r.Exit, o, c.want)
		}
	}
	if out.Key() == (&OutputOracle{Observe: out.Observe, Want: fail}).Key() {
		t.Error("the passing reference is not part of the oracle's key")
	}
}

// TestRegexOracleNarrows: --fail-on only narrows the failure: go test's
// "FAIL ... [build failed]" matches FAIL, but a package that does not
// build is not a test that fails.
func TestRegexOracleNarrows(t *testing.T) {
	o := &RegexOracle{Re: regexp.MustCompile(`FAIL`)}
	failing := Run{Exit: 1, Stdout: []byte("--- FAIL: TestMax (0.00s)\n    stats_test.go:7: Max = 0, want -1\nFAIL\nFAIL\texample.com/stats\t0.004s\nFAIL\n")}
	broken := Run{Exit: 1, Stdout: []byte("# example.com/stats [example.com/stats.test]\n./stats.go:7:10: undefined: m\nFAIL\texample.com/stats [build failed]\nFAIL\n")}
	for _, c := range []struct {
		r    Run
		want dd.Outcome
	}{{failing, dd.Fail}, {broken, dd.Unresolved}, {Run{}, dd.Pass}} {
		if got, detail, _ := o.Classify(c.r); got != c.want {
			t.Errorf("%q: %s (%s), want %s", c.r.Stdout, got, detail, c.want)
		}
	}
	// Hunting the build failure itself, the original did not build.
	o.Phase = NotBuilt
	if got, _, _ := o.Classify(broken); got != dd.Fail {
		t.Errorf("a build failure hunted by --fail-on: %s", got)
	}
}
