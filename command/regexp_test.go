package command

import "testing"

// --fail-on and --pass-on read a REGEX as grep does: ^ and $ at every
// line; the messages show it as it was written.
func TestLineRegexp(t *testing.T) {
	for _, tc := range []struct {
		expr, out string
		match     bool
	}{
		{`^FAIL$`, "ok\nFAIL\n", true},
		{`^FAIL$`, "FAIL", true},
		{`^FAIL$`, "a FAIL\n", false},
		{`^\[0,1\.5,3\]$`, "[0,1.5,3]\n", true},
		{`FAIL`, "xFAILx", true},
	} {
		re, err := LineRegexp(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := re.MatchString(tc.out); got != tc.match {
			t.Errorf("%q on %q: %v, want %v", tc.expr, tc.out, got, tc.match)
		}
		if Shown(re) != tc.expr {
			t.Errorf("shown %q, want %q", Shown(re), tc.expr)
		}
	}
	if _, err := LineRegexp("("); err == nil {
		t.Errorf("a bad REGEX compiles")
	}
}
