package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// XactBackend is what pg_trigger_depth(), txid_status(bigint) and
// pg_xact_status(xid8) read of the session that runs a statement.
type XactBackend interface {
	// TriggerDepth is the number of trigger functions running, one
	// inside another: 0 outside any.
	TriggerDepth() int
	// XactStatus is transaction id's state, "committed", "aborted" or
	// "in progress"; it is 22023 for an id not yet given.
	XactStatus(id uint64) (string, error)
}

// xactCall runs pg_trigger_depth(), txid_status() or pg_xact_status();
// the ids below 3 are PostgreSQL's special ones: 0 invalid (NULL), 1
// bootstrap and 2 frozen (committed).
func xactCall(c *BackendCall, be Backend, row value.Row) (value.Value, error) {
	xb, _ := be.(XactBackend)
	if xb == nil {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", c.Fn)
	}
	if c.Fn == "pg_trigger_depth" {
		return value.NewInt(value.Int4, int64(xb.TriggerDepth())), nil
	}
	v, err := c.Args[0].Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	id := uint64(v.Int())
	if v.Kind() == value.Xid8 {
		id = v.Xid8()
	}
	switch id {
	case 0:
		return value.Null, nil
	case 1, 2:
		return text("committed"), nil
	}
	st, err := xb.XactStatus(id)
	if err != nil {
		return value.Null, err
	}
	return text(st), nil
}

// ErrXactInFuture is txid_status's error for an id not yet given.
func ErrXactInFuture(id uint64) error {
	return pgerr.New(pgerr.InvalidParameter, "transaction ID %s is in the future", strconv.FormatUint(id, 10))
}
