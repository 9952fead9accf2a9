package command

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCheckTimeout(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string // "" for accepted
	}{
		{0, ""},
		{MinTimeout, ""},
		{10 * time.Second, ""},
		{-time.Second, "--timeout -1s is negative"},
		{time.Nanosecond, "--timeout 1ns is too short to run a test (at least 100ms)"},
		{MinTimeout - 1, "is too short to run a test"},
	} {
		err := CheckTimeout(c.d)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckTimeout(%s) = %v, want %q", c.d, err, c.want)
		}
	}
}

func TestRoomHint(t *testing.T) {
	root := t.TempDir()
	slot := filepath.Join(root, "wynot-1", "w0")
	t.Setenv("WYNOT_TMPDIR", "")
	for _, c := range []struct {
		err  error
		want string // "" for unchanged
	}{
		{nil, ""},
		{errors.New("other"), ""},
		{fmt.Errorf("write %s/in: %w", slot, syscall.ENOSPC), "no space left on device in " + root + ", where the work directories are (a file system of "},
	} {
		got := RoomHint(c.err, slot)
		var nr *NoRoomError
		switch {
		case c.want == "" && got != c.err:
			t.Errorf("RoomHint(%v) = %v, want it unchanged", c.err, got)
		case c.want != "" && (!errors.As(got, &nr) || !strings.HasPrefix(got.Error(), c.want) || !errors.Is(got, syscall.ENOSPC)):
			t.Errorf("RoomHint(%v) = %v, want %q…", c.err, got, c.want)
		case c.want != "" && RoomHint(got, slot) != got:
			t.Errorf("RoomHint twice: %v", RoomHint(got, slot))
		}
	}
	t.Setenv("WYNOT_TMPDIR", root)
	if got := RoomHint(syscall.ENOSPC, slot); !strings.HasPrefix(got.Error(), "no space left on device in WYNOT_TMPDIR "+root+" (") {
		t.Errorf("with WYNOT_TMPDIR: %v", got)
	}
}
