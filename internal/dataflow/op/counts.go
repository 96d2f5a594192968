package op

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"github.com/tidwall/btree"
)

// counts is a multiset of rows, row → nonzero weight, the state of Distinct
// and Integrate. It is a B-tree ordered by value.CompareRows whose nodes
// hold the entries inline: one pointer per row (the row's backing array)
// plus a few per node of up to 63 entries, and no allocation per row besides
// the row itself. A hash map keyed by value.HashRow would need the same one
// pointer per row (in a slab, with a chain for collisions) and would save the
// log n comparisons, but Integrate must iterate in row order anyway, and one
// structure serves both.
type counts struct {
	tr    *btree.BTreeG[countEntry]
	total int64 // sum of weights
	bytes int64 // RowBytes of the rows held
}

type countEntry struct {
	row value.Row
	n   int64
}

// entryOverhead is the per-entry cost of the B-tree beyond the row: the
// weight, the slack of node arrays and the nodes' own headers. Nodes hold
// between half and all of their 63 entries, and a split leaves the left half
// in the full-size array, so the arrays take up to twice the entries' size;
// rows loaded in order (a cold start) leave every node half full. Counting
// one entry's size of slack matches the heap growth the runtime measures
// for in-order loads (TestStateBytesHonest) and overstates random ones
// slightly.
const entryOverhead = int64(unsafe.Sizeof(countEntry{})-unsafe.Sizeof(value.Row(nil))) +
	int64(unsafe.Sizeof(countEntry{})) + 2

func lessEntry(a, b countEntry) bool { return value.CompareRows(a.row, b.row) < 0 }

func lessIdentical(a, b countEntry) bool { return zset.CompareRows(a.row, b.row) < 0 }

// newCounts returns counts whose rows are equal when value.CompareRows
// says so: -0 and 0, or 1.5 and 1.50, share one entry.
func newCounts() counts {
	return counts{tr: btree.NewBTreeGOptions(lessEntry, btree.Options{NoLocks: true})}
}

// newIdentityCounts returns counts whose rows are equal only when they
// are equal as Z-set rows (zset.CompareRows): the state of a multiset that
// must print exactly the rows it was given.
func newIdentityCounts() counts {
	return counts{tr: btree.NewBTreeGOptions(lessIdentical, btree.Options{NoLocks: true})}
}

// lookup returns the entry equal to r: its weight and the row stored,
// which may differ from r in representation.
func (c *counts) lookup(r value.Row) (value.Row, int64, bool) {
	e, ok := c.tr.Get(countEntry{row: r})
	return e.row, e.n, ok
}

// get returns r's weight, 0 when absent.
func (c *counts) get(r value.Row) int64 {
	e, _ := c.tr.Get(countEntry{row: r})
	return e.n
}

// add adds w to r's weight, removing r when it reaches zero.
func (c *counts) add(r value.Row, w int64) {
	var hint btree.PathHint
	c.total += w
	old, ok := c.tr.GetHint(countEntry{row: r}, &hint)
	switch {
	case !ok:
		c.tr.SetHint(countEntry{row: r, n: w}, &hint)
		c.bytes += dataflow.RowBytes(r)
	case old.n+w == 0:
		c.tr.DeleteHint(old, &hint)
		c.bytes -= dataflow.RowBytes(old.row)
	default:
		old.n += w
		c.tr.SetHint(old, &hint)
	}
}

func (c *counts) state() dataflow.StateSize {
	n := int64(c.tr.Len())
	return dataflow.StateSize{Rows: n, Bytes: c.bytes + n*entryOverhead}
}

func (c *counts) scan(fn func(r value.Row, w int64) bool) {
	c.tr.Scan(func(e countEntry) bool { return fn(e.row, e.n) })
}

// String prints the multiset as a Z-set.
func (c *counts) String() string {
	var b strings.Builder
	c.scan(func(r value.Row, w int64) bool {
		if w > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatInt(w, 10))
		b.WriteByte(' ')
		b.WriteString(zset.FormatRow(r))
		b.WriteByte('\n')
		return true
	})
	return b.String()
}
