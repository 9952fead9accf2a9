package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// AgentFlag, as the first argument of wynot's own executable, makes it
// a test agent (ServeAgent) instead of the command line tool: one
// long-lived Slurm job step per work slot runs the tests it is sent, so
// that a test costs a local process start instead of a job step's
// (--slurm-steps slot).
const AgentFlag = "-wynot-test-agent"

// AgentRequest asks an agent to run a process, or (Cancel set) to end
// the one it runs.
type AgentRequest struct {
	ID      int64         `json:"id"`
	Cancel  bool          `json:"cancel,omitempty"`
	Argv    []string      `json:"argv,omitempty"`
	Env     []string      `json:"env,omitempty"`
	Dir     string        `json:"dir,omitempty"`
	Stdin   []byte        `json:"stdin,omitempty"`
	NoStdin bool          `json:"no_stdin,omitempty"`
	Timeout time.Duration `json:"timeout,omitempty"`
}

// AgentReply is how a process an agent ran ended.
type AgentReply struct {
	ID  int64 `json:"id"`
	Run Run   `json:"run"`
	// Err is why the process did not run or was not waited for to its
	// end: Start says it could not be started (ErrStart), Canceled that
	// it was ended on request.
	Err      string `json:"err,omitempty"`
	Start    bool   `json:"start,omitempty"`
	Canceled bool   `json:"canceled,omitempty"`
}

// ServeAgent runs processes as in reads requests for them (the
// executor sends one at a time), each a local process group as a test on this machine is (killed
// as a whole at its timeout or on a cancel request), and writes how
// each ended to out. It returns when in ends, after ending the process
// it runs, if any.
func ServeAgent(in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	enc := json.NewEncoder(out)
	var mu sync.Mutex // enc
	reply := func(r AgentReply) {
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(r)
	}
	var running sync.WaitGroup
	var cmu sync.Mutex
	cancels := map[int64]context.CancelFunc{} // of the processes running, by request
	defer running.Wait()
	for {
		var req AgentRequest
		if err := dec.Decode(&req); err != nil {
			cmu.Lock()
			for _, cancel := range cancels {
				cancel()
			}
			cmu.Unlock()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		cmu.Lock()
		if req.Cancel {
			if cancel := cancels[req.ID]; cancel != nil {
				cancel()
			}
			cmu.Unlock()
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancels[req.ID] = cancel
		cmu.Unlock()
		running.Add(1)
		go func() {
			defer running.Done()
			stdin := req.Stdin
			if req.NoStdin {
				stdin = nil
			} else if stdin == nil {
				stdin = []byte{}
			}
			r, err := execute(ctx, req.Dir, nil, req.Argv, stdin, req.Env, req.Timeout, localProc)
			rep := AgentReply{ID: req.ID, Run: r}
			switch {
			case err == nil:
			case errors.Is(err, ErrStart):
				rep.Err, rep.Start = err.Error(), true
			case ctx.Err() != nil:
				rep.Err, rep.Canceled = err.Error(), true
			default:
				rep.Err = err.Error()
			}
			cmu.Lock()
			delete(cancels, req.ID)
			cmu.Unlock()
			cancel()
			reply(rep)
		}()
	}
}

// MainAgent is the main function of an agent: it serves standard input
// and output and exits.
func MainAgent() {
	// What a test detaches ends with the test, as on wynot's machine.
	AdoptOrphans()
	// A test's output must never reach the protocol: processes get
	// their own pipes; nothing else writes to standard output.
	err := ServeAgent(os.Stdin, os.Stdout)
	EndOrphans()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wynot test agent:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
