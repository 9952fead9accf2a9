package main

import (
	"bytes"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsolateFuzzMillion: 10⁶ fuzz characters with a single character
// that makes crtplot crash, and determinate outcomes: isolation finds a
// difference of one character in at most ⌈log₂ n⌉ + 5 tests (TSE 2002
// Proposition 18, Corollary 19), and the two results differ by exactly
// that character.
func TestIsolateFuzzMillion(t *testing.T) {
	e2e(t)
	t.Parallel()
	const n = 1_000_000
	dir := t.TempDir()
	input := bytes.ReplaceAll(fuzz(7, n, true), []byte("f"), []byte("g"))
	input[654321] = 'f'
	write(t, filepath.Join(dir, "t16"), input)
	// -j 1: the bound counts the tests the algorithm needs; in parallel,
	// speculative tests that complete before they are cancelled would
	// count too, as many as the scheduler lets finish.
	r := wynotRun(t, dir, nil, "isolate", "--json", "-j", "1", "/dev/null", "t16", "--", prog("crtplot"), "{}")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	search := s.Tests - s.Checks
	if bound := bits.Len(uint(n-1)) + 5; search > bound {
		t.Errorf("%d tests (besides %d checks), want at most %d", search, s.Checks, bound)
	}
	pass, fail := read(t, filepath.Join(dir, "t16.pass")), read(t, filepath.Join(dir, "t16.fail"))
	if len(fail) != len(pass)+1 || s.ElementsAfter != 1 {
		t.Fatalf("results of %d and %d bytes, |Δ| = %d", len(pass), len(fail), s.ElementsAfter)
	}
	i := 0
	for i < len(pass) && pass[i] == fail[i] {
		i++
	}
	if fail[i] != 'f' || !bytes.Equal(pass[i:], fail[i+1:]) {
		t.Errorf("the results differ by %q at %d, not by the one f", fail[i], i)
	}
	if !s.Minimal || !s.Confirmed {
		t.Errorf("summary %+v", s)
	}
	if _, clean := signatureOf(t, "t16", pass, prog("crtplot"), "{}"); !clean {
		t.Error("the passing result does not pass")
	}
	t.Logf("%d tests and %d checks", search, s.Checks)
}

// TestBookResultsThroughCLI: the Debugging Book's max_args and
// min_arg_diff results for mystery, reproduced by the command line on a
// real program.
func TestBookResultsThroughCLI(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in"), []byte(mysteryInput))
	r := wynotRun(t, dir, nil, "maximize", "--split", "runes", "in", "--", prog("mystery"), "{}")
	if got := string(read(t, filepath.Join(dir, "in.pass"))); r.code != 0 || got != `V"/+!aF-V4EOz*+s/Q,7)2@0_` {
		t.Errorf("maximize: exit %d, %q\n%s", r.code, got, r.stderr)
	}
	// in.pass is maximize's: isolate's results go to in.1.pass and
	// in.1.fail, next to it.
	r = wynotRun(t, dir, nil, "isolate", "--json", "--split", "runes", "--bisect=false", "/dev/null", "in", "--", prog("mystery"), "{}")
	pass, fail := string(read(t, filepath.Join(dir, "in.1.pass"))), string(read(t, filepath.Join(dir, "in.1.fail")))
	if r.code != 0 || pass != "z*+s/Q,7)2@0_" || fail != "(z*+s/Q,7)2@0_" {
		t.Errorf("isolate: exit %d, (%q, %q)\n%s", r.code, pass, fail, r.stderr)
	}
	if s := r.summary(t); !strings.Contains(s.Diff, "-z*+s/Q,7)2@0_") || !strings.Contains(s.Diff, "+(z*+s/Q,7)2@0_") {
		t.Errorf("diff:\n%s", s.Diff)
	}
}

// TestIsolateOptions is the GCC options case of TSE 2002 §4.1: the
// compiler crashes with -O unless -ffast-math or -fforce-addr is among 31
// options. Isolation names one of them; without it, a second run names
// the other.
func TestIsolateOptions(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	cc := filepath.Join(dir, "gcc")
	write(t, cc, []byte(`#!/bin/sh
O=; P=
for a in "$@"; do case $a in -O) O=1;; -ffast-math|-fforce-addr) P=1;; esac; done
if [ -n "$O" ] && [ -z "$P" ]; then echo "gcc: Internal compiler error: program cc1 got fatal signal 11" >&2; exit 1; fi
exit 0
`))
	os.Chmod(cc, 0o755)
	options := []string{"-ffloat-store", "-fno-default-inline", "-fno-defer-pop", "-fforce-mem", "-fforce-addr",
		"-fomit-frame-pointer", "-fno-inline", "-finline-functions", "-fkeep-inline-functions", "-fkeep-static-consts",
		"-fno-function-cse", "-ffast-math", "-fstrength-reduce", "-fthread-jumps", "-fcse-follow-jumps",
		"-fcse-skip-blocks", "-frerun-cse-after-loop", "-frerun-loop-opt", "-fgcse", "-fexpensive-optimizations",
		"-fschedule-insns", "-fschedule-insns2", "-ffunction-sections", "-fdata-sections", "-fcaller-saves",
		"-funroll-loops", "-funroll-all-loops", "-fmove-all-movables", "-freduce-all-givs", "-fno-peephole",
		"-fstrict-aliasing"}
	if len(options) != 31 {
		t.Fatalf("%d options", len(options))
	}
	lines := func(args ...string) []byte { return []byte(strings.Join(args, "\n") + "\n") }
	write(t, filepath.Join(dir, "fail.args"), lines("-O", "bug.c"))
	write(t, filepath.Join(dir, "pass.args"), lines(append(append([]string{"-O"}, options...), "bug.c")...))
	named := func() string {
		r := wynotRun(t, dir, nil, "isolate", "--json", "--argv", "pass.args", "fail.args", "--", cc)
		if r.code != 0 {
			t.Fatalf("exit %d:\n%s", r.code, r.stderr)
		}
		diff := r.summary(t).Diff
		for _, o := range []string{"-ffast-math", "-fforce-addr"} {
			if strings.Contains(diff, "\n-"+o+"\n") {
				return o
			}
		}
		t.Fatalf("the difference names neither option:\n%s", diff)
		return ""
	}
	first := named()
	// Without the option found, the second run finds the other one.
	var rest []string
	for _, o := range options {
		if o != first {
			rest = append(rest, o)
		}
	}
	write(t, filepath.Join(dir, "pass.args"), lines(append(append([]string{"-O"}, rest...), "bug.c")...))
	if second := named(); second == first {
		t.Errorf("both runs name %s", first)
	}
}

// TestIsolateShowsWindows: on a one-line input of 100 KB, wynot isolate
// shows a window around the change with its column, not the line twice;
// on binary input, a hex dump around the first difference. The result
// files hold everything.
func TestIsolateShowsWindows(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	test := []string{"--", "sh", "-c", `if grep -qa BUG "$1"; then echo 'panic: BUG' >&2; exit 2; fi`, "sh", "{}"}
	line := bytes.Repeat([]byte("abcdefghij"), 10000)
	fail := append(append(append([]byte(nil), line[:60000]...), "BUG"...), line[60000:]...)
	write(t, filepath.Join(dir, "long.pass"), line)
	write(t, filepath.Join(dir, "long.txt"), fail)
	r := wynotRun(t, dir, nil, append([]string{"isolate", "-o", "out", "long.pass", "long.txt"}, test...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if len(r.stderr) > 3000 || !strings.Contains(r.stderr, "[column 59955 of 60003]") || !strings.Contains(r.stderr, "abcdefghijBUG    [column") {
		t.Errorf("stderr (%d bytes):\n%.3000s", len(r.stderr), r.stderr)
	}
	// The results are whole: the common context and the one difference.
	if got := read(t, filepath.Join(dir, "out", "long.txt.fail")); !bytes.Equal(got, fail[:60003]) {
		t.Errorf("long.txt.fail holds %d bytes, want 60003 from the failing input", len(got))
	}

	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7 % 251)
	}
	binFail := append([]byte(nil), bin...)
	copy(binFail[2000:], "BUG")
	write(t, filepath.Join(dir, "bin.pass"), bin)
	write(t, filepath.Join(dir, "bin.dat"), binFail)
	r = wynotRun(t, dir, nil, append([]string{"isolate", "-o", "out", "bin.pass", "bin.dat"}, test...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "@@ first difference at offset 2002 (0x7d2) @@") || !strings.Contains(r.stderr, "|BUG.") || len(r.stderr) > 3000 {
		t.Errorf("stderr:\n%.3000s", r.stderr)
	}
}
