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

// TestUnglue: a line of go test or of the Go runtime that the output
// before it did not end with a newline for is read on a line of its own,
// where the rest of the line is exactly such a line; nothing else is.
func TestUnglue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"50%--- FAIL: TestX (0.00s)\n    x_test.go:3: no\n", "50%\n--- FAIL: TestX (0.00s)\n    x_test.go:3: no\n"},
		{"--- FAIL: TestX (0.00s)\n", "--- FAIL: TestX (0.00s)\n"},
		{"xxFAIL\texample.com/a\t0.01s\nFAIL", "xx\nFAIL\texample.com/a\t0.01s\nFAIL"},
		{"xxFAIL\texample.com/a [build failed]", "xx\nFAIL\texample.com/a [build failed]"},
		{"xxok  \texample.com/a\t(cached)\n", "xx\nok  \texample.com/a\t(cached)\n"},
		{"xx=== RUN   TestX\n", "xx\n=== RUN   TestX\n"},
		{"50%panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n", "50%\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n"},
		// Ambiguous, or not go test's: left as it is.
		{"don't panic: it is fine\nall good\n", "don't panic: it is fine\nall good\n"},
		{"says --- FAIL: TestX (0.00s) twice --- FAIL: TestX\n", "says --- FAIL: TestX (0.00s) twice --- FAIL: TestX\n"},
		{"xxFAIL\tthe check of a and b\n", "xxFAIL\tthe check of a and b\n"},
		{`{"Action":"output","Output":"=== RUN   TestMax\n"}` + "\n", `{"Action":"output","Output":"=== RUN   TestMax\n"}` + "\n"},
	} {
		if got := unglue(c.in); got != c.want {
			t.Errorf("unglue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
