package pgwire

import (
	"sync"

	"github.com/jackc/pgx/v5/pgproto3"
)

// notifier sends a connection's notifications (LISTEN, NOTIFY) as
// NotificationResponse messages when PostgreSQL sends them: before
// ReadyForQuery once a statement ends outside a transaction block, and at
// once while the connection is idle outside one, waiting for the client's
// next message. A goroutine, started when the session first listens,
// waits for the session's signal and sends while the connection is idle;
// mu makes it and the connection's own goroutine take turns at the
// connection's writes.
type notifier struct {
	mu   sync.Mutex
	idle bool // the connection waits for a message: the goroutine may write
	// ready is set once ReadyForQuery went, cleared by a message of the
	// extended protocol: until its Sync the connection is not idle, as a
	// PostgreSQL backend is inside the messages' transaction.
	ready bool
	quit  chan struct{}
	wg    sync.WaitGroup
}

// sendNotifications queues the session's notifications, reporting
// whether there were any; the caller flushes. In a transaction block the
// session has none to give.
func (c *conn) sendNotifications() bool {
	ns := c.sess.TakeNotifications()
	for _, n := range ns {
		c.be.Send(&pgproto3.NotificationResponse{PID: uint32(n.PID), Channel: n.Channel, Payload: n.Payload})
	}
	return len(ns) > 0
}

// idleStart marks the connection idle, waiting for the client's next
// message: it sends what came since ReadyForQuery, and from then on the
// goroutine sends what comes. It starts the goroutine when the session
// first listens.
func (c *conn) idleStart() error {
	nt := &c.notify
	if !nt.ready {
		return nil
	}
	if nt.quit == nil {
		if !c.sess.Listening() {
			return nil
		}
		nt.quit = make(chan struct{})
		wake := c.sess.NotificationWake()
		nt.wg.Add(1)
		go c.watchNotifications(wake)
	}
	nt.mu.Lock()
	defer nt.mu.Unlock()
	nt.idle = true
	if c.sendNotifications() {
		return c.be.Flush()
	}
	return nil
}

// idleEnd ends the idle wait: a message came, which the connection
// answers; the goroutine no longer writes.
func (c *conn) idleEnd() {
	nt := &c.notify
	if nt.quit == nil {
		return
	}
	nt.mu.Lock()
	nt.idle = false
	nt.mu.Unlock()
}

// watchNotifications sends the notifications that come while the
// connection is idle, until the connection ends. A failed write is left
// for the connection's next read to find.
func (c *conn) watchNotifications(wake <-chan struct{}) {
	nt := &c.notify
	defer nt.wg.Done()
	for {
		select {
		case <-wake:
		case <-nt.quit:
			return
		}
		nt.mu.Lock()
		if nt.idle && c.sendNotifications() {
			c.be.Flush()
		}
		nt.mu.Unlock()
	}
}

// stopNotifications ends the goroutine, before the session closes.
func (c *conn) stopNotifications() {
	nt := &c.notify
	if nt.quit != nil {
		close(nt.quit)
		nt.wg.Wait()
	}
}
