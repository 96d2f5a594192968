package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A table's row system columns (plan.SystemValues) come from its row
// ids: a row keeps its ctid while it lives, through UPDATE (PostgreSQL's
// moves), until deletions leave more holes than rows in the table and it
// is renumbered between transactions (table.compact), as VACUUM FULL
// moves PostgreSQL's rows.

// scanIDs calls fn for each row of t, as the writer sees it, with its id.
func (e *Engine) scanIDs(t *table, fn func(id uint64, r value.Row) error) error {
	var err error
	t.scanHeap(func(id uint64, r value.Row) bool {
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
		sys := plan.SystemValues(id)
		return fn(append(append(make(value.Row, 0, len(r)+len(sys)), r...), sys[:]...))
	})
}

// rowWrite is how a statement wrote a row that RETURNING reads.
type rowWrite uint8

const (
	wroteInsert rowWrite = iota
	wroteUpdate
	wroteUpsert // INSERT … ON CONFLICT DO UPDATE
	wroteDelete
)

// writtenSystemValues sets the transaction ids of a row the statement
// wrote as PostgreSQL's RETURNING shows them: the new version of an
// inserted or updated row has the writing transaction's id as xmin; a
// deleted row, and the row an upsert updated (whose old version the
// upsert locked first, a lock the new version inherits), have it as xmax,
// which is how RETURNING (xmax = 0) AS inserted tells an upsert's inserted
// rows. The transaction takes its id here, as PostgreSQL's does at its
// first change, so that txid_current() agrees. A deleted row's xmin stays
// the frozen id that every stored row shows (rows keep no ids).
func (e *Engine) writtenSystemValues(vals *[plan.RowSystemColumns]value.Value, w rowWrite) error {
	s := e.firer
	if s == nil {
		return pgerr.New(pgerr.Internal, "engine: RETURNING reads transaction ids outside a session")
	}
	xid, _, err := s.TxID(true)
	if err != nil {
		return err
	}
	if w != wroteDelete {
		vals[1] = value.NewXid(uint32(xid))
	}
	if w == wroteUpsert || w == wroteDelete {
		vals[3] = value.NewXid(uint32(xid))
	}
	return nil
}
