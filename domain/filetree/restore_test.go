package filetree

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time (user and system) the process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// listing is every path under dir (directories with a trailing slash),
// each with its mode and, for files and links, what they hold.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			out = append(out, fmt.Sprintf("%s/ %v", rel, info.Mode().Perm()))
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out = append(out, fmt.Sprintf("%s -> %s", rel, target))
		default:
			data, _ := os.ReadFile(p)
			out = append(out, fmt.Sprintf("%s %v %q", rel, info.Mode().Perm(), data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fresh is the listing of content over base written into a new
// directory: what a test must see.
func fresh(t *testing.T, base *Tree, content map[string]*File) []string {
	t.Helper()
	dir := t.TempDir()
	w, err := NewWorkspace(dir, base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sync(content); err != nil {
		t.Fatal(err)
	}
	return listing(t, dir)
}

func mtime(t *testing.T, p string) time.Time {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime()
}

// TestRestore: whatever a test does to its tree, the next Sync leaves
// exactly the candidate, and files the test did not change keep their
// modification times.
func TestRestore(t *testing.T) {
	base := &Tree{Files: map[string]*File{
		"go.mod":         {Data: []byte("module m\n"), Mode: 0o644},
		"main.go":        {Data: []byte("package main\n"), Mode: 0o644},
		"run.sh":         {Data: []byte("#!/bin/sh\n"), Mode: 0o755},
		"sub/a.go":       {Data: []byte("package sub\n"), Mode: 0o644},
		"sub/deep/b.txt": {Data: []byte("bbbb"), Mode: 0o644},
		"link":           {Mode: fs.ModeSymlink | 0o777, Link: "main.go"},
	}, Dirs: []string{"cache", "sub/deep/empty"}}
	content := map[string]*File{"main.go": {Data: []byte("package main // changed\n"), Mode: 0o644}}
	for _, c := range []struct {
		name string
		test func(dir string) error
		// changed is what Restore reports.
		changed []string
	}{
		{"nothing", func(string) error { return nil }, nil},
		{"new file", func(d string) error { return os.WriteFile(d+"/newfile.txt", []byte("x"), 0o644) }, []string{"newfile.txt"}},
		{"new tree", func(d string) error {
			os.MkdirAll(d+"/out/obj", 0o755)
			return os.WriteFile(d+"/out/obj/a.o", []byte("x"), 0o644)
		}, []string{"out"}},
		{"appended", func(d string) error {
			f, err := os.OpenFile(d+"/go.mod", os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			f.WriteString("// marker\n")
			return f.Close()
		}, []string{"go.mod"}},
		{"same size at once", func(d string) error { return os.WriteFile(d+"/sub/deep/b.txt", []byte("BBBB"), 0o644) }, []string{"sub/deep/b.txt"}},
		{"rewritten, times kept", func(d string) error {
			old := mtime(t, d+"/run.sh")
			if err := os.WriteFile(d+"/run.sh", []byte("#!/bin/XX\n"), 0o755); err != nil {
				return err
			}
			return os.Chtimes(d+"/run.sh", old, old)
		}, []string{"run.sh"}},
		{"touched", func(d string) error {
			later := time.Now().Add(time.Hour)
			return os.Chtimes(d+"/sub/a.go", later, later)
		}, []string{"sub/a.go"}},
		{"chmod", func(d string) error { return os.Chmod(d+"/run.sh", 0o600) }, []string{"run.sh"}},
		{"removed", func(d string) error { return os.Remove(d + "/main.go") }, []string{"main.go"}},
		{"dir removed", func(d string) error { return os.RemoveAll(d + "/sub") }, []string{"sub/a.go", "sub/deep/b.txt", "sub/deep/empty/"}},
		{"dir removed, empty", func(d string) error { return os.Remove(d + "/cache") }, []string{"cache/"}},
		{"dir into file, empty", func(d string) error {
			os.Remove(d + "/sub/deep/empty")
			return os.WriteFile(d+"/sub/deep/empty", nil, 0o644)
		}, []string{"sub/deep/empty", "sub/deep/empty/"}},
		{"file into an empty dir", func(d string) error { return os.WriteFile(d+"/cache/x", []byte("x"), 0o644) }, []string{"cache/x"}},
		{"new tree in an empty dir", func(d string) error { return os.MkdirAll(d+"/sub/deep/empty/a/b", 0o755) }, []string{"sub/deep/empty/a"}},
		{"file into dir", func(d string) error {
			os.Remove(d + "/go.mod")
			return os.Mkdir(d+"/go.mod", 0o755)
		}, []string{"go.mod"}},
		{"dir into file", func(d string) error {
			os.RemoveAll(d + "/sub/deep")
			return os.WriteFile(d+"/sub/deep", nil, 0o644)
		}, []string{"sub/deep", "sub/deep/b.txt", "sub/deep/empty/"}},
		{"link retargeted", func(d string) error {
			os.Remove(d + "/link")
			return os.Symlink("go.mod", d+"/link")
		}, []string{"link"}},
		{"renamed over", func(d string) error { return os.Rename(d+"/sub/a.go", d+"/main.go") }, []string{"main.go", "sub/a.go"}},
		{"read-only dir with new file", func(d string) error {
			os.WriteFile(d+"/sub/new.go", []byte("x"), 0o644)
			return os.Chmod(d+"/sub", 0o500)
		}, []string{"sub/", "sub/new.go"}},
		{"hard link", func(d string) error { return os.Link(d+"/go.mod", d+"/go.mod.bak") }, []string{"go.mod.bak"}},
	} {
		// What changed only entries is put right from what the watch of
		// the directories reported; a directory of the tree removed,
		// replaced or made read-only takes a walk of the tree.
		walks := 0
		if strings.HasPrefix(c.name, "dir ") || strings.HasPrefix(c.name, "read-only dir") {
			walks = 1
		}
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := NewWorkspace(dir, base)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Sync(content); err != nil {
				t.Fatal(err)
			}
			want := listing(t, dir)
			times := map[string]time.Time{}
			for p := range base.Files {
				times[p] = mtime(t, filepath.Join(dir, p))
			}
			if err := c.test(dir); err != nil {
				t.Fatal(err)
			}
			changed, err := w.Restore()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(changed, c.changed) {
				t.Errorf("restored %q, want %q", changed, c.changed)
			}
			switch {
			case w.noWatch:
				// No inotify instance to be had (fs.inotify.max_user_instances,
				// 128, is per user: other processes of this user may hold them
				// all): every Restore walks.
				if w.walks != 1 {
					t.Errorf("%d walks of the tree without a watch, want 1", w.walks)
				}
			case localFS(dir) && w.walks != walks:
				t.Errorf("%d walks of the tree, want %d", w.walks, walks)
			}
			if got := listing(t, dir); !slices.Equal(got, want) {
				t.Errorf("after restoring:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for p, old := range times {
				if slices.Contains(c.changed, p) && c.name != "touched" {
					if now := mtime(t, filepath.Join(dir, p)); now.Before(old) {
						t.Errorf("%s rewritten with an older time %v than before %v", p, now, old)
					}
					continue
				}
				if now := mtime(t, filepath.Join(dir, p)); !now.Equal(old) {
					t.Errorf("%s: modification time %v, was %v", p, now, old)
				}
			}
			// Nothing left to restore.
			if changed, err := w.Restore(); err != nil || len(changed) != 0 {
				t.Errorf("restoring again: %q %v", changed, err)
			}
		})
	}
}

// rounds is full, or under -short a quarter of it: the random tests of
// workspaces check the same on fewer trees.
func rounds(full int) int {
	if testing.Short() {
		return full / 4
	}
	return full
}

// TestRestoreRandom: over random candidates and random writes of the
// test between them, every Sync leaves exactly what a fresh copy of the
// candidate holds.
func TestRestoreRandom(t *testing.T) {
	names := []string{"a", "b", "d/c", "d/e/f", "g/h"}
	rng := rand.New(rand.NewSource(1))
	randFile := func() *File {
		switch rng.Intn(5) {
		case 0:
			return nil
		case 1:
			return &File{Mode: fs.ModeSymlink | 0o777, Link: names[rng.Intn(len(names))]}
		}
		return &File{Data: []byte(strings.Repeat("x", rng.Intn(3))), Mode: []fs.FileMode{0o644, 0o755}[rng.Intn(2)]}
	}
	for round := range rounds(20) {
		base := &Tree{Files: map[string]*File{}}
		for _, n := range names {
			if f := randFile(); f != nil {
				base.Files[n] = f
			}
		}
		dir := t.TempDir()
		w, err := NewWorkspace(dir, base)
		if err != nil {
			t.Fatal(err)
		}
		for step := range 15 {
			content := map[string]*File{}
			for _, n := range names {
				if rng.Intn(3) == 0 {
					content[n] = randFile()
				}
			}
			// Files and directories the tree never holds, as the
			// candidate of a directory whose file became a directory.
			if _, err := w.Sync(content); err != nil {
				t.Fatalf("round %d step %d: %v", round, step, err)
			}
			if got, want := listing(t, dir), fresh(t, base, content); !slices.Equal(got, want) {
				t.Fatalf("round %d step %d:\n%s\nwant:\n%s", round, step, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// The test writes into its tree.
			for range rng.Intn(4) {
				p := filepath.Join(dir, names[rng.Intn(len(names))]+[]string{"", ".new", "/x"}[rng.Intn(3)])
				switch rng.Intn(7) {
				case 0:
					os.RemoveAll(p)
				case 1:
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, []byte("y"), 0o644)
				case 2:
					os.MkdirAll(p, 0o755)
				case 3:
					os.Chmod(p, 0o700)
				case 4:
					os.Rename(p, filepath.Join(dir, names[rng.Intn(len(names))]))
				case 5:
					if f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0); err == nil {
						f.WriteString("z")
						f.Close()
					}
				case 6:
					later := time.Now().Add(time.Hour)
					os.Chtimes(p, later, later)
				}
			}
		}
	}
}

// TestRestoreCost: in a tree of 10,000 files on a local file system,
// putting back what a test changed looks at the entries it changed, not
// at every file; elsewhere (or without inotify) it walks the tree.
func TestRestoreCost(t *testing.T) {
	base := bigTree(10000)
	parent := memDir(t)
	if !localFS(parent) {
		t.Skipf("%s is not on a local file system", parent)
	}
	dir := filepath.Join(parent, "w")
	os.Mkdir(dir, 0o700)
	w, err := NewWorkspace(dir, base)
	if err != nil {
		t.Fatal(err)
	}
	one := map[string]*File{"d000/f00.txt": {Data: []byte("y\n"), Mode: 0o644}}
	if _, err := w.Sync(one); err != nil {
		t.Fatal(err)
	}
	if w.watch == nil {
		t.Skip("no inotify here")
	}
	// The test writes one file and adds another.
	if err := os.WriteFile(filepath.Join(dir, "d042", "f07.txt"), []byte("z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d099", "new.txt"), []byte("n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sync(nil); err != nil {
		t.Fatal(err)
	}
	if got := w.last; !slices.Equal(got, []string{"d042/f07.txt", "d099/new.txt"}) {
		t.Errorf("restored %q", got)
	}
	if w.walks != 0 || w.looked > 2 {
		t.Errorf("putting back two files looked at %d entries in %d walks", w.looked, w.walks)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "d042", "f07.txt")); err != nil || string(data) != "x\n" {
		t.Errorf("d042/f07.txt holds %q (%v)", data, err)
	}
	// A directory of the tree removed: a walk, then watched again.
	if err := os.RemoveAll(filepath.Join(dir, "d005")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sync(nil); err != nil || len(w.last) != 100 || w.walks != 1 {
		t.Fatalf("after removing a directory: %v, restored %d, %d walks", err, len(w.last), w.walks)
	}
	looked := w.looked
	os.WriteFile(filepath.Join(dir, "d005", "f01.txt"), []byte("w\n"), 0o644)
	if _, err := w.Sync(nil); err != nil || !slices.Equal(w.last, []string{"d005/f01.txt"}) || w.walks != 1 || w.looked-looked > 1 {
		t.Errorf("after the walk: %v, restored %q, %d walks, looked at %d", err, w.last, w.walks, w.looked-looked)
	}
}

// bigTree is a tree of n files of 2 bytes, 100 to a directory.
func bigTree(n int) *Tree {
	base := &Tree{Files: map[string]*File{}}
	for i := range n {
		base.Files[fmt.Sprintf("d%03d/f%02d.txt", i/100, i%100)] = &File{Data: []byte("x\n"), Mode: 0o644}
	}
	return base
}

// memDir is a new directory in memory (/dev/shm) where there is one, as
// work directories are: 10,000 files on a busy disk take seconds.
func memDir(t *testing.T) string {
	t.Helper()
	if st, err := os.Stat("/dev/shm"); err != nil || !st.IsDir() {
		return t.TempDir()
	}
	p, err := os.MkdirTemp("/dev/shm", "wynot-filetree-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(p) })
	return p
}

// TestSyncOverCost: candidates of one layer that removes half of a tree
// of 10,000 files, each with one file in place, are synced looking at
// their deltas only; the layer of the next improvement, at the paths it
// changed; a layer of another line, in full.
func TestSyncOverCost(t *testing.T) {
	base := bigTree(10000)
	half := map[string]*File{}
	for p := range base.Files {
		if p < "d050" {
			half[p] = nil
		}
	}
	l := NewLayer(base, half)
	dir := filepath.Join(memDir(t), "w") // its mark goes beside it
	os.Mkdir(dir, 0o700)
	w, err := NewWorkspace(dir, base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.SyncOver(l, nil); err != nil {
		t.Fatal(err)
	}
	examined := w.examined
	for i := range 10 {
		delta := map[string]*File{fmt.Sprintf("d099/f%02d.txt", i): {Data: []byte("y\n"), Mode: 0o644}}
		if n, err := w.SyncOver(l, delta); err != nil || n != 1+min(i, 1) {
			t.Fatalf("candidate %d: %d written, %v", i, n, err)
		}
	}
	if n := w.examined - examined; n > 20 {
		t.Errorf("ten candidates of one file over a layer of 5,000 looked at %d paths", n)
	}
	// One improvement: a new layer, reached through the paths it
	// changed; a layer of another line (a restart) is synced in full.
	l = l.With(map[string]*File{"d099/f00.txt": nil})
	examined = w.examined
	if _, err := w.SyncOver(l, nil); err != nil {
		t.Fatal(err)
	}
	if n := w.examined - examined; n > 3 {
		t.Errorf("the next layer looked at %d paths", n)
	}
	if got, _ := ReadTree(w.Dir); len(got.Files) != 4999 {
		t.Errorf("the new layer: %d files", len(got.Files))
	}
	examined = w.examined
	if _, err := w.SyncOver(NewLayer(base, nil), nil); err != nil {
		t.Fatal(err)
	}
	if n := w.examined - examined; n < 5000 {
		t.Errorf("a layer of another line looked at %d paths", n)
	}
	if got, _ := ReadTree(w.Dir); len(got.Files) != 10000 {
		t.Errorf("the original: %d files", len(got.Files))
	}
}

// BenchmarkSync measures a test's setup on a tree of 2,000 files (100
// directories of 20 source files of 2 KB) whose candidates differ in one
// file: without undoing what the test wrote (as before) and with, for a
// test that writes nothing and one that writes one new file.
func BenchmarkSync(b *testing.B) {
	base := &Tree{Files: map[string]*File{}}
	for i := range 2000 {
		base.Files[fmt.Sprintf("pkg%02d/file%02d.go", i/20, i%20)] = &File{Data: []byte(strings.Repeat("x", 2048)), Mode: 0o644}
	}
	candidates := []map[string]*File{
		{"pkg00/file00.go": {Data: []byte("a"), Mode: 0o644}},
		{"pkg00/file00.go": {Data: []byte("b"), Mode: 0o644}},
	}
	for _, restore := range []bool{false, true} {
		for _, writes := range []bool{false, true} {
			name := fmt.Sprintf("restore=%v/test_writes_a_file=%v", restore, writes)
			b.Run(name, func(b *testing.B) {
				dir := b.TempDir()
				w, err := NewWorkspace(dir, base)
				if err != nil {
					b.Fatal(err)
				}
				w.noRestore = !restore
				cpu0 := cpuTime()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := w.Sync(candidates[i%2]); err != nil {
						b.Fatal(err)
					}
					if writes {
						if err := os.WriteFile(filepath.Join(dir, "pkg50", "out.log"), []byte("log"), 0o644); err != nil {
							b.Fatal(err)
						}
					}
				}
				// CPU time says more than the wall clock on a busy machine.
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
