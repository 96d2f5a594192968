package dataflow

import (
	"math"
	"sync/atomic"
)

// A table's rows loaded into an index by one integer column (a join's
// index of its fact table by the foreign key, rows read by primary key)
// come with keys from a range about as wide as the rows are many, and in
// the order of their order components: sorting them by key is a counting
// sort, one pass to count the rows of each key, and their entries can be
// written straight into their runs, cut beforehand at their final sizes,
// in one more pass. That leaves out what the general load does for them:
// the radix sort's moves of 32-byte sort keys and its second buffer of
// as many, and the gathering of each run's entries before they are
// copied into it. The runs are those the general load makes, cut from
// the same slabs in the same order.

// countedMin is the fewest rows loaded by counting: below it the general
// load's sort is as quick and the histogram not worth its allocation.
const countedMin = 1 << 12

// countedSpan is how many keys wide, at most, the keys' range may be for
// each row: the histogram and the runs' table then take at most 16 bytes
// a row, half of the sort's second buffer that they replace.
const countedSpan = 1

// loadCounted loads keys, the sort keys of src's rows of weight one, all
// of them integer keys, without long encodings, in the order of the rows,
// with the rows' bytes rowsB, and reports whether it did: it does not,
// leaving the arrangement untouched, unless the keys' range is at most
// countedSpan times their number, their first order components rise
// strictly (no two rows tie, so each run's entries are in order as they
// come and none merge), and no key has more rows than a small run holds.
func (a *Arrangement) loadCounted(keys []loadKey, src *loadSrc, rowsB int64) bool {
	if len(keys) < countedMin || a.ints == nil || src.rs == nil || countedOff {
		return false
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range keys {
		k := &keys[i]
		if k.cls != keyInt || i > 0 && keys[i-1].k0 >= k.k0 {
			return false
		}
		lo, hi = min(lo, int64(k.kk)), max(hi, int64(k.kk))
	}
	// The range, without overflow: hi-lo as unsigned.
	if span := uint64(hi) - uint64(lo); span >= uint64(countedSpan*len(keys)) {
		return false
	}
	n := int(uint64(hi)-uint64(lo)) + 1
	// count[d]: the rows of key lo+d; first[d]: the first of them.
	count := make([]int32, n)
	first := make([]int32, n)
	for i := range keys {
		d := int64(keys[i].kk) - lo
		if count[d] == 0 {
			first[d] = keys[i].i
		}
		if count[d]++; count[d] > maxSmallRun {
			return false
		}
	}
	runs := a.cutCountedRuns(src, lo, count, first)
	for i := range keys {
		k := &keys[i]
		d := int64(k.kk) - lo
		r := runs[d]
		r.small[count[d]] = arrEntry{k0: k.k0, r: a.ref(src.rs[k.i]), w: 1}
		count[d]++
	}
	if a.through != nil {
		rowsB = 0 // the rows are the table's (ReadThrough)
	}
	a.bytes += rowsB
	a.rowsB += rowsB
	countedLoads.Add(1)
	return true
}

// cutCountedRuns makes the runs of the keys lo+d that have count[d]
// rows, one of them src's row first[d], in the order the general load
// makes them (by key as unsigned: a negative key after the others), each
// cut at its size from the same slabs, and returns them by d; it sets
// count[d] to 0, from where it counts the entries written into run d.
func (a *Arrangement) cutCountedRuns(src *loadSrc, lo int64, count, first []int32) []*run {
	n := len(count)
	runs := make([]*run, n)
	var smalls runSlab
	var buf []byte
	cut := func(d int) {
		c := count[d]
		if c == 0 {
			return
		}
		buf, _, _ = a.AppendKey(buf[:0], src.rs[first[d]]) // evaluated without error before
		r := a.putRun(buf, smalls.run())
		r.small = smalls.take(int(c))
		runs[d] = r
		a.n += int(c)
		a.total += int64(c)
		a.bytes += r.storeBytes()
		count[d] = 0
	}
	if hi := lo + int64(n) - 1; lo < 0 && hi >= 0 {
		for d := -lo; d < int64(n); d++ {
			cut(int(d))
		}
		for d := int64(0); d < -lo; d++ {
			cut(int(d))
		}
		return runs
	}
	for d := range n {
		cut(d)
	}
	return runs
}

// countedLoads counts the loads made by counting, for the tests to tell
// which way a load went.
var countedLoads atomic.Int64

// countedOff, set by a test, makes every load take the general sort, so
// that the two can be compared.
var countedOff bool

// take returns n zero entries cut from the slab, their capacity ending
// with them.
func (s *runSlab) take(n int) []arrEntry {
	if n > len(s.free) {
		s.free = make([]arrEntry, max(runSlabEntries, n))
	}
	r := s.free[:n:n]
	s.free = s.free[n:]
	return r
}
