package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Notifier is the side of a session that LISTEN and NOTIFY use, which a
// Backend implements when its session can send and receive
// notifications.
type Notifier interface {
	// Notify queues a notification on channel to be sent when the
	// session's transaction commits (pg_notify, NOTIFY). It checks the
	// channel and the payload as PostgreSQL does (22023).
	Notify(channel, payload string) error
	// ListeningChannels are the channels the session listens on, as its
	// last commit left them, in the order it began to listen.
	ListeningChannels() []string
	// NotificationQueueUsage is the fraction of the notification queue
	// that notifications not yet read by every listener occupy.
	NotificationQueueUsage() float64
}

// NotifyCall is a call of pg_notify(channel, payload),
// pg_notification_queue_usage() or, as the array that pg_listening_channels()
// unnests, the session's channels: each asks the session that runs the
// statement (StmtClock.Backend).
type NotifyCall struct {
	C    *StmtClock
	Fn   string
	Args []Expr
}

var _ Expr = (*NotifyCall)(nil)

// NotifyFuncs are the functions NotifyCall runs, by name: the number of
// their arguments.
var NotifyFuncs = map[string]int{"pg_notify": 2, "pg_notification_queue_usage": 0, "pg_listening_channels": 0}

func (c *NotifyCall) Type() value.Type {
	switch c.Fn {
	case "pg_notification_queue_usage":
		return value.Float8Type
	case "pg_listening_channels":
		return value.Type{Kind: value.ArrayOf(value.Text), Mod: -1}
	}
	return value.VoidType
}
func (c *NotifyCall) Volatile() bool { return true }
func (*NotifyCall) expr()            {}
func (c *NotifyCall) String() string { return c.Fn + "(" + list(c.Args) + ")" }

// Eval implements Expr.
func (c *NotifyCall) Eval(row value.Row) (value.Value, error) {
	var n Notifier
	if c.C != nil {
		n, _ = c.C.Backend.(Notifier)
	}
	if n == nil {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", c.Fn)
	}
	switch c.Fn {
	case "pg_notification_queue_usage":
		return value.NewFloat(value.Float8, n.NotificationQueueUsage()), nil
	case "pg_listening_channels":
		chans := n.ListeningChannels()
		elems := make([]value.Value, len(chans))
		for i, ch := range chans {
			elems[i] = text(ch)
		}
		return value.NewArray(value.ArrayOf(value.Text), elems), nil
	}
	// pg_notify is not strict: a NULL channel is an empty one (an error),
	// a NULL payload an empty one.
	var args [2]string
	for i, a := range c.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if !v.IsNull() {
			args[i] = v.Str()
		}
	}
	if err := n.Notify(args[0], args[1]); err != nil {
		return value.Null, err
	}
	return value.VoidValue, nil
}
