package command_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzTxtar: the transcripts' archive format reads any text, and what
// it writes reads back as what it held: each file's data with a final
// newline added where it lacked one (the comment as it was), and a
// section set (as -update sets the expected output) reads back as set.
// Seeded with the transcripts of testdata/script.
func FuzzTxtar(f *testing.F) {
	paths, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no transcripts: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "stdout\nwynot: done\n")
	}
	f.Fuzz(func(t *testing.T, data []byte, section string) {
		ar := parseTxtar(data)
		out := ar.format()
		back := parseTxtar(out)
		want := &archive{comment: ar.comment}
		for _, f := range ar.files {
			if f.data != "" && !strings.HasSuffix(f.data, "\n") {
				f.data += "\n"
			}
			want.files = append(want.files, f)
		}
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("written as %q, read back as %+v, want %+v", out, back, want)
		}
		if again := back.format(); string(again) != string(out) {
			t.Fatalf("written again as %q, first %q", again, out)
		}
		// A section set to content: the name on the first line of
		// section, the content the rest. txtar cannot hold a file whose
		// data has a line like a file's header, nor a name with a
		// newline or one that ends in spaces.
		name, content, _ := strings.Cut(section, "\n")
		if name == "" || strings.TrimSpace(name) != name || marker.MatchString(content) {
			return
		}
		back.set(name, content)
		if content != "" && !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		set := parseTxtar(back.format())
		if got, ok := set.get(name); !ok || got != content {
			t.Fatalf("section %q set to %q reads back as %q (%v) from %q", name, content, got, ok, back.format())
		}
	})
}
