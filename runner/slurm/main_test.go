package slurm

import (
	"os"
	"testing"

	"github.com/wynot/wynot/runner"
)

// TestMain makes the test binary a test agent when asked to, as wynot's
// own executable is for --slurm-steps slot.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == runner.AgentFlag {
		runner.MainAgent()
	}
	os.Exit(m.Run())
}
