// Package goldenfile compares test output with files in testdata.
package goldenfile

import (
	"os"
	"testing"
)

// Check compares got with the file at path, or, with update, writes got
// there instead.
func Check(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n--- want\n%s--- got\n%s", path, want, got)
	}
}
