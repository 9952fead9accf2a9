package wynottest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Errorf reports.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// parse fails on a quote inside a tag, and panics on "<<".
func parse(b []byte) error {
	if bytes.Contains(b, []byte("<<")) {
		panic("nested tag")
	}
	in := false
	for i, c := range b {
		switch {
		case c == '<':
			in = true
		case c == '>':
			in = false
		case c == '"' && in:
			return fmt.Errorf("quote in tag at offset %d", i)
		}
	}
	return nil
}

func TestMinimize(t *testing.T) {
	var page strings.Builder
	for i := range 200 {
		fmt.Fprintf(&page, "<p class=x>line %d of the page</p>\n", i)
	}
	page.WriteString(`<a href="x">link</a>` + "\n")
	for i := range 100 {
		fmt.Fprintf(&page, "<li>item %d</li>\n", i)
	}
	input := []byte(page.String())
	r := &recorder{TB: t}
	got := Minimize(r, input, parse)
	if string(got) != `<"` {
		t.Errorf("minimized to %q, want %q", got, `<"`)
	}
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "quote in tag at offset") || !strings.Contains(r.errors[0], "1-minimal") {
		t.Errorf("reported %q", r.errors)
	}
	// Each single character removed makes the failure go away.
	for i := range got {
		if err := parse(append(append([]byte{}, got[:i]...), got[i+1:]...)); err != nil {
			t.Errorf("not 1-minimal: without byte %d it still fails", i)
		}
	}
}

func TestMinimizePanicAndPass(t *testing.T) {
	r := &recorder{TB: t}
	got := Minimize(r, []byte("abc\n<p><<x>>\ndef\n"), parse)
	if string(got) != "<<" || len(r.errors) != 1 || !strings.Contains(r.errors[0], "panic: nested tag") {
		t.Errorf("got %q, reported %q", got, r.errors)
	}
	// A check that fails on everything: the empty input.
	r = &recorder{TB: t}
	if got := Minimize(r, []byte("xyz"), func([]byte) error { return errors.New("always") }); len(got) != 0 || len(r.errors) != 1 {
		t.Errorf("always failing: got %q, reported %q", got, r.errors)
	}
	r = &recorder{TB: t}
	in := []byte("<p>fine</p>")
	if got := Minimize(r, in, parse); !bytes.Equal(got, in) || len(r.errors) != 0 {
		t.Errorf("a passing check: got %q, reported %q", got, r.errors)
	}
}

// mystery is the Debugging Book's: it fails on a ( before a later ).
func mystery(s string) error {
	if i := strings.Index(s, "("); i >= 0 && strings.Contains(s[i:], ")") {
		return errors.New("Invalid input")
	}
	return nil
}

func TestMinArgs(t *testing.T) {
	r := &recorder{TB: t}
	got := MinArgs(r, mystery, `V"/+!aF-(V4EOz*+s/Q,7)2@0_`)
	if len(got) != 1 || got[0] != "()" {
		t.Errorf("reduced to %v", got)
	}
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], `mystery("()")`) {
		t.Errorf("reported %q", r.errors)
	}
	r = &recorder{TB: t}
	if got := MinArgs(r, mystery, "fine"); got[0] != "fine" || len(r.errors) != 0 {
		t.Errorf("a passing call: %v, %q", got, r.errors)
	}
}
