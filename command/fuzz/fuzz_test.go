package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPickEntry(t *testing.T) {
	dir := t.TempDir()
	r := &Fuzz{Target: "FuzzX"}
	if _, err := r.pickEntry(dir); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("empty corpus: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "b1"), []byte("go test fuzz v1\nstring(\"x\")\n"), 0o644)
	if e, err := r.pickEntry(dir); e != "b1" || err != nil {
		t.Errorf("one entry: %q, %v", e, err)
	}
	os.WriteFile(filepath.Join(dir, "a0"), []byte("go test fuzz v1\nstring(\"y\")\n"), 0o644)
	if _, err := r.pickEntry(dir); err == nil || !strings.Contains(err.Error(), "holds 2 entries; name one: a0, b1") {
		t.Errorf("two entries: %v", err)
	}
	r.Entry = "a0"
	if e, err := r.pickEntry(dir); e != "a0" || err != nil {
		t.Errorf("named entry: %q, %v", e, err)
	}
	r.Entry = "zz"
	if _, err := r.pickEntry(dir); err == nil {
		t.Error("a missing entry is accepted")
	}
	if _, err := (&Fuzz{Target: "FuzzY"}).pickEntry(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "no corpus for FuzzY") {
		t.Errorf("no corpus: %v", err)
	}
}
