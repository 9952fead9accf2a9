package runner

import (
	"strings"
	"testing"
)

// TestSandboxWrap: what a confined test sees: the root read-only, fresh
// /tmp, /var/tmp, /dev/shm and home, then, in this order, the directory
// it runs in and the programs it names read-only, its work directory and
// the writable directories read-write, no network unless asked.
func TestSandboxWrap(t *testing.T) {
	s := &Sandbox{bwrap: "bwrap", home: "/home/u", Writable: []string{"/home/u/.cache/go-build"}}
	p := s.Wrap(Process{Argv: []string{"/bin/sh", "-c", "x", "/dev/shm/w/w0/in.txt"}, Dir: "/home/u/src", WorkDir: "/dev/shm/w/w0"})
	want := "bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /var/tmp --tmpfs /dev/shm --tmpfs /home/u " +
		"--ro-bind /bin/sh /bin/sh --ro-bind /home/u/src /home/u/src --bind /dev/shm/w/w0 /dev/shm/w/w0 " +
		"--bind /home/u/.cache/go-build /home/u/.cache/go-build --unshare-net --chdir /home/u/src --die-with-parent -- " +
		"/bin/sh -c x /dev/shm/w/w0/in.txt"
	if got := strings.Join(p.Argv, " "); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	s.Network = true
	p = s.Wrap(Process{Argv: []string{"prog"}, Dir: "/dev/shm/w/w0", WorkDir: "/dev/shm/w/w0"})
	if got := strings.Join(p.Argv, " "); strings.Contains(got, "--unshare-net") || strings.Contains(got, "--ro-bind /dev/shm/w/w0") {
		t.Errorf("with the network, in its work directory: %s", got)
	}
}
