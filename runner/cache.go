package runner

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/wynot/wynot/dd"
)

// Key identifies a candidate by its content and the question asked of it.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:8]) }

// KeyOf hashes the files of a candidate together with context, a string
// naming the command and oracle, so that two candidates with the same
// bytes are one test and a cache never answers another question.
func KeyOf(context string, files []File) Key {
	h := sha256.New()
	var n [8]byte
	write := func(b []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	write([]byte(context))
	for _, f := range files {
		write([]byte(f.Name))
		write(f.Data)
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// Cache keeps outcomes by content. With a file, every new outcome is
// appended to it at once, so a run that is interrupted and started again
// repeats no test.
type Cache struct {
	mu   sync.Mutex
	m    map[Key]Cached
	file *os.File
}

// Cached is a cached outcome.
type Cached struct {
	Outcome dd.Outcome
	Detail  string
	// Timeout is the limit the test ran under (zero: none), Slowest its
	// longest run, and TimedOut whether a run hit the limit: the key
	// leaves the timeout out, so that a run whose calibrated timeout
	// differs still finds its outcomes, and Answers decides whether an
	// outcome holds under another limit.
	Timeout, Slowest time.Duration
	TimedOut         bool
}

// Answers reports whether the cached outcome is the one a test run under
// timeout (zero: none) would give: a test that timed out would again
// under the same or a shorter limit; one that ended would again if its
// slowest run fits the limit.
func (c Cached) Answers(timeout time.Duration) bool {
	if c.TimedOut {
		return timeout > 0 && timeout <= c.Timeout
	}
	return timeout <= 0 || c.Slowest <= timeout
}

type cacheLine struct {
	Key      string `json:"key"`
	Outcome  string `json:"outcome"`
	Detail   string `json:"detail,omitempty"`
	Timeout  int64  `json:"timeout_ns,omitempty"`
	Slowest  int64  `json:"slowest_ns,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
}

// NewCache returns an empty cache in memory.
func NewCache() *Cache { return &Cache{m: make(map[Key]Cached)} }

// cacheHeader is the first line of every cache file wynot makes: it
// tells a cache from any other file, so that --cache never appends to a
// file that is not one.
const cacheHeader = `{"wynot":"cache","version":1}`

// ErrNotCache is the error of OpenCache for a file that is neither empty
// nor a cache: wynot leaves it as it is.
var ErrNotCache = errors.New("not a wynot cache")

// OpenCache returns a cache backed by the file at path, holding the
// outcomes recorded there (one JSON object per line, after a header line
// that names the file a cache); lines it cannot read are skipped, since a
// run killed mid-write may leave a partial last line. A missing or empty
// file becomes a new cache. A file whose first line is neither the header
// nor an outcome record (as files written before the header have it) is
// not a cache: OpenCache returns ErrNotCache and does not change it.
func OpenCache(path string) (*Cache, int, error) {
	c := NewCache()
	loaded := 0
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	if st, err := f.Stat(); err != nil {
		f.Close()
		return nil, 0, err
	} else if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w (not a regular file)", path, ErrNotCache)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			first = false
			if string(bytes.TrimSpace(line)) == cacheHeader {
				continue
			}
			if _, _, ok := parseCacheLine(line); !ok {
				f.Close()
				return nil, 0, fmt.Errorf("%s: %w (its first line is neither a cache header nor an outcome record); name a new file, or remove this one", path, ErrNotCache)
			}
		}
		k, v, ok := parseCacheLine(line)
		if !ok {
			continue
		}
		c.m[k] = v
		loaded++
	}
	if err := sc.Err(); err != nil {
		f.Close()
		if errors.Is(err, bufio.ErrTooLong) && first {
			return nil, 0, fmt.Errorf("%s: %w (its first line is too long for a cache record); name a new file, or remove this one", path, ErrNotCache)
		}
		return nil, 0, fmt.Errorf("reading cache %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	switch {
	case st.Size() == 0:
		_, err = f.Write([]byte(cacheHeader + "\n"))
	default:
		// A partial last line from an interrupted run must not glue
		// onto the next record.
		_, err = f.Write([]byte("\n"))
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	c.file = f
	return c, loaded, nil
}

// parseCacheLine reads one outcome record.
func parseCacheLine(line []byte) (Key, Cached, bool) {
	var k Key
	var l cacheLine
	if json.Unmarshal(line, &l) != nil {
		return k, Cached{}, false
	}
	b, err := hex.DecodeString(l.Key)
	if err != nil || len(b) != len(k) {
		return k, Cached{}, false
	}
	copy(k[:], b)
	var o dd.Outcome
	switch l.Outcome {
	case "PASS":
		o = dd.Pass
	case "FAIL":
		o = dd.Fail
	case "UNRESOLVED":
		o = dd.Unresolved
	default:
		return k, Cached{}, false
	}
	return k, Cached{Outcome: o, Detail: l.Detail, Timeout: time.Duration(l.Timeout), Slowest: time.Duration(l.Slowest), TimedOut: l.TimedOut}, true
}

// Get returns the outcome cached for k.
func (c *Cache) Get(k Key) (Cached, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// Put records an outcome.
func (c *Cache) Put(k Key, v Cached) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
	if c.file == nil {
		return nil
	}
	b, _ := json.Marshal(cacheLine{Key: hex.EncodeToString(k[:]), Outcome: v.Outcome.String(), Detail: v.Detail,
		Timeout: int64(v.Timeout), Slowest: int64(v.Slowest), TimedOut: v.TimedOut})
	_, err := c.file.Write(append(b, '\n'))
	return err
}

// Len is the number of cached outcomes.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Close closes the cache file, if any.
func (c *Cache) Close() error {
	if c.file == nil {
		return nil
	}
	return c.file.Close()
}
