package changes

import (
	"testing"

	"github.com/wynot/wynot/dd"
)

func TestAlgorithm(t *testing.T) {
	for _, c := range []struct {
		name string
		want dd.Algorithm
	}{{"dd", dd.Interference}, {"ddplus", dd.Plus}, {"ddmin", dd.Minimize}} {
		var a Algorithm
		if err := a.UnmarshalText([]byte(c.name)); err != nil {
			t.Fatal(err)
		}
		if a.dd() != c.want || a.String() != c.name {
			t.Errorf("%s: %v (%s), want %v", c.name, a.dd(), a, c.want)
		}
	}
	var a Algorithm
	if err := a.UnmarshalText([]byte("bisect")); err == nil || err.Error() != "want dd, ddplus or ddmin" {
		t.Errorf("bisect: %v", err)
	}
}
