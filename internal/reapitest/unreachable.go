package reapitest

import (
	"fmt"
	"syscall"
)

// Unreachable returns the address of a port on the loopback interface
// that is bound but not listening, held until release is called: a
// connection to it is refused, and no other process can listen on it
// meanwhile. (The port of a stopped server may be taken at once by
// another test's listener on a busy machine, which then answers.)
func Unreachable() (addr string, release func(), err error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return "", nil, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(fd)
		return "", nil, err
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		syscall.Close(fd)
		return "", nil, err
	}
	in, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		syscall.Close(fd)
		return "", nil, fmt.Errorf("reapitest: bound to %v", sa)
	}
	return fmt.Sprintf("127.0.0.1:%d", in.Port), func() { syscall.Close(fd) }, nil
}
