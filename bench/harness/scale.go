package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// scaleSection measures wynot on generated trees of many small files
// (directories of 100 files of about 20 bytes, one of which holds
// NEEDLE; the test is the issue's `! grep -rqF NEEDLE .`): `reduce DIR`
// in place, `changes` between two such trees, 16 files apart, and
// `changes --git` over 8 commits on one. For each size and each wynot
// (the baseline, if given, then this one): seconds in all, tests and
// tests per second, and for reduce the cost of writing its first
// improvement (the life of DIR.wynot-pending, seen by inotify) and of
// copying the original to DIR.orig. A run longer than limit is
// interrupted and its numbers are marked cut off.
func scaleSection(root, work, bin, baseline, sizesFlag, scaleDir string, limit time.Duration) string {
	var sizes []int
	for _, s := range strings.Split(sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		check(err)
		sizes = append(sizes, n)
	}
	type binary struct{ name, path string }
	bins := []binary{{"this tree", filepath.Join(bin, "wynot")}}
	if baseline != "" {
		p := baseline
		if st, err := os.Stat(baseline); err != nil || st.IsDir() {
			p = buildBaseline(root, work, baseline)
		}
		bins = append([]binary{{"before (" + filepath.Base(baseline) + ")", p}}, bins...)
	}
	cache := filepath.Join(work, "scale-cache") // lineages: not the user's
	check(os.MkdirAll(cache, 0o700))
	env := append(os.Environ(), "XDG_CACHE_HOME="+cache)
	test := []string{"sh", "-c", "! grep -rqF NEEDLE ."}
	where := "in " + scaleDir
	if scaleDir == "" {
		scaleDir, where = work, "in the temporary directory ("+os.TempDir()+")"
	}

	var reduceRows, changeRows strings.Builder
	for _, n := range sizes {
		dir, err := os.MkdirTemp(scaleDir, fmt.Sprintf("wynot-bench-scale-%d-", n))
		check(err)
		bare := bareTest(dir, n, test)
		for _, b := range bins {
			r := scaleReduce(dir, n, b.path, env, test, limit)
			fmt.Printf("scale reduce %7d files %-24s %s\n", n, b.name, r)
			fmt.Fprintf(&reduceRows, "| %d | %s | %s |\n", n, b.name, r.cells(bare))
		}
		// The test of the issue reads the whole tree; one that reads
		// the needle's file only shows what wynot itself costs a test.
		one := []string{"sh", "-c", "! grep -qsF NEEDLE " + needleOf(n)}
		for _, git := range []bool{false, true} {
			for _, t := range [][]string{test, one} {
				for _, b := range bins {
					r := scaleChanges(dir, n, b.path, env, t, git, limit)
					what := "changes"
					if git {
						what = "changes --git"
					}
					fmt.Printf("scale %-13s %7d files %-24s %-40s %s\n", what, n, b.name, t[2], r)
					fmt.Fprintf(&changeRows, "| %d | %s | `%s` | %s | %s |\n", n, what, t[2], b.name, r.changeCells())
				}
			}
		}
		os.RemoveAll(dir)
	}

	var s strings.Builder
	s.WriteString("## Trees of many files\n\n")
	s.WriteString("Generated trees of directories of 100 files of about 20 bytes, one of which holds `NEEDLE`; the test is `sh -c '! grep -rqF NEEDLE .'`, `-j 2`, work directories in /dev/shm, the trees " + where + ". ")
	s.WriteString("`reduce DIR` in place: *first write* is how long the first improvement (half the tree's files removed, journaled in DIR.wynot-pending) took to write, from the journal's appearance to its removal, seen by inotify; *copy* is the copy of the original to DIR.orig. ")
	s.WriteString("*bare test* is one run of the test on the original tree, without wynot. A run longer than " + limit.String() + " is interrupted: its row is marked cut off and its times are lower bounds.\n\n")
	s.WriteString("| files | wynot | seconds | tests | tests/s | first write: files, seconds | longest write | copy of the original | bare test | status |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	s.WriteString(reduceRows.String())
	s.WriteString("\n`changes OLD NEW` between the tree without the needle and the same tree with 16 files changed, one of them adding the needle; `changes --git` over 8 commits on the tree without the needle (each changes two files; the fifth adds the needle).\n\n")
	s.WriteString("Each also with a test that reads only the file that holds the needle, whose own cost is small: what is left is wynot's (reading the trees, copying them into the work directories, and before every test putting back and bringing the tree to the candidate).\n\n")
	s.WriteString("| files | command | test | wynot | seconds | tests | tests/s | status |\n|---:|---|---|---|---:|---:|---:|---|\n")
	s.WriteString(changeRows.String())
	return s.String() + "\n"
}

// needleOf is the path of the file that holds the needle in the trees
// of changes (scaleChanges), relative to their top.
func needleOf(n int) string {
	i := n / 3
	return fmt.Sprintf("d%04d/f%03d.txt", i/100, i%100)
}

// scaleTree writes n files into dir, in directories of 100; with
// needle, the file in the middle of the directory two thirds in holds
// NEEDLE.
func scaleTree(dir string, n int, needle bool) {
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("d%04d", i/100))
		if i%100 == 0 {
			check(os.MkdirAll(d, 0o755))
		}
		data := fmt.Sprintf("file %d\nsome text\n", i)
		if needle && i == (n/100)*2/3*100+min(50, n/2) {
			data += "NEEDLE\n"
		}
		check(os.WriteFile(filepath.Join(d, fmt.Sprintf("f%03d.txt", i%100)), []byte(data), 0o644))
	}
}

// bareTest is the seconds one run of test takes in a tree of n files
// that holds no needle (so that grep reads every file).
func bareTest(dir string, n int, test []string) float64 {
	t := filepath.Join(dir, "bare")
	scaleTree(t, n, false)
	defer os.RemoveAll(t)
	var best float64
	for i := range 3 {
		cmd := exec.Command(test[0], test[1:]...)
		cmd.Dir = t
		t0 := time.Now()
		cmd.Run()
		if el := time.Since(t0).Seconds(); i == 0 || el < best {
			best = el
		}
	}
	return best
}

// scaleRun is what one run of wynot on a scale tree gave.
type scaleRun struct {
	seconds float64
	tests   int
	cutOff  bool
	status  string
	// reduce DIR: the writes of improvements journaled (each's seconds),
	// the files of the first, and the copy of the original.
	writes     []float64
	firstFiles int
	copy       float64
}

func (r scaleRun) String() string {
	return fmt.Sprintf("%.1fs %d tests, writes %v, copy %.1fs, %s", r.seconds, r.tests, r.writes, r.copy, r.status)
}

func (r scaleRun) rate() string {
	if r.seconds == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", float64(r.tests)/r.seconds)
}

func (r scaleRun) cells(bare float64) string {
	first, longest := "none", ""
	if len(r.writes) > 0 {
		first = fmt.Sprintf("%d, %.2f", r.firstFiles, r.writes[0])
		m := 0.0
		for _, w := range r.writes {
			m = max(m, w)
		}
		longest = fmt.Sprintf("%.2f", m)
	}
	if r.cutOff && len(r.writes) > 0 && r.writes[len(r.writes)-1] < 0 {
		first = fmt.Sprintf("%d, > %.0f (still writing)", r.firstFiles, -r.writes[len(r.writes)-1])
		longest = ""
	}
	return fmt.Sprintf("%.1f | %d | %s | %s | %s | %.2f | %.2f | %s", r.seconds, r.tests, r.rate(), first, longest, r.copy, bare, r.status)
}

func (r scaleRun) changeCells() string {
	return fmt.Sprintf("%.1f | %d | %s | %s", r.seconds, r.tests, r.rate(), r.status)
}

// scaleReduce reduces a fresh tree of n files in place with the wynot
// at exe, watching the tree's parent directory for its journal and its
// copy of the original.
func scaleReduce(dir string, n int, exe string, env, test []string, limit time.Duration) scaleRun {
	t := filepath.Join(dir, "t")
	os.RemoveAll(t)
	os.RemoveAll(t + ".orig")
	scaleTree(t, n, true)
	defer func() {
		os.RemoveAll(t)
		os.RemoveAll(t + ".orig")
		os.Remove(t + ".wynot-pending")
	}()
	w := watchDir(dir)
	r := runScale(dir, exe, env, limit, append([]string{"reduce", "-q", "--json", "-j", "2", "t", "--"}, test...)...)
	evs := w.stop()
	var start, copyStart time.Time
	for _, e := range evs {
		switch {
		case e.name == "t.wynot-pending" && e.mask&(unix.IN_MOVED_TO|unix.IN_CREATE) != 0:
			start = e.at
		case e.name == "t.wynot-pending" && e.mask&(unix.IN_DELETE|unix.IN_MOVED_FROM) != 0 && !start.IsZero():
			r.writes = append(r.writes, e.at.Sub(start).Seconds())
			start = time.Time{}
		case strings.HasPrefix(e.name, ".t.orig.") && e.mask&unix.IN_CREATE != 0:
			copyStart = e.at
		case e.name == "t.orig" && e.mask&unix.IN_MOVED_TO != 0 && !copyStart.IsZero():
			r.copy = e.at.Sub(copyStart).Seconds()
		}
	}
	if !start.IsZero() {
		// Still writing when the run was cut off: a lower bound, negated.
		r.writes = append(r.writes, -w.stopped.Sub(start).Seconds())
	}
	r.firstFiles = n / 2 // half the top directories, for an even number of them
	return r
}

// scaleChanges runs wynot changes between a tree of n files and the
// same with 16 files changed (or, with git, over 8 commits on it).
func scaleChanges(dir string, n int, exe string, env, test []string, git bool, limit time.Duration) scaleRun {
	old, nw := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	defer os.RemoveAll(old)
	defer os.RemoveAll(nw)
	os.RemoveAll(old)
	os.RemoveAll(nw)
	scaleTree(old, n, false)
	edit := func(root string, k int, needle bool) {
		i := (k * 997) % n
		if needle {
			i = n / 3
		}
		p := filepath.Join(root, fmt.Sprintf("d%04d", i/100), fmt.Sprintf("f%03d.txt", i%100))
		data, err := os.ReadFile(p)
		check(err)
		data = append(data, fmt.Sprintf("changed %d\n", k)...)
		if needle {
			data = append(data, "NEEDLE\n"...)
		}
		check(os.WriteFile(p, data, 0o644))
	}
	if !git {
		check(exec.Command("cp", "-a", old, nw).Run())
		for k := range 16 {
			edit(nw, k, k == 11)
		}
		return runScale(dir, exe, env, limit, append([]string{"changes", "-q", "--json", "-j", "2", "old", "new", "--"}, test...)...)
	}
	gitRun := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = old
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
			"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q", "-b", "main")
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "base")
	for c := range 8 {
		edit(old, 2*c, c == 4)
		edit(old, 2*c+1, false)
		gitRun("commit", "-q", "-a", "-m", fmt.Sprintf("commit %d", c+1))
	}
	return runScale(old, exe, env, limit, append([]string{"changes", "-q", "--json", "-j", "2", "--git", "HEAD~8", "HEAD", "--"}, test...)...)
}

// runScale runs wynot with args in dir, interrupted after limit (and
// killed 30 seconds later), and reads its JSON summary.
func runScale(dir, exe string, env []string, limit time.Duration, args ...string) scaleRun {
	var r scaleRun
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	check(cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		r.cutOff = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-done
		}
	}
	r.seconds = time.Since(t0).Seconds()
	var sum struct {
		Tests int `json:"tests"`
	}
	if json.Unmarshal(out.Bytes(), &sum) == nil {
		r.tests = sum.Tests
	}
	switch {
	case r.cutOff:
		r.status = "cut off"
		if r.tests == 0 {
			r.status += ", no summary"
		}
	case err != nil:
		r.status = "error: " + lastLine(errb.String())
	default:
		r.status = "ok"
	}
	return r
}

// dirWatch records what happens to the entries of a directory
// (inotify), with the time each event was read.
type dirWatch struct {
	f       *os.File
	mu      sync.Mutex
	evs     []dirEvent
	done    chan struct{}
	stopped time.Time
}

type dirEvent struct {
	name string
	mask uint32
	at   time.Time
}

func watchDir(dir string) *dirWatch {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	check(err)
	_, err = unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_TO|unix.IN_MOVED_FROM)
	check(err)
	w := &dirWatch{f: os.NewFile(uintptr(fd), "inotify"), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		buf := make([]byte, 1<<16)
		for {
			n, err := w.f.Read(buf)
			if err != nil {
				return
			}
			at := time.Now()
			w.mu.Lock()
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				// struct inotify_event: wd, mask, cookie, len, name.
				mask := binary.NativeEndian.Uint32(buf[off+4:])
				size := int(binary.NativeEndian.Uint32(buf[off+12:]))
				name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+size]), "\x00")
				w.evs = append(w.evs, dirEvent{name, mask, at})
				off += unix.SizeofInotifyEvent + size
			}
			w.mu.Unlock()
		}
	}()
	return w
}

// stop ends the watch and returns what it saw.
func (w *dirWatch) stop() []dirEvent {
	time.Sleep(50 * time.Millisecond) // the last events read
	w.stopped = time.Now()
	w.f.Close()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.evs
}
