package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// The row system columns of a stored table (plan.SystemColumns but
// tableoid, which the binder makes a constant), computed from a row's id:
//
//   - ctid is the row id as a place, 65535 rows a block from (0,1): a
//     row keeps it while it lives, through UPDATE (PostgreSQL's moves),
//     until deletions leave more holes than rows in the table and it is
//     renumbered between transactions (table.compact), as VACUUM FULL
//     moves PostgreSQL's rows;
//   - xmin is 2, PostgreSQL's frozen transaction id (rows keep no
//     transaction ids here: a row a reader sees is committed, or the
//     reader's own); xmax, cmin and cmax are 0, as for a row no
//     transaction deleted or locked.
const rowsPerBlock = 65535

// frozenXid is PostgreSQL's FrozenTransactionId.
const frozenXid = 2

// systemValues returns the row system columns of the row with id.
func systemValues(id uint64) [plan.RowSystemColumns]value.Value {
	return [plan.RowSystemColumns]value.Value{
		value.NewTid(uint32((id-1)/rowsPerBlock), uint16((id-1)%rowsPerBlock+1)),
		value.NewXid(frozenXid), value.NewCid(0), value.NewXid(0), value.NewCid(0),
	}
}

// scanIDs calls fn for each row of t, as the writer sees it, with its id.
func (e *Engine) scanIDs(t *table, fn func(id uint64, r value.Row) error) error {
	var err error
	t.scan(func(id uint64, r value.Row) bool {
		err = fn(id, r)
		return err == nil
	})
	return err
}

// scanSystem answers a scan of plan.SystemRelation(name): each row that
// scan reads, with its id, followed by its row system columns.
func (e *Engine) scanSystem(name string, scan func(func(uint64, value.Row) error) error, fn func(value.Row) error) error {
	t, ok := e.tables[name]
	if !ok {
		return pgerr.New(pgerr.Internal, "engine: no table %q to read system columns of", name)
	}
	if !t.keepsRows() {
		return e.Scan(name, fn) // its error
	}
	return scan(func(id uint64, r value.Row) error {
		sys := systemValues(id)
		return fn(append(append(make(value.Row, 0, len(r)+len(sys)), r...), sys[:]...))
	})
}
