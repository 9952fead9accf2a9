package dd

import (
	"context"
	"slices"
	"sync"
)

// Removals is what OneMinimal found: a failing configuration and the
// outcome of each of its single removals.
type Removals struct {
	// Config is the configuration: the one given, less the changes
	// removed.
	Config Config
	// Outcomes[k] is the outcome of Config without Config[k], tested as
	// it is: Pass or Unresolved when Done.
	Outcomes []Outcome
	// Removed are the changes taken out, in the order they were: without
	// each, what was left still failed.
	Removed []int
	// Done says that every removal of Config was tested and none
	// failed: Config is 1-minimal, up to removals that are Unresolved.
	Done bool
}

// Passed counts the removals of Config that passed.
func (r Removals) Passed() int {
	n := 0
	for _, o := range r.Outcomes {
		if o == Pass {
			n++
		}
	}
	return n
}

// OneMinimal makes the failing configuration c 1-minimal at the
// granularity of its changes (TSE 2002 Def. 10 with n = 1; ddmin at its
// finest granularity, removing complements only): each change is
// removed alone and the rest is tested exactly as it is; as long as such
// a removal fails, OneMinimal goes on from it, until no single removal of
// what is left fails. A removal that is Unresolved does not count against
// 1-minimality: a configuration that cannot be tested shows nothing.
//
// test must run the configuration it is given and nothing more: an
// outcome of a configuration completed with other changes (failure
// resolution, a ResolvingTester) says nothing about c less one change,
// which is why a search that resolved its configurations, or grouped its
// changes, leaves this check to be made. Up to parallel removals are
// tested at a time, in order from where the last removal was; the result
// is the one testing them one at a time gives. When ctx ends or test
// returns an error, OneMinimal returns what it had, not Done, with the
// error.
func OneMinimal(ctx context.Context, c Config, test func(context.Context, Config) (Outcome, error), parallel int) (Removals, error) {
	r := Removals{Config: slices.Clone(c)}
	r.Outcomes = make([]Outcome, len(r.Config))
	parallel = max(parallel, 1)
	// clean counts the removals of the current configuration tested in a
	// row, from pos on (cyclically), without a failure.
	pos, clean := 0, 0
	for clean < len(r.Config) {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		m := len(r.Config)
		k := min(parallel, m-clean)
		outs := make([]Outcome, k)
		errs := make([]error, k)
		var wg sync.WaitGroup
		for j := range k {
			q := (pos + j) % m
			less := slices.Delete(slices.Clone(r.Config), q, q+1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[j], errs[j] = test(ctx, less)
			}()
		}
		wg.Wait()
		failed := -1
		for j := range k {
			if errs[j] != nil {
				return r, errs[j]
			}
			if outs[j] == Fail {
				failed = j
				break
			}
			r.Outcomes[(pos+j)%m] = outs[j]
			clean++
		}
		if failed < 0 {
			pos = (pos + k) % m
			continue
		}
		q := (pos + failed) % m
		r.Removed = append(r.Removed, r.Config[q])
		r.Config = slices.Delete(r.Config, q, q+1)
		r.Outcomes = make([]Outcome, len(r.Config))
		pos, clean = 0, 0
		if len(r.Config) > 0 {
			pos = q % len(r.Config)
		}
	}
	r.Done = true
	return r, nil
}
