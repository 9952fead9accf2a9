package command

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/wynot/wynot/dd"
)

func TestUnreproduced(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string // "" for nil
	}{
		{fmt.Errorf("pass: %w", &dd.NotFailingError{Outcome: dd.Pass}), "the tree that failed before does not fail any more (PASS); the test is flaky: try --repeat 3"},
		{&dd.NotPassingError{Outcome: dd.Unresolved}, "the input that passed before does not pass any more (UNRESOLVED); the test is flaky: try --repeat 3"},
		{context.Canceled, ""},
		{nil, ""},
	} {
		nr := Unreproduced(c.err, "the tree", "the input")
		var ee *ExitError
		switch {
		case c.want == "" && nr != nil:
			t.Errorf("%v: %v, want nil", c.err, nr)
		case c.want != "" && (nr == nil || nr.Error() != c.want || !errors.As(nr, &ee) || ee.Code != ExitNotReproduced):
			t.Errorf("%v: %v, want %q with exit status %d", c.err, nr, c.want, ExitNotReproduced)
		}
	}
}
