package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// The guardian is a small process that outlives wynot: wynot tells it,
// through a pipe, the process group of every test it starts and ends.
// When the pipe closes, because wynot exited or was killed (even by
// SIGKILL, which no handler sees), the guardian kills the groups still
// running. The parent-death signal of a test reaches only its first
// process; the guardian also reaches what that process started (a test
// script's children, a compiler's workers), since they stay in its group.
//
// It is a POSIX shell script that ignores the terminal's signals and
// keeps the set of groups in a variable, so that registering a test
// costs a line on a pipe, not a process. (dash's kill takes "kill -9
// -PGID" but not "kill -s KILL -- -PGID".)
const guardianScript = `trap '' INT TERM HUP QUIT
set=" "
while IFS= read -r l; do
	case $l in
	+*) set="$set${l#+} " ;;
	-*) g=" ${l#-} "
		case $set in *"$g"*) set="${set%%"$g"*} ${set#*"$g"}" ;; esac ;;
	esac
done
for g in $set; do kill -9 "-$g" 2>/dev/null; done
`

type guardian struct {
	mu      sync.Mutex
	started bool
	w       *os.File // the pipe to the guardian; nil when it could not start
}

var guard guardian

// ready starts the guardian if need be: before the first test starts,
// so that a test is registered as soon as it runs, not only once the
// guardian has started too.
func (g *guardian) ready() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.started {
		g.started = true
		g.w = startGuardian()
	}
}

// tell sends a line to the guardian, starting it first if need be. A
// guardian that cannot start or has died leaves the tests with their
// parent-death signal and the cleanup by the next run (removeStale).
func (g *guardian) tell(line string) {
	g.ready()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.w == nil {
		return
	}
	if _, err := g.w.WriteString(line + "\n"); err != nil {
		g.w.Close()
		g.w = nil
	}
}

func startGuardian() *os.File {
	sh, err := exec.LookPath("sh")
	if err != nil {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	cmd := exec.Command(sh, "-c", guardianScript)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := StartChild(cmd); err != nil {
		r.Close()
		w.Close()
		return nil
	}
	r.Close()
	// Reap it whenever it ends; wynot never waits for it.
	go WaitChild(cmd)
	return w
}

// guarded registers a test's process group with the guardian; the
// returned function unregisters it once the group is gone.
func guarded(pgid int) func() {
	guard.tell("+" + strconv.Itoa(pgid))
	return func() { guard.tell("-" + strconv.Itoa(pgid)) }
}

// killStragglers kills the processes, on Linux, whose working directory
// lies under dir: what tests of a wynot process that no longer exists
// left running when the guardian could not help (both were killed). The
// working directory, not a recorded process id, says which processes
// are the tests', so that an unrelated process that got a reused id is
// never touched.
func killStragglers(dir string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	prefix := filepath.Clean(dir) + string(filepath.Separator)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
		if err != nil {
			continue
		}
		cwd = strings.TrimSuffix(cwd, " (deleted)")
		if cwd == filepath.Clean(dir) || strings.HasPrefix(cwd, prefix) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
