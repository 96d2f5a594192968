package deltaview

import (
	"context"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Notification is what a session listening on a channel (LISTEN channel)
// receives of a NOTIFY channel, 'payload' or pg_notify(channel, payload)
// once the sending transaction commits: the channel, the payload ("" for
// none) and the pg_backend_pid() of the session that sent it, which may be
// the listening session itself.
type Notification = engine.Notification

// WaitForNotification returns the next notification on a channel the
// session listens on, waiting for one until ctx is done (ctx.Err()).
// Notifications come in the order their transactions committed; a
// transaction sends each distinct channel and payload once, and none when
// it rolls back. As PostgreSQL keeps a listener's notifications in its
// queue until it reads them, the session keeps those it has not taken: a
// session that listens and never calls WaitForNotification holds them, up
// to the queue's bound (1 GB), beyond which NOTIFY fails with 54000. A
// session that listens on no channel gets 55000 at once, and one inside a
// transaction block 25001: as with PostgreSQL, whose server sends a
// client in a transaction no notification until the transaction ends.
//
// Listening is a session's: DB.Exec("LISTEN c") listens in a session
// that ends with the call. Use a Session of its own to listen, as with a
// PostgreSQL connection.
func (s *Session) WaitForNotification(ctx context.Context) (Notification, error) {
	for {
		if len(s.notes) > 0 {
			n := s.notes[0]
			s.notes = s.notes[1:]
			return n, nil
		}
		if s.s.InBlock() {
			return Notification{}, pgerr.New(pgerr.ActiveTransaction, "cannot wait for notifications inside a transaction block")
		}
		wake := s.s.NotificationWake()
		if s.notes = s.s.TakeNotifications(); len(s.notes) > 0 {
			continue
		}
		if !s.s.Listening() {
			return Notification{}, pgerr.New(pgerr.ObjectNotInPrereqState, "the session listens on no channel").
				WithHint("run LISTEN channel in the session first")
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return Notification{}, ctx.Err()
		}
	}
}
