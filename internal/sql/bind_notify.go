package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Listen is LISTEN channel, UNLISTEN channel, or UNLISTEN * (Unlisten
// with an empty Channel): a change of the channels the session listens
// on, made when its transaction commits.
type Listen struct {
	Channel  string
	Unlisten bool
}

func (*Listen) bound() {}

// Notify is NOTIFY channel [, 'payload']: a notification sent to the
// sessions listening on channel when the transaction commits.
type Notify struct {
	Channel, Payload string
}

func (*Notify) bound() {}

// bindListen binds LISTEN, UNLISTEN and NOTIFY; ok is false for other
// statements.
func bindListen(n *pg_query.Node) (Bound, bool) {
	switch {
	case n.GetListenStmt() != nil:
		return &Listen{Channel: n.GetListenStmt().Conditionname}, true
	case n.GetUnlistenStmt() != nil:
		return &Listen{Channel: n.GetUnlistenStmt().Conditionname, Unlisten: true}, true
	case n.GetNotifyStmt() != nil:
		ns := n.GetNotifyStmt()
		return &Notify{Channel: ns.Conditionname, Payload: ns.Payload}, true
	}
	return nil, false
}

// notifyFunc binds pg_notify(channel, payload) and
// pg_notification_queue_usage(): ad hoc they act on the session that runs
// the statement; a view refuses them (0A000), as does a column's default.
// ok is false for other functions.
func (b *binder) notifyFunc(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	n, ok := expr.NotifyFuncs[name]
	if !ok || name == "pg_listening_channels" {
		return nil, false, nil
	}
	fits := len(es) == n
	for _, a := range es {
		if k := a.Type().Kind; k != value.Unknown && !k.IsString() {
			fits = false
		}
	}
	if !fits {
		return nil, true, b.undefinedNotifyFunc(name, es, loc)
	}
	if err := b.sessionOnly(name, loc); err != nil {
		return nil, true, err
	}
	args := make([]expr.Expr, len(es))
	for i, a := range es {
		if args[i], err = b.coerce(a, value.TextType, loc); err != nil {
			return nil, true, err
		}
	}
	return &expr.NotifyCall{C: b.stmtClock, Fn: name, Args: args}, true, nil
}

// listeningChannels is the argument of pg_listening_channels() in FROM:
// the session's channels, as an array the function unnests.
func (b *binder) listeningChannels(es []expr.Expr, loc int32) ([]expr.Expr, error) {
	if len(es) != 0 {
		return nil, b.undefinedNotifyFunc("pg_listening_channels", es, loc)
	}
	if err := b.sessionOnly("pg_listening_channels", loc); err != nil {
		return nil, err
	}
	return []expr.Expr{&expr.NotifyCall{C: b.stmtClock, Fn: "pg_listening_channels"}}, nil
}

// sessionOnly refuses a function of the session's notifications where
// no session runs it: in a view, or in a statement without a clock (a
// column's default).
func (b *binder) sessionOnly(name string, loc int32) error {
	if b.forView {
		return b.refuse(loc, "%s() acts on the session and cannot be maintained in a view", name).
			WithHint("call it in a statement of its own")
	}
	if b.stmtClock == nil {
		return b.refuse(loc, "%s() is supported in queries and data changes only", name)
	}
	return nil
}

func (b *binder) undefinedNotifyFunc(name string, es []expr.Expr, loc int32) error {
	ts := make([]string, len(es))
	for i, a := range es {
		ts[i] = a.Type().String()
		if a.Type().Kind == value.Unknown {
			ts[i] = "unknown"
		}
	}
	return b.stmt.errf(loc, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
