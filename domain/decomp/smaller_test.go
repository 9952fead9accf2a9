package decomp

import (
	"slices"
	"testing"
)

// TestSmallerChars: each letter or digit of a small text by 0, else by
// the least of its kind (1, A, a), as alternatives at one place (the
// first kept wins); nothing in a larger text.
func TestSmallerChars(t *testing.T) {
	plan, err := SmallerChars{}.Plan([]byte("t={1#Z9"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range plan.Len() {
		data, err := plan.Apply(slices.Delete(all(plan.Len()), i, i+1))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(data))
	}
	if want := []string{"0={1#Z9", "a={1#Z9", "t={0#Z9", "t={1#09", "t={1#A9", "t={1#Z0", "t={1#Z1"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if plan, _ := (SmallerChars{}).Plan(make([]byte, MaxSmallerChars+1)); plan.Len() != 0 {
		t.Errorf("%d changes in a large text", plan.Len())
	}
}
