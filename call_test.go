package wynot_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wynot/wynot"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/dd/ddtest"
)

// mystery fails iff its input holds a "(" before a later ")" (Debugging
// Book, "Why Reducing?").
func mystery(inp string) {
	x := strings.IndexByte(inp, '(')
	y := strings.IndexByte(inp, ')')
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}

// removeHTMLMarkup is the Debugging Book's buggy remove_html_markup with
// its postcondition: a double quote outside a tag toggles quote mode, so
// '"x > y"' keeps its ">" and violates the postcondition.
func removeHTMLMarkup(s string) string {
	tag, quote := false, false
	out := ""
	for _, c := range s {
		switch {
		case c == '<' && !quote:
			tag = true
		case c == '>' && !quote:
			tag = false
		case c == '"' || c == '\'' && tag:
			quote = !quote
		case !tag:
			out += string(c)
		}
	}
	if strings.ContainsAny(out, "<>") {
		panic("postcondition violated")
	}
	return out
}

func stringError(s1, s2 string) {
	if strings.Contains(s2, s1) {
		panic("no substrings")
	}
}

func listError(l1, l2 []int, maxlen int) {
	if !(len(l1) < len(l2) && len(l2) < maxlen) {
		panic("invalid string length")
	}
}

const failingInput = `V"/+!aF-(V4EOz*+s/Q,7)2@0_`

// bookLog renders the expected log of a one-string-argument function: the
// candidates as the book lists them, with outcomes P (pass) and F (fail).
func bookLog(fn, detail string, entries ...string) []string {
	var out []string
	for i, e := range entries {
		cand, outcome := e[2:], e[:1]
		line := fmt.Sprintf("Test #%d %s(%q): ", i+1, fn, cand)
		if outcome == "F" {
			line += "FAIL (" + detail + ")"
		} else {
			line += "PASS"
		}
		out = append(out, line)
	}
	return out
}

// bookOptions reproduces the Python implementation's subset order (see
// ddtest.PyOrder) and logs every test.
func bookOptions(log *strings.Builder) *wynot.Options {
	po := &ddtest.PyOrder{}
	return &wynot.Options{Partition: po.Partition, Observer: po, Log: log}
}

func checkLog(t *testing.T, got string, want []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if reflect.DeepEqual(lines, want) {
		return
	}
	var b strings.Builder
	for i := range max(len(lines), len(want)) {
		g, w := "", ""
		if i < len(lines) {
			g = lines[i]
		}
		if i < len(want) {
			w = want[i]
		}
		mark := "  "
		if g != w {
			mark = "!="
		}
		fmt.Fprintf(&b, "%s %s\n   %s\n", mark, g, w)
	}
	t.Errorf("log differs from the book (got, then want):\n%s", b.String())
}

// TestBookMysteryMinArgs is the Debugging Book's log of
// DeltaDebugger(log=True) on mystery: "()" after 24 tests, counting the
// first test that checks the failure reproduces.
func TestBookMysteryMinArgs(t *testing.T) {
	var log strings.Builder
	c, err := wynot.NewCall(mystery, []any{failingInput}, bookOptions(&log))
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.MinArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Format(args); got != `mystery("()")` {
		t.Errorf("reduced call %s, want mystery(\"()\")", got)
	}
	checkLog(t, log.String(), bookLog("mystery", "panic: Invalid input",
		"F "+failingInput, "P ", `P V"/+!aF-(V4EO`, "P z*+s/Q,7)2@0_", "F -(V4EOz*+s/Q,7)2@0_",
		"P *+s/Q,7)2@0_", "F -(V4EOz7)2@0_", "P 7)2@0_", "P -(V4EOz", "F -(V47)2@0_", "P -(V4@0_",
		"F -(V47)2", "P -7)2", "P (V4", "P -47)2", "F -(V7)2", "P -(V2", "F (V7)", "P 7)", "P (V",
		"F (7)", "F ()", "P )", "P ("))
	if c.Tests() != 24 {
		t.Errorf("%d tests, want 24", c.Tests())
	}
}

// TestBookMysteryMaxArgs is the book's max_args log: 8 tests to the
// failing input without its "(".
func TestBookMysteryMaxArgs(t *testing.T) {
	var log strings.Builder
	c, err := wynot.NewCall(mystery, []any{failingInput}, bookOptions(&log))
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.MaxArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := `V"/+!aF-V4EOz*+s/Q,7)2@0_`; args[0] != want {
		t.Errorf("maximized to %q, want %q", args[0], want)
	}
	checkLog(t, log.String(), bookLog("mystery", "panic: Invalid input",
		"F "+failingInput, "P ", "P z*+s/Q,7)2@0_", "F -(V4EOz*+s/Q,7)2@0_", `P V"/+!aFz*+s/Q,7)2@0_`,
		`P V"/+!aF4EOz*+s/Q,7)2@0_`, `P V"/+!aF-4EOz*+s/Q,7)2@0_`, `P V"/+!aF-V4EOz*+s/Q,7)2@0_`))
}

// TestBookMysteryMinArgDiff is the book's min_arg_diff log: the
// difference "(" after 9 tests.
func TestBookMysteryMinArgDiff(t *testing.T) {
	var log strings.Builder
	c, err := wynot.NewCall(mystery, []any{failingInput}, bookOptions(&log))
	if err != nil {
		t.Fatal(err)
	}
	pass, fail, diff, err := c.MinArgDiff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if pass[0] != "z*+s/Q,7)2@0_" || fail[0] != "(z*+s/Q,7)2@0_" || diff[0] != "(" {
		t.Errorf("got (%q, %q, %q), want (\"z*+s/Q,7)2@0_\", \"(z*+s/Q,7)2@0_\", \"(\")", pass[0], fail[0], diff[0])
	}
	checkLog(t, log.String(), bookLog("mystery", "panic: Invalid input",
		"F "+failingInput, "P ", `P V"/+!aF-(V4EO`, "P z*+s/Q,7)2@0_", `P V"/+!aFz*+s/Q,7)2@0_`,
		"F -(V4EOz*+s/Q,7)2@0_", "F -(Vz*+s/Q,7)2@0_", "F (Vz*+s/Q,7)2@0_", "F (z*+s/Q,7)2@0_"))
}

// TestBookRemoveHTMLMarkup is the book's log of reducing
// remove_html_markup('"x > y"') to '">' in 10 tests.
func TestBookRemoveHTMLMarkup(t *testing.T) {
	var log strings.Builder
	c, err := wynot.NewCall(removeHTMLMarkup, []any{`"x > y"`}, bookOptions(&log))
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.MinArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if args[0] != `">` {
		t.Errorf("reduced to %q, want %q", args[0], `">`)
	}
	checkLog(t, log.String(), bookLog("removeHTMLMarkup", "panic: postcondition violated",
		`F "x > y"`, "P ", `F "x >`, `P "x`, "P  >", "P x >", `F " >`, `F ">`, "P >", `P "`))
}

// TestBookMultipleArguments: arguments are reduced in turns until none
// changes. The book processes them in Python's set order (s2 first, 8
// tests); wynot takes them in argument order, which here needs 3 tests,
// with the same result.
func TestBookMultipleArguments(t *testing.T) {
	c, err := wynot.NewCall(stringError, []any{"foo", "foobar"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.MinArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Format(args); got != `stringError("", "")` {
		t.Errorf("got %s, want stringError(\"\", \"\")", got)
	}
	if c.Tests() != 3 {
		t.Errorf("%d tests, want 3", c.Tests())
	}

	c, err = wynot.NewCall(listError, []any{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []int{1, 2, 3}, 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	args, err = c.MinArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Format(args); got != "listError([]int{}, []int{}, 5)" {
		t.Errorf("got %s, want listError([]int{}, []int{}, 5)", got)
	}
}

// TestMysterySortedOrder: without the Python set order, subsets are
// contiguous runs in index order, as in the TSE figures. The result is the
// same; the book's particular order happens to save one test here.
func TestMysterySortedOrder(t *testing.T) {
	c, err := wynot.NewCall(mystery, []any{failingInput}, nil)
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.MinArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if args[0] != "()" || c.Tests() != 25 {
		t.Errorf("reduced to %q in %d tests, want \"()\" in 25", args[0], c.Tests())
	}
}

func TestCallErrors(t *testing.T) {
	if _, err := wynot.NewCall(mystery, []any{"no parentheses"}, nil); !errors.Is(err, wynot.ErrNotFailing) {
		t.Errorf("call that passes: err = %v, want ErrNotFailing", err)
	}
	if _, err := wynot.NewCall(42, nil, nil); err == nil || !strings.Contains(err.Error(), "needs a function") {
		t.Errorf("not a function: err = %v", err)
	}
	if _, err := wynot.NewCall(mystery, []any{1}, nil); err == nil || !strings.Contains(err.Error(), "argument 1") {
		t.Errorf("wrong argument type: err = %v", err)
	}
	if _, err := wynot.NewCall(mystery, nil, nil); err == nil || !strings.Contains(err.Error(), "needs 1 arguments") {
		t.Errorf("missing argument: err = %v", err)
	}

	// A function that fails differently when called again.
	calls := 0
	flaky := func(s string) {
		calls++
		panic(fmt.Sprint("failure number ", calls))
	}
	c, err := wynot.NewCall(flaky, []any{"abc"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.MinArgs(context.Background()); !errors.Is(err, wynot.ErrNotReproduced) {
		t.Errorf("flaky failure: err = %v, want ErrNotReproduced", err)
	}

	// Maximizing needs the empty argument to pass.
	always := func(s string) { panic("always") }
	c, err = wynot.NewCall(always, []any{"abc"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var np *dd.NotPassingError
	if _, err := c.MaxArgs(context.Background()); !errors.As(err, &np) {
		t.Errorf("MaxArgs on a call that fails on empty input: err = %v, want *dd.NotPassingError", err)
	}
	// Minimizing it gives the empty argument at once.
	args, err := c.MinArgs(context.Background())
	if err != nil || args[0] != "" {
		t.Errorf("MinArgs = %q, %v; want \"\"", args[0], err)
	}
}

// TestCallErrorResults: a returned error counts as a failure with its
// message; an error with another message is unresolved; arrays keep their
// length and zero what is left out.
func TestCallErrorResults(t *testing.T) {
	parse := func(b []byte, a [4]int) error {
		if strings.Contains(string(b), "x") && a[2] == 7 {
			return errors.New("bad x")
		}
		if strings.Contains(string(b), "y") {
			return errors.New("bad y")
		}
		return nil
	}
	c, err := wynot.NewCall(parse, []any{[]byte("abxyc"), [4]int{5, 6, 7, 8}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := c.Failure(); f.Panic || f.Message != "bad x" {
		t.Fatalf("failure %+v", f)
	}
	args, err := c.MinArgs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Format(args); !strings.HasSuffix(got, `([]byte{0x78}, [4]int{0, 0, 7, 0})`) {
		t.Errorf("got %s, want ...([]byte{0x78}, [4]int{0, 0, 7, 0})", got)
	}
}
