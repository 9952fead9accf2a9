package reduce

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/runner"
)

// typeProbes is how many candidates with a new type error are tested
// before the search, to learn whether type errors predict the outcome;
// in a tree, one per package where such errors are, up to
// treeTypeProbes in all.
const (
	typeProbes     = 3
	treeTypeProbes = 12
	treeProbeTries = 24 // transformations tried per file for a probe in a tree
)

// probeTypes tests, before any search, a few candidates that parse but
// have a new type error (each one transformation of the first passes
// made): when one of them fails, the test does not compile the code
// (a grep, a formatter, a parser) and such candidates are tested from
// then on instead of being predicted unresolved. Deciding this before
// the first prediction keeps every prediction consistent with the
// tests. In a tree this is decided per package: "go vet ./..." still
// reports a failure in one package when another does not build, and
// "go build ./cmd/x" does not build what x does not import.
func (rd *reducer) probeTypes(ctx context.Context) error {
	rd.typesOff = map[string]bool{}
	if !rd.TypeCheck {
		return nil
	}
	perClass, most := typeProbes, typeProbes
	if rd.tree != nil {
		perClass, most = 1, treeTypeProbes
	}
	var probes []runner.Candidate
	var why []syntax.Prediction
	classes := map[string]int{}
	for _, u := range rd.treeUnits() {
		if u.su.Module {
			continue // its files are probed on their own
		}
		in := rd.ins[u.members[0]]
		var tree []decomp.Pass
		switch {
		case in.syn != nil && in.syn.Typed:
			ps, _, err := rd.unitPasses(u)
			if err != nil {
				return err
			}
			tree = ps
		case rd.textFinish(in) != nil:
			// A file a language of the tree knows of (a Go module's
			// go.mod, go.sum or vendor/modules.txt): candidates that
			// break what it describes are probed as those with type
			// errors are.
			_, text, err := rd.passList(in)
			if err != nil {
				return err
			}
			tree = text
		default:
			continue
		}
		tries := math.MaxInt
		if rd.tree != nil {
			// In a tree, the first pass of each file, and only its
			// first few transformations: a probe is a guess, and
			// type-checking a candidate with its package costs.
			tree, tries = tree[:min(len(tree), 1)], treeProbeTries
		}
		for _, sp := range tree {
			plan, err := sp.Plan(rd.data(u))
			if err != nil {
				return fmt.Errorf("%s: %s: %w", u.name, sp.Name(), err)
			}
			all := dd.All(plan.Len())
			for i := 0; i < plan.Len() && i < tries && len(probes) < most; i++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				data, err := plan.Apply(slices.Delete(slices.Clone(all), i, i+1))
				if p, ok := syntax.Predicts(err); ok && data != nil && classes[p.Class] < perClass {
					classes[p.Class]++
					probes = append(probes, rd.unitCandidate(u, data))
					why = append(why, p)
				}
			}
		}
	}
	for i, c := range probes {
		p := why[i]
		if rd.typesOff[p.Class] {
			continue
		}
		t, err := rd.s.TestOne(ctx, "type check probe", c)
		if err != nil {
			return err
		}
		if t.Outcome != dd.Fail {
			continue
		}
		rd.typesOff[p.Class] = true
		rd.s.Say("%s", p.Still)
	}
	return nil
}

// typeNote says, after a verdict of 1-minimality, which candidates were
// not run because their language predicted them (type errors).
func (rd *reducer) typeNote() string {
	var off []string
	for d, ok := range rd.typesOff {
		if ok && d != "" {
			off = append(off, d)
		}
	}
	slices.Sort(off)
	i := slices.IndexFunc(rd.ins, typed)
	l, err := syntax.Lookup(rd.ins[i].syn.Lang)
	if err != nil {
		return ""
	}
	var units []syntax.Unit
	for _, u := range rd.extraUnits() {
		units = append(units, u.su)
	}
	return l.Untested(off, units)
}

// tested says that a candidate a plan rejected with err is tested all
// the same: its language predicted it beyond parsing (a new type error),
// and probeTypes found that such predictions predict nothing for this
// test.
func (rd *reducer) tested(err error, data []byte) bool {
	p, ok := syntax.Predicts(err)
	return data != nil && ok && rd.typesOff[p.Class]
}

// typed says the input is in a language that predicts candidates beyond
// parsing (Go's type checks).
func typed(in *input) bool { return in.syn != nil && in.syn.Typed }

// passList lists the passes of one round over input in: the tree passes
// of an input in a known language (none for text), and the text passes:
// for auto, coarse to fine, lines, bracket groups (whole, then contents)
// at each depth, tokens, and characters (bytes for input that is not
// UTF-8), then replacements (decomp.Replacements); for an input in a
// known language only tokens and characters, and only where they leave
// it parsing.
func (rd *reducer) passList(in *input) (tree, text []decomp.Pass, err error) {
	data := in.data
	if t := rd.langTree(in); t != nil {
		// A file of a tree is prepared with the tree as it is now (a
		// Go file is type-checked with its package, and the packages
		// that import it).
		if syn := t.File(in.Name, data, rd.nowFiles); syn != nil {
			in.syn = syn
		}
	}
	if in.syn != nil {
		// The input parses: the original was checked, and every
		// candidate since was finished by the language. A Go file of
		// a tree has its tree passes with its package (unitPasses).
		if !rd.bundled(in) {
			if tree, err = in.syn.Passes(data); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
			}
		}
		if rd.Split.Kind == Auto {
			l := schedule.Ladder{Rungs: schedule.Tokens | schedule.Chars, Finish: in.syn.Finish}
			if !in.syn.Renames {
				// Go's tree passes shorten names already; in the
				// tree-sitter languages, the replacements do (an
				// identifier at every occurrence, a number by 0 or 1, a
				// string emptied, a group by its first element), each
				// candidate checked to parse.
				l.Rungs |= schedule.Replacements
			}
			text = l.Passes(data)
		}
		return tree, text, nil
	}
	return nil, schedule.Ladder{Rungs: rd.Split.rungs(), Finish: rd.textFinish(in)}.Passes(data), nil
}

// textFinish is what predicts the candidates of the text passes over an
// input in no language that a language of the tree knows of (a Go
// module's go.mod, go.sum or vendor/modules.txt: Tree.Finish), or nil.
func (rd *reducer) textFinish(in *input) func([]byte) ([]byte, error) {
	if rd.tree == nil {
		return nil
	}
	for _, t := range rd.tree.langs {
		if fin := t.Finish(in.Name, in.data, rd.nowFiles); fin != nil {
			return fin
		}
	}
	return nil
}
