package trace

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
)

// maxShown bounds the instances shown on one line of the slice;
// maxRows the rows before statements without kept instances are left
// out; maxUnguarded the unguarded statements listed.
const (
	maxShown     = 12
	maxRows      = 40
	maxUnguarded = 5
)

// slice is the critical slice by statement, in source order: every
// statement the original run executed, with the instances kept.
func (t *Trace) slice() []SliceLine {
	// Times of the kept instances, from the reduced run's timeline (as
	// the confirmation recorded it): the position among the statement
	// instances it executed or skipped.
	times := map[inst]int{}
	ran := map[int]int{}
	if r, err := t.recorded("result"); err == nil {
		for id, n := range r.counts {
			ran[id] = int(n)
		}
		if r.complete {
			for i, x := range t.instances(r, isStmt) {
				times[x] = i + 1
			}
		}
	}
	byID := map[int][]inst{}
	for _, x := range t.kept {
		byID[x.id] = append(byID[x.id], x)
	}
	var out []SliceLine
	for _, st := range t.prog.Stmts {
		ks := byID[st.ID]
		orig := 0
		if st.ID < len(t.origCounts) {
			orig = int(t.origCounts[st.ID])
		}
		if len(ks) == 0 && orig == 0 || st.Kind != instrument.Statement {
			continue
		}
		l := SliceLine{File: st.File, Line: st.Line, Text: st.Text, Ran: orig, Kept: []int{}}
		reached, recorded := ran[st.ID]
		if recorded {
			l.Reached = &reached
		} else {
			reached = orig
		}
		slices.SortFunc(ks, func(a, b inst) int { return int(a.k) - int(b.k) })
		for _, x := range ks {
			if t.paired && int(x.k) > reached {
				// Not executed by the failing run under the slice's
				// plan: an instance the passing run's output needs.
				l.PassOnly = append(l.PassOnly, int(x.k))
				continue
			}
			l.Kept = append(l.Kept, int(x.k))
			if tm, ok := times[x]; ok {
				l.Times = append(l.Times, tm)
			}
		}
		if len(l.Times) != len(l.Kept) {
			l.Times = nil
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b SliceLine) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return a.Line - b.Line
	})
	return out
}

// table writes the slice as the seed's Fig. 6 shows it: each statement,
// its kept instances as line_time (the instance's time in the reduced
// run), and how many of its executions are kept.
func table(lines []SliceLine) string {
	var b strings.Builder
	wLoc, wText, wCount := 0, 0, 0
	for _, l := range lines {
		wLoc = max(wLoc, len(fmt.Sprintf("%s:%d", l.File, l.Line)))
		wText = max(wText, len([]rune(l.Text)))
		wCount = max(wCount, len(fmt.Sprintf("%d of %d", len(l.Kept), l.Ran)))
	}
	wText = min(wText, 48)
	for _, l := range lines {
		text := l.Text
		if r := []rune(text); len(r) > wText {
			text = string(r[:wText-1]) + "…"
		}
		shown := "·"
		if len(l.Kept) > 0 {
			shown = instances(l)
		}
		if len(l.PassOnly) > 0 {
			shown = strings.TrimPrefix(strings.TrimPrefix(shown, "·")+" + "+passOnly(l), " ")
		}
		loc := fmt.Sprintf("%s:%d", l.File, l.Line)
		count := fmt.Sprintf("%d of %d", len(l.Kept), l.Ran)
		fmt.Fprintf(&b, "  %-*s  %-*s  %*s  %s\n", wLoc, loc, wText, text, wCount, count, shown)
	}
	return b.String()
}

// words say in the report what the outcomes of wynot trace's tests
// mean: a partial run that reproduces the original output is the
// "failure" ddmin keeps.
var words = report.Words{dd.Pass: "DIFFERS", dd.Fail: "REPRODUCED"}

// Close fills in the summary and shows the slice.
func (t *Trace) Close(sum *report.Summary, end command.End) command.Closing {
	sum.SizeBefore, sum.ElementsBefore = t.before, t.before
	sum.SizeAfter, sum.ElementsAfter = len(t.kept), len(t.kept)
	sum.Unit, sum.Granularity = "instances", "statement instances"
	d := Detail{Instrumented: t.instrumented, NotInstrumented: t.notInstrumented, Observe: t.obs.String(), Slice: t.slice(), Unguarded: len(t.prog.Unguarded), BuildSecs: t.buildTime.Seconds(),
		Hierarchy: "off", Levels: t.levels, Renumbered: t.renumbered}
	if t.paired {
		d.Pass = &PassRun{Args: append([]string{}, t.passArgs...), Stdin: t.PassStdin}
	}
	sum.Algorithm = "ddmin over statement instances"
	if t.hierarchy {
		sum.Algorithm = "hierarchical ddmin: functions and loops, calls and iterations, statements, statement instances"
		d.Hierarchy = "on"
	}
	for _, id := range sortedKeys(t.skip) {
		p := instrument.Plan{Skip: map[int][]uint32{id: t.skip[id]}}.Encode()
		line := strings.TrimSpace(string(p[strings.IndexByte(string(p), '\n')+1:]))
		d.Skipped = append(d.Skipped, strings.TrimPrefix(line, "skip "))
	}
	sum.Detail = d
	rows, dropped := d.Slice, 0
	if len(rows) > maxRows {
		rows = nil
		for _, l := range d.Slice {
			if len(l.Kept) > 0 {
				rows = append(rows, l)
			} else {
				dropped++
			}
		}
	}
	text := table(rows)
	if dropped > 0 {
		text += fmt.Sprintf("  (and %s that ran with no instance in the slice; --json lists every one)\n", report.Plural(dropped, "statement"))
	}
	sum.Result = report.Inline
	what := "the original run's output"
	if t.obs.Lines != nil || !(t.obs.Stdout && t.obs.Stderr && t.obs.Exit) {
		what = "the original run's " + t.obs.String()
	}
	changes := what // what skipping one more instance changes
	if t.paired {
		changes = what + " or the passing run's"
		what += " and the passing run's"
	}
	c := command.Closing{
		Head: []string{fmt.Sprintf("critical slice: %d of %s %s for %s (%s, %.1fs)",
			len(t.kept), report.Plural(t.before, "executed statement instance"), map[bool]string{true: "matters", false: "matter"}[t.before == 1], what,
			report.Plural(sum.Tests, "test"), sum.Seconds)},
		Text: text,
		Page: func() report.Page {
			return report.Page{Result: text + "\n" + annotated(d.Slice, t.source), Words: words}
		},
	}
	if end.Interrupted {
		c.Head[0] = fmt.Sprintf("interrupted after %s: the slice so far keeps %d of %s (%.1fs)", report.Plural(sum.Tests, "test"),
			len(t.kept), report.Plural(t.before, "executed statement instance"), sum.Seconds)
	}
	if t.hierarchy {
		var ls []string
		for _, l := range t.levels {
			how := report.Plural(l.Tests, "test")
			if l.Interrupted {
				how += ", interrupted: not in the slice"
			}
			ls = append(ls, fmt.Sprintf("%s %d → %d (%s)", l.Name, l.Before, l.After, how))
		}
		c.Head = append(c.Head, "levels: "+strings.Join(ls, ", "))
	}
	switch {
	case end.Interrupted:
		c.Verdict = []string{"interrupted: the slice is the smallest found so far, not 1-minimal"}
	case end.Minimal:
		c.Verdict = []string{"the slice is 1-minimal: skipping any single one of its instances changes " + changes}
	default:
		c.Verdict = []string{"the slice is not certified 1-minimal"}
	}
	if t.renumbered {
		c.Tail = append(c.Tail, "#k is a statement's k-th execution in the run without the "+t.levelsDone()+" found unneeded, not in the original run; \"K of N\" counts the original run's N executions")
	}
	if t.paired {
		only := 0
		for _, l := range d.Slice {
			only += len(l.PassOnly)
		}
		c.Tail = append(c.Tail, fmt.Sprintf("each test also ran the passing run (%s) with the same instances skipped (the k-th execution of a statement in one run is the k-th in the other) and required its output too: an instance is in the slice when skipping it in both runs changes the output of either",
			passShown(t.passArgs, t.PassStdin)))
		if only > 0 {
			c.Tail[len(c.Tail)-1] += fmt.Sprintf(" (%s of the slice the failing run no longer executes with the slice's plan: \"in the passing run\")", report.Plural(only, "instance"))
		}
	}
	if n := t.shallow(); n > 0 && end.Confirmed && t.paired {
		d.Shallow = true
		c.Tail = append(c.Tail, fmt.Sprintf("every instance of the slice is in %s: a run that skips all %s the program executed outside it reproduces %s", mainFunc, report.Plural(n, "statement instance"), what))
		sum.Detail = d
	} else if n > 0 && end.Confirmed {
		d.Shallow = true
		c.Tail = append(c.Tail, fmt.Sprintf("every instance of the slice is in %s: a run that skips all %s the program executed outside it (every call into its other functions and its libraries) reproduces %s, as the run confirming the slice did. What those calls computed does not show in it (an empty or constant output), so the slice cannot show what made it wrong there. Give a run whose output is right with --pass 'ARGS': each test then runs it too with the same instances skipped, and the slice keeps what that output needs as well; or compare the two runs with wynot chain, or name the part of the output to reproduce with --observe",
			mainFunc, report.Plural(n, "statement instance"), what))
		sum.Detail = d
	}
	if n := len(t.prog.Unguarded); n > 0 {
		c.Tail = append(c.Tail, fmt.Sprintf("%s could not be guarded and always ran:", report.Plural(n, "statement")))
		for i, u := range t.prog.Unguarded {
			if i == maxUnguarded {
				c.Tail = append(c.Tail, fmt.Sprintf("  and %d more", n-maxUnguarded))
				break
			}
			c.Tail = append(c.Tail, fmt.Sprintf("  %s:%d: %s", u.File, u.Line, u.Why))
		}
	}
	if t.Output != "" {
		if err := keep.WriteAtomic(t.Output, []byte(text), 0o644); err != nil {
			c.Err = command.InputError("writing %s: %v", keep.Quote(t.Output), keep.UnwrapPath(err))
			if keep.Full(err) {
				c.Err = command.InputError("%w", keep.NoRoom(err, "-o "+keep.Quote(t.Output), t.Output, "the slice"))
			}
		} else {
			c.Tail = append(c.Tail, "the slice is in "+keep.Quote(t.Output))
		}
	}
	return c
}

// passShown names the passing run as the text output does.
func passShown(args []string, stdin string) string {
	shown := "no arguments"
	if len(args) > 0 {
		shown = command.ShellQuote(args)
	}
	if stdin != "" {
		shown += ", standard input " + stdin
	}
	return shown
}

// mainFunc is the function a Go program's run begins in.
const mainFunc = "main.main"

// shallow says that the slice holds only instances of the main
// function's own statements while the run executed statements of other
// functions too (n of them): skipping all of those, every call into the
// program's other functions and its libraries, reproduces the output.
func (t *Trace) shallow() (n int) {
	if t.GDB {
		return 0
	}
	for _, x := range t.kept {
		if t.prog.Stmt(x.id).Func != mainFunc {
			return 0
		}
	}
	for id := 1; id < len(t.origCounts); id++ {
		if st := t.prog.Stmt(id); st.Kind == instrument.Statement && st.Func != mainFunc {
			n += int(t.origCounts[id])
		}
	}
	return n
}

func sortedKeys(m map[int][]uint32) []int {
	ks := make([]int, 0, len(m))
	for k, v := range m {
		if len(v) > 0 {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// contextLines is how many lines around the statements that ran the
// annotated source shows.
const contextLines = 2

// annotated is the source of the files the slice's statements are in,
// each line that ran with its kept instances beside it, with a few lines
// of context (for the report).
func annotated(lines []SliceLine, source func(string) string) string {
	byFile := map[string]map[int][]SliceLine{}
	var files []string
	for _, l := range lines {
		if byFile[l.File] == nil {
			byFile[l.File] = map[int][]SliceLine{}
			files = append(files, l.File)
		}
		byFile[l.File][l.Line] = append(byFile[l.File][l.Line], l)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(source(f))
		if err != nil {
			continue
		}
		src := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		show := make([]bool, len(src)+1)
		for n := range byFile[f] {
			for i := max(1, n-contextLines); i <= min(len(src), n+contextLines); i++ {
				show[i] = true
			}
		}
		fmt.Fprintf(&b, "── %s\n", f)
		gap := false
		for n := 1; n <= len(src); n++ {
			if !show[n] {
				gap = true
				continue
			}
			if gap {
				b.WriteString("   ⋮\n")
				gap = false
			}
			note := ""
			for _, l := range byFile[f][n] {
				if note != "" {
					note += "; "
				}
				note += fmt.Sprintf("%d of %d", len(l.Kept), l.Ran)
				if len(l.Kept) > 0 {
					note += " " + instances(l)
				}
			}
			mark := " "
			if note != "" {
				mark = "·"
				for _, l := range byFile[f][n] {
					if len(l.Kept) > 0 {
						mark = "●"
					}
				}
			}
			text := strings.ReplaceAll(src[n-1], "\t", "    ")
			if note != "" {
				fmt.Fprintf(&b, "%s %5d  %-60s  %s\n", mark, n, text, note)
			} else {
				fmt.Fprintf(&b, "%s %5d  %s\n", mark, n, text)
			}
		}
		if gap {
			b.WriteString("   ⋮\n")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// passOnly writes a line's instances that only the passing run
// executed.
func passOnly(l SliceLine) string {
	var ks []string
	for _, k := range l.PassOnly {
		ks = append(ks, fmt.Sprintf("#%d", k))
	}
	return strings.Join(ks, " ") + " in the passing run"
}

// instances writes a line's kept instances as the table does.
func instances(l SliceLine) string {
	var out []string
	for i, k := range l.Kept {
		if i == maxShown {
			out = append(out, fmt.Sprintf("… (+%d)", len(l.Kept)-maxShown))
			break
		}
		if l.Times != nil {
			out = append(out, fmt.Sprintf("%d%s", l.Line, subscript(l.Times[i])))
		} else {
			out = append(out, fmt.Sprintf("#%d", k))
		}
	}
	return strings.Join(out, " ")
}
