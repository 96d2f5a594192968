package dataflow

import (
	"math"
	"slices"
	"sync/atomic"
)

// A load by counting (loadCounted) reads of each row its key's integer,
// its first order component and its place: the general load's sort key
// of 32 bytes a row (32 MB at 1M rows, allocated beside a cold start's
// feed and dropped after the load) holds more than that. A table's rows
// read in place (LoadRows) are counted straight from the rows instead:
// one pass evaluates each row's key and order component into 12 bytes a
// row and counts the keys as it goes, giving up as soon as the rows
// cannot be counted (a key not an integer, an order component that does
// not rise, a key range too wide, a key of too many rows), so that a
// load that must sort pays little for the attempt; a second pass writes
// the entries into runs cut as loadCounted cuts them. The arrangement
// left is loadCounted's, entry for entry.

// countedHole marks, in a direct count's keys, a row that has none (an
// empty id, or a NULL key left out).
const countedHole = math.MinInt32

// countedProbe is how many rows a direct count first makes room for:
// a load that cannot be counted gives up within them, as a rule (an
// order that does not rise at its second row, a key of more than 32 rows
// among a few thousand keys), and leaves the rest unallocated.
const countedProbe = 1 << 16

// keyCounts counts the rows of each integer key as a direct count meets
// them: count[d] rows of key lo+d, the first of them row first[d]. Its
// range grows to take each new key, never past limit keys wide.
type keyCounts struct {
	lo           int64
	count, first []int32
	limit        int
}

// add counts row i of key k and reports whether the count may go on:
// not when the keys would span limit values or more, or k would have more
// rows than a small run holds.
func (c *keyCounts) add(k int64, i int32) bool {
	if len(c.count) == 0 {
		c.lo = k
		c.count, c.first = make([]int32, 1, 64), make([]int32, 1, 64)
	}
	if k < c.lo {
		grow := uint64(c.lo) - uint64(k)
		if grow >= uint64(c.limit) || len(c.count)+int(grow) > c.limit {
			return false
		}
		c.count = c.widen(c.count, int(grow))
		c.first = c.widen(c.first, int(grow))
		c.lo = k
	}
	d := uint64(k) - uint64(c.lo)
	if d >= uint64(c.limit) {
		return false
	}
	if int(d) >= len(c.count) {
		c.count = c.extend(c.count, int(d)+1)
		c.first = c.extend(c.first, int(d)+1)
	}
	if c.count[d] == 0 {
		c.first[d] = i
	}
	c.count[d]++
	return c.count[d] <= maxSmallRun
}

// widen returns xs with n zeros before it.
func (c *keyCounts) widen(xs []int32, n int) []int32 {
	out := make([]int32, len(xs)+n, min(c.limit, 2*(len(xs)+n)))
	copy(out[n:], xs)
	return out
}

// extend returns xs, zeros appended, n long.
func (c *keyCounts) extend(xs []int32, n int) []int32 {
	if n <= cap(xs) {
		return xs[:n]
	}
	out := make([]int32, n, min(c.limit, max(2*cap(xs), n)))
	copy(out, xs)
	return out
}

// loadCountedRows loads src's rows (read in place, every one of weight
// one) by counting them as this file's first comment says, and reports
// whether it did; when it did not, the arrangement is untouched and the
// load takes the general way, which also reports the errors of the rows'
// evaluation.
func (a *Arrangement) loadCountedRows(src *loadSrc) bool {
	rs := src.rs
	if len(rs) < countedMin || a.ints == nil || rs == nil || src.keep != nil || a.bnd != nil || a.pack || countedOff || directOff {
		return false
	}
	// keys[i]: row i's key less the first key, or countedHole; k0s: the
	// order summaries of the rows that have a key. Both first for the
	// rows a count that must give up usually reads before it does, then
	// for all of them.
	first := min(len(rs), countedProbe)
	keys := make([]int32, 0, first)
	k0s := make([]uint64, 0, first)
	counts := keyCounts{limit: countedSpan * len(rs)}
	var base int64
	var rowsB int64
	var buf []byte
	var touched uintptr
	n := 0
	for i, row := range rs {
		if i%touchAhead == 0 && i+touchAhead < len(rs) {
			touched += touch(rs[i+touchAhead : min(i+2*touchAhead, len(rs))])
		}
		if len(keys) == cap(keys) {
			keys = slices.Grow(keys, len(rs)-len(keys))
			k0s = slices.Grow(k0s, len(rs)-len(k0s))
		}
		keys = append(keys, countedHole)
		if row == nil {
			continue
		}
		var null bool
		var err error
		if buf, null, err = a.AppendKey(buf[:0], row); err != nil {
			return false
		}
		if null && a.spec.DropNullKeys {
			continue
		}
		k, ok := a.intKey(buf)
		if !ok {
			return false
		}
		var k0 uint64
		if len(a.spec.Sort) > 0 {
			v, err := a.spec.Sort[0].Expr.Eval(row)
			if err != nil {
				return false
			}
			k0 = sortSummary(&a.spec.Sort[0], v)
		} else if k0, err = a.k0(row); err != nil {
			return false
		}
		if n == 0 {
			base = k
		} else if k0 <= k0s[n-1] {
			return false
		}
		d := uint64(k) - uint64(base)
		if int64(d) <= countedHole || int64(d) > math.MaxInt32 || !counts.add(k, int32(i)) {
			return false
		}
		keys[i] = int32(int64(d))
		k0s = append(k0s, k0)
		n++
		rowsB += RowBytes(row)
	}
	touchedRows.Add(uint64(touched)) // so that the reads ahead are made
	if n < countedMin || len(counts.count) > countedSpan*n {
		return false
	}
	lo, count := counts.lo, counts.count
	runs := a.cutCountedRuns(src, lo, count, counts.first)
	shift := base - lo // a key's place in count: its offset from base, and shift
	j := 0
	for i, k := range keys {
		if k == countedHole {
			continue
		}
		d := int64(k) + shift
		r := runs[d]
		r.small[count[d]] = arrEntry{k0: k0s[j], r: a.ref(rs[i]), w: 1}
		count[d]++
		j++
	}
	if a.through != nil {
		rowsB = 0 // the rows are the table's (ReadThrough)
	}
	a.bytes += rowsB
	a.rowsB += rowsB
	countedLoads.Add(1)
	directCounts.Add(1)
	return true
}

// directCounts counts the loads counted straight from the rows, for the
// tests to tell which way a load went.
var directCounts atomic.Int64

// directOff, set by a test, makes loads by counting count from the sort
// keys (loadCounted), so that the two can be compared.
var directOff bool

// touchedRows keeps the sum of the reads ahead of loadCountedRows.
var touchedRows atomic.Uint64
