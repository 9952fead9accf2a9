package keep

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lock locks uses, failing the test on an error.
func lock(t *testing.T, uses ...Use) *Locked {
	t.Helper()
	l, notes, err := Lock(uses)
	if err != nil || len(notes) > 0 {
		t.Fatalf("Lock(%v) = %v, %q", uses, err, notes)
	}
	if l == nil {
		t.Fatal("nothing locked")
	}
	t.Cleanup(l.Release)
	return l
}

// Two holds conflict when their paths are the same or one holds the
// other, and either writes; the run that is stopped is told which run
// holds what (its PID, when it started, its command line) and what it
// does with it.
func TestLock(t *testing.T) {
	dir := inDir(t)
	write(t, "m3.txt", "x")
	write(t, "src/a.go", "package a")
	os.Symlink("src", "link")
	inPlace := Use{Path: "m3.txt", Write: true, Doing: "reduces m3.txt in place"}
	l := lock(t, inPlace)
	for _, c := range []struct {
		use  Use
		want string // "" when it may go on
	}{
		{Use{Path: "m3.txt", Write: true}, "m3.txt is in use by another run of wynot (PID "},
		{Use{Path: filepath.Join(dir, "m3.txt")}, filepath.Join(dir, "m3.txt") + " is in use by another run of wynot"},
		{Use{Path: "."}, ". is in use by another run of wynot"}, // a tree that holds it
		{Use{Path: "out.txt", Write: true}, ""},
		{Use{Path: "src/a.go", Write: true}, ""},
	} {
		l2, _, err := Lock([]Use{c.use})
		var iu *InUseError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Lock(%v): %v", c.use, err)
		case c.want != "" && (!errors.As(err, &iu) || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("Lock(%v) = %v, want %q…", c.use, err, c.want)
		case c.want != "":
			if iu.Other.PID != os.Getpid() || time.Since(iu.Other.Start) > time.Hour || !strings.HasSuffix(err.Error(), "), which reduces m3.txt in place: wait for that run to end, or stop it") {
				t.Errorf("%v names %+v", err, iu.Other)
			}
		}
		l2.Release()
	}
	l.Release()
	l.Release() // twice is nothing

	// Readers go on side by side; a writer stops them and they it, a
	// tree in place stops a file in it, also by another path (a link).
	lock(t, Use{Path: "m3.txt", Doing: "reads m3.txt"}, Use{Path: "out1.txt", Write: true})
	lock(t, Use{Path: "m3.txt", Doing: "reads m3.txt"}, Use{Path: "out2.txt", Write: true})
	if _, _, err := Lock([]Use{inPlace}); err == nil || !strings.Contains(err.Error(), "which reads m3.txt") {
		t.Errorf("a writer beside readers: %v", err)
	}
	if _, _, err := Lock([]Use{{Path: "x", Doing: "reads x"}, {Path: "out1.txt", Write: true}}); err == nil {
		t.Error("two runs writing one -o")
	}
	lock(t, Use{Path: "src", Write: true, Doing: "reduces the tree src in place"})
	if _, _, err := Lock([]Use{{Path: "link/a.go", Write: true}}); err == nil || !strings.Contains(err.Error(), "link/a.go is in use") || !strings.Contains(err.Error(), "which reduces the tree src in place") {
		t.Errorf("a file in a tree reduced in place: %v", err)
	}

	// A run that uses a path twice holds it once, writing.
	lock(t, Use{Path: "twice", Doing: "reads twice"}, Use{Path: "./twice", Write: true, Doing: "writes twice"})
	if _, _, err := Lock([]Use{{Path: "twice"}}); err == nil || !strings.Contains(err.Error(), "which writes twice") {
		t.Errorf("held twice: %v", err)
	}
}

// A record whose run ended without letting go (killed: nothing holds
// its lock) is removed, and what it held is taken over with a note.
func TestLockStale(t *testing.T) {
	dir := inDir(t)
	runs := filepath.Join(dir, ".cache", "wynot", "runs")
	if err := os.MkdirAll(runs, 0o700); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2025, 6, 1, 14, 2, 11, 0, time.Local)
	host, _ := os.Hostname()
	data, _ := json.Marshal(runRecord{PID: 4242, Host: host, Start: start, Args: []string{"wynot", "reduce", "m3.txt", "--", "./t.sh"},
		Holds: []held{{Path: identity("m3.txt"), Write: true, Doing: "reduces m3.txt in place"}}})
	stale := filepath.Join(runs, "4242-1.json")
	write(t, stale, string(data))
	write(t, filepath.Join(runs, "4243-1.json"), "not a record")
	l, notes, err := Lock([]Use{{Path: "m3.txt", Write: true}})
	if err != nil || l == nil {
		t.Fatalf("Lock: %v", err)
	}
	defer l.Release()
	want := "m3.txt was held by a run of wynot that ended without letting go of it (PID 4242, started 2025-06-01 14:02:11: wynot reduce m3.txt -- ./t.sh): taking it over"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	left, _ := filepath.Glob(filepath.Join(runs, "*.json"))
	if len(left) != 1 || !strings.HasPrefix(filepath.Base(left[0]), fmt.Sprintf("%d-", os.Getpid())) {
		t.Errorf("records left: %v", left)
	}
}

// Without a cache directory, nothing is locked, and nothing stops.
func TestLockNoCache(t *testing.T) {
	inDir(t)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	l, notes, err := Lock([]Use{{Path: "m3.txt", Write: true}})
	if l != nil || notes != nil || err != nil {
		t.Errorf("Lock = %v, %q, %v", l, notes, err)
	}
}
