package schedule

import (
	"errors"
	"testing"

	"github.com/wynot/wynot/dd"
)

// charPlan keeps the characters of s at the indices kept; a candidate
// with ")" before any "(" does not parse, and a "!" is printed as "!!".
type charPlan struct {
	s     string
	calls *int
}

var errUnbalanced = errors.New("unbalanced")

func (p charPlan) Len() int { return len(p.s) }

func (p charPlan) Apply(keep []int) ([]byte, error) {
	*p.calls++
	var out []byte
	open := 0
	for _, i := range keep {
		switch p.s[i] {
		case '(':
			open++
		case ')':
			open--
		case '!':
			out = append(out, '!')
		}
		out = append(out, p.s[i])
	}
	if open < 0 {
		return out, errUnbalanced
	}
	return out, nil
}

// TestPlanSearch: what is a candidate of ddmin over a plan, and the
// contents of the configurations that failed, found again without the
// plan.
func TestPlanSearch(t *testing.T) {
	calls := 0
	src := []byte("a(!!)")
	ps := &PlanSearch{Plan: charPlan{s: "a(!)", calls: &calls}, Src: src}
	for _, c := range []struct {
		cfg  dd.Config
		want string
		err  error
	}{
		{dd.Config{0, 1, 3}, "a()", nil},
		{dd.Config{0, 3}, "", errUnbalanced},
		{dd.Config{0, 1, 2, 3}, "", ErrNotSimpler}, // printed as the unit is
		{dd.Config{2}, "!!", nil},
	} {
		data, err := ps.Candidate(c.cfg)
		if string(data) != c.want || !errors.Is(err, c.err) {
			t.Errorf("Candidate(%v) = %q, %v; want %q, %v", c.cfg, data, err, c.want, c.err)
		}
	}
	// Admitted, a content the plan rejects is a candidate.
	ps.Admit = func(err error, _ []byte) bool { return errors.Is(err, errUnbalanced) }
	if data, err := ps.Candidate(dd.Config{0, 3}); string(data) != "a)" || err != nil {
		t.Errorf("admitted: Candidate = %q, %v", data, err)
	}
	if data, ok := ps.Content(dd.Config{0, 3}); !ok || string(data) != "a)" {
		t.Errorf("admitted: Content = %q, %v", data, ok)
	}
	ps.Admit = nil
	if _, ok := ps.Content(dd.Config{0, 3}); ok {
		t.Errorf("Content of a configuration the plan rejects: ok")
	}
	// A failed content is found again without applying the plan.
	ps.Failed(dd.Config{0, 1, 3}, []byte("a()"))
	calls = 0
	if data, ok := ps.Content(dd.Config{0, 1, 3}); !ok || string(data) != "a()" || calls != 0 {
		t.Errorf("Content of a failed configuration = %q, %v, with %d applications of the plan", data, ok, calls)
	}
}
