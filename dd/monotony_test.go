package dd

import (
	"context"
	"slices"
	"testing"
)

// TestWatchMonotony: with WatchMonotony, a configuration that fails
// inside one that passed is reported as a Contradiction; the outcomes
// are not inferred from each other (the test is still asked), and
// without the option nothing is reported.
func TestWatchMonotony(t *testing.T) {
	// Fails for all four changes and, against monotony, for {0} alone.
	tester := TesterFunc(func(ctx context.Context, c Config) Outcome {
		if len(c) == 4 || slices.Equal(c, Config{0}) {
			return Fail
		}
		return Pass
	})
	for _, watch := range []bool{true, false} {
		var got []Contradiction
		obs := ObserverFunc(func(e Event) {
			if c, ok := e.(Contradiction); ok {
				got = append(got, c)
			}
		})
		res, err := Run(context.Background(), 4, tester, Options{Algorithm: Minimize, Variant: TSE, WatchMonotony: watch, Observer: obs})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Fail, Config{0}) || res.Stats.Inferred != 0 {
			t.Errorf("watch %v: result %v, %d inferred; want [0] from tests alone", watch, res.Fail, res.Stats.Inferred)
		}
		switch {
		case !watch && len(got) > 0:
			t.Errorf("contradictions reported without WatchMonotony: %v", got)
		case watch && (len(got) != 1 || !slices.Equal(got[0].Failed, Config{0}) || !slices.Equal(got[0].Passed, Config{0, 1})):
			t.Errorf("contradictions %v, want [0] failing inside [0 1]", got)
		}
	}
}
