// Package proctest finds processes by what /proc says of them, for tests
// that check that nothing a test started outlives it (Linux only).
package proctest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Running reports whether the process pid runs; a zombie counts as gone.
func Running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses and
	// may hold spaces.
	i := bytes.LastIndexByte(stat, ')')
	fields := strings.Fields(string(stat[i+1:]))
	return i >= 0 && len(fields) > 0 && fields[0] != "Z"
}

// Marked lists the running processes whose command line holds mark.
func Marked(mark string) []int {
	return find(func(pid string) bool {
		data, err := os.ReadFile("/proc/" + pid + "/cmdline")
		return err == nil && bytes.Contains(data, []byte(mark))
	})
}

// In lists the running processes whose working directory lies under dir.
func In(dir string) []int {
	return find(func(pid string) bool {
		cwd, err := os.Readlink("/proc/" + pid + "/cwd")
		return err == nil && strings.HasPrefix(cwd, dir+"/")
	})
}

// find lists the running processes that match.
func find(match func(pid string) bool) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !match(e.Name()) || !Running(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}
