package syntax

import (
	"context"

	"github.com/wynot/wynot/domain/decomp"
)

// Probes picks the candidates that tell, before a search, whether a
// language's predictions beyond parsing hold for a test: candidates
// that parse but that the language rejects (a new type error), each one
// change of a pass removed. When such a candidate fails its test, the
// test does not need what the language checks (a grep, a formatter, a
// parser), and candidates of its class are tested from then on instead
// of predicted.
type Probes struct {
	PerClass int // the most probes of one class of prediction
	Most     int // the most probes in all
	// Passes is how many of each unit's passes are tried (0: all), and
	// Tries how many of each pass's changes (0: all): a probe is a
	// guess, and checking a candidate of a large tree costs.
	Passes, Tries int
	// Predicts is the languages' prediction (nil: Predicts).
	Predicts func(error) (Prediction, bool)
	Found    []Probe
	classes  map[string]int
}

// Probe is a candidate of a unit that a language predicts.
type Probe struct {
	Prediction
	Unit int    // as Add was told
	Data []byte // the unit's text in the candidate
}

// Add looks for probes among the candidates of the unit's passes over
// its text data.
func (p *Probes) Add(ctx context.Context, unit int, passes []decomp.Pass, data []byte) error {
	if p.classes == nil {
		p.classes = map[string]int{}
	}
	predicts := p.Predicts
	if predicts == nil {
		predicts = Predicts
	}
	if p.Passes > 0 {
		passes = passes[:min(len(passes), p.Passes)]
	}
	for _, sp := range passes {
		plan, err := sp.Plan(data)
		if err != nil {
			return err
		}
		tries := plan.Len()
		if p.Tries > 0 {
			tries = min(tries, p.Tries)
		}
		for i := 0; i < tries && len(p.Found) < p.Most; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			keep := make([]int, 0, plan.Len()-1)
			for k := range plan.Len() {
				if k != i {
					keep = append(keep, k)
				}
			}
			cand, err := plan.Apply(keep)
			if pr, ok := predicts(err); ok && cand != nil && p.classes[pr.Class] < p.PerClass {
				p.classes[pr.Class]++
				p.Found = append(p.Found, Probe{Prediction: pr, Unit: unit, Data: cand})
			}
		}
	}
	return nil
}
