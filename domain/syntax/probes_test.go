package syntax

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/decomp"
)

// typeError is the error of a candidate of words without a word W that
// a later word needs: "uW" needs "dW" (a use needs its declaration), in
// the class of the word's last letter.
type typeError struct{ class string }

func (e typeError) Error() string { return "undefined in " + e.class }

// words is a pass over space-separated words.
type words struct{}

func (words) Name() string { return "words" }
func (words) Plan(data []byte) (decomp.Plan, error) {
	return wordPlan(strings.Fields(string(data))), nil
}

type wordPlan []string

func (w wordPlan) Len() int { return len(w) }
func (w wordPlan) Apply(keep []int) ([]byte, error) {
	var out []string
	have := map[string]bool{}
	for _, k := range keep {
		out = append(out, w[k])
		have[w[k]] = true
	}
	for _, x := range out {
		if d, ok := strings.CutPrefix(x, "u"); ok && !have["d"+d] {
			return []byte(strings.Join(out, " ")), typeError{d[len(d)-1:]}
		}
	}
	return []byte(strings.Join(out, " ")), nil
}

func TestProbes(t *testing.T) {
	predicts := func(err error) (Prediction, bool) {
		var te typeError
		if errors.As(err, &te) {
			return Prediction{Class: te.class, Still: "class " + te.class}, true
		}
		return Prediction{}, false
	}
	text := []byte("dxa uxa dya uya dzb uzb dwa uwa")
	for _, c := range []struct {
		p    Probes
		want string
	}{
		// Removing dxa, dya, dzb or dwa makes a candidate the language
		// rejects; the others parse and pass its checks.
		{Probes{PerClass: 3, Most: 3}, "[a:uxa dya uya dzb uzb dwa uwa a:dxa uxa uya dzb uzb dwa uwa b:dxa uxa dya uya uzb dwa uwa]"},
		{Probes{PerClass: 1, Most: 12}, "[a:uxa dya uya dzb uzb dwa uwa b:dxa uxa dya uya uzb dwa uwa]"},
		{Probes{PerClass: 1, Most: 12, Tries: 4}, "[a:uxa dya uya dzb uzb dwa uwa]"},
		{Probes{PerClass: 5, Most: 1}, "[a:uxa dya uya dzb uzb dwa uwa]"},
	} {
		c.p.Predicts = predicts
		if err := c.p.Add(context.Background(), 7, []decomp.Pass{words{}}, text); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range c.p.Found {
			if f.Unit != 7 || f.Still != "class "+f.Class {
				t.Errorf("probe %+v", f)
			}
			got = append(got, f.Class+":"+string(f.Data))
		}
		if s := fmt.Sprint(got); s != c.want {
			t.Errorf("%+v: %s, want %s", c.p, s, c.want)
		}
	}
}
