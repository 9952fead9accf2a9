package reduce

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/report"
)

// Close fills in the summary and says where the results are.
func (rd *reducer) Close(sum *report.Summary, end command.End) command.Closing {
	rd.summarize(sum)
	if rd.tree != nil {
		return rd.treeClosing(sum, end)
	}
	if len(rd.ins) == 1 {
		sum.Result = rd.ins[0].Dest
	} else {
		sum.Result = filepath.Dir(rd.ins[0].Dest)
	}
	c := command.Closing{Page: rd.page}
	pct := 100 * float64(sum.SizeAfter) / float64(max(sum.SizeBefore, 1))
	what := rd.ins[0].Path
	if len(rd.ins) > 1 {
		what = report.Plural(len(rd.ins), "file")
	}
	c.Head = []string{fmt.Sprintf("reduced %s from %s to %s (%s) in %s%s, %.1fs", what,
		report.Plural(sum.SizeBefore, "byte"), report.Plural(sum.SizeAfter, "byte"), report.Percent(pct),
		report.Plural(sum.Tests, "test"), rd.predictedNote(sum), sum.Seconds)}
	var v string
	switch {
	case end.Interrupted:
		v = "interrupted: the result is the smallest failing input found so far, not 1-minimal"
	case end.Minimal && rd.Split.syntactic():
		v = "the result is 1-minimal: making any single one of its remaining syntax tree transformations makes the failure go away"
	case end.Minimal && slices.ContainsFunc(rd.ins, func(in *input) bool { return in.syn != nil }):
		v = fmt.Sprintf("the result is 1-minimal: making any single one of its remaining syntax tree transformations, or removing any single one of its tokens or %s, makes the failure go away or leaves source that does not parse", rd.granularity())
	case end.Minimal && rd.Split.Kind == Auto:
		v = fmt.Sprintf("the result is 1-minimal: removing any single one of its %s, or any single replacement of a word, number, string or bracket group by a smaller one, makes the failure go away", rd.granularity())
	case end.Minimal:
		v = fmt.Sprintf("the result is 1-minimal: removing any single one of its %s makes the failure go away", rd.granularity())
	default:
		v = "the result is not certified 1-minimal"
	}
	if end.Minimal && rd.TypeCheck && !rd.typesOff[""] && slices.ContainsFunc(rd.ins, typed) {
		v += rd.typeNote()
	}
	c.Verdict = []string{v}
	if sum.SizeAfter == 0 && !end.Interrupted {
		c.Verdict = append(c.Verdict, emptyHint(sum, "input"))
	}
	for _, in := range rd.ins {
		switch {
		case !in.Written() && in.Dest == in.Path && in.Backup != "":
			c.Tail = append(c.Tail, fmt.Sprintf("%s is unchanged: nothing smaller fails; the original is in %s", in.Path, in.Backup))
		case !in.Written() && in.Dest == in.Path:
			c.Tail = append(c.Tail, fmt.Sprintf("%s is unchanged: nothing smaller fails", in.Path))
		case in.Backup != "":
			c.Tail = append(c.Tail, fmt.Sprintf("%s now holds the result; the original is in %s", in.Path, in.Backup))
		default:
			c.Tail = append(c.Tail, fmt.Sprintf("result written to %s", in.Dest))
		}
	}
	return c
}

// summarize fills in the summary's part that files and trees share:
// the result's files, sizes, passes and granularity.
func (rd *reducer) summarize(sum *report.Summary) {
	for _, in := range rd.ins {
		sum.SizeBefore += in.Size
		if !in.removed {
			sum.Files = append(sum.Files, in.Dest)
		}
	}
	sum.Passes, sum.Formatted = rd.passes, rd.formatted
	sum.SizeAfter = rd.size()
	sum.ElementsBefore, sum.ElementsAfter = rd.elements0, rd.elements()
	sum.Granularity = rd.granularity()
}

// predictedNote says, in the closing line, how many candidates were
// predicted without a test, and why.
func (rd *reducer) predictedNote(sum *report.Summary) string {
	if sum.Predicted == 0 {
		return ""
	}
	why := "parse"
	switch {
	case !rd.TypeCheck:
	case slices.ContainsFunc(rd.ins, func(in *input) bool { return typed(in) && in.syn.Lang != "go" }):
		why = "parse or pass their language's checks"
	default:
		why = "parse or type-check"
	}
	why = "they did not " + why
	if n := rd.unsimpler.Load(); n > 0 {
		why = fmt.Sprintf("%s, or (%d of them) would not have made the input smaller", why, n)
	}
	return fmt.Sprintf(" (and %d candidates predicted unresolved without a test: %s)", sum.Predicted, why)
}

// page is what the report shows of a single input: the result and its
// difference from the original.
func (rd *reducer) page() report.Page {
	if len(rd.ins) != 1 {
		return report.Page{}
	}
	in := rd.ins[0]
	orig := in.Path
	if in.Backup != "" {
		orig = in.Backup
	}
	data, err := in.Original()
	if err != nil {
		return report.Page{Result: string(in.data)}
	}
	o, _ := decomp.Lines{}.Cut(data)
	n, _ := decomp.Lines{}.Cut(in.data)
	return report.Page{Result: string(in.data), Diff: decomp.Diff(o, n).Unified(orig, in.Dest, 3)}
}
