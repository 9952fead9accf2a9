package enum

import "testing"

type color int

var colorNames = []string{"red", "green", "blue"}

func TestParse(t *testing.T) {
	for i, n := range colorNames {
		c, err := Parse[color](colorNames, n)
		if err != nil || int(c) != i {
			t.Errorf("Parse(%q) = %d, %v; want %d", n, c, err, i)
		}
		if got := Name(colorNames, c, "color"); got != n {
			t.Errorf("Name(%d) = %q, want %q", c, got, n)
		}
	}
	if _, err := Parse[color](colorNames, "mauve"); err == nil || err.Error() != "want red, green or blue" {
		t.Errorf("Parse(mauve) error = %v", err)
	}
	if got := Name(colorNames, color(7), "color"); got != "color(7)" {
		t.Errorf("Name(7) = %q", got)
	}
}
