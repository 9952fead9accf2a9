package runner

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The failure reports in testdata/reports are real outputs: a Go panic,
// a Go fatal error, an AddressSanitizer report, a glibc assertion, GCC's
// internal compiler error, a Python traceback, UBSan. Each file starts
// with "# message: ..." and "# frames: ..." lines giving the expected
// signature; the rest is the output.
func TestFailureReports(t *testing.T) {
	files, err := filepath.Glob("testdata/reports/*.txt")
	if err != nil || len(files) < 6 {
		t.Fatalf("reports: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wantMsg, wantFrames string
		lines := strings.SplitN(string(b), "\n", 3)
		wantMsg = strings.TrimPrefix(lines[0], "# message: ")
		wantFrames = strings.TrimPrefix(lines[1], "# frames: ")
		msg, frames := failureReport(lines[2])
		if msg != wantMsg || strings.Join(frames, " ") != wantFrames {
			t.Errorf("%s:\n got message %q frames %q\nwant message %q frames %q", f, msg, strings.Join(frames, " "), wantMsg, wantFrames)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"panic: runtime error: slice bounds out of range [:19] with length 11": "panic: runtime error: slice bounds out of range [:N] with length N",
		"AddressSanitizer: heap-buffer-overflow on address 0x602000000011":     "AddressSanitizer: heap-buffer-overflow on address 0x?",
		"x.c:10: main: Assertion `n < 4' failed.":                              "x.c:N: main: Assertion `n < N' failed.",
		"open /tmp/wynot-123/w0/input.txt: no such file":                       "open input.txt: no such file",
		"internal compiler error: in f, at /build/gcc/tree.c:42":               "internal compiler error: in f, at tree.c:N",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSignatureSame(t *testing.T) {
	a := Signature{Ending: "exit status 2", Message: "panic: index out of range [5] with length 3", Frames: []string{"main.parse", "main.main"}}
	b := Signature{Ending: "exit status 2", Message: "panic: index out of range [1] with length 0", Frames: []string{"main.parse", "main.main"}}
	c := Signature{Ending: "exit status 2", Message: "panic: index out of range [1] with length 0", Frames: []string{"main.other", "main.main"}}
	d := Signature{Ending: "exit status 2", Message: "panic: nil map", Frames: []string{"main.parse", "main.main"}}
	e := Signature{Ending: "killed by SIGSEGV"}
	for _, x := range []struct {
		s, o Signature
		p    Precision
		want bool
	}{
		{a, b, Exit, true}, {a, b, Message, true}, {a, b, Stack, true}, {a, b, Exact, false},
		{a, c, Message, true}, {a, c, Stack, false},
		{a, d, Exit, true}, {a, d, Message, false},
		{a, e, Exit, false}, {e, e, Exact, true},
	} {
		if got := x.s.Same(x.o, x.p); got != x.want {
			t.Errorf("%v vs %v at %s: %v, want %v", x.s, x.o, x.p, got, x.want)
		}
	}
}

// TestSignatureDiff: what differs, part by part, at the precision
// given; nothing where Same holds.
func TestSignatureDiff(t *testing.T) {
	a := Signature{Ending: "exit status 2", Message: "panic: index out of range [5] with length 3", Frames: []string{"main.parse", "main.main"}}
	b := Signature{Ending: "exit status 2", Message: "panic: index out of range [1] with length 0", Frames: []string{"main.other", "main.main"}}
	c := Signature{Ending: "exit status 1", Tool: "go test", Phase: NotBuilt, Failed: []string{"example.com/stats"}, Message: "./stats.go:7:10: undefined: m"}
	for _, x := range []struct {
		s, want Signature
		p       Precision
		diff    string
	}{
		{a, b, Message, ""},
		{a, b, Exact, `its message is "panic: index out of range [5] with length 3", not "panic: index out of range [1] with length 0"; its stack is [main.parse < main.main], not [main.other < main.main]`},
		{a, b, Stack, "its stack is [main.parse < main.main], not [main.other < main.main]"},
		{c, a, Exit, "how it ended: exit status 1, not exit status 2; it did not build, where the failure ran; failed by name: example.com/stats, not none"},
		{Signature{Ending: "exit status 2"}, a, Message, `its message is none, not "panic: index out of range [5] with length 3"`},
	} {
		if got := x.s.Diff(x.want, x.p, false); got != x.diff {
			t.Errorf("%v against %v at %s:\n got %s\nwant %s", x.s, x.want, x.p, got, x.diff)
		}
	}
}

// TestSignatureSameTools: how far a run got and what failed by name are
// compared at every precision; the message only from message on.
func TestSignatureSameTools(t *testing.T) {
	test := func(failed ...string) Signature {
		return Signature{Ending: "exit status 1", Tool: "go test", Failed: failed, Message: "stats_test.go:7: Max = 0, want -1"}
	}
	max := test("example.com/stats TestMax")
	other := test("example.com/stats TestMax")
	other.Message = "stats_test.go:7: Max = 5, want -1"
	strings := test("example.com/stats TestMax")
	strings.Message = `stats_test.go:9: Name = "b", want "a"`
	built := Signature{Ending: "exit status 1", Tool: "go test", Phase: NotBuilt, Failed: []string{"example.com/stats"}, Message: "./stats.go:7:10: undefined: m"}
	for _, x := range []struct {
		s, o Signature
		p    Precision
		want bool
	}{
		{max, other, Message, true}, // numbers are normalized
		{max, strings, Exit, true}, {max, strings, Message, false},
		{max, test("example.com/stats TestMax", "example.com/stats TestSum"), Exit, false},
		{max, test(), Exit, false},
		{max, built, Exit, false}, {built, built, Exact, true},
	} {
		if got := x.s.Same(x.o, x.p); got != x.want {
			t.Errorf("%v vs %v at %s: %v, want %v", x.s, x.o, x.p, got, x.want)
		}
	}
}

func TestFailedList(t *testing.T) {
	for _, c := range []struct {
		failed []string
		want   string
	}{
		{[]string{"example.com/stats TestMax"}, "TestMax"},
		{[]string{"example.com/a TestF", "example.com/a TestF/one", "example.com/b"}, "TestF/one, example.com/b"},
		{[]string{"make check"}, "make check"},
		{[]string{"a T1", "a T2", "a T3", "a T4", "a T5"}, "T1, T2, T3 and 2 more"},
		{[]string{"test_x.py::test_y"}, "test_x.py::test_y"},
	} {
		if got := FailedList(c.failed); got != c.want {
			t.Errorf("FailedList(%q) = %q, want %q", c.failed, got, c.want)
		}
	}
}

func TestEnding(t *testing.T) {
	for _, c := range []struct {
		r    Run
		want string
	}{
		{Run{Exit: 2}, "exit status 2"},
		{Run{Exit: -1, Signal: syscall.SIGSEGV}, "killed by SIGSEGV"},
		{Run{Exit: -1, Signal: syscall.SIGKILL, TimedOut: true}, "timed out"},
		{Run{Exit: 124, TimedOut: true}, "timed out"},
	} {
		if got := Extract(c.r).Ending; got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// TestCrashedAt: a crash of the runtime at a file and line of its
// backtrace (by base name), not a panic the program raised nor another
// line.
func TestCrashedAt(t *testing.T) {
	trace := "\n\ngoroutine 1 [running]:\nexample.com/lib.f(...)\n\t/tmp/copy/mods/1/parser.go:310 +0x91c5\nmain.main()\n\t/x/main.go:13 +0x146\nexit status 2\n"
	idx := Run{Exit: 2, Stderr: []byte("panic: runtime error: index out of range [0] with length 0" + trace)}
	own := Run{Exit: 2, Stderr: []byte("panic: too wide" + trace)}
	for _, c := range []struct {
		r    Run
		file string
		line int
		want bool
	}{
		{idx, "github.com/x/lib@v1.1.1/parser.go", 310, true},
		{idx, "main.go", 13, true},
		{idx, "parser.go", 311, false},
		{idx, "lexer.go", 310, false},
		{own, "parser.go", 310, false},
		{Run{Exit: 1, Stderr: idx.Stderr}, "parser.go", 310, false},
	} {
		if got := CrashedAt(c.r, c.file, c.line); got != c.want {
			t.Errorf("CrashedAt(%q…, %s:%d) = %v", c.r.Stderr[:20], c.file, c.line, got)
		}
	}
}

// TestSignatureEveryFailingTest: when two Go tests fail, the message of
// each is part of the failure; a run in which the second fails with
// another message is another failure (testdata/tools/gotest-two*.out:
// go-shellwords' TestDupEnv fails with "but []string{}:" instead of
// "but []string{"echo", "$FOO$FOO$"}:").
func TestSignatureEveryFailingTest(t *testing.T) {
	read := func(name string) Signature {
		b, err := os.ReadFile(filepath.Join("testdata", "tools", name))
		if err != nil {
			t.Fatal(err)
		}
		_, out, _ := strings.Cut(string(b), "\n")
		return Extract(Run{Exit: 1, Stderr: []byte(out)})
	}
	want, other := read("gotest-two.out"), read("gotest-two-other.out")
	for _, p := range []Precision{Message, Stack, Exact} {
		if want.Same(other, p) {
			t.Errorf("at %s, %v\nis the same failure as %v", p, other, want)
		}
	}
	if !want.Same(other, Exit) {
		t.Errorf("at exit, %v\nis not the same failure as %v", other, want)
	}
	if !strings.Contains(want.Message, "TestBacktickError: ") || !strings.Contains(want.Message, "; TestDupEnv: ") {
		t.Errorf("message %q does not name each failing test's message", want.Message)
	}
}

// TestSignatureQuotedAside: with quoted strings aside, a message that
// quotes the input (a fuzz target's t.Fatalf("… %q", s)) is the same
// failure whatever the quoted text, escapes included; what lies outside
// the quotes still tells failures apart, and without the setting the
// quoted text counts.
func TestSignatureQuotedAside(t *testing.T) {
	msg := func(m string) Signature {
		return Signature{Ending: "exit status 1", Phase: Ran, Failed: []string{"FuzzP/x"}, Message: m}
	}
	orig := msg(`fuzz_test.go:14: A: contains Q in "hello \"world\" Q and more"`)
	for _, x := range []struct {
		o      Signature
		quoted bool
		want   bool
	}{
		{msg(`fuzz_test.go:14: A: contains Q in "Q"`), true, true},
		{msg(`fuzz_test.go:14: A: contains Q in "Q"`), false, false},
		{msg(`fuzz_test.go:14: A: contains Q in "\\Q\n"`), true, true},
		{msg(`fuzz_test.go:11: B: short string "Q" with big n 7`), true, false},
		{msg(`fuzz_test.go:14: A: contains Q in Q`), true, false},
	} {
		for _, p := range []Precision{Message, Stack} {
			if got := orig.same(x.o, p, x.quoted); got != x.want {
				t.Errorf("%q, quoted aside %v, at %s: %v, want %v", x.o.Message, x.quoted, p, got, x.want)
			}
		}
	}
	o := &SignatureOracle{Want: orig, Precision: Stack}
	q := &SignatureOracle{Want: orig, Precision: Stack, QuotedAside: true}
	if o.Key() == q.Key() {
		t.Errorf("the setting is not part of the oracle's key: %s", o.Key())
	}
}
