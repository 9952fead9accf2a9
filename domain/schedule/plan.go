package schedule

import (
	"encoding/binary"
	"errors"
	"sync"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
)

// ErrNotSimpler is why a configuration whose content is not simpler than
// the unit's is no candidate (PlanSearch.Candidate).
var ErrNotSimpler = errors.New("not smaller than the input")

// PlanSearch is what ddmin over the changes of one pass's plan needs to
// know beyond the test, for every Step that runs it (Search.Step here,
// the reducer of command/reduce): which configurations are candidates,
// and the contents of those that failed, which the search's steps and
// its result are among. It is safe for concurrent use.
type PlanSearch struct {
	Plan decomp.Plan
	// Src is the unit's content the plan was made of.
	Src []byte
	// Admit, when set, says that a content the plan rejects with err (it
	// does not parse, or has a new type error) is a candidate all the
	// same: the test may not need what the plan checks.
	Admit  func(err error, data []byte) bool
	failed sync.Map
}

// Candidate is the content of configuration c, or the error that says
// why it is no candidate, to be predicted unresolved without a test
// (Debugging Book, "Reducing Failure-Inducing Inputs": predicting test
// outcomes): the plan rejects it, or it is not simpler than Src
// (ErrNotSimpler). Not simpler is no candidate: the reduction could not
// take it. Nor is a content the language's printing gives back as Src
// (white space between Go tokens): were the search to take it, its
// configuration would lack changes the text still holds, and the
// removals it tries next would not be those of the text (with the space
// before * gone, removing * joins b and a).
func (p *PlanSearch) Candidate(c dd.Config) ([]byte, error) {
	data, err := p.Plan.Apply(c)
	if err != nil && !p.admit(err, data) {
		return nil, err
	}
	if !Simpler(data, p.Src) {
		return nil, ErrNotSimpler
	}
	return data, nil
}

// Failed records that configuration c's content failed.
func (p *PlanSearch) Failed(c dd.Config, data []byte) { p.failed.Store(key(c), data) }

// Content is the content of configuration c (a step the search took, or
// its result), false when the plan rejects it and it is not admitted.
func (p *PlanSearch) Content(c dd.Config) ([]byte, bool) {
	if data, ok := p.failed.Load(key(c)); ok {
		return data.([]byte), true
	}
	data, err := p.Plan.Apply(c)
	return data, err == nil || p.admit(err, data)
}

func (p *PlanSearch) admit(err error, data []byte) bool {
	return p.Admit != nil && data != nil && p.Admit(err, data)
}

// key is a configuration as a map key.
func key(c dd.Config) string {
	b := make([]byte, 0, 2*len(c))
	for _, i := range c {
		b = binary.AppendUvarint(b, uint64(i))
	}
	return string(b)
}
