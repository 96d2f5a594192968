package expr

import (
	"math"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SysInfoCall is a system information function that reads the session
// running the statement (StmtClock.Backend): current_query(), the text
// of the statement the client sent, and age(xid) and mxid_age(xid), how
// many transaction (multixact) ids were given since an id. It keeps no
// state; a view refuses it.
type SysInfoCall struct {
	C    *StmtClock
	Fn   string
	Args []Expr
}

var _ Expr = (*SysInfoCall)(nil)

// QueryBackend is what current_query() reads of a session: the text of
// the statement it runs, as pg_stat_activity shows it. A Backend
// implements it when it keeps the text.
type QueryBackend interface {
	CurrentQuery() string
}

// SysInfoFuncs are the functions SysInfoCall runs, by name, with their
// argument kind (Unknown for none) and result.
var SysInfoFuncs = map[string]struct {
	Arg    value.Kind
	Result value.Type
}{
	"current_query": {value.Unknown, value.TextType},
	"age":           {value.Xid, value.Int4Type},
	"mxid_age":      {value.Xid, value.Int4Type},
}

func (c *SysInfoCall) Type() value.Type { return SysInfoFuncs[c.Fn].Result }
func (c *SysInfoCall) Volatile() bool   { return true }
func (*SysInfoCall) expr()              {}

func (c *SysInfoCall) String() string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.String()
	}
	return c.Fn + "(" + strings.Join(args, ", ") + ")"
}

// Eval implements Expr.
func (c *SysInfoCall) Eval(row value.Row) (value.Value, error) {
	var be Backend
	if c.C != nil {
		be = c.C.Backend
	}
	if be == nil {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", c.Fn)
	}
	if c.Fn == "current_query" {
		qb, _ := be.(QueryBackend)
		if qb == nil {
			return value.Null, nil // PostgreSQL's NULL when no client statement runs
		}
		return text(qb.CurrentQuery()), nil
	}
	v, err := c.Args[0].Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	x := int64(uint32(v.Int()))
	var now int64
	switch c.Fn {
	case "age":
		// The transaction's own id, else the next to be given; the
		// special ids (below 3) are older than any.
		if x < 3 {
			return value.NewInt(value.Int4, math.MaxInt32), nil
		}
		id, ok, _ := be.TxID(false) // no id is given: no error
		if !ok {
			id = be.Snapshot().Xmax
		}
		now = id
	default:
		// No multixact id was ever given: the next is the first, 1.
		if x == 0 {
			return value.NewInt(value.Int4, math.MaxInt32), nil
		}
		now = 1
	}
	return value.NewInt(value.Int4, int64(int32(uint32(now)-uint32(x)))), nil
}
