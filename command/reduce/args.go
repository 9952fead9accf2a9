package reduce

import (
	"context"
	"fmt"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// argReducer is the job of wynot reduce --argv: it reduces the command's
// argument list (TSE 2002 §4.1, GCC options); the changes are the
// arguments after the program, and the tests run in the current
// directory.
type argReducer struct {
	*Reduction
	args   []string
	result []string
}

func (ar *argReducer) pick(c dd.Config) []string {
	out := make([]string, len(c))
	for i, x := range c {
		out[i] = ar.args[x]
	}
	return out
}

// Begin starts from the whole argument list.
func (ar *argReducer) Begin() command.Begin {
	return command.Begin{Failing: runner.Candidate{Args: ar.args}, What: "original command", Size: len(ar.args), Unit: "arguments", Algorithm: "ddmin",
		Empty: &runner.Candidate{Args: []string{}}, EmptyWhat: "the command without arguments"}
}

// Search runs ddmin over the arguments; the shortest failing list so
// far is written to -o.
func (ar *argReducer) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	ar.result = ar.args
	res, err := s.Search(ctx, command.Search{Name: "arguments", N: len(ar.args), Algorithm: dd.Minimize, Options: dd.Options{Variant: ar.Variant},
		Build: func(c dd.Config) runner.Candidate { return runner.Candidate{Args: ar.pick(c)} },
		OnStep: func(st dd.Step) {
			n := len(st.Config)
			s.Status(func(ps *report.Status) { ps.Size = n })
		}})
	if res.Fail != nil {
		ar.result = ar.pick(res.Fail)
	}
	if ar.Output != "" {
		if werr := keep.WriteAtomic(ar.Output, []byte(ar.line()+"\n"), 0o644); werr != nil && err == nil {
			err = command.InputError("writing %s: %v", ar.Output, werr)
		}
	}
	return command.Found{Minimal: res.Minimal, Kept: "the shortest failing argument list so far is shown",
		Confirm: []command.Check{{Candidate: runner.Candidate{Args: ar.result}, Want: dd.Fail, What: "the result"}}}, err
}

// line is the reduced command line.
func (ar *argReducer) line() string {
	return command.ShellQuote(append([]string{ar.Test.Argv[0]}, ar.result...))
}

// Close fills in the summary and shows the reduced command line.
func (ar *argReducer) Close(sum *report.Summary, end command.End) command.Closing {
	sum.SizeBefore, sum.ElementsBefore = len(ar.args), len(ar.args)
	sum.SizeAfter, sum.ElementsAfter = len(ar.result), len(ar.result)
	sum.Granularity = "arguments"
	sum.Result = ar.line()
	return command.Closing{
		Head: []string{fmt.Sprintf("reduced %s to %s in %s, %.1fs", report.Plural(len(ar.args), "argument"),
			report.Plural(len(ar.result), "argument"), report.Plural(sum.Tests, "test"), sum.Seconds),
			"still failing: " + sum.Result},
		Page: func() report.Page { return report.Page{Result: ar.line() + "\n"} },
	}
}
