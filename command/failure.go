package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/runner"
)

// ExitIndistinct is the exit status of a run whose test cannot tell the
// failing input from an empty one (Begin.Empty fails as the original
// does): there is nothing to search, and a result would claim more than
// any test showed.
const ExitIndistinct = 4

// ExitNoCause is the exit status of a search that ran to its end and
// found no cause: wynot chain, when no state it examined has a
// difference that, transplanted into the passing run, makes it fail.
// Nothing is claimed, and nothing is flaky.
const ExitNoCause = 5

// NoCause says the search found no cause (exit status 5).
func NoCause(format string, args ...any) error {
	return &ExitError{ExitNoCause, fmt.Errorf(format, args...)}
}

// Indistinct says the test fails on the smallest candidate as on the
// original (exit status 4).
func Indistinct(format string, args ...any) error {
	return &ExitError{ExitIndistinct, fmt.Errorf(format, args...)}
}

// outputTail is how many lines of a run's output wynot shows where the
// output is the only evidence of how the run failed.
const outputTail = 8

// failureRule says how the oracle tells the failure, after "a run
// counts as this failure": what it reads of a run, and what it takes for
// another failure. what names the failing original.
func (s *Session) failureRule(what string) string {
	switch o := s.tester.Oracle.(type) {
	case *runner.RegexOracle:
		return fmt.Sprintf("its output matches %q (--fail-on)", Shown(o.Re))
	case *runner.OutputOracle:
		return "when it reproduces the " + what + "'s " + o.Observe.String()
	case *runner.ScriptOracle:
		if s.settings.Script == "" {
			return fmt.Sprintf("the command %s, read by the %s convention (--convention: its output is not read)", endsAs(s.original.Describe()), o.Convention)
		}
		return fmt.Sprintf("%s %s, read by the %s convention", s.settings.Script, endsAs(s.original.Describe()), o.Convention)
	case *runner.SignatureOracle:
		w := o.Want
		same := "" // after "and" or "with"
		switch {
		case w.Message == "":
		case o.Precision == runner.Exit:
			same = " (--precision exit: its message is not compared)"
		case o.Precision >= runner.Stack && len(w.Frames) > 0:
			same = fmt.Sprintf(" the same message and top stack frames (--precision %s)", o.Precision)
		case o.QuotedAside:
			same = " the same message (numbers, addresses, paths and quoted strings aside)"
		default:
			same = " the same message (numbers, addresses and paths aside)"
		}
		with, and := same, same
		if strings.HasPrefix(same, " the") {
			with, and = " with"+same, " and"+same
		}
		switch {
		case w.Phase == runner.NotBuilt:
			return fmt.Sprintf("when it does not build either%s, as %s reports it; a run that builds, or fails to build another way, is not this failure", with, w.Tool)
		case len(w.Failed) > 0:
			list, verb := runner.FailedList(w.Failed), "fails"
			if strings.Contains(list, ", ") || strings.Contains(list, " and ") {
				verb = "fail"
				// Each failing test's message is compared (go test's).
				with = strings.Replace(with, " the same message ", " the same message each ", 1)
			}
			return fmt.Sprintf("when %s %s%s and nothing else fails, as %s reports it; a run whose code does not build, or in which other tests fail, is unresolved", list, verb, with, w.Tool)
		case w.Message != "":
			return fmt.Sprintf("when it %s%s; a run that fails otherwise is unresolved", endsAs(w.Ending), and)
		case w.Tool != "":
			return fmt.Sprintf("when it %s and gets as far, as %s reports it: its output names no more of the failure; state the failure with --fail-on REGEX if another failure could end the same way", endsAs(w.Ending), w.Tool)
		}
		evidence := "the exit status"
		if !strings.HasPrefix(w.Ending, "exit status") {
			evidence = "how it ends"
		}
		return fmt.Sprintf("when it %s: the %s's output names no failure wynot can read, so %s is all that tells it; state the failure with --fail-on REGEX if another failure could end the same way", endsAs(w.Ending), what, evidence)
	}
	return ""
}

// endsAs says how a run ends as a verb phrase, from how Run.Describe or
// a signature's Ending put it: "ends with exit status 2", "times out",
// "is killed by SIGSEGV".
func endsAs(ending string) string {
	if rest, ok := strings.CutPrefix(ending, "timed out"); ok {
		return "times out" + rest
	}
	if strings.HasPrefix(ending, "killed by ") {
		return "is " + ending
	}
	return "ends with " + ending
}

// exitOnly reports whether the oracle tells failures apart by the exit
// status alone (a command or a git bisect script whose output names no
// failure wynot can read): then a result whose output ends otherwise than
// the original's may be another failure. A C-Reduce script decides
// itself what is interesting.
func (s *Session) exitOnly() bool {
	switch o := s.tester.Oracle.(type) {
	case *runner.ScriptOracle:
		return o.Convention == runner.Bisect
	case *runner.SignatureOracle:
		return o.Want.Message == "" && len(o.Want.Failed) == 0 || o.Precision == runner.Exit
	}
	return false
}

// Caveat records a reason why the result may not be what it seems (its
// failure differs from the original's): the closing lines say it before
// any claim, the JSON summary carries it, and the result is then called
// neither confirmed nor 1-minimal (exit status 3).
func (s *Session) Caveat(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.caveats {
		if c == why {
			return
		}
	}
	s.caveats = append(s.caveats, why)
}

func (s *Session) caveatList() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.caveats...)
}

// FailsOtherwise says how a run of a result (what names it) that failed
// ends its output otherwise than the original's did, while the oracle
// reads only the exit status: the same exit status may be another
// failure. It returns "" when they agree, or when the oracle compares
// failures itself. The text is a caveat (Caveat).
func (s *Session) FailsOtherwise(what string, r runner.Run) string {
	if !s.exitOnly() {
		return ""
	}
	want, got := runner.FailureLine(s.original), runner.FailureLine(r)
	if want == got {
		return ""
	}
	return fmt.Sprintf("%s may fail another way than the %s: its output ends %q, where the %s's ends %q, and the exit status cannot tell failures apart; state the failure with --fail-on REGEX (a line of the %s's output that names it)",
		what, s.origWhat, got, s.origWhat, want, s.origWhat)
}

// checkEmpty tests the smallest candidate before the search: when it
// fails as the original does, twice, the test cannot tell inputs apart
// (it always fails, it runs where it cannot work, or the failure needs
// no input), and the run stops with the original's output.
func (s *Session) checkEmpty(ctx context.Context, c runner.Candidate, what string) error {
	s.setDoing("running the test on %s", what)
	rec, err := s.TestOne(ctx, "empty", c)
	if err != nil || rec.Outcome != dd.Fail {
		return err
	}
	v, err := s.decide(ctx, c, 1, what)
	if err != nil || v.Outcome != dd.Fail {
		return err
	}
	hint := ""
	switch argv := s.settings.Argv; {
	case !s.tester.Command.Stdin || s.settings.Script != "":
	case len(argv) > 1 && filepath.Base(argv[0]) == "go" && argv[1] == "test":
		// go test takes a path argument for a package: it reads its
		// files (a fuzz corpus entry, testdata) where they are.
		hint = fmt.Sprintf("\nThe command has no {}, so the test gets the input on its standard input, which go test does not read; go test reads its files where they are (a fuzz corpus entry, testdata), and a path after it names a package, not a file. Copy each candidate where the test reads it, under a name of its own: -- sh -c 'cp {} FILE && %s' (FILE: not the input itself, but one beside it, such as testdata/fuzz/FuzzX/candidate with go test -run FuzzX/candidate), or reduce the directory that holds it", strings.ReplaceAll(ShellQuote(argv), "'", `'\''`))
	default:
		// No {} in the command: the candidate is its standard input.
		hint = fmt.Sprintf("\nThe command has no {}, so the test gets the input on its standard input; if the program reads a file named by an argument, put {} where the file goes: -- %s {}", ShellQuote(argv))
		if i := missingArg(argv, s.original); i > 0 {
			// A file the command names is not there, and the run says
			// so: a typo for the input, which {} takes the place of.
			fixed := ShellQuote(argv[:i]) + " " + runner.Placeholder
			if i+1 < len(argv) {
				fixed += " " + ShellQuote(argv[i+1:])
			}
			hint = fmt.Sprintf("\nThe command names %s, which does not exist (the run says so), and has no {}, so the test gets the input on its standard input; if that file was meant to be the input, put {} in its place: -- %s", ShellQuote(argv[i:i+1]), fixed)
		}
	}
	return Indistinct("%s fails as the %s does (%s): the test cannot tell them apart, so there is nothing to search for; the test always fails, or fails for a reason that is not in its input (it cannot work where it runs, %s; it reads a file wynot does not give it), or the failure needs no input at all. The %s's run, %s.\nRun the test by hand on %s to see what it does, or state the failure with --fail-on REGEX (for a --test script, make it tell this failure from others)%s%s",
		what, s.origWhat, rec.Detail, s.where(), s.origWhat, s.original.Explain(), what, hint, s.executorHint())
}

// missingArg is the index of the first argument of argv (after the
// program) that names a file that does not exist, where the run's
// output names it too (no such file); 0 when there is none.
func missingArg(argv []string, r runner.Run) int {
	out := string(r.Stderr) + string(r.Stdout)
	for i, a := range argv {
		if i == 0 || a == "" || strings.HasPrefix(a, "-") || !strings.ContainsAny(a, "./") || !strings.Contains(out, a) {
			continue
		}
		if _, err := os.Stat(a); errors.Is(err, fs.ErrNotExist) {
			return i
		}
	}
	return 0
}

// tail is the end of a run's output for the test log: its last lines,
// each after "    | ", or "" when it printed nothing.
func tail(r runner.Run, n int) string {
	out := r.Stderr
	if len(strings.TrimSpace(string(out))) == 0 {
		out = r.Stdout
	}
	s := strings.TrimRight(string(out), "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    | " + strings.Join(lines, "\n    | ") + "\n"
}
