package pgrepl

import (
	"errors"
	"net"
	"syscall"
	"unsafe"
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
	c.startAhead()
}

// errAgain is a blocking call's return after blockTick, or on a signal:
// the caller looks at its deadlines and calls again.
var errAgain = errors.New("again")

// rawRead is one blocking read of fd.
func rawRead(fd int, p []byte) (int, error) {
	n, err := syscall.Read(fd, p)
	if err == syscall.EINTR || err == syscall.EAGAIN {
		return 0, errAgain
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// queued is the number of bytes waiting to be read in the socket fd;
// -1 when it cannot be told.
func queued(fd int) int {
	const fionread = 0x541B // FIONREAD, SIOCINQ
	var n int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), fionread, uintptr(unsafe.Pointer(&n))); e != 0 {
		return -1
	}
	return int(n)
}

// shutdownFD ends the socket's traffic: a read blocked on it returns.
func shutdownFD(fd int) { syscall.Shutdown(fd, syscall.SHUT_RDWR) }

func (c *pacedConn) blockingWrite(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		if passed(&c.wdl) {
			return done, timeoutError{}
		}
		n, err := syscall.Write(c.fd, p[done:])
		if n > 0 {
			done += n
		}
		switch {
		case err == syscall.EINTR || err == syscall.EAGAIN:
			continue
		case err != nil:
			return done, &net.OpError{Op: "write", Net: c.LocalAddr().Network(), Addr: c.RemoteAddr(), Err: err}
		}
	}
	return done, nil
}

func closeFD(fd int) error { return syscall.Close(fd) }
