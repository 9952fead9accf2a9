package report

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEvents: every event the events file's writer is handed (a line of
// a real file decoded, then with any bytes as its detail) is written as
// one line of JSON, which reads back as the same event; a string that
// is not UTF-8 reads back with U+FFFD for each byte that is not. Seeded
// with the lines of testdata/events.jsonl, written by a real reduction
// (wynot reduce --events).
func FuzzEvents(f *testing.F) {
	data, err := os.ReadFile("testdata/events.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var ev Event
		if json.Unmarshal(line, &ev) != nil {
			return
		}
		write := func(ev Event) []byte {
			var b bytes.Buffer
			NewEvents(&b).Write(ev)
			out := b.Bytes()
			if bytes.Count(out, []byte("\n")) != 1 || !bytes.HasSuffix(out, []byte("\n")) {
				t.Fatalf("%+v written as %q, not one line", ev, out)
			}
			return out
		}
		read := func(out []byte) Event {
			var back Event
			if err := json.Unmarshal(out, &back); err != nil {
				t.Fatalf("%q does not read back: %v", out, err)
			}
			return back
		}
		out := write(ev)
		if back := read(out); !reflect.DeepEqual(back, ev) {
			t.Fatalf("%+v read back as %+v from %q", ev, back, out)
		}
		if again := write(read(out)); !bytes.Equal(again, out) {
			t.Fatalf("written again as %q, first %q", again, out)
		}
		// Any bytes as the detail (a test's output can hold newlines and
		// bytes that are not UTF-8).
		ev.Detail = string(line)
		if back := read(write(ev)); back.Detail != validUTF8(ev.Detail) {
			t.Fatalf("detail %q read back as %q", ev.Detail, back.Detail)
		}
	})
}

// validUTF8 is s with U+FFFD for each byte that is not part of a UTF-8
// encoding, as encoding/json writes it.
func validUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
