package dataflow

// A table's replaced row and its new row, when they share the index's key
// and their k0 (a join's index of a table by a foreign key, whose k0 is
// the row's first value, the primary key), are staged as a pair of
// adjacent entries, -1 and +1 (sortStaged leaves retractions first). In a
// run kept as a sorted slice the new row takes the old row's place when
// it orders between the old row's neighbours: one search instead of two,
// and no entries moved out of the slice and back.

// replaceInPlace applies the staged pair x and y, when they are such a
// replacement in r, by putting the new row in the old row's entry, and
// reports whether it did. key is x's key; arena holds y's.
func (a *Arrangement) replaceInPlace(r *run, x, y *stagedEntry, key, arena []byte) bool {
	if r.tr != nil || x.k0 != y.k0 || x.w+y.w != 0 || (x.w != -1 && x.w != 1) || string(arena[y.off:y.end]) != string(key) {
		return false
	}
	old, nw := x, y
	if x.w > 0 {
		old, nw = y, x
	}
	if !r.replaceSmall(a, arrEntry{k0: old.k0, r: refOf(old.row), w: -1}, arrEntry{k0: nw.k0, r: refOf(nw.row), w: 1}) {
		return false
	}
	a.bytes += nw.bytes - old.bytes
	a.rowsB += nw.bytes - old.bytes
	return true
}

// replaceSmall puts new's row in the entry of old's row when that row has
// weight one and new orders strictly between its neighbours, so that the
// run stays sorted, and reports whether it did.
func (r *run) replaceSmall(a *Arrangement, old, new arrEntry) bool {
	i, ok := r.search(a, &old)
	if !ok || r.small[i].w != 1 {
		return false
	}
	if i > 0 && a.cmp(&r.small[i-1], &new) >= 0 {
		return false
	}
	if i+1 < len(r.small) && a.cmp(&new, &r.small[i+1]) >= 0 {
		return false
	}
	r.small[i].r = new.r
	return true
}

// sameKeyGrowth is sameKey without the pairs that look like replacements
// (adjacent, of one k0, weights -1 and +1), which replaceInPlace may apply
// without growing the run: a cold start's runs, sized exactly, then take
// a batch of replacements without being copied into room they would not
// use. A pair that is not replaced in place grows the run as an insert
// does.
func sameKeyGrowth(st []stagedEntry, arena []byte) int {
	n := sameKey(st, arena)
	grow := n
	for i := 0; i+1 < n; i++ {
		if x, y := &st[i], &st[i+1]; x.k0 == y.k0 && x.w+y.w == 0 && (x.w == 1 || x.w == -1) {
			grow -= 2
			i++
		}
	}
	return grow
}
