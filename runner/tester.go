package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wynot/wynot/dd"
)

// Tester runs the test on candidates: each in a private work directory of
// its own (one per parallel slot, reused), with the outcome cached by
// content and, with Repeat > 1, taken only when repeated runs agree.
type Tester struct {
	Command Command
	Oracle  Oracle
	// Repeat runs each test this many times; if the outcomes differ, the
	// test is unresolved and marked flaky. Zero means once.
	Repeat int
	// Cache, if set, answers candidates seen before (in this run or, with
	// a cache file, an earlier one).
	Cache *Cache
	// OnTest, if set, is called after each test, cached or run, from the
	// goroutine that asked for it.
	OnTest func(Test)

	root string
	dirs chan string
}

// Test records one test of a candidate.
type Test struct {
	Key      Key
	Size     int // bytes in the candidate's files
	Outcome  dd.Outcome
	Detail   string
	Run      Run // the (last) run; zero when Cached
	Cached   bool
	Flaky    bool
	Duration time.Duration
}

// NewTester prepares slots private work directories under a new
// temporary directory (mode 0700). Close removes them.
func NewTester(cmd Command, oracle Oracle, slots int) (*Tester, error) {
	root, err := os.MkdirTemp("", "wynot-")
	if err != nil {
		return nil, err
	}
	t := &Tester{Command: cmd, Oracle: oracle, root: root, dirs: make(chan string, max(slots, 1))}
	for i := range max(slots, 1) {
		d := filepath.Join(root, fmt.Sprint("w", i))
		if err := os.Mkdir(d, 0o700); err != nil {
			os.RemoveAll(root)
			return nil, err
		}
		t.dirs <- d
	}
	return t, nil
}

// Root is the directory holding the work directories.
func (t *Tester) Root() string { return t.root }

// Close removes the work directories.
func (t *Tester) Close() error { return os.RemoveAll(t.root) }

// contextKey names everything besides the files that decides an outcome.
func (t *Tester) contextKey() string {
	return fmt.Sprintf("%q stdin=%v timeout=%s repeat=%d %s", strings.Join(t.Command.Argv, "\x00"), t.Command.Stdin, t.Command.Timeout, max(t.Repeat, 1), t.Oracle.Key())
}

// Test tests a candidate. The error is the context's when it ends, or
// one that no other candidate would avoid either (the test cannot be
// started, the oracle aborts).
func (t *Tester) Test(ctx context.Context, files []File) (Test, error) {
	rec := Test{Key: KeyOf(t.contextKey(), files)}
	for _, f := range files {
		rec.Size += len(f.Data)
	}
	if t.Cache != nil {
		if c, ok := t.Cache.Get(rec.Key); ok {
			rec.Outcome, rec.Detail, rec.Cached = c.Outcome, c.Detail, true
			if t.OnTest != nil {
				t.OnTest(rec)
			}
			return rec, nil
		}
	}
	var dir string
	select {
	case dir = <-t.dirs:
	case <-ctx.Done():
		return rec, ctx.Err()
	}
	defer func() { t.dirs <- dir }()
	start := time.Now()
	for i := range max(t.Repeat, 1) {
		run, err := t.Command.Exec(ctx, dir, files)
		rec.Run = run
		if err != nil {
			return rec, err
		}
		o, detail, err := t.Oracle.Classify(run)
		if err != nil {
			return rec, err
		}
		if i == 0 {
			rec.Outcome, rec.Detail = o, detail
			continue
		}
		if o != rec.Outcome {
			rec.Detail = fmt.Sprintf("flaky: %s (%s), then %s (%s)", rec.Outcome, rec.Detail, o, detail)
			rec.Outcome, rec.Flaky = dd.Unresolved, true
			break
		}
	}
	rec.Duration = time.Since(start)
	if t.Cache != nil {
		if err := t.Cache.Put(rec.Key, Cached{rec.Outcome, rec.Detail}); err != nil {
			return rec, fmt.Errorf("writing the cache: %w", err)
		}
	}
	if t.OnTest != nil {
		t.OnTest(rec)
	}
	return rec, nil
}
