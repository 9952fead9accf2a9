package decomp

import (
	"fmt"
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
	got := eachAlone(t, plan)
	if want := []string{"0={1#Z9", "a={1#Z9", "t={0#Z9", "t={1#09", "t={1#A9", "t={1#Z0", "t={1#Z1"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if plan, _ := (SmallerChars{}).Plan(make([]byte, MaxSmallerChars+1)); plan.Len() != 0 {
		t.Errorf("%d changes in a large text", plan.Len())
	}
}

// TestMergeNames: each word made, at every occurrence, each word that
// sorts before it in shortlex order or the smallest unused one-letter
// name, smallest first; numbers are left alone; nothing in a large text
// or one of too many words.
func TestMergeNames(t *testing.T) {
	plan, err := MergeNames{}.Plan([]byte("int zz=1;zz=i+zz"))
	if err != nil {
		t.Fatal(err)
	}
	got := eachAlone(t, plan)
	want := []string{
		"a zz=1;zz=i+zz", "i zz=1;zz=i+zz", "zz zz=1;zz=i+zz", // int → a, i, zz (shorter)
		"int a=1;a=i+a", "int i=1;i=i+i", // zz → a, i
		"int zz=1;zz=a+zz", // i → a
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if plan, _ := (MergeNames{}).Plan(make([]byte, MaxMergeNames+1)); plan.Len() != 0 {
		t.Errorf("%d changes in a large text", plan.Len())
	}
	var many []byte
	for i := range maxMergeWords + 1 {
		many = append(many, fmt.Sprintf("w%d ", i)...)
	}
	if plan, _ := (MergeNames{}).Plan(many); plan.Len() != 0 {
		t.Errorf("%d changes in a text of %d words", plan.Len(), maxMergeWords+1)
	}
}

// eachAlone applies each change of a plan alone, in order.
func eachAlone(t *testing.T, plan Plan) []string {
	t.Helper()
	var got []string
	for i := range plan.Len() {
		data, err := plan.Apply(slices.Delete(all(plan.Len()), i, i+1))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(data))
	}
	return got
}
