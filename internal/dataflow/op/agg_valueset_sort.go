package op

import (
	"cmp"
	"slices"
)

// radixMin is the log from which a value set sorts by radix: below it a
// comparison sort costs less than the radix sort's counting passes.
const radixMin = 256

// sortLog orders a value set's logged changes by value, using scr.buf as
// scratch. A long log (a cold start's, merged once: about a
// thousand values a group) is sorted by radix over the bytes in which its
// values differ, three passes for values below 2^24 where a comparison
// sort makes about ten, each with a call per comparison.
func sortLog(log []valCount, scr *setScratch) {
	if len(log) < radixMin {
		slices.SortFunc(log, func(a, b valCount) int { return cmp.Compare(a.k, b.k) })
		return
	}
	const flip = 1 << 63 // orders negative values first as unsigned
	var count [8][256]int
	and, or := ^uint64(0), uint64(0)
	for _, e := range log {
		u := uint64(e.k) ^ flip
		and &= u
		or |= u
		for d := range 8 {
			count[d][byte(u>>(8*d))]++
		}
	}
	if cap(scr.buf) < len(log) {
		scr.buf = make([]valCount, len(log))
	}
	src, dst := log, scr.buf[:len(log)]
	for d := range 8 {
		if byte((and^or)>>(8*d)) == 0 {
			continue // every value has the same byte here
		}
		pos := 0
		for b := range 256 {
			c := count[d][b]
			count[d][b] = pos
			pos += c
		}
		for _, e := range src {
			b := byte((uint64(e.k) ^ flip) >> (8 * d))
			dst[count[d][b]] = e
			count[d][b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &log[0] {
		copy(log, src)
	}
}
