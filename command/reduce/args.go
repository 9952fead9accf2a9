package reduce

import (
	"context"
	"fmt"
	"slices"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/schedule"
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
	// pairs says the result's adjacent pairs were tested (pairCheck).
	pairs bool
}

func pickFrom(args []string, c dd.Config) []string {
	out := make([]string, len(c))
	for i, x := range c {
		out[i] = args[x]
	}
	return out
}

// pairCheck tests the removal of each pair of adjacent arguments of a
// 1-minimal result: a flag and its value go together (-nullvalue NULL),
// and neither goes alone, since the value would be read as an argument
// of its own. It returns the first shorter list that still fails, or
// nil when none does (the result is then 2-minimal for adjacent pairs).
// --n-minimal 0 turns it off; a smaller budget than the pairs, too.
func (ar *argReducer) pairCheck(ctx context.Context, s *command.Session) ([]string, error) {
	n := len(ar.result) - 1
	if ar.Beyond > 0 && ar.Beyond < n {
		return nil, nil // over the budget of --n-minimal: not checked
	}
	without := func(i int) []string { return append(slices.Clone(ar.result[:i]), ar.result[i+2:]...) }
	first, _, err := schedule.FirstFailing(ctx, max(n, 0), s.Jobs, func(ctx context.Context, i int) (dd.Outcome, error) {
		rec, err := s.TestOne(ctx, "adjacent pairs", runner.Candidate{Args: without(i)})
		return rec.Outcome, err
	})
	if err != nil {
		return nil, err
	}
	if first >= 0 {
		return without(first), nil
	}
	ar.pairs = true
	return nil, nil
}

// Begin starts from the whole argument list.
func (ar *argReducer) Begin() command.Begin {
	return command.Begin{Failing: runner.Candidate{Args: ar.args}, What: "original command", Size: len(ar.args), Unit: "arguments", Algorithm: "ddmin",
		Empty: &runner.Candidate{Args: []string{}}, EmptyWhat: "the command without arguments"}
}

// Search runs ddmin over the arguments, then tests the removal of each
// pair of adjacent arguments of its result (pairCheck); the shortest
// failing list so far is written to -o.
func (ar *argReducer) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	ar.result = ar.args
	var res dd.Result
	var err error
	for {
		from := ar.result
		res, err = s.Search(ctx, command.Search{Name: "arguments", N: len(from), Algorithm: dd.Minimize, Options: dd.Options{Variant: ar.Variant},
			Build: func(c dd.Config) runner.Candidate { return runner.Candidate{Args: pickFrom(from, c)} },
			OnStep: func(st dd.Step) {
				n := len(st.Config)
				s.Status(func(ps *report.Status) { ps.Size = n })
			}})
		if res.Fail != nil {
			ar.result = pickFrom(from, res.Fail)
		}
		if err != nil || !res.Minimal || ar.Beyond == 0 {
			break
		}
		less, perr := ar.pairCheck(ctx, s)
		if err = perr; err != nil || less == nil {
			break
		}
		ar.result = less
	}
	s.SayWritesDuring() // before -o is written
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
	var v string
	switch {
	case end.Interrupted:
		v = "interrupted: the result is the shortest failing argument list found so far, not 1-minimal"
	case !end.Minimal:
		v = "the result is not certified 1-minimal"
	case ar.pairs && len(ar.result) > 1:
		v = "the result is 1-minimal: removing any single one of its arguments makes the failure go away, and so does removing any two adjacent ones (a flag and its value)"
	default:
		v = "the result is 1-minimal: removing any single one of its arguments makes the failure go away"
	}
	return command.Closing{
		Head: []string{fmt.Sprintf("reduced %s to %s in %s, %.1fs", report.Plural(len(ar.args), "argument"),
			report.Plural(len(ar.result), "argument"), report.Plural(sum.Tests, "test"), sum.Seconds),
			"still failing: " + sum.Result},
		Verdict: []string{v},
		Page:    func() report.Page { return report.Page{Result: ar.line() + "\n"} },
	}
}
