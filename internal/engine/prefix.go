package engine

import (
	"github.com/deltaview/deltaview/internal/value"
)

// prefixIndex keeps, for the leading column of a composite primary or
// unique key, the ids of the rows holding each value: a list per value,
// linked through arrays indexed by row id, so that adding or removing a
// row costs O(1) and allocates nothing (the arrays grow with the row
// store), and finding a value's rows costs O(rows found). Rows whose
// column is NULL are not kept ('=' matches no NULL). A table builds one
// on the first lookup by that column and keeps it up to date from then on.
type prefixIndex struct {
	col  int
	ints map[int64]uint64  // the first id per value of an integer column
	m    map[string]uint64 // the first id per encoded value otherwise
	// next and prev link the ids of a value's rows; 0 ends a list.
	next, prev []uint64
}

// prefix returns the prefix index on column col, building it when the
// table has none.
func (t *table) prefix(col int) *prefixIndex {
	for _, p := range t.prefixes {
		if p.col == col {
			return p
		}
	}
	p := &prefixIndex{col: col}
	if t.cols[col].Type.Kind.IsInteger() {
		p.ints = map[int64]uint64{}
	} else {
		p.m = map[string]uint64{}
	}
	n := len(t.rows.rows)
	p.next, p.prev = make([]uint64, n), make([]uint64, n)
	t.scan(func(id uint64, row value.Row) bool {
		p.add(id, row)
		return true
	})
	t.prefixes = append(t.prefixes, p)
	return p
}

func (p *prefixIndex) head(v value.Value) uint64 {
	if p.ints != nil {
		return p.ints[v.Int()]
	}
	var arr [64]byte
	return p.m[string(value.AppendKey(arr[:0], v))]
}

func (p *prefixIndex) setHead(v value.Value, id uint64) {
	if p.ints != nil {
		if id == 0 {
			delete(p.ints, v.Int())
		} else {
			p.ints[v.Int()] = id
		}
		return
	}
	var arr [64]byte
	k := value.AppendKey(arr[:0], v)
	if id == 0 {
		delete(p.m, string(k))
	} else {
		p.m[string(k)] = id
	}
}

// add links id, the id of row, at the head of its value's list.
func (p *prefixIndex) add(id uint64, row value.Row) {
	v := row[p.col]
	if v.IsNull() {
		return
	}
	for uint64(len(p.next)) <= id {
		p.next = append(p.next, 0)
		p.prev = append(p.prev, 0)
	}
	first := p.head(v)
	p.next[id], p.prev[id] = first, 0
	if first != 0 {
		p.prev[first] = id
	}
	p.setHead(v, id)
}

// drop unlinks id, the id of row.
func (p *prefixIndex) drop(id uint64, row value.Row) {
	v := row[p.col]
	if v.IsNull() || id >= uint64(len(p.next)) {
		return
	}
	next, prev := p.next[id], p.prev[id]
	if prev != 0 {
		p.next[prev] = next
	} else {
		p.setHead(v, next)
	}
	if next != 0 {
		p.prev[next] = prev
	}
	p.next[id], p.prev[id] = 0, 0
}

// each calls fn for the id of every row whose column equals v.
func (p *prefixIndex) each(v value.Value, fn func(id uint64)) {
	for id := p.head(v); id != 0; id = p.next[id] {
		fn(id)
	}
}

// bytes estimates the index's memory: the two arrays and a map entry per
// value.
func (p *prefixIndex) bytes() int64 {
	n := int64(16 * cap(p.next))
	if p.ints != nil {
		return n + 32*int64(len(p.ints))
	}
	return n + 48*int64(len(p.m))
}

// indexBytes is the memory of t's prefix indexes, of its keys' ordered
// indexes and of the indexes CREATE INDEX made, which deltaview_tables
// counts with the rows.
func (t *table) indexBytes() int64 {
	var n int64
	for _, p := range t.prefixes {
		n += p.bytes()
	}
	for _, ix := range t.indexes {
		n += ix.ord.bytes()
	}
	for _, ix := range t.keyOrders {
		n += ix.ord.bytes()
	}
	for _, ix := range t.xindexes {
		n += ix.xord.memBytes()
	}
	return n
}
