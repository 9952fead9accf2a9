package runner

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wynot/wynot/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/tools")

// TestToolReadings reads real outputs of failing tools (testdata/tools,
// whose README says how to add one) and compares what wynot takes their
// failure to be with the golden file beside each.
func TestToolReadings(t *testing.T) {
	files, err := filepath.Glob("testdata/tools/*.out")
	if err != nil || len(files) < 20 {
		t.Fatalf("outputs: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, out, _ := strings.Cut(string(b), "\n")
		code, err := strconv.Atoi(strings.TrimPrefix(head, "# exit status "))
		if err != nil {
			t.Fatalf("%s: the first line must be \"# exit status N\": %q", f, head)
		}
		sig := Extract(Run{Exit: code, Stderr: []byte(out)})
		got := fmt.Sprintf("phase: %s\ntool: %s\nfailed: %s\nmessage: %s\nsignature: %s\n",
			sig.Phase, sig.Tool, strings.Join(sig.Failed, "; "), sig.Message, sig)
		goldenfile.Check(t, strings.TrimSuffix(f, ".out")+".golden", got, *update)
	}
}
