package reduce

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/split"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/report"
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
	probes := &syntax.Probes{PerClass: typeProbes, Most: typeProbes}
	if rd.tree != nil {
		// In a tree, the first pass of each file, and only its first
		// few transformations.
		probes = &syntax.Probes{PerClass: 1, Most: treeTypeProbes, Passes: 1, Tries: treeProbeTries}
	}
	units := rd.treeUnits()
	for k, u := range units {
		passes, err := rd.probePasses(u)
		if err != nil {
			return err
		}
		if err := probes.Add(ctx, k, passes, u.data()); err != nil {
			return fmt.Errorf("%s: %w", u.name, err)
		}
	}
	for _, p := range probes.Found {
		if rd.typesOff[p.Class] {
			continue
		}
		t, err := rd.s.TestOne(ctx, "type check probe", units[p.Unit].candidate(p.Data))
		if err != nil {
			return err
		}
		if t.Outcome == dd.Fail {
			rd.typesOff[p.Class] = true
			rd.s.Say("%s", p.Still)
		}
	}
	return nil
}

// probePasses are the passes of unit u whose candidates its language
// predicts beyond parsing: a Go package's syntax tree passes, and the
// text passes of a file a language of the tree knows of (a Go module's
// go.mod, go.sum or vendor/modules.txt: candidates that break what it
// describes are probed as those with type errors are). None for other
// units, and for a module's unit, whose files are probed on their own.
func (rd *reducer) probePasses(u unit) ([]decomp.Pass, error) {
	if u.su.Module {
		return nil, nil
	}
	in := rd.ins[u.members[0]]
	switch {
	case in.syn != nil && in.syn.Typed:
		passes, _, err := u.passes()
		return passes, err
	case rd.textFinish(in) != nil:
		_, passes, err := rd.passList(in)
		return passes, err
	}
	return nil, nil
}

// maxTypeProbe is the largest result whose candidates one change away
// that its language rejected for a new type error are tested
// (probeTypesAgain): typeProbeTests of them at most, and no more than a
// quarter of the tests the search made so far, but at least
// minTypeProbeTests.
const (
	maxTypeProbe      = 1024
	typeProbeTests    = 64
	minTypeProbeTests = 16
)

// probeTypesAgain tests, once the input is 1-minimal among the
// candidates its language did not predict and small (maxTypeProbe),
// those one change away that it predicted for a new type error (within a
// budget tied to the search's tests). The
// probes before the search were made on the original, where a new type
// error may well have changed the failure (an error reported before the
// one that is the failure, in a large tree), while on the small result
// it may not (go build reports the failure's error first, and the new
// one after it). The first that still fails is taken, the predictions
// of its class are turned off as after a probe, and it reports true:
// the search goes on from it. Not when --typecheck was asked for.
func (rd *reducer) probeTypesAgain(ctx context.Context) (bool, error) {
	if !rd.TypeCheck || rd.typeCheckAsked || rd.size() > maxTypeProbe {
		return false, nil
	}
	if rd.typesOff == nil {
		rd.typesOff = map[string]bool{}
	}
	budget := min(typeProbeTests, max(minTypeProbeTests, rd.s.Stats().Tests()/4))
	preds := map[string]syntax.Prediction{} // by candidate
	// Only the passes the probes before the search take: a
	// character's removal that leaves a name undefined says nothing a
	// transformation of the tree does not.
	probed := map[string]map[string]bool{} // the passes probePasses gives, by unit
	passes := func(u schedule.Unit[unit], pass string) bool {
		names := probed[u.Name]
		if names == nil {
			names = map[string]bool{}
			ps, _ := rd.probePasses(u.Of)
			for _, p := range ps {
				names[p.Name()] = true
			}
			probed[u.Name] = names
		}
		return names[pass]
	}
	cands, err := rd.schedule().Rejected(ctx, budget, passes, func(err error, data []byte) bool {
		p, ok := syntax.Predicts(err)
		preds[string(data)] = p
		return ok && !rd.typesOff[p.Class]
	})
	if err != nil || len(cands) == 0 {
		return false, err
	}
	s := rd.s
	s.Logf("Pass type probe: %s\n", report.Plural(len(cands), "candidate"))
	s.Status(func(ps *report.Status) { ps.Pass, ps.Granularity = "type probe", 0 })
	st := report.PassStats{Name: "type probe: changes whose candidates have a new type error", BytesBefore: rd.size()}
	t0 := time.Now()
	first, tested, err := schedule.FirstFailing(ctx, len(cands), s.Jobs, func(ctx context.Context, i int) (dd.Outcome, error) {
		rec, err := s.TestOne(ctx, "type probe", cands[i].Unit.Of.candidate(cands[i].Data))
		return rec.Outcome, err
	})
	st.Tests, st.Seconds, st.BytesAfter = tested, time.Since(t0).Seconds(), rd.size()
	defer func() { rd.passes = append(rd.passes, st) }()
	if err != nil || first < 0 {
		return false, err
	}
	c := cands[first]
	p := preds[string(c.Data)]
	rd.typesOff[p.Class] = true
	s.Say("%s", p.Still)
	c.Unit.Of.improve(c.Data)
	st.BytesAfter = rd.size()
	return true, nil
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

// maxParseProbe is the largest result whose removals of single
// characters that leave it not parsing are tested (probeParse): one test
// each at most.
const maxParseProbe = 64

// probeParse tests, once a single input in a language is 1-minimal and
// small (maxParseProbe), the removals of one character that its
// language rejected without a test because they no longer parse: a
// crash in a compiler's later phases needs no well-formed input (a
// missing closing brace the compiler never reaches). The first that
// still fails is taken, and the input is reduced as text from then on,
// every candidate tested. It reports whether one failed. Only under
// --split auto: --split tree:LANG or go asks for a result that parses;
// --n-minimal 0 turns it off, as every check past 1-minimality.
func (rd *reducer) probeParse(ctx context.Context) (bool, error) {
	if rd.tree != nil || rd.Beyond == 0 || len(rd.ins) != 1 || rd.Split.Kind != split.Auto {
		return false, nil
	}
	in := rd.ins[0]
	if in.syn == nil || in.syn.Finish == nil || len(in.Data) > maxParseProbe || !utf8.Valid(in.Data) {
		return false, nil
	}
	var cands [][]byte
	for i, r := range string(in.Data) {
		cand := slices.Concat(in.Data[:i], in.Data[i+utf8.RuneLen(r):])
		if _, err := in.syn.Finish(cand); err == nil {
			continue // it parses: the search tested it
		} else if _, typed := syntax.Predicts(err); typed {
			continue // a prediction beyond parsing: probeTypes decides those
		}
		if len(cands) == 0 || !bytes.Equal(cands[len(cands)-1], cand) {
			cands = append(cands, cand)
		}
	}
	if len(cands) == 0 {
		return false, nil
	}
	s := rd.s
	s.Logf("Pass parse probe: %s\n", report.Plural(len(cands), "candidate"))
	s.Status(func(ps *report.Status) { ps.Pass, ps.Granularity = "parse probe", 0 })
	st := report.PassStats{Name: "parse probe: characters whose removal leaves it not parsing", BytesBefore: len(in.Data)}
	t0 := time.Now()
	first, tested, err := schedule.FirstFailing(ctx, len(cands), s.Jobs, func(ctx context.Context, i int) (dd.Outcome, error) {
		rec, err := s.TestOne(ctx, "parse probe", rd.candidate(0, cands[i]))
		return rec.Outcome, err
	})
	st.Tests, st.Seconds, st.BytesAfter = tested, time.Since(t0).Seconds(), len(in.Data)
	if first >= 0 {
		st.BytesAfter = len(cands[first])
	}
	rd.passes = append(rd.passes, st)
	if err != nil || first < 0 {
		return false, err
	}
	s.Say("%s with one character less, which no longer parses as %s, still fails: the test does not need the input to parse, so from now on it is reduced by lines, tokens and characters, every candidate tested", in.Name, in.syn.Lang)
	in.syn = nil
	rd.improve(in, cands[first])
	return true, nil
}
