package pgrepl

import (
	"context"
	"net"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// pacedConn is the socket of a replication connection; it keeps whether
// its last read drained it.
//
// deltaview decodes the stream faster than a walsender writes it: a
// reader that takes whatever has arrived drains the socket after nearly
// every message, and the walsender's next write wakes it. On a busy
// machine the woken reader preempts the walsender, which then waits for
// a processor again, once a message: the walsender serving deltaview was
// preempted about 15 times as often as the one serving PostgreSQL's own
// subscriber, which applies each row as it comes and so finds many
// waiting, and it sent the same stream about a third slower. While pace is
// set (the stream is in a large transaction, all of it decoded upstream
// and on its way, or catching up on transactions committed a while ago),
// a read that follows one that drained the socket first waits paceDelay
// for more to arrive: the walsender writes tens to hundreds of messages
// in that time (tens of kB, less than the socket holds and than a read
// takes), and deltaview is not woken for each.
//
// A paced read must not be woken by what arrives meanwhile either: a
// socket in Go's network poller wakes the poller's thread with every
// message, waited for or not. Once streaming starts, the socket leaves
// the poller (block, on Linux) and is read with blocking system calls.
type pacedConn struct {
	net.Conn
	pace    atomic.Bool
	drained bool // the last read of the socket returned less than it asked for
	// ahead reads the socket once it left the poller; nil before.
	ahead *readAhead
	// fd is the socket's descriptor once it left the poller, in blocking
	// mode; -1 before. The poller's deadlines are then kept here, in Unix
	// nanoseconds (0: none), and a blocked call looks at them every
	// blockTick.
	fd       int
	rdl, wdl atomic.Int64
}

// paceDelay is how long a paced read waits for the stream to fill the
// socket, at most (the stream's reader adapts it: paceWait). A
// millisecond found a few kB waiting on a busy machine, and the reader
// woke a thousand times a second; at 5 ms deltaview caught up ahead of
// PostgreSQL's subscriber in each round of a run on a busy machine.
const paceDelay = 5 * time.Millisecond

func (c *pacedConn) Read(p []byte) (int, error) {
	if c.ahead != nil {
		return c.ahead.Read(p)
	}
	if c.drained && c.pace.Load() {
		time.Sleep(paceDelay)
	}
	n, err := c.Conn.Read(p)
	c.drained = n < len(p)
	return n, err
}

func (c *pacedConn) Write(p []byte) (int, error) {
	if c.fd >= 0 {
		return c.blockingWrite(p)
	}
	return c.Conn.Write(p)
}

func (c *pacedConn) Close() error {
	if c.fd >= 0 {
		if c.ahead != nil {
			c.ahead.close()
		}
		fd := c.fd
		c.fd = -1
		return closeFD(fd)
	}
	return c.Conn.Close()
}

func (c *pacedConn) SetDeadline(t time.Time) error {
	if c.fd >= 0 {
		c.rdl.Store(unixNano(t))
		c.wdl.Store(unixNano(t))
		c.ahead.deadlineMoved()
		return nil
	}
	return c.Conn.SetDeadline(t)
}

func (c *pacedConn) SetReadDeadline(t time.Time) error {
	if c.fd >= 0 {
		c.rdl.Store(unixNano(t))
		c.ahead.deadlineMoved()
		return nil
	}
	return c.Conn.SetReadDeadline(t)
}

func (c *pacedConn) SetWriteDeadline(t time.Time) error {
	if c.fd >= 0 {
		c.wdl.Store(unixNano(t))
		return nil
	}
	return c.Conn.SetWriteDeadline(t)
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// blockTick bounds each blocking call on a socket that left the poller,
// so that a deadline, or a cancellation through one, takes effect.
const blockTick = 10 * time.Millisecond

// timeoutError is a deadline's error, as the poller's is.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func passed(dl *atomic.Int64) bool {
	d := dl.Load()
	return d != 0 && time.Now().UnixNano() >= d
}

// pacedDial wraps dial's sockets.
func pacedDial(dial pgconn.DialFunc) pgconn.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &pacedConn{Conn: nc, fd: -1}, nil
	}
}

// pacedOf returns the paced socket under c; nil when there is none.
func pacedOf(c *pgconn.PgConn) *pacedConn {
	nc := c.Conn()
	if t, ok := nc.(interface{ NetConn() net.Conn }); ok { // TLS
		nc = t.NetConn()
	}
	p, _ := nc.(*pacedConn)
	return p
}

// setPace sets or clears pacing; c may be nil.
func (c *pacedConn) setPace(on bool) {
	if c != nil && c.pace.Load() != on {
		c.pace.Store(on)
	}
}
