package reduce

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/split"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
)

// Close fills in the summary and says where the results are.
func (rd *reducer) Close(sum *report.Summary, end command.End) command.Closing {
	rd.summarize(sum)
	c := command.Closing{Page: rd.page, Tail: rd.res.Where()}
	pct := report.Percent(100 * float64(sum.SizeAfter) / float64(max(sum.SizeBefore, 1)))
	what, kind := keep.Quote(rd.ins[0].Path), "input"
	sizes := fmt.Sprintf("from %s to %s (%s)", report.Plural(sum.SizeBefore, "byte"), report.Plural(sum.SizeAfter, "byte"), pct)
	switch {
	case rd.tree != nil:
		what, kind, sum.Result = keep.Quote(rd.tree.result.Path), "tree", rd.tree.result.Dest
		sizes = fmt.Sprintf("from %s (%s) to %s (%s, %s)", report.Plural(len(rd.ins), "file"), report.Plural(sum.SizeBefore, "byte"),
			report.Plural(rd.present(), "file"), report.Plural(sum.SizeAfter, "byte"), pct)
	case len(rd.ins) > 1:
		what, sum.Result = report.Plural(len(rd.ins), "file"), filepath.Dir(rd.ins[0].Dest)
	default:
		sum.Result = rd.ins[0].Dest
	}
	c.Head = []string{fmt.Sprintf("reduced %s %s in %s%s, %.1fs", what, sizes, report.Plural(sum.Tests, "test"), rd.predictedNote(sum), sum.Seconds)}
	var v string
	switch {
	case end.Interrupted && rd.tree != nil:
		v = "interrupted: the result is the smallest failing tree found so far, not 1-minimal"
	case end.Interrupted:
		v = "interrupted: the result is the smallest failing input found so far, not 1-minimal"
	case !end.Minimal:
		v = "the result is not certified 1-minimal"
	case rd.tree != nil:
		v = "the result is 1-minimal: removing any single one of its files, or making any single one of the changes its files' passes offer (syntax tree transformations, lines, tokens, characters, replacements), makes the failure go away"
	case rd.Split.Syntactic():
		v = "the result is 1-minimal: making any single one of its remaining syntax tree transformations makes the failure go away"
	case slices.ContainsFunc(rd.ins, func(in *input) bool { return in.syn != nil }):
		v = fmt.Sprintf("the result is 1-minimal: making any single one of its remaining syntax tree transformations, or removing any single one of its tokens or %s, makes the failure go away or leaves source that does not parse", rd.granularity())
	case rd.Split.Kind == split.Auto:
		what := "a word, number, string or bracket group"
		if sum.SizeAfter <= decomp.MaxSmallerChars {
			what = "a word, number, string, bracket group or character" // decomp.SmallerChars
		}
		v = fmt.Sprintf("the result is 1-minimal: removing any single one of its %s, or any single replacement of %s by a smaller one, makes the failure go away", rd.granularity(), what)
	default:
		v = fmt.Sprintf("the result is 1-minimal: removing any single one of its %s makes the failure go away", rd.granularity())
	}
	if end.Minimal && rd.TypeCheck && !rd.typesOff[""] && slices.ContainsFunc(rd.ins, typed) {
		v += rd.typeNote()
	}
	if g := rd.guarantee; end.Minimal && (g.N >= 2 || g.Span >= 2) {
		v += "; " + beyondVerdict(g)
		sum.Detail = &Detail{NMinimal: g.N, Spans: g.Span, SpansOf: g.Spanned, NMinimalBy: finestWords(g.Finest)}
	}
	c.Verdict = []string{v}
	if sum.SizeAfter == 0 && (rd.tree != nil || !end.Interrupted) {
		c.Verdict = append(c.Verdict, fmt.Sprintf("the empty %s fails too (%s): the test does not tell this failure from any other; state it with --fail-on REGEX (a line of the original's output that names the failure)", kind, sum.Signature))
	}
	return c
}

// summarize fills in the summary's part that files and trees share:
// the result's files, sizes, passes and granularity.
func (rd *reducer) summarize(sum *report.Summary) {
	for _, in := range rd.ins {
		sum.SizeBefore += in.Size
		if !in.Removed {
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
	case !rd.TypeCheck || !slices.ContainsFunc(rd.ins, typed) && rd.tree == nil:
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
	if rd.tree != nil {
		return rd.treePage()
	}
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
		return report.Page{Result: string(in.Data)}
	}
	return report.Page{Result: string(in.Data), Diff: decomp.UnifiedLines(data, in.Data, orig, in.Dest, 3)}
}

// Detail is wynot reduce's own part of the JSON summary: what the checks
// past 1-minimality established (set only when the result is certified
// 1-minimal and they established more).
type Detail struct {
	// NMinimal is n when no set of up to n pieces of the finest kind
	// (NMinimalBy) can be removed with the failure still there.
	NMinimal   int      `json:"n_minimal,omitempty"`
	NMinimalBy []string `json:"n_minimal_by,omitempty"`
	// Spans is the longest run of consecutive pieces of any pass (lines,
	// tokens, characters, syntax tree transformations) none of which can
	// be removed at once with the failure still there; SpansOf names
	// those kinds of pieces.
	Spans   int      `json:"spans,omitempty"`
	SpansOf []string `json:"spans_of,omitempty"`
}

// beyondVerdict says what the checks past 1-minimality established:
// "and 3-minimal: no two or three of its characters, and no run of 2
// to 8 consecutive lines, tokens or characters, can be removed at once
// with the failure still there".
func beyondVerdict(g schedule.Guarantee) string {
	by := strings.Join(finestWords(g.Finest), " or ")
	if by == "" {
		by = "pieces"
	}
	var what []string
	switch g.N {
	case 2:
		what = append(what, "no two of its "+by)
	case 3:
		what = append(what, "no two or three of its "+by)
	}
	if g.Span >= 2 {
		kinds := "pieces"
		if n := len(g.Spanned); n == 1 {
			kinds = g.Spanned[0]
		} else if n > 1 {
			kinds = strings.Join(g.Spanned[:n-1], ", ") + " or " + g.Spanned[n-1]
		}
		span := fmt.Sprintf("2 to %d", g.Span)
		if g.Span == 2 {
			span = "2"
		}
		what = append(what, fmt.Sprintf("no run of %s consecutive %s", span, kinds))
	}
	v := "and"
	if g.N >= 2 {
		v += fmt.Sprintf(" %d-minimal:", g.N)
	}
	if len(what) == 2 {
		return fmt.Sprintf("%s %s, and %s, can be removed at once with the failure still there", v, what[0], what[1])
	}
	return fmt.Sprintf("%s %s can be removed at once with the failure still there", v, what[0])
}

// finestWords names the finest passes as a result's pieces are called.
func finestWords(passes []string) []string {
	var out []string
	for _, p := range passes {
		switch p {
		case "runes", "characters":
			p = "characters"
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
