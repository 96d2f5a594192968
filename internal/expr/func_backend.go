package expr

import (
	"net/netip"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// AdvisoryKey is an advisory lock's key as pg_locks shows it: a bigint
// key is split into its high (Class) and low (Obj) halves with Sub 1, a
// pair of integers is (Class, Obj) with Sub 2, as in PostgreSQL.
type AdvisoryKey struct {
	Class, Obj uint32
	Sub        int16
}

// Backend is the session that runs a statement, as its server functions
// see it: its process id and its advisory locks.
type Backend interface {
	// BackendPID is the session's number, what pg_backend_pid() returns.
	BackendPID() int32
	// AdvisoryLock takes the lock k, shared or exclusive, to the end of the
	// session or (xact) of its transaction. With try it does not wait and
	// reports whether it took the lock; otherwise it waits as the
	// session's lock_timeout allows, and fails with 55P03 after.
	AdvisoryLock(k AdvisoryKey, shared, xact, try bool) (bool, error)
	// AdvisoryUnlock gives back one session-level hold of k, reporting
	// whether the session held it (PostgreSQL warns when it did not).
	AdvisoryUnlock(k AdvisoryKey, shared bool) bool
	// AdvisoryUnlockAll gives back every session-level advisory lock.
	AdvisoryUnlockAll()
	// TxID is the id of the session's transaction, given it now when
	// assign; ok is false when it has none. Giving one fails when the
	// store cannot record it.
	TxID(assign bool) (id int64, ok bool, err error)
	// Snapshot is the transactions as the session sees them now.
	Snapshot() Snapshot
	// Connection is the addresses of the TCP connection the session
	// serves; ok is false for none.
	Connection() (client, server netip.AddrPort, ok bool)
	// SignalBackend cancels the statement of the session of process id
	// pid, or (terminate) ends the session, reporting whether there is
	// one; signalling itself, the session fails with the interrupt's
	// error.
	SignalBackend(pid int32, terminate bool) (bool, error)
}

// BackendCall is a server function of a session's statement that asks
// the session (StmtClock.Backend): pg_backend_pid(), the advisory lock
// functions and those of transaction ids and snapshots. A NULL key gives NULL, as the functions are strict.
type BackendCall struct {
	C    *StmtClock
	Fn   string
	Args []Expr // the bigint key, or the two integer keys
}

var _ Expr = (*BackendCall)(nil)

func (c *BackendCall) Type() value.Type {
	switch {
	case c.Fn == "txid_status", c.Fn == "pg_xact_status":
		return value.TextType
	case c.Fn == "pg_trigger_depth":
		return value.Int4Type
	case c.Fn == "pg_backend_pid", c.Fn == "inet_client_port", c.Fn == "inet_server_port", c.Fn == "pg_event_trigger_table_rewrite_reason":
		return value.Int4Type
	case c.Fn == "pg_event_trigger_table_rewrite_oid":
		return value.OidType
	case c.Fn == "inet_client_addr", c.Fn == "inet_server_addr":
		return value.InetType
	case strings.HasSuffix(c.Fn, "_lsn"):
		return value.PgLSNType
	case c.Fn == "pg_current_snapshot":
		return value.PgSnapshotType
	case c.Fn == "txid_current_snapshot":
		return value.TxidSnapshotType
	case strings.HasPrefix(c.Fn, "txid_"):
		return value.Int8Type
	case strings.HasPrefix(c.Fn, "pg_current_xact"):
		return value.Xid8Type
	case strings.HasPrefix(c.Fn, "pg_try_") || strings.HasPrefix(c.Fn, "pg_advisory_unlock") && c.Fn != "pg_advisory_unlock_all",
		c.Fn == "pg_cancel_backend" || c.Fn == "pg_terminate_backend":
		return value.BoolType
	}
	return value.VoidType
}
func (c *BackendCall) Volatile() bool { return true }
func (*BackendCall) expr()            {}

func (c *BackendCall) String() string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.String()
	}
	return c.Fn + "(" + strings.Join(args, ", ") + ")"
}

// Eval implements Expr.
func (c *BackendCall) Eval(row value.Row) (value.Value, error) {
	var be Backend
	if c.C != nil {
		be = c.C.Backend
	}
	if be == nil {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", c.Fn)
	}
	switch c.Fn {
	case "pg_backend_pid":
		return value.NewInt(value.Int4, int64(be.BackendPID())), nil
	case "txid_current", "pg_current_xact_id", "txid_current_if_assigned", "pg_current_xact_id_if_assigned":
		id, ok, err := be.TxID(!strings.HasSuffix(c.Fn, "_if_assigned"))
		if err != nil || !ok {
			return value.Null, err
		}
		if strings.HasPrefix(c.Fn, "pg_") {
			return value.NewXid8(uint64(id)), nil
		}
		return value.NewInt(value.Int8, id), nil
	case "pg_current_wal_lsn", "pg_current_wal_insert_lsn", "pg_current_wal_flush_lsn":
		wb, _ := be.(WALBackend)
		if wb == nil {
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", c.Fn)
		}
		return value.NewPgLSN(wb.WALPosition()), nil
	case "pg_last_wal_receive_lsn", "pg_last_wal_replay_lsn":
		return value.Null, nil // a primary, which receives and replays no log
	case "txid_current_snapshot", "pg_current_snapshot":
		return be.Snapshot().Value(c.Type().Kind), nil
	case "inet_client_addr", "inet_server_addr", "inet_client_port", "inet_server_port":
		client, server, ok := be.Connection()
		if !ok {
			return value.Null, nil
		}
		a := client
		if strings.HasPrefix(c.Fn, "inet_server") {
			a = server
		}
		if strings.HasSuffix(c.Fn, "_port") {
			return value.NewInt(value.Int4, int64(a.Port())), nil
		}
		ip := a.Addr().Unmap().AsSlice()
		return value.NewInet(value.Inet, ip, len(ip)*8), nil
	case "pg_event_trigger_table_rewrite_oid", "pg_event_trigger_table_rewrite_reason":
		// The table_rewrite event trigger's table and reason, a row of
		// one value from the session that runs it.
		eb, _ := be.(EventTriggerBackend)
		if eb == nil {
			return value.Null, pgerr.New("39P03", "%s() can only be called in a table_rewrite event trigger function", c.Fn)
		}
		rows, err := eb.EventTriggerRows(c.Fn)
		if err != nil || len(rows) == 0 {
			return value.Null, err
		}
		return rows[0][0], nil
	case "pg_trigger_depth", "txid_status", "pg_xact_status":
		return xactCall(c, be, row)
	case "pg_advisory_unlock_all":
		be.AdvisoryUnlockAll()
		return value.VoidValue, nil
	case "pg_cancel_backend", "pg_terminate_backend":
		v, err := c.Args[0].Eval(row)
		if err != nil || v.IsNull() {
			return value.Null, err
		}
		ok, err := be.SignalBackend(int32(v.Int()), c.Fn == "pg_terminate_backend")
		if err != nil {
			return value.Null, err
		}
		return value.NewBool(ok), nil
	}
	var k AdvisoryKey
	for i, a := range c.Args {
		v, err := a.Eval(row)
		if err != nil || v.IsNull() {
			return value.Null, err
		}
		n := v.Int()
		switch {
		case len(c.Args) == 1:
			k = AdvisoryKey{Class: uint32(uint64(n) >> 32), Obj: uint32(n), Sub: 1}
		case i == 0:
			k = AdvisoryKey{Class: uint32(n), Sub: 2}
		default:
			k.Obj = uint32(n)
		}
	}
	fn := strings.TrimPrefix(c.Fn, "pg_")
	try := strings.HasPrefix(fn, "try_")
	fn = strings.TrimPrefix(fn, "try_")
	shared := strings.HasSuffix(fn, "_shared")
	fn = strings.TrimSuffix(fn, "_shared")
	if fn == "advisory_unlock" {
		return value.NewBool(be.AdvisoryUnlock(k, shared)), nil
	}
	ok, err := be.AdvisoryLock(k, shared, fn == "advisory_xact_lock", try)
	switch {
	case err != nil:
		return value.Null, err
	case try:
		return value.NewBool(ok), nil
	}
	return value.VoidValue, nil
}

// BackendFuncs are the functions BackendCall runs, by name: the numbers of
// integer keys each takes (the bigint key, or two integers).
var BackendFuncs = map[string][]int{
	"pg_backend_pid": {0}, "pg_advisory_unlock_all": {0},
	"inet_client_addr": {0}, "inet_server_addr": {0}, "inet_client_port": {0}, "inet_server_port": {0},
	"txid_current": {0}, "pg_current_xact_id": {0}, "txid_current_if_assigned": {0}, "pg_current_xact_id_if_assigned": {0},
	"txid_current_snapshot": {0}, "pg_current_snapshot": {0},
	"pg_current_wal_lsn": {0}, "pg_current_wal_insert_lsn": {0}, "pg_current_wal_flush_lsn": {0},
	"pg_last_wal_receive_lsn": {0}, "pg_last_wal_replay_lsn": {0},
	"pg_advisory_lock": {1, 2}, "pg_advisory_lock_shared": {1, 2},
	"pg_advisory_xact_lock": {1, 2}, "pg_advisory_xact_lock_shared": {1, 2},
	"pg_try_advisory_lock": {1, 2}, "pg_try_advisory_lock_shared": {1, 2},
	"pg_try_advisory_xact_lock": {1, 2}, "pg_try_advisory_xact_lock_shared": {1, 2},
	"pg_advisory_unlock": {1, 2}, "pg_advisory_unlock_shared": {1, 2},
	"pg_cancel_backend": {1}, "pg_terminate_backend": {1, 2},
	"pg_event_trigger_table_rewrite_oid": {0}, "pg_event_trigger_table_rewrite_reason": {0},
	"pg_trigger_depth": {0}, "txid_status": {1}, "pg_xact_status": {1},
}

// BackendParam is the type of the argument of the BackendFuncs that take
// another than the integer keys.
var BackendParam = map[string]value.Type{"pg_xact_status": value.Xid8Type}

// WALBackend is what the log position functions (pg_current_wal_lsn(),
// …) read of a session's engine. A Backend implements it when its engine
// numbers its commits.
type WALBackend interface {
	// WALPosition is the position of the last commit: it grows with
	// every commit.
	WALPosition() uint64
}
