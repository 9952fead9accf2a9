package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// A Sandbox runs each test where it can write only its work directory
// (and the paths in Writable), cannot read the user's home directory
// (but the directory it runs in and the programs it names), sees an
// empty /tmp of its own, and, without Network, reaches no network: the
// test's process starts under bubblewrap (user and mount namespaces; on
// Linux, with Debian's bubblewrap package), which ends with it.
type Sandbox struct {
	// Writable are directories the test may write besides its work
	// directory (a build cache).
	Writable []string
	// Network keeps the network reachable; otherwise the test gets a
	// network namespace of its own, with no interface but a down
	// loopback.
	Network bool

	bwrap string
	home  string
}

// ErrNoSandbox is wrapped by NewSandbox's error when tests cannot be
// confined here; the tests then run as they would without a sandbox.
var ErrNoSandbox = errors.New("tests cannot be confined here")

// NewSandbox checks that tests can be confined here (Linux, bubblewrap
// on $PATH, namespaces it may create) by confining a trivial command.
func NewSandbox(ctx context.Context, writable []string, network bool) (*Sandbox, error) {
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("%w: the sandbox needs Linux's namespaces, and this is %s", ErrNoSandbox, runtime.GOOS)
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("%w: bubblewrap is not installed (Debian: apt-get install bubblewrap)", ErrNoSandbox)
	}
	s := &Sandbox{Network: network, bwrap: bwrap}
	if h, err := os.UserHomeDir(); err == nil && h != "/" {
		s.home = filepath.Clean(h)
	}
	for _, w := range writable {
		abs, err := filepath.Abs(w)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--sandbox-write %s: not a directory", w)
		}
		s.Writable = append(s.Writable, abs)
	}
	dir, err := os.MkdirTemp("", "wynot-sandbox-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p := s.Wrap(Process{Argv: []string{"true"}, Dir: dir, WorkDir: dir})
	if out, err := exec.CommandContext(ctx, p.Argv[0], p.Argv[1:]...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w: bubblewrap cannot make its namespaces (%v: %s)", ErrNoSandbox, err, strings.TrimSpace(string(out)))
	}
	return s, nil
}

// Wrap returns p run inside the sandbox: its program becomes bubblewrap,
// told what the test may see and write.
func (s *Sandbox) Wrap(p Process) Process {
	args := []string{s.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--tmpfs", "/dev/shm"}
	if s.home != "" {
		args = append(args, "--tmpfs", s.home)
	}
	// What the test reads where it runs and the programs it names come
	// back, read-only, where the home directory or /tmp hid them.
	var ro []string
	if p.Dir != "" && p.Dir != p.WorkDir {
		ro = append(ro, p.Dir)
	}
	for _, a := range p.Argv {
		if filepath.IsAbs(a) && !strings.HasPrefix(a, p.WorkDir+"/") && a != p.WorkDir {
			if _, err := os.Stat(a); err == nil {
				ro = append(ro, a)
			}
		}
	}
	slices.Sort(ro)
	for _, r := range slices.Compact(ro) {
		args = append(args, "--ro-bind", r, r)
	}
	if p.WorkDir != "" {
		args = append(args, "--bind", p.WorkDir, p.WorkDir)
	}
	for _, w := range s.Writable {
		args = append(args, "--bind", w, w)
	}
	if !s.Network {
		args = append(args, "--unshare-net")
	}
	if p.Dir != "" {
		args = append(args, "--chdir", p.Dir)
	}
	args = append(args, "--die-with-parent", "--")
	p.Argv = append(args, p.Argv...)
	return p
}

// String says what the sandbox lets a test do, for the line that says
// where tests run.
func (s *Sandbox) String() string {
	var b strings.Builder
	b.WriteString("confined by bubblewrap: it writes only its work directory")
	if len(s.Writable) > 0 {
		b.WriteString(" and " + strings.Join(s.Writable, ", "))
	}
	if s.home != "" {
		b.WriteString(", " + s.home + " hidden")
	}
	if !s.Network {
		b.WriteString(", no network")
	}
	return b.String()
}
