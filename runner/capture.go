package runner

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// captureLimit is how much output a capture file may hold before its
// watchdog discards what was written so far.
const captureLimit = 16 << 20

// capture collects one output stream of a test in a file that the test
// writes to directly: no pipe, and no goroutine copying, which makes a
// short test measurably cheaper than with pipes. A watchdog keeps the file
// from growing without bound: beyond captureLimit it truncates the file,
// and the test, writing on at its offset, leaves a hole that takes no
// space. The end of the output is what a capture keeps, as a tail does.
type capture struct {
	f       *os.File
	trimmed atomic.Int64 // output before this offset was discarded
}

func newCapture(path string) (*capture, error) {
	os.Remove(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	return &capture{f: f}, nil
}

// reset empties the capture for the next test. The test shares the
// file's offset with c.f, so it goes back to 0 as well.
func (c *capture) reset() error {
	c.trimmed.Store(0)
	if st, err := c.f.Stat(); err == nil && st.Size() == 0 {
		return nil
	}
	if err := c.f.Truncate(0); err != nil {
		return err
	}
	_, err := c.f.Seek(0, io.SeekStart)
	return err
}

func (c *capture) trim() {
	st, err := c.f.Stat()
	if err != nil {
		return
	}
	if size := st.Size(); size-c.trimmed.Load() > captureLimit {
		// Punch out what was written so far, keeping the size: output
		// written meanwhile, past size, stays (truncating to 0 lost what
		// the test wrote between the Stat and the Truncate, as the end
		// of its output).
		const punchHole, keepSize = 0x2, 0x1 // FALLOC_FL_PUNCH_HOLE, FALLOC_FL_KEEP_SIZE
		if err := syscall.Fallocate(int(c.f.Fd()), punchHole|keepSize, 0, size); err != nil {
			_ = c.f.Truncate(0)
		}
		c.trimmed.Store(size)
	}
}

// tail returns the last limit bytes written.
func (c *capture) tail(limit int) []byte {
	st, err := c.f.Stat()
	if err != nil {
		return nil
	}
	size := st.Size()
	start := max(c.trimmed.Load(), size-int64(limit), 0)
	if start >= size {
		return nil
	}
	b := make([]byte, size-start)
	n, err := c.f.ReadAt(b, start)
	if err != nil && err != io.EOF {
		return nil
	}
	return b[:n]
}

func (c *capture) close() {
	name := c.f.Name()
	c.f.Close()
	os.Remove(name)
}

// watch trims the captures every 100ms until stop is called. stop waits
// for a trim in progress, so that none truncates the output after the
// test has ended and before it is read.
func watch(cs ...*capture) (stop func()) {
	var t *time.Timer
	var mu sync.Mutex
	stopped := false
	tick := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		for _, c := range cs {
			c.trim()
		}
		t.Reset(100 * time.Millisecond)
	}
	mu.Lock()
	t = time.AfterFunc(100*time.Millisecond, tick)
	mu.Unlock()
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
	}
}
