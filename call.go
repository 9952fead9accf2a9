package wynot

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/schedule"
)

// ErrNotFailing is wrapped by the errors of NewCall and the reductions of
// a Call when the call does not fail.
var ErrNotFailing = errors.New("call does not fail")

// ErrNotReproduced is wrapped when a repeated call fails differently from
// the recorded one, so the failure cannot be reduced reliably.
var ErrNotReproduced = errors.New("failure not reproduced")

// Failure is how a call failed: a panic, or a non-nil error as the last
// result. Two failures are the same when all fields are equal.
type Failure struct {
	Panic   bool   // the call panicked; otherwise it returned an error
	Type    string // dynamic type of the panic value or error, e.g. "*errors.errorString"
	Message string // the panic value or error as text
}

func (f Failure) String() string {
	if f.Panic {
		return "panic: " + f.Message
	}
	return "error: " + f.Message
}

// Call is a failing call of a Go function, recorded so that its arguments
// can be reduced, as the Debugging Book's DeltaDebugger does for Python:
// every argument that is a string, slice or array is reduced in turn,
// again and again until none changes (process_args). A candidate call
// fails when it fails the same way as the recorded one (same panic or
// error, same type and message), passes when it returns normally, and is
// unresolved otherwise. Strings are reduced by runes. Arrays keep their
// length: an element left out is set to its zero value.
//
// The function is called in the caller's goroutine (or, with
// Options.Parallel > 1, in several goroutines at once); a call that never
// returns blocks the reduction.
type Call struct {
	fn   reflect.Value
	name string
	args []reflect.Value
	orig Failure
	opts Options

	mu    sync.Mutex
	cache map[string]callResult
	tests int
}

type callResult struct {
	outcome Outcome
	failure *Failure
}

// NewCall records the call fn(args...), which must fail. It calls fn once
// to see how; that call is not counted as a test.
func NewCall(fn any, args []any, opts *Options) (*Call, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return nil, fmt.Errorf("wynot: NewCall needs a function, not %T", fn)
	}
	t := v.Type()
	if t.IsVariadic() {
		if len(args) < t.NumIn()-1 {
			return nil, fmt.Errorf("wynot: %s needs at least %d arguments, got %d", t, t.NumIn()-1, len(args))
		}
	} else if len(args) != t.NumIn() {
		return nil, fmt.Errorf("wynot: %s needs %d arguments, got %d", t, t.NumIn(), len(args))
	}
	c := &Call{fn: v, name: funcName(v), cache: make(map[string]callResult)}
	if opts != nil {
		c.opts = *opts
	}
	for i, a := range args {
		pt := paramType(t, i)
		av := reflect.ValueOf(a)
		if a == nil {
			av = reflect.Zero(pt)
		}
		if !av.Type().AssignableTo(pt) {
			return nil, fmt.Errorf("wynot: argument %d of %s is %s, want %s", i+1, c.name, av.Type(), pt)
		}
		nv := reflect.New(pt).Elem()
		nv.Set(av)
		c.args = append(c.args, nv)
	}
	f := c.invoke(c.args)
	if f == nil {
		return nil, fmt.Errorf("wynot: %s: %w", c.Format(c.Args()), ErrNotFailing)
	}
	c.orig = *f
	return c, nil
}

func paramType(t reflect.Type, i int) reflect.Type {
	if t.IsVariadic() && i >= t.NumIn()-1 {
		return t.In(t.NumIn() - 1).Elem()
	}
	return t.In(i)
}

func funcName(v reflect.Value) string {
	name := "func"
	if f := runtime.FuncForPC(v.Pointer()); f != nil {
		name = f.Name()
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// Args returns the recorded arguments.
func (c *Call) Args() []any { return values(c.args) }

// Failure returns how the recorded call failed.
func (c *Call) Failure() Failure { return c.orig }

// Tests returns the number of calls run by the last reduction, including
// the first one that checks the failure still occurs.
func (c *Call) Tests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tests
}

// Format renders a call of the function with args as Go source, e.g.
// mystery("()").
func (c *Call) Format(args []any) string {
	var b strings.Builder
	b.WriteString(c.name)
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%#v", a)
	}
	b.WriteByte(')')
	return b.String()
}

// MinArgs returns arguments reduced until each reducible one is 1-minimal:
// removing any single element makes the call not fail the same way.
func (c *Call) MinArgs(ctx context.Context) ([]any, error) {
	_, fail, _, err := c.process(ctx, dd.Minimize)
	return values(fail), err
}

// MaxArgs returns arguments grown from empty until each reducible one is
// 1-maximal: the call passes, and adding any single element of the
// original argument makes it fail or unresolved.
func (c *Call) MaxArgs(ctx context.Context) ([]any, error) {
	pass, _, _, err := c.process(ctx, dd.Maximize)
	return values(pass), err
}

// MinArgDiff returns passing and failing arguments and their difference
// (elements of the failing arguments not in the passing ones), 1-minimal:
// the failure-inducing difference of the call.
func (c *Call) MinArgDiff(ctx context.Context) (pass, fail, diff []any, err error) {
	p, f, d, err := c.process(ctx, dd.Isolate)
	return values(p), values(f), values(d), err
}

func values(vs []reflect.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.Interface()
	}
	return out
}

// invoke calls the function and returns how it failed, or nil.
func (c *Call) invoke(args []reflect.Value) (f *Failure) {
	defer func() {
		if r := recover(); r != nil {
			f = &Failure{Panic: true, Type: fmt.Sprintf("%T", r), Message: panicText(r)}
		}
	}()
	out := c.fn.Call(args)
	if len(out) > 0 {
		last := out[len(out)-1]
		if last.Type() == reflect.TypeFor[error]() && !last.IsNil() {
			err := last.Interface().(error)
			return &Failure{Type: fmt.Sprintf("%T", err), Message: err.Error()}
		}
	}
	return nil
}

func panicText(r any) string {
	switch r := r.(type) {
	case error:
		return r.Error()
	case fmt.Stringer:
		return r.String()
	}
	return fmt.Sprint(r)
}

// test runs the call with args (or takes the outcome from the cache) and
// logs it.
func (c *Call) test(args []reflect.Value) callResult {
	key := c.Format(values(args))
	c.mu.Lock()
	if r, ok := c.cache[key]; ok {
		c.mu.Unlock()
		return r
	}
	c.mu.Unlock()
	f := c.invoke(args)
	r := callResult{outcome: Pass, failure: f}
	switch {
	case f == nil:
	case *f == c.orig:
		r.outcome = Fail
	default:
		r.outcome = Unresolved
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.cache[key]; ok {
		return prev // a parallel test of the same call got there first
	}
	c.cache[key] = r
	c.tests++
	if c.opts.Log != nil {
		line := fmt.Sprintf("Test #%d %s: %s", c.tests, key, r.outcome)
		if f != nil {
			line += " (" + f.String() + ")"
		}
		fmt.Fprintln(c.opts.Log, line)
	}
	return r
}

// process reduces the arguments in turns (Debugging Book process_args):
// each reducible argument is processed with the others fixed at their
// current failing values; whenever one changes, all are due again.
func (c *Call) process(ctx context.Context, alg dd.Algorithm) (pass, fail, diff []reflect.Value, err error) {
	c.mu.Lock()
	c.tests = 0
	c.mu.Unlock()

	seqs := make([]*seq, len(c.args))
	passSeqs := make([]*seq, len(c.args))
	fail = append([]reflect.Value(nil), c.args...)
	pass = append([]reflect.Value(nil), c.args...)
	diff = append([]reflect.Value(nil), c.args...)
	for i, a := range c.args {
		if s := newSeq(a); s != nil {
			seqs[i] = s
			passSeqs[i] = s.sub(nil)
			pass[i] = passSeqs[i].value()
		}
	}

	// The recorded failure must reproduce.
	r := c.test(c.args)
	switch r.outcome {
	case Pass:
		return pass, fail, diff, fmt.Errorf("wynot: called again, %s did not fail: %w", c.Format(c.Args()), ErrNotFailing)
	case Unresolved:
		return pass, fail, diff, fmt.Errorf("wynot: called again, %s failed with %s instead of %s: %w",
			c.Format(c.Args()), r.failure, c.orig, ErrNotReproduced)
	}

	passChanged, failChanged := false, false
	// One phase over the arguments, back to the first after each change.
	sched := &schedule.Schedule[int]{Phases: []schedule.Phase[int]{{
		Name:    "arguments",
		Restart: true,
		Units: func() []schedule.Unit[int] {
			us := make([]schedule.Unit[int], len(c.args))
			for i := range us {
				us[i] = schedule.Unit[int]{Name: fmt.Sprintf("argument %d", i+1), Of: i}
			}
			return us
		},
		Passes: func(u schedule.Unit[int]) ([]schedule.Pass, error) {
			if s := seqs[u.Of]; s == nil || s.len() == 0 {
				return nil, nil
			}
			return []schedule.Pass{elements{}}, nil
		},
	}}}
	_, err = sched.Run(ctx, func(ctx context.Context, _ int, u schedule.Unit[int], _ schedule.Pass) (schedule.Ran, error) {
		v := u.Of
		s := seqs[v]
		t := dd.TesterFunc(func(_ context.Context, cfg dd.Config) Outcome {
			args := append([]reflect.Value(nil), fail...)
			args[v] = s.sub(cfg).value()
			return c.test(args).outcome
		})
		// On an error, res is still the best known, so apply it first.
		res, err := dd.Run(ctx, s.len(), t, c.opts.dd(alg))
		ran := schedule.Ran{Changes: s.len(), Tests: res.Stats.Tests, Minimal: err == nil}
		maxPass, minFail, d := s.sub(res.Pass), s.sub(res.Fail), s.sub(res.Delta)
		if maxPass.len() > passSeqs[v].len() {
			passSeqs[v], pass[v], diff[v] = maxPass, maxPass.value(), d.value()
			passChanged, ran.Shrank = true, true
		}
		if minFail.len() < s.len() {
			seqs[v], fail[v], diff[v] = minFail, minFail.value(), d.value()
			failChanged, ran.Shrank = true, true
		}
		return ran, err
	})
	if err != nil {
		return pass, fail, diff, err
	}
	if passChanged {
		if r := c.test(pass); r.outcome != Pass {
			return pass, fail, diff, fmt.Errorf("wynot: maximized call %s does not pass: %s", c.Format(values(pass)), r.outcome)
		}
	}
	if failChanged {
		if r := c.test(fail); r.outcome != Fail {
			return pass, fail, diff, fmt.Errorf("wynot: minimized call %s does not fail: %s", c.Format(values(fail)), r.outcome)
		}
	}
	return pass, fail, diff, nil
}

func allIndices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// elements is the pass over an argument: ddmin over its elements.
type elements struct{}

func (elements) Name() string { return "elements" }

// seq is a reducible argument: a string (as runes), a slice, or an array
// with some positions kept and the others zeroed.
type seq struct {
	orig  reflect.Value
	runes []rune
	keep  []int // indices into orig that are present, ascending
}

func newSeq(v reflect.Value) *seq {
	switch v.Kind() {
	case reflect.String:
		rs := []rune(v.String())
		return &seq{orig: v, runes: rs, keep: allIndices(len(rs))}
	case reflect.Slice, reflect.Array:
		return &seq{orig: v, keep: allIndices(v.Len())}
	}
	return nil
}

func (s *seq) len() int { return len(s.keep) }

// sub returns the sequence holding the elements at positions c of s.
func (s *seq) sub(c dd.Config) *seq {
	keep := make([]int, len(c))
	for i, x := range c {
		keep[i] = s.keep[x]
	}
	return &seq{orig: s.orig, runes: s.runes, keep: keep}
}

func (s *seq) value() reflect.Value {
	t := s.orig.Type()
	switch s.orig.Kind() {
	case reflect.String:
		rs := make([]rune, len(s.keep))
		for i, x := range s.keep {
			rs[i] = s.runes[x]
		}
		return reflect.ValueOf(string(rs)).Convert(t)
	case reflect.Slice:
		out := reflect.MakeSlice(t, len(s.keep), len(s.keep))
		for i, x := range s.keep {
			out.Index(i).Set(s.orig.Index(x))
		}
		return out
	default: // array
		out := reflect.New(t).Elem()
		for _, x := range s.keep {
			out.Index(x).Set(s.orig.Index(x))
		}
		return out
	}
}
