package wynot_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/wynot/wynot"
)

// A program that crashes on a page holding a <SELECT> tag (the Mozilla case
// of TSE 2002 §4.2), stood in for by a function.
func printPage(lines []string) wynot.Outcome {
	if strings.Contains(strings.Join(lines, "\n"), "<SELECT") {
		return wynot.Fail
	}
	return wynot.Pass
}

func ExampleMinimize() {
	page := []string{
		"<html>", "<body>", "<h1>Search for bug</h1>", "<form>",
		`<SELECT NAME="priority" MULTIPLE SIZE=7>`, "<option>P1</option>",
		"</form>", "</body>", "</html>",
	}
	res, err := wynot.Minimize(context.Background(), page, func(_ context.Context, lines []string) wynot.Outcome {
		return printPage(lines)
	}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q after %d tests, 1-minimal: %v\n", res.Fail, res.Changes.Stats.Tests, res.Minimal)
	// Output: ["<SELECT NAME=\"priority\" MULTIPLE SIZE=7>"] after 7 tests, 1-minimal: true
}

func ExampleIsolate() {
	// Which character makes the difference? The passing input is empty,
	// the failing one the whole line; Isolate narrows the difference
	// between them to one character (TSE 2002 Fig. 3).
	line := []rune(`<SELECT NAME="priority" MULTIPLE SIZE=7>`)
	res, err := wynot.Isolate(context.Background(), line, func(_ context.Context, rs []rune) wynot.Outcome {
		return printPage([]string{string(rs)})
	}, &wynot.Options{Bisect: true})
	if err != nil {
		panic(err)
	}
	fmt.Printf("passes: %q\nfails:  %q\ndelta:  %q (%d tests)\n", string(res.Pass), string(res.Fail), string(res.Delta), res.Changes.Stats.Tests)
	// Output:
	// passes: "<SELEC"
	// fails:  "<SELECT"
	// delta:  "T" (8 tests)
}

func ExampleMaximize() {
	// The largest part of a failing input that still passes: a repair
	// candidate that keeps as much of the input as possible.
	input := []rune("rm -rf (tmp) now")
	res, err := wynot.Maximize(context.Background(), input, func(_ context.Context, rs []rune) wynot.Outcome {
		s := string(rs)
		if strings.Contains(s, "(") && strings.Contains(s, ")") {
			return wynot.Fail
		}
		return wynot.Pass
	}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", string(res.Pass))
	// Output: "rm -rf tmp) now"
}

// mysteryFunc fails if its input holds "(" before a later ")".
func mysteryFunc(inp string) {
	x, y := strings.IndexByte(inp, '('), strings.IndexByte(inp, ')')
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}

func ExampleCall() {
	// The Debugging Book's DeltaDebugger: record a failing call, then
	// reduce its arguments.
	c, err := wynot.NewCall(mysteryFunc, []any{`V"/+!aF-(V4EOz*+s/Q,7)2@0_`}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Failure())
	args, err := c.MinArgs(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Format(args))
	// Output:
	// panic: Invalid input
	// mysteryFunc("()")
}

func ExampleCall_MinArgDiff() {
	c, err := wynot.NewCall(mysteryFunc, []any{`V"/+!aF-(V4EOz*+s/Q,7)2@0_`}, nil)
	if err != nil {
		panic(err)
	}
	pass, fail, diff, err := c.MinArgDiff(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s passes\n%s fails\ndifference %q\n", c.Format(pass), c.Format(fail), diff[0])
	// Output:
	// mysteryFunc("z*+s/Q,7)2@0_") passes
	// mysteryFunc("(z*+s/Q,7)2@0_") fails
	// difference "("
}
