package runner

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain makes the test binary a test agent when asked to, as wynot's
// own executable is for --slurm-steps slot; or the child process of an
// orphan test (orphanScenario).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == AgentFlag {
		MainAgent()
	}
	if s := os.Getenv(orphanScenarioEnv); s != "" {
		os.Exit(orphanScenario(s))
	}
	os.Exit(m.Run())
}

// An agent runs what it is sent as a local test runs: exit status,
// signal, output, standard input (none, empty, some), the environment,
// the directory, its timeout, a program it cannot start; a cancel
// request ends the process group; the end of its input ends it.
func TestAgent(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeAgent(inR, outW); outW.Close() }()
	enc, dec := json.NewEncoder(inW), json.NewDecoder(outR)
	dir := t.TempDir()
	ask := func(r AgentRequest) AgentReply {
		t.Helper()
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		var rep AgentReply
		if err := dec.Decode(&rep); err != nil {
			t.Fatal(err)
		}
		if rep.ID != r.ID {
			t.Fatalf("reply %d to request %d", rep.ID, r.ID)
		}
		return rep
	}
	shArgv := func(script string) []string { return []string{"sh", "-c", script} }
	for _, c := range []struct {
		req  AgentRequest
		want func(AgentReply) bool
	}{
		{AgentRequest{Argv: shArgv("echo out; echo err >&2; exit 3"), NoStdin: true},
			func(r AgentReply) bool {
				return r.Run.Exit == 3 && string(r.Run.Stdout) == "out\n" && string(r.Run.Stderr) == "err\n"
			}},
		{AgentRequest{Argv: shArgv("kill -SEGV $$"), NoStdin: true},
			func(r AgentReply) bool { return r.Run.Signal == syscall.SIGSEGV }},
		{AgentRequest{Argv: []string{"cat"}, Stdin: []byte("in\n")},
			func(r AgentReply) bool { return r.Run.Clean() && string(r.Run.Stdout) == "in\n" }},
		{AgentRequest{Argv: []string{"cat"}},
			func(r AgentReply) bool { return r.Run.Clean() && len(r.Run.Stdout) == 0 }},
		{AgentRequest{Argv: shArgv("pwd; echo $WYNOT_X"), Dir: dir, Env: []string{"WYNOT_X=set", "PATH=" + os.Getenv("PATH")}, NoStdin: true},
			func(r AgentReply) bool { return string(r.Run.Stdout) == dir+"\nset\n" }},
		{AgentRequest{Argv: []string{"sleep", "30"}, Timeout: 200 * time.Millisecond, NoStdin: true},
			func(r AgentReply) bool { return r.Run.TimedOut && r.Err == "" }},
		{AgentRequest{Argv: []string{"/nonexistent/program"}, NoStdin: true},
			func(r AgentReply) bool { return r.Start && strings.Contains(r.Err, "/nonexistent/program") }},
	} {
		c.req.ID++
		if rep := ask(c.req); !c.want(rep) {
			t.Errorf("%q: %+v (%s)", c.req.Argv, rep, rep.Run.Describe())
		}
	}
	// Cancelled: the whole group goes.
	marker := "wynot-agent-test-" + time.Now().Format("150405.000000")
	if err := enc.Encode(AgentRequest{ID: 50, Argv: shArgv("sleep 30 & echo " + marker + "; wait"), NoStdin: true}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := enc.Encode(AgentRequest{ID: 50, Cancel: true}); err != nil {
		t.Fatal(err)
	}
	var rep AgentReply
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	// A run the cancel did not stop would end after 30 s without error,
	// and so not marked cancelled.
	if !rep.Canceled {
		t.Errorf("cancelled: %+v", rep)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("agent: %v", err)
	}
}
