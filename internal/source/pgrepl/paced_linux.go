package pgrepl

import (
	"syscall"
)

// block takes the socket out of Go's network poller: a duplicate of its
// descriptor, in blocking mode, replaces it, whose calls return every
// blockTick to look at their deadlines. c may be nil; on failure the
// socket stays in the poller.
func (c *pacedConn) block() {
	if c == nil || c.fd >= 0 {
		return
	}
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	fd := -1
	rc.Control(func(s uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		if e == 0 {
			fd = int(r)
		}
	})
	if fd < 0 {
		return
	}
	tick := syscall.NsecToTimeval(blockTick.Nanoseconds())
	if syscall.SetNonblock(fd, false) != nil ||
		syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tick) != nil ||
		syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tick) != nil {
		syscall.SetNonblock(fd, true)
		syscall.Close(fd)
		return
	}
	// Closing the poller's descriptor takes it out of the poller; the
	// socket stays open through fd.
	c.Conn.Close()
	c.fd = fd
}
