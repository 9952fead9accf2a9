package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadTools: the reading of any output (readTools) is well formed,
// names as failed only what the output names, and is the same whether
// go test printed the output as text or as -json events. Seeded with the
// real outputs of testdata/tools.
func FuzzReadTools(f *testing.F) {
	files, err := filepath.Glob("testdata/tools/*.out")
	if err != nil || len(files) == 0 {
		f.Fatalf("outputs: %v %v", files, err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		_, out, _ := strings.Cut(string(b), "\n") // past "# exit status N"
		f.Add(out)
	}
	f.Fuzz(func(t *testing.T, out string) {
		r := readTools(out)
		if r.Phase != Ran && r.Phase != NotBuilt && r.Phase != NotSetUp {
			t.Fatalf("phase %d", r.Phase)
		}
		if len(r.Tools) == 0 && (len(r.Failed) > 0 || r.Phase != Ran) {
			t.Fatalf("no tool recognized, yet %s and failed %q", r.Phase, r.Failed)
		}
		if !slices.IsSorted(r.Failed) || len(slices.Compact(slices.Clone(r.Failed))) != len(r.Failed) {
			t.Fatalf("failed %q: not sorted, or twice", r.Failed)
		}
		if strings.Contains(r.Message, "\n") {
			t.Fatalf("a message of more than one line: %q", r.Message)
		}
		text := out
		if s, ok := fromGoTestJSON(out); ok {
			text = s
		}
		for _, name := range r.Failed {
			if !named(text, name) {
				t.Fatalf("failed %q, which the output does not name", name)
			}
		}
		// The same output as go test -json prints it: an output event
		// per line (test2json's), whose text is valid UTF-8.
		if _, ok := fromGoTestJSON(out); ok || !utf8.ValidString(out) {
			return
		}
		var js strings.Builder
		for _, l := range strings.SplitAfter(out, "\n") {
			if l == "" {
				continue
			}
			b, err := json.Marshal(struct{ Action, Package, Output string }{"output", "example.com/p", l})
			if err != nil {
				t.Fatal(err)
			}
			js.Write(b)
			js.WriteByte('\n')
		}
		if j := readTools(js.String()); !reflect.DeepEqual(j, r) {
			t.Fatalf("as -json events:\n%+v\nas text:\n%+v", j, r)
		}
	})
}

// named says whether the output names what a reading says failed: the
// name (past "make " or "error "), or a package and a test, each
// printed.
func named(text, failed string) bool {
	for _, prefix := range []string{"make ", "error "} {
		if rest, ok := strings.CutPrefix(failed, prefix); ok && strings.Contains(text, rest) {
			return true
		}
	}
	if strings.Contains(text, failed) {
		return true
	}
	pkg, test, ok := strings.Cut(failed, " ")
	return ok && strings.Contains(text, pkg) && strings.Contains(text, test)
}
