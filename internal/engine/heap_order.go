package engine

import (
	"cmp"
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A table's rows are kept in row id order, which is insertion order (an
// UPDATE writes a row in place; compaction and reopening keep the order):
// the order of PostgreSQL's sequential scan of a table that rows were only
// inserted into. The rows an UPDATE rewrote are read at the end, where
// PostgreSQL's heap puts their new versions (heapOrder). Ad-hoc reads,
// and aggregates without ORDER BY over a table scan, take the rows in
// that order, as PostgreSQL's do (exec.HeapOrderSource); so do UPDATE
// and DELETE, whose keys are checked row by row.

var (
	_ exec.HeapOrderSource = (*Engine)(nil)
	_ exec.HeapOrderSource = (*committedSource)(nil)
	_ exec.HeapOrderSource = sessionSource{}
)

// HeapOrdered implements exec.HeapOrderSource: a table that keeps its
// rows scans in the order of its heap (scanHeap); a partitioned table,
// which keeps its partitions' rows, partition by partition.
func (e *Engine) HeapOrdered(rel string) bool {
	if _, ok := e.transitionRows(rel); ok {
		return false
	}
	if name, ok := plan.SystemTable(rel); ok {
		rel = name
	}
	t, ok := e.tables[rel]
	return ok && t.keepsRows()
}

// HeapOrdered implements exec.HeapOrderSource: the committed rows merge
// by row id (scanIDs), which is their heap's order unless an UPDATE
// rewrote some (heapOrder) or the table is partitioned, and the open
// transaction changed the table.
func (c *committedSource) HeapOrdered(rel string) bool {
	if !c.e.HeapOrdered(rel) {
		return false
	}
	if name, ok := plan.SystemTable(rel); ok {
		rel = name
	}
	t := c.e.tables[rel]
	if t.heap == nil && t.def.PartitionBy == nil {
		return true
	}
	for _, ch := range c.log {
		if ch.t == t && ch.w != 0 {
			return false
		}
	}
	return true
}

// HeapOrdered implements exec.HeapOrderSource.
func (ss sessionSource) HeapOrdered(rel string) bool {
	switch rel {
	case "pg_catalog.pg_prepared_statements", "pg_catalog.pg_cursors":
		return false
	}
	hs, ok := ss.src.(exec.HeapOrderSource)
	return ok && hs.HeapOrdered(rel)
}

// heapOrder keeps the places of the rows of a table that an UPDATE
// rewrote: PostgreSQL writes an updated row's new version after every
// row its heap holds (a new line pointer; pruning, which may hand an
// older one back, is not modelled), and a sequential scan reads it there,
// while here the row keeps its id. A row that was never rewritten keeps
// its insertion place, its id. A place is a row's id shifted left by 32
// bits; a rewrite's is that of the last row inserted before it, plus a
// count of the rewrites since that insert, so that it falls after every
// row there was and before every row inserted after it, in O(1) a
// rewrite, without renumbering any row. A table no UPDATE rewrote has
// none (nil); compact, which renumbers the rows in id order as the
// database file renumbers its copy, carries the places over to the new
// ids (renumbered).
type heapOrder struct {
	at    []uint64 // at[id]: the place of the row under id, 0 for its id's
	major uint64   // the place of the last insert before the last rewrite
	minor uint64   // rewrites since that insert
	moved int      // ids ever given a place: a scan sorts this many at most
}

// heapUndo is a rewrite's place that ROLLBACK puts back: the place the
// row under id had before the change logged at at.
type heapUndo struct {
	t   *table
	at  int
	id  uint64
	was uint64
}

// rewrote gives the row under id of t, which an UPDATE just rewrote, the
// place after every other row, noting the place it had for undo.
func (e *Engine) rewrote(t *table, id uint64) {
	h := t.heap
	if h == nil {
		if id+1 == t.nextID {
			return // the last row inserted stays last
		}
		h = &heapOrder{}
		t.heap = h
	}
	major := (t.nextID - 1) << 32
	if major != h.major {
		h.major, h.minor = major, 0
	}
	if h.minor < 1<<32-1 {
		h.minor++
	}
	if id >= uint64(len(h.at)) {
		h.at = append(h.at, make([]uint64, id+1-uint64(len(h.at)))...)
	}
	was := h.at[id]
	if was == 0 {
		h.moved++
	}
	h.at[id] = major | h.minor
	e.tx.heapUndo = append(e.tx.heapUndo, heapUndo{t: t, at: len(e.tx.log), id: id, was: was})
}

// undoHeap puts back the places of the rows rewritten by the changes
// logged after mark.
func (tx *txn) undoHeap(mark int) {
	u := tx.heapUndo
	i := len(u)
	for i > 0 && u[i-1].at >= mark {
		i--
		if h := u[i].t.heap; h != nil && u[i].id < uint64(len(h.at)) {
			h.at[u[i].id] = u[i].was
		}
	}
	clear(u[i:])
	tx.heapUndo = u[:i]
}

// place returns where PostgreSQL's heap holds the row under id, among
// the rows of t: the order of a sequential scan.
func (t *table) place(id uint64) uint64 {
	if h := t.heap; h != nil && id < uint64(len(h.at)) && h.at[id] != 0 {
		return h.at[id]
	}
	return id << 32
}

// scanHeap calls fn for every row of t in the order of PostgreSQL's
// sequential scan (heapOrder) until fn returns false: the rows in id
// order, those an UPDATE rewrote merged in at their places, O(rows +
// r log r) for r rewritten rows.
func (t *table) scanHeap(fn func(id uint64, row value.Row) bool) {
	if t.def.PartitionBy != nil {
		t.scanPartitions(fn)
		return
	}
	t.heap.scan(t.rows, fn)
}

// scan calls fn for every row of rows in the order of the places h keeps
// (by id where h is nil) until fn returns false, O(rows + r log r) for r
// rewritten rows. Partitions play no part: the order of all of a
// partitioned table's rows keeps each partition's.
func (h *heapOrder) scan(rows *rowStore, fn func(id uint64, row value.Row) bool) {
	if h == nil {
		rows.Scan(fn)
		return
	}
	moved := make([]uint64, 0, h.moved)
	for id, p := range h.at {
		if p != 0 {
			if _, ok := rows.Get(uint64(id)); ok {
				moved = append(moved, uint64(id))
			}
		}
	}
	slices.SortFunc(moved, func(a, b uint64) int { return cmp.Compare(h.at[a], h.at[b]) })
	stopped := false
	emit := func(limit uint64) bool {
		for len(moved) > 0 && h.at[moved[0]] < limit {
			id := moved[0]
			moved = moved[1:]
			row, _ := rows.Get(id)
			if !fn(id, row) {
				stopped = true
				return false
			}
		}
		return true
	}
	rows.Scan(func(id uint64, row value.Row) bool {
		if id < uint64(len(h.at)) && h.at[id] != 0 {
			return true // at its place
		}
		if !emit(id << 32) {
			return false
		}
		return fn(id, row)
	})
	if !stopped {
		emit(^uint64(0)) // no place is that great
	}
}

// renumbered returns h's order over rows once compact has given each row
// of rows the id newOf[id] (nextID the id after the last): a rewritten
// row's place falls after the row not rewritten that precedes it in h's
// order, as it did, so that the rows keep their order under their new
// ids, and a rewrite after this one falls after all of them.
func (h *heapOrder) renumbered(rows *rowStore, newOf []uint64, nextID uint64) *heapOrder {
	if h == nil {
		return nil
	}
	n := &heapOrder{at: make([]uint64, nextID)}
	var last, k uint64 // the new id of the last row not rewritten; rewritten rows since
	h.scan(rows, func(id uint64, _ value.Row) bool {
		if id < uint64(len(h.at)) && h.at[id] != 0 {
			k++
			n.at[newOf[id]] = last<<32 | k
			n.moved++
		} else {
			last, k = newOf[id], 0
		}
		return true
	})
	if n.moved == 0 {
		return nil
	}
	n.major = (nextID - 1) << 32
	if last == nextID-1 {
		n.minor = k
	}
	return n
}

// scanKey is where PostgreSQL's scan of a table meets a row: its leaf
// partition's rank (leafRanks; 0 in a table not partitioned), then its
// place in that partition's heap.
type scanKey struct{ rank, place uint64 }

func (a scanKey) compare(b scanKey) int {
	if c := cmp.Compare(a.rank, b.rank); c != 0 {
		return c
	}
	return cmp.Compare(a.place, b.place)
}

// heapOrderTargets orders the rows an UPDATE or DELETE acts on as
// PostgreSQL's scan meets them: in a partitioned table one partition
// after the other in the order of their bounds (partitionOrder), each in
// the order of its heap, so that of two rows whose new keys collide the
// same one fails, and RETURNING lists the rows in the same order. Rows
// joined to a FROM or USING list are not ordered so: their order is
// PostgreSQL's plan's.
//
// Rows found by equalities on every column of a unique key (an IN list
// of keys) come in the order of the key instead: PostgreSQL reads them
// through the key's index.
func heapOrderTargets(t *table, ts []target, where expr.Expr) {
	if len(ts) < 2 {
		return
	}
	u := uniquePath(t, where)
	if u != nil {
		slices.SortStableFunc(ts, func(a, b target) int {
			for _, c := range u.cols {
				if r := value.Compare(a.row[c], b.row[c]); r != 0 {
					return r
				}
			}
			return 0
		})
	}
	if t.def.PartitionBy != nil {
		partitionOrder(t, ts, u == nil)
		return
	}
	if u != nil {
		return
	}
	if t.heap == nil {
		if slices.IsSortedFunc(ts, func(a, b target) int { return cmp.Compare(a.id, b.id) }) {
			return
		}
	}
	slices.SortStableFunc(ts, func(a, b target) int { return cmp.Compare(t.place(a.id), t.place(b.id)) })
}

// scanPartitions is scanHeap of a partitioned table: its rows partition
// by partition, in the order of their bounds (leafRanks), each in the
// order of its heap. The rows are routed and sorted, O(rows log rows),
// unless they come in that order already.
func (t *table) scanPartitions(fn func(id uint64, row value.Row) bool) {
	rank := leafRanks(t)
	type ranked struct {
		scanKey
		id  uint64
		row value.Row
	}
	rs := make([]ranked, 0, t.rows.Len())
	t.scan(func(id uint64, row value.Row) bool {
		leaf, _ := routeLeaf(t, row)
		rs = append(rs, ranked{scanKey{rank[leaf], t.place(id)}, id, row})
		return true
	})
	order := func(a, b ranked) int { return a.compare(b.scanKey) }
	if !slices.IsSortedFunc(rs, order) {
		slices.SortFunc(rs, order)
	}
	for _, r := range rs {
		if !fn(r.id, r.row) {
			return
		}
	}
}

// uniquePath returns the unique key through whose index where finds its
// rows (every column of the key fixed, by one value or an IN list), nil
// when it finds them otherwise.
func uniquePath(t *table, where expr.Expr) *uniqueIndex {
	p, err := t.accessPath(where)
	if err != nil || p == nil {
		return nil
	}
	if p.unique != nil {
		return p.unique
	}
	var u *uniqueIndex
	for _, a := range p.alts {
		if a.unique == nil || (u != nil && a.unique != u) {
			return nil
		}
		u = a.unique
	}
	return u
}

// heapOrderPlanned orders the rows, in row id order, that an UPDATE or
// DELETE with subqueries acts on as heapOrderTargets orders a statement's
// rows found by a scan: by partition, then by place.
func heapOrderPlanned(t *table, ps []planned) {
	if len(ps) < 2 || (t.heap == nil && t.def.PartitionBy == nil) {
		return
	}
	var rank map[*partition]uint64
	if t.def.PartitionBy != nil {
		rank = leafRanks(t)
	}
	type ranked struct {
		scanKey
		p planned
	}
	rs := make([]ranked, len(ps))
	for i, p := range ps {
		rs[i] = ranked{scanKey: scanKey{place: t.place(p.id)}, p: p}
		if row, ok := t.rows.Get(p.id); ok && rank != nil {
			leaf, _ := routeLeaf(t, row)
			rs[i].rank = rank[leaf]
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return a.compare(b.scanKey) })
	for i := range rs {
		ps[i] = rs[i].p
	}
}
