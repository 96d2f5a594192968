package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/tidwall/btree"
)

// orderedIndex keeps a table's rows, by reference with their ids, in a
// B-tree ordered by the values of some columns (NULL after every value, as
// in a PostgreSQL btree index in ascending order) and then by row id: an
// index CREATE INDEX made. Adding, removing or replacing a row costs
// O(log n) and allocates nothing but the tree's nodes; finding the rows
// whose leading columns equal some values, and whose next column lies in
// a range, costs O(log n + rows found).
type orderedIndex struct {
	cols []int
	tr   *btree.BTreeG[ordEntry]
}

// ordEntry is a row of the table with its id, or a probe: a position
// between entries (see probe).
type ordEntry struct {
	row value.Row
	id  uint64
}

// A probe's id has probeBit set, afterBit when it lies after the entries
// whose leading columns equal its values (else before them), and the
// number of its values in the low bits; its row holds the values, in the
// index's column order. Row ids never reach these bits.
const (
	probeBit uint64 = 1 << 63
	afterBit        = 1 << 62
	probeLen        = 1<<16 - 1
)

func probe(vals []value.Value, after bool) ordEntry {
	id := probeBit | uint64(len(vals))
	if after {
		id |= afterBit
	}
	return ordEntry{row: vals, id: id}
}

func newOrderedIndex(cols []int) *orderedIndex {
	x := &orderedIndex{cols: cols}
	x.tr = btree.NewBTreeGOptions(x.less, btree.Options{NoLocks: true})
	return x
}

func (x *orderedIndex) less(a, b ordEntry) bool { return x.cmp(a, b) < 0 }

// cmp orders two entries, or an entry and a probe.
func (x *orderedIndex) cmp(a, b ordEntry) int {
	ap, bp := a.id&probeBit != 0, b.id&probeBit != 0
	n := len(x.cols)
	switch {
	case ap:
		n = int(a.id & probeLen)
	case bp:
		n = int(b.id & probeLen)
	}
	for i := 0; i < n; i++ {
		var u, v value.Value
		if ap {
			u = a.row[i]
		} else {
			u = a.row[x.cols[i]]
		}
		if bp {
			v = b.row[i]
		} else {
			v = b.row[x.cols[i]]
		}
		if c := compareNullsLast(u, v); c != 0 {
			return c
		}
	}
	switch {
	case ap && a.id&afterBit != 0:
		return 1
	case ap:
		return -1
	case bp && b.id&afterBit != 0:
		return -1
	case bp:
		return 1
	case a.id < b.id:
		return -1
	case a.id > b.id:
		return 1
	}
	return 0
}

// compareNullsLast orders values as an ascending index does: NULL equal
// to NULL and after every value.
func compareNullsLast(u, v value.Value) int {
	switch un, vn := u.IsNull(), v.IsNull(); {
	case un && vn:
		return 0
	case un:
		return 1
	case vn:
		return -1
	}
	return value.Compare(u, v)
}

// build fills the index with the table's rows: sorted first, so that the
// tree is loaded leaf after leaf.
func (x *orderedIndex) build(t *table) {
	es := make([]ordEntry, 0, t.rows.Len())
	t.scan(func(id uint64, row value.Row) bool {
		es = append(es, ordEntry{row: row, id: id})
		return true
	})
	slices.SortFunc(es, x.cmp)
	for _, e := range es {
		x.tr.Load(e)
	}
}

func (x *orderedIndex) add(id uint64, row value.Row) { x.tr.Set(ordEntry{row: row, id: id}) }

func (x *orderedIndex) drop(id uint64, row value.Row) { x.tr.Delete(ordEntry{row: row, id: id}) }

// replace moves id from old to row: in place when the indexed columns
// did not change (the entry then refers to the new row).
func (x *orderedIndex) replace(id uint64, old, row value.Row) {
	for _, c := range x.cols {
		if compareNullsLast(old[c], row[c]) != 0 {
			x.drop(id, old)
			x.add(id, row)
			return
		}
	}
	x.tr.Set(ordEntry{row: row, id: id})
}

// keyRange is what a WHERE says of an index's columns: the leading ones
// equal to eq (a NULL: IS NULL), and, when bounded, the next one between
// lo and hi (either may be missing), NULL excluded.
type keyRange struct {
	eq             []value.Value
	bounded        bool
	lo, hi         value.Value
	hasLo, hasHi   bool
	loIncl, hiIncl bool
}

// scan calls fn, in index order, for the entries within r, until fn
// returns false.
func (x *orderedIndex) scan(r *keyRange, fn func(id uint64, row value.Row) bool) {
	k := len(r.eq)
	vals := make([]value.Value, k+1)
	copy(vals, r.eq)
	start, end := probe(vals[:k], false), probe(vals[:k], true)
	if r.bounded {
		startVals := vals
		if r.hasLo {
			startVals[k] = r.lo
			start = probe(startVals, !r.loIncl)
		}
		endVals := make([]value.Value, k+1)
		copy(endVals, r.eq)
		if r.hasHi {
			endVals[k] = r.hi
			end = probe(endVals, r.hiIncl)
		} else {
			endVals[k] = value.Null // the range stops before the NULLs
			end = probe(endVals, false)
		}
	}
	x.tr.Ascend(start, func(e ordEntry) bool {
		if x.cmp(e, end) >= 0 {
			return false
		}
		return fn(e.id, e.row)
	})
}

// bytes estimates the index's memory: 32 bytes an entry in nodes about
// half full, as a load in order and random changes leave them (measured:
// 68 bytes a row of a 500,000-row table after CREATE INDEX).
func (x *orderedIndex) bytes() int64 { return 68 * int64(x.tr.Len()) }

// repoint refers every entry to the row its id holds in rows, whose
// values are the entry's own (rowStore.layout): the tree is rebuilt in its
// order, leaf after leaf.
func (x *orderedIndex) repoint(rows *rowStore) {
	es := make([]ordEntry, 0, x.tr.Len())
	x.tr.Scan(func(e ordEntry) bool {
		if r, ok := rows.Get(e.id); ok {
			e.row = r
		}
		es = append(es, e)
		return true
	})
	x.tr = btree.NewBTreeGOptions(x.less, btree.Options{NoLocks: true})
	for _, e := range es {
		x.tr.Load(e)
	}
}
