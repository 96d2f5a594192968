package engine

import "slices"

// A big commit's kept replacements of one table are written in two
// shares of ascending keys, one per goroutine (applyTable). Sorting all
// the keys first, and then cutting them in the middle, left the sort on
// the commit's serial path; instead the keys are cut at a pivot, the
// median of a sample, and each share sorts its own keys on its
// goroutine. The shares are as even as the sample's median is close to
// the keys' (within a few per cent for cutSample keys); what each writes
// is what the serial write of the same keys writes.

// cutSample is the number of keys whose median cuts a table's write.
const cutSample = 256

// writesInHalves reports whether a commit writes n kept replacements of
// t in two shares: with the workers (bigCommit), a big batch, and no
// index of t that both would write.
func (e *Engine) writesInHalves(t *table, n int) bool {
	return e.bigCommit && n >= max(2, 4*e.parallelMin) && t.uniques[0].ints.Dense() &&
		len(t.prefixes) == 0 && len(t.indexes) == 0 && len(t.keyOrders) == 0
}

// applyCut writes t's replacements, keys in call order, in two shares
// cut at a sampled pivot, each sorted on its own goroutine; buf is
// scratch. It returns the two arrays to keep as scratch, or nil and buf
// when the sample cannot cut the keys (most keys equal), which are then
// for applyTable, unsorted and unchanged.
func (e *Engine) applyCut(t *table, p []pendingRow, keys, buf []sortKey, build bool) ([]sortKey, []sortKey) {
	if cap(buf) < len(keys) {
		buf = make([]sortKey, len(keys))
	}
	buf = buf[:len(keys)]
	cut := cutKeys(keys, buf)
	if cut == 0 || cut == len(keys) {
		return nil, buf
	}
	e.writeTable(t, p, buf, cut, keys, build)
	return keys, buf
}

// cutKeys copies keys into out: those below the pivot (the median of an
// evenly spaced sample) from out's start in call order, the others from
// its end in reverse call order; it returns how many are below.
func cutKeys(keys, out []sortKey) int {
	var sample [cutSample]uint64
	s := sample[:min(cutSample, len(keys))]
	for i := range s {
		s[i] = keys[i*len(keys)/len(s)].k
	}
	slices.Sort(s)
	pivot := s[len(s)/2]
	lo, hi := 0, len(keys)
	for _, k := range keys {
		if k.k < pivot {
			out[lo] = k
			lo++
		} else {
			hi--
			out[hi] = k
		}
	}
	return lo
}
