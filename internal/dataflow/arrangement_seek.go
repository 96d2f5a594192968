package dataflow

import (
	"github.com/deltaview/deltaview/internal/value"
)

// ScanFrom calls fn for each committed row of key, in order, starting at
// the first row whose sort values are not before from (one value per sort
// expression), until fn returns false. A top-k refill reads on from its
// last kept row this way, with one descent instead of a walk over the
// rows before it.
func (a *Arrangement) ScanFrom(key value.Row, from []value.Value, fn func(row value.Row, w int64) bool) {
	if a.bnd != nil {
		a.scanBounded(false, func(fn func(row value.Row, w int64) bool) { a.scanFrom(key, from, fn) }, fn)
		return
	}
	a.scanFrom(key, from, fn)
}

func (a *Arrangement) scanFrom(key value.Row, from []value.Value, fn func(row value.Row, w int64) bool) {
	a.settle()
	if len(a.spec.Sort) == 0 || len(from) != len(a.spec.Sort) {
		var enc []byte
		if key != nil {
			enc = value.AppendRowKey(nil, key)
		}
		a.scanAll(enc, false, fn)
		return
	}
	r := a.run(value.AppendRowKey(nil, key))
	if r == nil {
		return
	}
	b := bound{a: a, vals: from, k0: a.k0Of(from)}
	if r.tr == nil {
		i := 0
		for i < len(r.small) && b.before(r.small[i].k0, r.small[i].row()) {
			i++
		}
		for ; i < len(r.small); i++ {
			if !fn(r.small[i].row(), r.small[i].w) {
				return
			}
		}
		return
	}
	r.tr.root.scanFrom(r.tr.height, &b, fn)
}

// k0Of is k0 of a row whose sort values begin with vals (two of them at
// least when the arrangement packs its order).
func (a *Arrangement) k0Of(vals []value.Value) uint64 {
	if a.pack {
		return a.pairSummary(vals[0], vals[1])
	}
	return sortSummary(&a.spec.Sort[0], vals[0])
}

// bound is a position in a run between rows: before every row whose sort
// values equal vals.
type bound struct {
	a    *Arrangement
	vals []value.Value
	k0   uint64
}

// before reports whether the entry (k0, row) orders before the bound.
func (b *bound) before(k0 uint64, row value.Row) bool {
	if k0 != b.k0 {
		return k0 < b.k0
	}
	for i := range b.a.spec.Sort {
		s := &b.a.spec.Sort[i]
		u, _ := s.Expr.Eval(row)
		if c := compareSort(s, u, b.vals[i]); c != 0 {
			return c < 0
		}
	}
	return false
}

// scanFrom is scan from the first entry not before b. A separator not
// before b bounds its left child's entries from above, so the descent
// enters the child after the last separator before b.
func (nd *ptNode) scanFrom(height int, b *bound, fn func(row value.Row, w int64) bool) bool {
	lo, hi := 0, nd.n
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if b.before(nd.keys[h], nd.rows[h].row()) {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if height == 0 {
		for i := lo; i < nd.n; i++ {
			if !fn(nd.rows[i].row(), nd.ws[i]) {
				return false
			}
		}
		return true
	}
	// Children 0..lo-1 lie below separator lo-1, which is before b; child
	// lo may hold entries on either side.
	if !nd.kids[lo].scanFrom(height-1, b, fn) {
		return false
	}
	for i := lo + 1; i <= nd.n; i++ {
		if !nd.kids[i].scan(height-1, false, fn) {
			return false
		}
	}
	return true
}
