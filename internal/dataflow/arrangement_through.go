package dataflow

import (
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Rows read through their table (ReadThrough). A join's index of a
// table's rows by a foreign key meets, at every change of the table, a
// retraction and an assertion of one row under one key: a row replaced
// with its key kept (the benchmark's join: a change of t's val, keyed by
// t.k). Holding the rows, the index must swap the old row for the new in
// its run at each such change (a search in a run of 100,000 keys' runs,
// a cache miss or two), although what a probe of the index finds under
// that key, the row's id, did not change.
//
// An arrangement reading through keeps, for each row, its id alone (the
// row's first column, an integer unique among the rows: the table's
// primary key, whose summary k0 is the integer itself), and reads the row
// itself through a resolver, from the table. A retraction and an
// assertion of one id under one key are then nothing to apply: Stage
// drops the pair. Membership (which ids under which key, their weights)
// is applied at Commit as before, so that readers still see the
// committed state of the index; the resolver must give, for an id, the
// row as of the arrangement's last commit, which during a step is the
// table's row with the step's change taken back (the engine's
// sharedIndex.oldRow). The index then holds no row: its rows' bytes are
// the table's, and a row the table replaced is not kept alive by it.

// ReadThrough makes an empty arrangement keep ids instead of rows, and
// read each row through resolve, as described above, and reports whether
// it does: only an arrangement whose key is one integer column, with no
// sort expressions, no bound and no held commits, whose rows all have
// their id, an integer unique among them, as their first value. Only the
// owner calls it, before anything is staged or loaded.
func (a *Arrangement) ReadThrough(resolve func(id int64) value.Row) bool {
	if a.n != 0 || a.isSet || a.ints == nil || len(a.spec.Sort) > 0 || a.pack || a.bnd != nil || a.holds || a.deferLoads {
		return false
	}
	a.through = resolve
	return true
}

// ReadsThrough reports whether the arrangement keeps ids and reads its
// rows through a resolver (ReadThrough).
func (a *Arrangement) ReadsThrough() bool { return a.through != nil }

// idOf is the id whose summary is k0: the inverse of value.Prefix64 of
// an integer.
func idOf(k0 uint64) int64 { return int64(k0 ^ 1<<63) }

// ref returns what an entry keeps of row: the row, or nothing when the
// arrangement reads through (its k0 is the id).
func (a *Arrangement) ref(row value.Row) rowRef {
	if a.through != nil {
		return rowRef{}
	}
	return refOf(row)
}

// passThrough reports whether the entries i and i+1 of delta are a
// replacement that an arrangement reading through drops: one id (k0),
// weights -1 and +1 in either order, and the same key. key is entry
// i's key, already encoded.
func (a *Arrangement) passThrough(delta zset.ZSet, i int, k0 uint64, key []byte) (bool, error) {
	if i+1 >= len(delta) {
		return false, nil
	}
	x, y := &delta[i], &delta[i+1]
	if x.W+y.W != 0 || (x.W != 1 && x.W != -1) || len(y.Row) == 0 {
		return false, nil
	}
	if v := y.Row[0]; !value.IntOrdered(v.Kind()) || value.Prefix64(v) != k0 {
		return false, nil
	}
	var buf [32]byte
	k, _, err := a.AppendKey(buf[:0], y.Row)
	if err != nil {
		return false, err
	}
	return string(k) == string(key), nil
}

// scanK is scan for an arrangement reading through: each entry's row is
// resolved from its k0.
func (r *run) scanK(a *Arrangement, desc bool, fn func(row value.Row, w int64) bool) bool {
	more := true
	switch {
	case r.tr != nil:
		more = r.tr.root.scanK(a, r.tr.height, desc, fn)
	case desc:
		for i := len(r.small) - 1; i >= 0 && more; i-- {
			more = fn(a.through(idOf(r.small[i].k0)), r.small[i].w)
		}
	default:
		for i := 0; i < len(r.small) && more; i++ {
			more = fn(a.through(idOf(r.small[i].k0)), r.small[i].w)
		}
	}
	return more
}

func (nd *ptNode) scanK(a *Arrangement, height int, desc bool, fn func(row value.Row, w int64) bool) bool {
	if height == 0 {
		if desc {
			for i := nd.n - 1; i >= 0; i-- {
				if !fn(a.through(idOf(nd.keys[i])), nd.ws[i]) {
					return false
				}
			}
			return true
		}
		for i := range nd.n {
			if !fn(a.through(idOf(nd.keys[i])), nd.ws[i]) {
				return false
			}
		}
		return true
	}
	if desc {
		for i := nd.n; i >= 0; i-- {
			if !nd.kids[i].scanK(a, height-1, desc, fn) {
				return false
			}
		}
		return true
	}
	for i := range nd.n + 1 {
		if !nd.kids[i].scanK(a, height-1, desc, fn) {
			return false
		}
	}
	return true
}
