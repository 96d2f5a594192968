package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// viewIndex keeps a materialized view's rows, with their weights, by the
// hash of one column's value, for ad-hoc reads whose WHERE fixes that
// column: built from the view's rows on the first such read, then kept up
// to date from each commit's delta to the view (O(delta) per commit). The
// rows are the view's own, shared with its state. Rows whose hashes
// collide share a group; readers filter by the whole WHERE anyway. A
// column that proves unselective (a group over maxViewGroup rows, whose
// upkeep would cost O(group) per change) loses its index for good.
type viewIndex struct {
	col    int
	groups map[uint64]viewGroup
	extra  int // entries held in groups' more
}

// viewGroup holds the rows of one hash: the first inline, so that a
// column with distinct values allocates no slice per row.
type viewGroup struct {
	first zset.Entry
	more  []zset.Entry
}

const maxViewGroup = 64

func hashOf(r value.Row, col int) uint64 { return value.HashRow(r[col : col+1]) }

// viewLookup calls fn, in the order of a scan of v, for every row of v
// that pred accepts, through an index on a column pred fixes (built when
// v has none). It returns false, without calling fn, when pred fixes no
// column, or none that is selective.
func (e *Engine) viewLookup(v *zview, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	fixed, err := fixedColumns(v.cols, pred)
	if err != nil || fixed == nil {
		return false, nil
	}
	if len(v.indexes) > 0 {
		if ok, err := e.namedViewLookup(v, fixed, pred, fn); ok {
			return true, err
		}
	}
	var idx *viewIndex
	for _, x := range v.lookups {
		if _, ok := fixed[x.col]; ok {
			idx = x
			break
		}
	}
	if idx == nil {
		cols := make([]int, 0, len(fixed))
		for c := range fixed {
			if !slices.Contains(v.unselective, c) {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 {
			return false, nil
		}
		if idx = v.buildLookup(slices.Min(cols)); idx == nil {
			return false, nil
		}
	}
	want := fixed[idx.col]
	if want.IsNull() {
		return true, nil
	}
	var probe [1]value.Value
	probe[0] = want
	var entries []zset.Entry
	if g, ok := idx.groups[value.HashRow(probe[:])]; ok {
		entries = append([]zset.Entry{g.first}, g.more...)
	}
	return true, v.emitAccepted(entries, pred, fn)
}

// emitAccepted calls fn with each row of entries that pred accepts, as
// many times as its weight, in the view's order (rows sorted, then by
// the view's ORDER BY).
func (v *zview) emitAccepted(entries []zset.Entry, pred expr.Expr, fn func(value.Row) error) error {
	var rows []value.Row
	for _, en := range entries {
		ok, err := accepts(pred, en.Row)
		if err != nil {
			return err
		}
		for i := int64(0); ok && i < en.W; i++ {
			rows = append(rows, en.Row)
		}
	}
	slices.SortFunc(rows, zset.CompareRows)
	if v.c.Order != nil {
		slices.SortStableFunc(rows, v.c.Order)
	}
	for _, r := range rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// buildLookup indexes v's rows by column col, or marks col unselective
// and returns nil.
func (v *zview) buildLookup(col int) *viewIndex {
	idx := &viewIndex{col: col, groups: map[uint64]viewGroup{}}
	ok := true
	v.c.View.Each(func(r value.Row, w int64) bool {
		ok = idx.add(r, w)
		return ok
	})
	if !ok {
		v.unselective = append(v.unselective, col)
		return nil
	}
	v.lookups = append(v.lookups, idx)
	return idx
}

// applyLookups brings v's indexes up to date with a committed delta.
func (v *zview) applyLookups(delta zset.ZSet) {
	for i := 0; i < len(v.lookups); i++ {
		idx := v.lookups[i]
		for _, en := range delta {
			if !idx.add(en.Row, en.W) {
				v.unselective = append(v.unselective, idx.col)
				v.lookups = slices.Delete(v.lookups, i, i+1)
				i--
				break
			}
		}
	}
}

// add adds w to r's weight, removing r at zero; false when the group
// grows past maxViewGroup.
func (x *viewIndex) add(r value.Row, w int64) bool {
	if r[x.col].IsNull() {
		return true // '=' matches no NULL
	}
	h := hashOf(r, x.col)
	g, ok := x.groups[h]
	if !ok {
		if w > 0 {
			x.groups[h] = viewGroup{first: zset.Entry{Row: r, W: w}}
		}
		return true
	}
	if zset.CompareRows(g.first.Row, r) == 0 {
		g.first.W += w
		if g.first.W <= 0 {
			if len(g.more) == 0 {
				delete(x.groups, h)
				return true
			}
			g.first = g.more[len(g.more)-1]
			g.more = g.more[:len(g.more)-1]
			x.extra--
		}
		x.groups[h] = g
		return true
	}
	for i := range g.more {
		if zset.CompareRows(g.more[i].Row, r) == 0 {
			g.more[i].W += w
			if g.more[i].W <= 0 {
				g.more[i] = g.more[len(g.more)-1]
				g.more[len(g.more)-1] = zset.Entry{}
				g.more = g.more[:len(g.more)-1]
				x.extra--
				x.groups[h] = g
			}
			return true
		}
	}
	if w <= 0 {
		return true
	}
	if len(g.more)+1 >= maxViewGroup {
		return false
	}
	g.more = append(g.more, zset.Entry{Row: r, W: w})
	x.extra++
	x.groups[h] = g
	return true
}

// bytes estimates the index's memory: a map entry per group and the
// entries of the groups' slices (the rows are the view's).
func (x *viewIndex) bytes() int64 {
	return 80*int64(len(x.groups)) + 32*int64(x.extra)
}

// lookupBytes is the memory of v's indexes.
func (v *zview) lookupBytes() int64 {
	var n int64
	for _, x := range v.lookups {
		n += x.bytes()
	}
	return n
}
