// Package ddtest helps test delta debugging: oracles written as boolean
// formulas over named changes, recorders that draw a run the way the papers'
// tables do, checkers for 1-minimality, and PyOrder, which reproduces the
// subset order of the Debugging Book's Python implementation.
package ddtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/wynot/wynot/dd"
)

// An Expr is a boolean formula over change names, evaluated on the set of
// changes present.
type Expr func(present func(name string) bool) bool

// Parse parses a formula: names (letters, digits, _), ! (not), & (and),
// | (or), parentheses, true and false; & binds tighter than |. An empty
// formula is false.
func Parse(s string) (Expr, error) {
	p := &parser{s: s}
	if strings.TrimSpace(s) == "" {
		return func(func(string) bool) bool { return false }, nil
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i < len(p.s) {
		return nil, fmt.Errorf("ddtest: unexpected %q at %d in %q", p.s[p.i:], p.i, s)
	}
	return e, nil
}

// MustParse is Parse for formulas known to be valid.
func MustParse(s string) Expr {
	e, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return e
}

type parser struct {
	s string
	i int
}

func (p *parser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *parser) or() (Expr, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.skip(); p.i < len(p.s) && p.s[p.i] == '|'; p.skip() {
		p.i++
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		a := l
		l = func(f func(string) bool) bool { return a(f) || r(f) }
	}
	return l, nil
}

func (p *parser) and() (Expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.skip(); p.i < len(p.s) && p.s[p.i] == '&'; p.skip() {
		p.i++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		a := l
		l = func(f func(string) bool) bool { return a(f) && r(f) }
	}
	return l, nil
}

func (p *parser) unary() (Expr, error) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("ddtest: formula %q ends early", p.s)
	}
	switch c := p.s[p.i]; {
	case c == '!':
		p.i++
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(f func(string) bool) bool { return !e(f) }, nil
	case c == '(':
		p.i++
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.skip(); p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, fmt.Errorf("ddtest: missing ) in %q", p.s)
		}
		p.i++
		return e, nil
	}
	start := p.i
	for p.i < len(p.s) && (isNameByte(p.s[p.i])) {
		p.i++
	}
	name := p.s[start:p.i]
	switch name {
	case "":
		return nil, fmt.Errorf("ddtest: unexpected %q at %d in %q", p.s[p.i:], p.i, p.s)
	case "true":
		return func(func(string) bool) bool { return true }, nil
	case "false":
		return func(func(string) bool) bool { return false }, nil
	}
	return func(f func(string) bool) bool { return f(name) }, nil
}

func isNameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// Oracle is a fake test over named changes (after x/tools cmd/bisect's
// formula targets). A configuration is Unresolved if the Unresolved formula
// holds, else Fail if the Fail formula holds, else Pass. It records the
// configurations it is called with and is safe for concurrent use.
type Oracle struct {
	Names      []string
	Fail       Expr
	Unresolved Expr

	mu    sync.Mutex
	calls []dd.Config
}

// NewOracle builds an oracle. names lists the changes, separated by
// spaces, or one change per character when it holds no space ("12345678").
func NewOracle(names, fail, unresolved string) *Oracle {
	var ns []string
	if strings.Contains(names, " ") {
		ns = strings.Fields(names)
	} else {
		for _, r := range names {
			ns = append(ns, string(r))
		}
	}
	return &Oracle{Names: ns, Fail: MustParse(fail), Unresolved: MustParse(unresolved)}
}

// N is the number of changes.
func (o *Oracle) N() int { return len(o.Names) }

// Outcome evaluates the formulas on c without recording a call.
func (o *Oracle) Outcome(c dd.Config) dd.Outcome {
	present := func(name string) bool {
		i := slices.Index(o.Names, name)
		if i < 0 {
			panic(fmt.Sprintf("ddtest: formula names unknown change %q", name))
		}
		return c.Contains(i)
	}
	switch {
	case o.Unresolved(present):
		return dd.Unresolved
	case o.Fail(present):
		return dd.Fail
	}
	return dd.Pass
}

// Test records c and returns its outcome.
func (o *Oracle) Test(_ context.Context, c dd.Config) dd.Outcome {
	o.mu.Lock()
	o.calls = append(o.calls, slices.Clone(c))
	o.mu.Unlock()
	return o.Outcome(c)
}

// Calls returns the configurations tested so far, in call order.
func (o *Oracle) Calls() []dd.Config {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.calls)
}

// Recorder is an Observer that keeps the lookups of a run as table rows,
// in the papers' notation: "1 2 . . 5 6 7 8 ✗", with " (cached)" or
// " (predicted)" or " (inferred)" appended when no test ran for the row. It
// also keeps the steps as "rule" lines.
type Recorder struct {
	N      int
	Rows   []string
	Steps  []string
	Tested []string // configurations tested, in test order, with outcomes
}

// Observe records e.
func (r *Recorder) Observe(e dd.Event) {
	switch e := e.(type) {
	case dd.Start:
		r.N = e.N
	case dd.Lookup:
		row := dd.Diagram(e.Config, r.N) + " " + e.Outcome.Symbol()
		if e.Source != dd.Tested {
			row += " (" + e.Source.String() + ")"
		}
		r.Rows = append(r.Rows, row)
	case dd.TestFinished:
		if !e.Canceled {
			r.Tested = append(r.Tested, dd.Diagram(e.Config, r.N)+" "+e.Outcome.Symbol())
		}
	case dd.Step:
		r.Steps = append(r.Steps, e.Rule.String())
	}
}

// Observers combines several observers into one, called in order.
func Observers(os ...dd.Observer) dd.Observer {
	return dd.ObserverFunc(func(e dd.Event) {
		for _, o := range os {
			if o != nil {
				o.Observe(e)
			}
		}
	})
}

// Outcomer gives outcomes without side effects; checkers use it so that
// their probing is not counted as tests of the run under check.
type Outcomer interface {
	Outcome(dd.Config) dd.Outcome
}

// OneMinimal checks that c fails and that removing any single change makes
// it not fail (TSE 2002 Def. 10 with n = 1).
func OneMinimal(o Outcomer, c dd.Config) error {
	if got := o.Outcome(c); got != dd.Fail {
		return fmt.Errorf("result %v does not fail: %s", c, got)
	}
	for k := range c {
		d := slices.Delete(slices.Clone(c), k, k+1)
		if o.Outcome(d) == dd.Fail {
			return fmt.Errorf("result %v is not 1-minimal: without %d it still fails", c, c[k])
		}
	}
	return nil
}

// OneMaximal checks that c passes and that adding any single change of the
// n makes it not pass.
func OneMaximal(o Outcomer, c dd.Config, n int) error {
	if got := o.Outcome(c); got != dd.Pass {
		return fmt.Errorf("result %v does not pass: %s", c, got)
	}
	for i := range n {
		if c.Contains(i) {
			continue
		}
		d := slices.Insert(slices.Clone(c), sortedPos(c, i), i)
		if o.Outcome(d) == dd.Pass {
			return fmt.Errorf("result %v is not 1-maximal: with %d it still passes", c, i)
		}
	}
	return nil
}

// OneMinimalDiff checks Formal Definitions A.16: pass passes, fail fails,
// pass ⊂ fail, and for every change δ in the difference, pass ∪ {δ} does
// not pass and fail − {δ} does not fail.
func OneMinimalDiff(o Outcomer, pass, fail dd.Config) error {
	if got := o.Outcome(pass); got != dd.Pass {
		return fmt.Errorf("passing side %v does not pass: %s", pass, got)
	}
	if got := o.Outcome(fail); got != dd.Fail {
		return fmt.Errorf("failing side %v does not fail: %s", fail, got)
	}
	for _, x := range pass {
		if !fail.Contains(x) {
			return fmt.Errorf("passing side %v is not within failing side %v", pass, fail)
		}
	}
	for k, x := range fail {
		if pass.Contains(x) {
			continue
		}
		if o.Outcome(slices.Insert(slices.Clone(pass), sortedPos(pass, x), x)) == dd.Pass {
			return fmt.Errorf("difference is not 1-minimal: passing side with %d still passes", x)
		}
		if o.Outcome(slices.Delete(slices.Clone(fail), k, k+1)) == dd.Fail {
			return fmt.Errorf("difference is not 1-minimal: failing side without %d still fails", x)
		}
	}
	return nil
}

func sortedPos(c dd.Config, x int) int {
	p, _ := slices.BinarySearch(c, x)
	return p
}

// Func adapts an outcome function to both dd.Tester and Outcomer.
type Func func(dd.Config) dd.Outcome

// Test calls f(c).
func (f Func) Test(_ context.Context, c dd.Config) dd.Outcome { return f(c) }

// Outcome calls f(c).
func (f Func) Outcome(c dd.Config) dd.Outcome { return f(c) }
