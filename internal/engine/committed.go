package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// committedSource reads the committed state while a writer's transaction
// is open: the writer changes tables in place, so a table is read through
// the transaction's log, undone on the fly. It keeps nothing between
// scans. Materialized views change only at commit: they are read as they
// are.
//
// It is used under the read lock, while the writer runs no statement.
type committedSource struct {
	e   *Engine
	log []change
}

// committed returns the source for a reader that is not the writer: the
// engine itself when no transaction is open. The caller holds the lock.
func (e *Engine) committed() exec.Source {
	if e.tx == nil || len(e.tx.log) == 0 {
		return e
	}
	log := e.tx.log
	if e.txd != nil {
		// A block that changed the catalog holds the database: what the
		// views hold is the tables as of its last catalog change, which
		// the views built in it read, and which no view made before it
		// was changed by (txddl.go).
		log = log[min(e.txd.base, len(log)):]
	}
	return &committedSource{e: e, log: log}
}

var _ exec.FilteredSource = (*committedSource)(nil)

// ScanFiltered implements exec.FilteredSource: through the table's
// indexes when the open transaction has not changed the table, which
// the indexes then describe as committed.
func (c *committedSource) ScanFiltered(rel string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	t, ok := c.e.tables[rel]
	if !ok {
		return c.e.ScanFiltered(rel, pred, fn) // views change only at commit
	}
	for _, ch := range c.log {
		if ch.t == t && ch.w != 0 {
			return false, nil
		}
	}
	return c.e.ScanFiltered(rel, pred, fn)
}

// RelationSize implements exec.Sizer.
func (c *committedSource) RelationSize(rel string) (int, bool) { return c.e.RelationSize(rel) }

// Scan implements exec.Source. A table's rows are its stored rows less
// those the open transaction inserted (or wrote in place by an update),
// merged by row id with the rows it deleted (or overwrote), restored: in
// row id order, the order of a scan of the committed table.
func (c *committedSource) Scan(rel string, fn func(value.Row) error) error {
	if name, ok := plan.SystemTable(rel); ok {
		return c.e.scanSystem(name, func(sfn func(uint64, value.Row) error) error {
			return c.scanIDs(c.e.tables[name], sfn)
		}, fn)
	}
	t, ok := c.e.tables[rel]
	if !ok || !t.keepsRows() {
		return c.e.Scan(rel, fn)
	}
	n := int64(0)
	err := c.scanIDs(t, func(_ uint64, r value.Row) error { n++; return fn(r) })
	t.stat.scanned(n)
	return err
}

// scanIDs calls fn for each committed row of t with its row id, in row
// id order.
func (c *committedSource) scanIDs(t *table, fn func(id uint64, r value.Row) error) error {
	written, old := undo(c.log, t)
	if len(written) == 0 {
		return c.e.scanIDs(t, fn)
	}
	var err error
	t.scan(func(id uint64, r value.Row) bool {
		for len(old) > 0 && old[0].id < id {
			if err = fn(old[0].id, old[0].row); err != nil {
				return false
			}
			old = old[1:]
		}
		if written[id] {
			return true
		}
		err = fn(id, r)
		return err == nil
	})
	for ; err == nil && len(old) > 0; old = old[1:] {
		err = fn(old[0].id, old[0].row)
	}
	return err
}

// restored is a row that changes logged after some point overwrote or
// deleted: the row as it was at that point, under its id.
type restored struct {
	id  uint64
	row value.Row
}

// undo reads log, the changes made since some point, for t: written are
// the ids whose stored row is not the row at that point (inserted,
// updated or deleted since), old the rows those ids held then, in row id
// order.
func undo(log []change, t *table) (written map[uint64]bool, old []restored) {
	written = map[uint64]bool{}
	for _, ch := range log {
		switch {
		case ch.t != t || ch.w == 0:
		case ch.w > 0:
			written[ch.id] = true
		case !written[ch.id]:
			// The first retraction of an id not written since is the
			// row at that point.
			written[ch.id] = true
			old = append(old, restored{ch.id, ch.row})
		}
	}
	slices.SortFunc(old, func(a, b restored) int {
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	return written, old
}
