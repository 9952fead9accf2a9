package ddtest

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestPySetMatchesCPython compares the emulated set layout with a real
// CPython 3.11 on random sequences of the operations the Debugging Book's
// dd uses. It runs only where python3 is CPython 3.11.
func TestPySetMatchesCPython(t *testing.T) {
	out, err := exec.Command("python3", "-c", "import sys, platform; print(platform.python_implementation(), *sys.version_info[:2])").Output()
	if err != nil || strings.TrimSpace(string(out)) != "CPython 3 11" {
		t.Skipf("needs CPython 3.11 as python3 (have %q, %v)", strings.TrimSpace(string(out)), err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var script strings.Builder
	var want []string
	var sets []*pySet
	emit := func(s *pySet) {
		sets = append(sets, s)
		fmt.Fprintf(&script, "print(list(s[-1]))\n")
		want = append(want, fmt.Sprint(s.list()))
	}
	script.WriteString("s = []\n")
	for range 3000 {
		op := rng.IntN(4)
		if len(sets) < 2 {
			op = 0
		}
		switch op {
		case 0:
			n := rng.IntN(120)
			r := make([]int, n)
			for i := range r {
				r[i] = i
			}
			fmt.Fprintf(&script, "s.append(set(range(%d)))\n", n)
			emit(pyFromList(r))
		case 1:
			keys := make([]int, rng.IntN(40))
			for i := range keys {
				keys[i] = rng.IntN(200)
			}
			fmt.Fprintf(&script, "s.append(set(%s))\n", pyList(keys))
			emit(pyFromList(keys))
		case 2:
			a, b := rng.IntN(len(sets)), rng.IntN(len(sets))
			fmt.Fprintf(&script, "s.append(s[%d] | s[%d])\n", a, b)
			emit(pyUnion(sets[a], sets[b]))
		case 3:
			a, b := rng.IntN(len(sets)), rng.IntN(len(sets))
			fmt.Fprintf(&script, "s.append(s[%d] - s[%d])\n", a, b)
			emit(pyDifference(sets[a], sets[b]))
		}
	}
	cmd := exec.Command("python3", "-")
	cmd.Stdin = strings.NewReader(script.String())
	got, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != len(want) {
		t.Fatalf("python printed %d lines, want %d", len(lines), len(want))
	}
	for i := range want {
		if g := strings.ReplaceAll(strings.Trim(lines[i], "[]"), ",", ""); g != strings.Trim(want[i], "[]") {
			t.Fatalf("set %d: CPython lists [%s], emulation %s", i, g, want[i])
		}
	}
}

func pyList(keys []int) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = fmt.Sprint(k)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func TestPySetBasics(t *testing.T) {
	// Values observed in CPython 3.11: a set's iteration order is its
	// slot order, and 8, 9 land before 7 in a table of 8 slots.
	if got := pyFromList([]int{7, 8, 9}).list(); !slices.Equal(got, []int{8, 9, 7}) {
		t.Errorf("list({7, 8, 9}) = %v, want [8 9 7]", got)
	}
	// set(range(26)) grows to 128 slots and lists in order.
	r := make([]int, 26)
	for i := range r {
		r[i] = i
	}
	s := pyFromList(r)
	if len(s.table) != 128 || !slices.Equal(s.list(), r) {
		t.Errorf("set(range(26)): %d slots, %v", len(s.table), s.list())
	}
}
