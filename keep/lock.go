package keep

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Runs of wynot lock what they read and write, so that a second run on
// an input a live run holds stops at once rather than undo the other's
// results. The locks live where the lineages do, in the user's cache
// directory (wynot/runs), not beside the inputs: a lock there needs no
// write permission where the inputs are (a run with -o only reads
// them), leaves nothing in the user's directories after a run that was
// killed, and no glob or go vet ./... of the tests sees it.
//
// Each live run has a record there, runs/PID-N.json, which it keeps
// locked (flock, exclusively) for as long as it runs: what it holds
// (paths with symbolic links resolved, each read or written), its PID,
// when it started, its command line. The kernel lets go of that lock
// when the process ends, however it ends (SIGKILL too), so a record
// whose lock can be taken is stale: the next run removes it, and takes
// over what it held. A run checks the records and adds its own while it
// holds the lock of runs/lock, for a moment, so that two runs starting
// at once cannot both take one input.
//
// Two holds conflict when their paths are the same or one holds the
// other (a tree and a file in it) and either writes: any number of runs
// may read an input (reduce -o, changes), one may write it (reduce in
// place), and none may read what another writes.

// Use is a path a run uses: an input it reduces in place or reads, or
// where it writes its result.
type Use struct {
	Path  string // as the user gave it
	Write bool   // the run changes it; otherwise it only reads it
	// Doing says what the run does with it, for the message of a run
	// that it stops: "reduces m3.txt in place", "reads m3.txt",
	// "writes its result to out.txt (-o)".
	Doing string
}

// Locked is a run's lock on what it uses, from Lock; Release lets go of
// it (ending the process does too).
type Locked struct {
	f    *os.File
	path string
}

// runRecord is what a run records of itself in its record file.
type runRecord struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host,omitempty"`
	Start time.Time `json:"start"`
	Args  []string  `json:"args"`
	Holds []held    `json:"holds"`
}

// held is one path a run holds.
type held struct {
	Path  string `json:"path"` // absolute, symbolic links resolved
	Write bool   `json:"write,omitempty"`
	Doing string `json:"doing"`
}

// InUseError says that another live run of wynot holds what this run
// would use.
type InUseError struct {
	Path  string // this run's path, as given
	Write bool   // this run would change it
	Other Run    // the run that holds it
	Doing string // what the other run does with what it holds
}

// Run is another run of wynot, as its record names it.
type Run struct {
	PID   int
	Host  string // "" for this machine
	Start time.Time
	Args  []string
}

// String names the run: "PID 4242, started 2025-06-01 14:02:11: wynot
// reduce m3.txt -- ./t.sh".
func (r Run) String() string {
	s := fmt.Sprintf("PID %d", r.PID)
	if r.Host != "" {
		s += " on " + r.Host
	}
	s += ", started " + r.Start.Local().Format("2006-01-02 15:04:05")
	if len(r.Args) > 0 {
		args := make([]string, len(r.Args))
		for i, a := range r.Args {
			args[i] = Quote(a)
		}
		cmd := strings.Join(args, " ")
		if len(cmd) > 160 {
			cmd = cmd[:157] + "..."
		}
		s += ": " + cmd
	}
	return s
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s is in use by another run of wynot (%s), which %s: wait for that run to end, or stop it",
		Quote(e.Path), e.Other, e.Doing)
}

// runsDir is where the records of the runs are, or "" when there is no
// cache directory.
func runsDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "wynot", "runs")
}

// identity is the path p names, absolute, with symbolic links resolved:
// of its directory when p does not exist yet (an -o to be made).
func identity(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(d, filepath.Base(abs))
	}
	return abs
}

// overlap says whether the paths a and b (absolute, clean) are the same
// or one holds the other.
func overlap(a, b string) bool { return Within(a, b) || Within(b, a) }

// lockWait is how long Lock waits for another run to finish checking
// the records (it takes a moment).
const lockWait = 10 * time.Second

// Lock locks what the run uses: it stops, with an *InUseError, when a
// live run of wynot holds one of the paths, or a path holding it or
// held by it, and either of them writes it; otherwise it records the
// run as holding them until Release. Records of runs that ended without
// letting go (killed) are removed; the notes say which of them held
// what this run uses, which it takes over. Without a cache directory
// where it can keep the records, it locks nothing and says nothing.
func Lock(uses []Use) (*Locked, []string, error) {
	dir := runsDir()
	if dir == "" || len(uses) == 0 {
		return nil, nil, nil
	}
	if os.MkdirAll(dir, 0o700) != nil {
		return nil, nil, nil
	}
	reg, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, nil
	}
	defer reg.Close() // lets go of the lock of the records
	for deadline := time.Now().Add(lockWait); ; time.Sleep(10 * time.Millisecond) {
		err := syscall.Flock(int(reg.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			return nil, nil, nil
		}
	}
	// This run's holds, one per path (writing wins).
	var mine []held
	shown := map[string]Use{}
	for _, u := range uses {
		id := identity(u.Path)
		if i := indexHeld(mine, id); i >= 0 {
			if u.Write && !mine[i].Write {
				mine[i] = held{Path: id, Write: true, Doing: u.Doing}
				shown[id] = u
			}
			continue
		}
		mine = append(mine, held{Path: id, Write: u.Write, Doing: u.Doing})
		shown[id] = u
	}
	host, _ := os.Hostname()
	var notes []string
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, name := range names {
		rec, live := readRecord(name)
		if !live {
			os.Remove(name)
		}
		if rec == nil {
			continue
		}
		other := Run{PID: rec.PID, Start: rec.Start, Args: rec.Args}
		if rec.Host != host {
			other.Host = rec.Host
		}
		for _, h := range mine {
			for _, o := range rec.Holds {
				if !overlap(h.Path, o.Path) {
					continue
				}
				if !live {
					notes = append(notes, fmt.Sprintf("%s was held by a run of wynot that ended without letting go of it (%s): taking it over", Quote(shown[h.Path].Path), other))
					break
				}
				if h.Write || o.Write {
					return nil, nil, &InUseError{Path: shown[h.Path].Path, Write: h.Write, Other: other, Doing: o.Doing}
				}
			}
		}
	}
	f, err := os.CreateTemp(dir, fmt.Sprintf("%d-*.json", os.Getpid()))
	if err != nil {
		return nil, notes, nil
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, notes, nil
	}
	data, _ := json.Marshal(runRecord{PID: os.Getpid(), Host: host, Start: started, Args: runArgs(), Holds: mine})
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, notes, nil
	}
	return &Locked{f: f, path: f.Name()}, notes, nil
}

// started is when this run started, as its record says.
var started = time.Now()

// runArgs is the command line of this run, as its record shows it.
func runArgs() []string {
	if len(os.Args) == 0 {
		return nil
	}
	return append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...)
}

func indexHeld(hs []held, path string) int {
	for i, h := range hs {
		if h.Path == path {
			return i
		}
	}
	return -1
}

// readRecord reads a run's record, and whether the run is live: its
// lock is held. A record that cannot be read is nil.
func readRecord(name string) (rec *runRecord, live bool) {
	f, err := os.Open(name)
	if err != nil {
		return nil, true // gone meanwhile, or not ours to judge
	}
	defer f.Close()
	live = errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK)
	var r runRecord
	data, err := os.ReadFile(name)
	if err != nil || json.Unmarshal(data, &r) != nil {
		return nil, live
	}
	return &r, live
}

// Release lets go of the lock: the run's record goes. It may be called
// on nil, and more than once.
func (l *Locked) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}
