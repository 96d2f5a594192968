package pgrepl

import (
	"io"
	"net"
	"sync/atomic"
	"time"
)

// readAhead reads a streaming socket on a goroutine of its own, into
// buffers that the stream's goroutine then decodes: the socket is drained
// while a transaction is applied, as it would not be if one goroutine did
// both. A walsender whose socket is full waits for its subscriber to read
// (WalSenderWriteData): about a third of the time, for PostgreSQL's own
// subscriber and for deltaview alike, while each applied a transaction on
// the one process or goroutine that also read the stream.
//
// It keeps at most aheadBufs buffers of aheadBuf bytes: a stream that
// arrives faster than it is applied then fills the socket again, and
// the walsender waits, as before.
type readAhead struct {
	c    *pacedConn
	free chan []byte
	full chan chunk
	kick chan struct{} // the read deadline moved
	quit chan struct{}
	done chan struct{}
	stop atomic.Bool

	cur   []byte // the chunk being read, cur[off:] not yet
	whole []byte // cur's buffer, to give back
	off   int
	err   error // the reader's error, once the chunks before it are read
	timer *time.Timer
}

type chunk struct {
	b   []byte
	err error
}

const (
	aheadBuf  = 64 << 10
	aheadBufs = 16
)

// A paced wait is the time the walsender takes to fill about half the
// socket, within [paceMin, paceDelay]. On a busy machine the walsender
// waits for a processor, and paceDelay finds the socket far from full;
// on a quiet one it fills the socket in well under a millisecond, and
// then waits for deltaview to read: a run on a quiet machine caught up
// at 45,800 changes a second with 5 ms waits, 128,000 unpaced. What a
// socket holds depends on its kind and on the size of the messages (a
// unix socket holds about 20 kB of pgoutput's small messages), so the
// most ever found waiting stands for full: the wait halves when it found
// three quarters of that or more, and doubles when it found less than a
// quarter.
const paceMin = 250 * time.Microsecond

// pacer adapts a paced read's wait; it starts at paceDelay.
type pacer struct {
	wait time.Duration
	full int // the most bytes found waiting after a wait
}

// next is the wait after one that found n bytes waiting in the socket
// (-1: unknown).
func (p *pacer) next(n int) time.Duration {
	p.full = max(p.full, n)
	switch {
	case n < 0:
	case n > 0 && 4*n >= 3*p.full:
		p.wait = max(p.wait/2, paceMin)
	case 4*n < p.full:
		p.wait = min(p.wait*2, paceDelay)
	}
	return p.wait
}

// startAhead starts c's reader; c's socket has left the poller.
func (c *pacedConn) startAhead() {
	a := &readAhead{c: c, free: make(chan []byte, aheadBufs), full: make(chan chunk, aheadBufs),
		kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	for range aheadBufs {
		a.free <- make([]byte, aheadBuf)
	}
	c.ahead = a
	go a.run()
}

// run is the reader: while the stream is paced, it waits after a read
// that drained the socket, as Read would, for as long as its pacer says.
func (a *readAhead) run() {
	defer close(a.done)
	drained := false
	p := pacer{wait: paceDelay}
	for {
		if drained && a.c.pace.Load() {
			time.Sleep(p.wait)
			p.next(queued(a.c.fd))
		}
		var buf []byte
		select {
		case buf = <-a.free:
		case <-a.quit:
			return
		}
		n, err := a.read(buf)
		drained = n < len(buf)
		select {
		case a.full <- chunk{b: buf[:n], err: err}:
		case <-a.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// read reads the socket, whatever the read deadline: the deadline bounds
// the stream's wait for a chunk, not the reader's.
func (a *readAhead) read(p []byte) (int, error) {
	for {
		if a.stop.Load() {
			return 0, net.ErrClosed
		}
		n, err := rawRead(a.c.fd, p)
		if err == errAgain {
			continue
		}
		if err != nil {
			return 0, &net.OpError{Op: "read", Net: a.c.LocalAddr().Network(), Addr: a.c.RemoteAddr(), Err: err}
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// Read serves the stream's goroutine from the chunks read, waiting for
// the next one until the read deadline.
func (a *readAhead) Read(p []byte) (int, error) {
	for {
		if a.off < len(a.cur) {
			n := copy(p, a.cur[a.off:])
			a.off += n
			return n, nil
		}
		if a.whole != nil {
			a.free <- a.whole[:cap(a.whole)]
			a.cur, a.whole, a.off = nil, nil, 0
		}
		if a.err != nil {
			return 0, a.err
		}
		var ch chunk
		select {
		case ch = <-a.full:
		default:
			var ok bool
			if ch, ok = a.wait(); !ok {
				return 0, timeoutError{}
			}
		}
		a.cur, a.whole, a.off, a.err = ch.b, ch.b, 0, ch.err
	}
}

// wait waits for a chunk until the read deadline, which may move
// meanwhile (a cancellation moves it to now); false when it passed.
func (a *readAhead) wait() (chunk, bool) {
	for {
		var tc <-chan time.Time
		if d := a.c.rdl.Load(); d != 0 {
			left := time.Duration(d - time.Now().UnixNano())
			if left <= 0 {
				return chunk{}, false
			}
			if a.timer == nil {
				a.timer = time.NewTimer(left)
			} else {
				a.timer.Reset(left)
			}
			tc = a.timer.C
		}
		select {
		case ch := <-a.full:
			return ch, true
		case <-tc:
		case <-a.kick:
		case <-a.done:
			// The reader stopped: after its last chunk, if that is
			// still to be read, the socket is closed.
			select {
			case ch := <-a.full:
				return ch, true
			default:
				return chunk{err: net.ErrClosed}, true
			}
		}
	}
}

// deadlineMoved wakes a wait for a chunk, to look at the deadline again.
func (a *readAhead) deadlineMoved() {
	if a == nil {
		return
	}
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// close stops the reader and waits for it, before the descriptor is
// closed (a descriptor closed under a blocked read might be reused).
func (a *readAhead) close() {
	a.stop.Store(true)
	close(a.quit)
	shutdownFD(a.c.fd)
	<-a.done
}
