package runner

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// persistentServer answers each request with the content of the first
// file: its pid and a count on stdout, "exit LEN" as the status; "hang"
// never answers, "die" exits, "nonsense" answers nonsense.
const persistentServer = `n=0
while IFS='	' read -r out err first; do
  n=$((n+1))
  c=$(cat "$first")
  case "$c" in
    hang) sleep 30 ;;
    die) echo "dying" >&2; exit 3 ;;
    nonsense) echo "what?"; continue ;;
  esac
  printf 'pid %s run %s: %s\n' "$$" "$n" "$c" > "$out"
  printf 'err %s\n' "$c" > "$err"
  echo "exit ${#c}"
done`

func TestPersistent(t *testing.T) {
	c := sh(persistentServer)
	c.Persistent = true
	c.Timeout = 2 * time.Second
	tester, err := NewTester(c, &ScriptOracle{Bisect}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := func(content string) Run {
		t.Helper()
		r, err := tester.Exec(ctx, Candidate{Files: []File{{Name: "in", Data: []byte(content)}}})
		if err != nil {
			t.Fatalf("%s: %v", content, err)
		}
		return r
	}
	pid := func(r Run) int {
		f := strings.Fields(string(r.Stdout))
		if len(f) < 2 {
			t.Fatalf("no pid in %q", r.Stdout)
		}
		n, _ := strconv.Atoi(f[1])
		return n
	}
	a, b := run("a"), run("bcd")
	if a.Exit != 1 || b.Exit != 3 || string(b.Stderr) != "err bcd\n" || !strings.HasSuffix(string(b.Stdout), "run 2: bcd\n") {
		t.Fatalf("runs %+v %+v", a, b)
	}
	if pid(a) != pid(b) {
		t.Errorf("two tests, two processes (%d, %d): not persistent", pid(a), pid(b))
	}
	first := pid(a)
	// A test that hangs is killed at its timeout, with its server; the
	// next test gets a new one.
	tester.Command.Timeout = 300 * time.Millisecond
	h := run("hang")
	if !h.TimedOut {
		t.Errorf("hang: %+v", h)
	}
	if syscall.Kill(first, 0) == nil {
		t.Errorf("the server of a test that timed out still runs")
	}
	tester.Command.Timeout = 2 * time.Second
	n := run("new")
	if pid(n) == first || !strings.HasSuffix(string(n.Stdout), "run 1: new\n") {
		t.Errorf("after a timeout: %q", n.Stdout)
	}
	// A server that dies or answers nonsense: unresolved, said why.
	for _, bad := range []string{"die", "nonsense"} {
		d := run(bad)
		if d.Exit != 125 || !strings.Contains(string(d.Stderr), "the persistent test process died") {
			t.Errorf("%s: %+v", bad, d)
		}
		if bad == "die" && !strings.Contains(string(d.Stderr), "dying") {
			t.Errorf("its error output is not shown: %q", d.Stderr)
		}
	}
	last := pid(run("last"))
	// An interrupted test kills its server and says so.
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := tester.Exec(cctx, Candidate{Files: []File{{Name: "in", Data: []byte("hang")}}}); err == nil {
		t.Error("an interrupted test did not return the context's error")
	}
	if !ends(last) {
		t.Error("the server of an interrupted test still runs")
	}
	final := pid(run("final"))
	tester.Close()
	if !ends(final) {
		t.Error("Close left the server running")
	}
}

// TestPersistentPaired: a persistent command's paired command is a
// persistent process of its own, kept across tests, given the file it
// names; both runs come back.
func TestPersistentPaired(t *testing.T) {
	c := sh(persistentServer)
	c.Persistent = true
	c.Timeout = 2 * time.Second
	p := sh(persistentServer)
	p.Persistent, p.File = true, "pass"
	c.Paired = &p
	tester, err := NewTester(c, &ScriptOracle{Bisect}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tester.Close()
	ctx := context.Background()
	run := func(fail, pass string) Run {
		t.Helper()
		r, err := tester.Exec(ctx, Candidate{Files: []File{{Name: "in", Data: []byte(fail)}, {Name: "pass", Data: []byte(pass)}}})
		if err != nil || r.Paired == nil {
			t.Fatalf("%s, %s: %+v %v", fail, pass, r, err)
		}
		return r
	}
	a, b := run("a", "xyz"), run("bc", "w")
	if a.Exit != 1 || a.Paired.Exit != 3 || !strings.HasSuffix(string(a.Stdout), "run 1: a\n") || !strings.HasSuffix(string(a.Paired.Stdout), "run 1: xyz\n") {
		t.Fatalf("first test: %q %q", a.Stdout, a.Paired.Stdout)
	}
	if b.Exit != 2 || b.Paired.Exit != 1 || !strings.HasSuffix(string(b.Stdout), "run 2: bc\n") || !strings.HasSuffix(string(b.Paired.Stdout), "run 2: w\n") {
		t.Errorf("second test: %q %q (each process kept for the next)", b.Stdout, b.Paired.Stdout)
	}
}
