package main

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
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

// TestMaximizeFindsParts: wynot maximize with --split auto (lines, then
// tokens, then characters) on random inputs full of quotes, brackets and
// white space, whose tokens depend on the lines around them, against
// random tests that fail when the input holds a pattern (characters next
// to or after one another, across lines) and a character as often as the
// input does: the result is always a part (a subsequence) of the input,
// it passes, and the summary gives its size.
func TestMaximizeFindsParts(t *testing.T) {
	e2e(t)
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	inputs := []string{"\n```\n(0)\n```\n{\n-\n"} // a markdown renderer's panic, found by a user
	const alphabet = "ab (){}``\"'\n\n  -_,"
	lines := []string{"```", "`", "a `b", "(0)", "{", "-", `"x`, "' y", "", "  ", "a b"}
	for k := range 24 {
		var in []byte
		if k%2 == 0 {
			for range 8 + rng.IntN(40) {
				in = append(in, alphabet[rng.IntN(len(alphabet))])
			}
		} else {
			for range 3 + rng.IntN(8) {
				in = append(in, lines[rng.IntN(len(lines))]+"\n"...)
			}
		}
		inputs = append(inputs, string(in))
	}
	// $0 is the pattern's file, $1 the character, $2 how often.
	test := `[ "$(tr -cd -- "$1" <"$3" | wc -c)" -eq "$2" ] && tr '\n' '~' <"$3" | grep -q -f "$0" && { echo 'panic: pattern' >&2; exit 2; }; exit 0`
	for n, in := range inputs {
		// The pattern: two to four of the input's characters, in order,
		// next to each other or anywhere after one another; each in
		// brackets, a newline as the ~ that tr makes of it.
		var pat strings.Builder
		at, spread := rng.IntN(len(in)), rng.IntN(2) == 0
		for k := 2 + rng.IntN(3); k > 0 && at < len(in); k-- {
			if pat.Len() > 0 && spread {
				pat.WriteString(".*")
			}
			fmt.Fprintf(&pat, "[%c]", in[at])
			at++
			if spread {
				at += rng.IntN(4)
			}
		}
		re := strings.ReplaceAll(pat.String(), "\n", "~")
		if strings.Trim(in, "\n") == "" {
			continue // no character to count
		}
		c := in[rng.IntN(len(in))]
		for c == '\n' {
			c = in[rng.IntN(len(in))]
		}
		count := fmt.Sprint(strings.Count(in, string(c)))
		dir := t.TempDir()
		write(t, filepath.Join(dir, "pat"), []byte(re+"\n"))
		write(t, filepath.Join(dir, "in"), []byte(in))
		what := fmt.Sprintf("input %d %q, pattern %s, %s × %q", n, in, re, count, c)
		r := wynotRun(t, dir, nil, "maximize", "--json", "in", "--", "sh", "-c", test, filepath.Join(dir, "pat"), string(c), count, "{}")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", what, r.code, r.stderr)
		}
		got := read(t, filepath.Join(dir, "in.pass"))
		if !isSubsequence(got, []byte(in)) {
			t.Errorf("%s: the passing part %q is not a part of the input\n%s", what, got, r.stderr)
		}
		if s := r.summary(t); s.PassSize == nil || *s.PassSize != len(got) {
			t.Errorf("%s: the summary gives %v bytes, the result has %d", what, s.PassSize, len(got))
		}
		write(t, filepath.Join(dir, "check"), got)
		if err := exec.Command("sh", "-c", test, filepath.Join(dir, "pat"), string(c), count, filepath.Join(dir, "check")).Run(); err != nil {
			t.Errorf("%s: the passing part %q fails: %v", what, got, err)
		}
	}
}

// isSubsequence reports whether a is a subsequence of b.
func isSubsequence(a, b []byte) bool {
	for _, c := range b {
		if len(a) > 0 && a[0] == c {
			a = a[1:]
		}
	}
	return len(a) == 0
}

// TestIsolateNeighboursUnresolved: the inputs one change from the
// results fail another way (a parser's other error), so the verdict
// does not say that they pass or fail: it says how many did what, and
// the difference and the JSON summary stand. A passing input longer
// than the failing one gives no negative sizes.
func TestIsolateNeighboursUnresolved(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	// xab panics, the longer xcdefg passes, anything else is another
	// error.
	script := filepath.Join(dir, "test.sh")
	writeScript(t, script, `#!/bin/sh
case $(cat "$1") in
xab) echo 'panic: boom' >&2; exit 2 ;;
xcdefg) exit 0 ;;
*) echo 'error: something else' >&2; exit 3 ;;
esac
`)
	write(t, filepath.Join(dir, "good"), []byte("xcdefg"))
	write(t, filepath.Join(dir, "bad"), []byte("xab"))
	r := wynotRun(t, dir, nil, "isolate", "--json", "good", "bad", "--", script, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if strings.Contains(r.stderr, "the failing input passes") || strings.Contains(r.stderr, "the passing input fails") ||
		!strings.Contains(r.stderr, "with any one change less, the failing input does not fail (0 of ") ||
		!strings.Contains(r.stderr, "with any one more, the passing input does not pass (0 of ") {
		t.Errorf("verdict:\n%s", r.stderr)
	}
	for _, p := range s.Passes {
		if p.BytesBefore < 0 || p.BytesAfter < 0 {
			t.Errorf("pass %s: %d bytes before, %d after", p.Name, p.BytesBefore, p.BytesAfter)
		}
	}
}
