package engine

import (
	"github.com/deltaview/deltaview/internal/dataflow"
)

// applyOne is applyPending for a transaction that kept one replacement,
// the commonest transaction of the typed API: the row goes in place of
// its key's, logged, and at a commit whose log holds nothing else
// (direct) its table's batch is the change itself, without the sort, the
// shares and the reads ahead that a batch of replacements pays for.
func (e *Engine) applyOne(direct bool) {
	tx := e.tx
	pr := tx.pending[0]
	tx.pending[0] = pendingRow{}
	tx.pending = tx.pending[:0]
	t := pr.t
	u := t.uniques[0]
	ref, _ := u.ints.Get(pr.key) // found when the replacement was kept
	old := t.rows.rows[ref.id]
	if len(t.prefixes) == 0 && len(t.indexes) == 0 && len(t.keyOrders) == 0 {
		t.rows.rows[ref.id] = pr.row
		t.rows.moved++ // counted as applyPart counts them
	} else {
		t.reindex(ref.id, old, pr.row, 1)
	}
	t.bytes += dataflow.RowBytes(pr.row) - dataflow.RowBytes(old)
	tx.log = append(tx.log, change{t: t, id: ref.id, row: old, w: -1}, change{t: t, id: ref.id, row: pr.row, w: 1})
	if direct && u.cols[0] == 0 && e.isRead(t) {
		t.delta = appendChange(e.directDelta(t, 2), old, pr.row)
		e.batch.direct = append(e.batch.direct, t)
	}
}
