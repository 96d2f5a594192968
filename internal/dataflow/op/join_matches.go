package op

import (
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"github.com/tidwall/btree"
)

// matches keeps, for each row of one input (the preserved side of an outer
// join, the left side of a semi- or anti-join), its match count m: the sum
// of the other side's weights over the rows it matches (key equal and
// residual TRUE). Only nonzero counts of rows present in the input are
// kept. The count is per row, not per key: under a residual, two rows of
// one key can match different rows. Rows are Z-set rows (zset.CompareRows):
// -0 and 0, or 1.5 and 1.50, are two rows with a count each.
//
// Per step, the pairs the join enumerates feed it:
//
//	Δs ⋈ O (before the step)   the count before the step of a changed row
//	S ⋈ ΔO                     the change of the count of a held row (whose
//	                           weight the pair gives)
//	Δs ⋈ ΔO                    the change of the count of a changed row not
//	                           held before
//
// and settle computes, for each row whose weight or count changed, its old
// and new (weight, count), from which the operator derives its output:
// Δout(s) = w_new·f(m_new) − w_old·f(m_old) for an indicator f (no match
// for a NULL-extended row or an anti-join, some match for a semi-join).
type matches struct {
	tr     *btree.BTreeG[matchEntry] // rows with m ≠ 0, with their weight
	before zset.ZSet                 // changed rows' counts before the step
	change []matchChange             // counts' changes, one per pair
	staged []matchEntry              // entries to set (or delete, when w or m is 0) at Commit
}

type matchEntry struct {
	row  value.Row
	w, m int64
}

type matchChange struct {
	row  value.Row
	wOld int64 // the row's weight before the step, when the pair knows it
	dm   int64
	held bool // from S ⋈ ΔO, else from Δs ⋈ ΔO
}

// matchEntryOverhead is an entry's cost beyond its row, which is shared
// with the input's arrangement: the entry and one entry of node slack (see
// counts).
const matchEntryOverhead = 2*int64(unsafe.Sizeof(matchEntry{})) + 2

func lessMatch(a, b matchEntry) bool { return zset.CompareRows(a.row, b.row) < 0 }

func newMatches() matches {
	return matches{tr: btree.NewBTreeGOptions(lessMatch, btree.Options{NoLocks: true})}
}

// pair records a matching pair from the preserved side's point of view: s
// with weight ws, matched by a row of weight wo of the other side;
// fromDelta says whether s comes from the change (Δs), otherDelta whether
// the other row does (ΔO).
func (m *matches) pair(s value.Row, ws int64, fromDelta, otherDelta bool, wo int64) {
	switch {
	case fromDelta && !otherDelta:
		m.before = append(m.before, zset.Entry{Row: s, W: wo})
	case fromDelta:
		m.change = append(m.change, matchChange{row: s, dm: wo})
	default:
		m.change = append(m.change, matchChange{row: s, wOld: ws, dm: wo, held: true})
	}
}

// settle calls fn for each row of delta or whose count changed, with its
// weight and count before and after the step, and stages the new counts.
// delta is the side's consolidated change. When a changed row's count does
// not change, its weight before the step may be unknown: fn then sees wOld
// 0 and wNew the change, which gives the same wNew·f(m) − wOld·f(m). fn's
// error stops it.
func (m *matches) settle(delta zset.ZSet, fn func(row value.Row, wOld, mOld, wNew, mNew int64) error) error {
	m.before = zset.Consolidate(m.before)
	slices.SortFunc(m.change, func(a, b matchChange) int { return zset.CompareRows(a.row, b.row) })
	m.staged = m.staged[:0]
	i, j, k := 0, 0, 0 // into delta, before, change
	for i < len(delta) || k < len(m.change) {
		var row value.Row
		switch {
		case i == len(delta):
			row = m.change[k].row
		case k == len(m.change):
			row = delta[i].Row
		case zset.CompareRows(delta[i].Row, m.change[k].row) <= 0:
			row = delta[i].Row
		default:
			row = m.change[k].row
		}
		var dw, wOld, dm, dmDelta, mOld int64
		inDelta := i < len(delta) && zset.CompareRows(delta[i].Row, row) == 0
		if inDelta {
			dw = delta[i].W
			i++
		}
		// The count is the row's, whatever its weight: a row both held and
		// changed meets the same rows of ΔO in S ⋈ ΔO and in Δs ⋈ ΔO, and
		// its count changes by their weight once. Pairs from S ⋈ ΔO carry
		// the row's weight; a row with pairs from Δs ⋈ ΔO alone was not
		// held (or the same pairs would come from S ⋈ ΔO too).
		fromHeld := false
		for k < len(m.change) && zset.CompareRows(m.change[k].row, row) == 0 {
			if ch := &m.change[k]; ch.held {
				fromHeld = true
				wOld = ch.wOld
				dm += ch.dm
			} else {
				dmDelta += ch.dm
			}
			k++
		}
		if !fromHeld {
			dm = dmDelta
		}
		held, isHeld := m.tr.Get(matchEntry{row: row})
		switch {
		case isHeld:
			wOld, mOld = held.w, held.m
		case inDelta:
			for j < len(m.before) && zset.CompareRows(m.before[j].Row, row) < 0 {
				j++
			}
			if j < len(m.before) && zset.CompareRows(m.before[j].Row, row) == 0 {
				mOld = m.before[j].W
			}
		}
		wNew, mNew := wOld+dw, mOld+dm
		if err := fn(row, wOld, mOld, wNew, mNew); err != nil {
			return err
		}
		if isHeld || (wNew != 0 && mNew != 0) {
			m.staged = append(m.staged, matchEntry{row: row, w: wNew, m: mNew})
		}
	}
	return nil
}

func (m *matches) commit() {
	for _, e := range m.staged {
		if e.w == 0 || e.m == 0 {
			m.tr.Delete(e)
		} else {
			m.tr.Set(e)
		}
	}
	m.abort()
}

func (m *matches) abort() {
	clear(m.before)
	clear(m.change)
	clear(m.staged)
	m.before, m.change, m.staged = m.before[:0], m.change[:0], m.staged[:0]
}

func (m *matches) state() dataflow.StateSize {
	n := int64(m.tr.Len())
	return dataflow.StateSize{Rows: n, Bytes: n * matchEntryOverhead}
}
