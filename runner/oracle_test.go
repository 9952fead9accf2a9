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
