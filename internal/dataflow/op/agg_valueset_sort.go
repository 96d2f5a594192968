package op

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
		sortByK(log)
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

// sortByK orders a short log by value: a quicksort on the median of three
// with an insertion sort below 24 entries, comparing the values inline,
// where slices.SortFunc calls its comparison for each pair (a big step's
// log of 64 changes a group cost about 45 ns a change that way). Logs
// that reach it are shorter than radixMin, so its worst case is bounded.
func sortByK(x []valCount) {
	for len(x) > 24 {
		m, l := len(x)/2, len(x)-1
		// The median of x[0], x[m], x[l] to x[0], as the pivot.
		if x[m].k < x[0].k {
			x[m], x[0] = x[0], x[m]
		}
		if x[l].k < x[m].k {
			x[l], x[m] = x[m], x[l]
			if x[m].k < x[0].k {
				x[m], x[0] = x[0], x[m]
			}
		}
		x[0], x[m] = x[m], x[0]
		// Hoare's partition around the pivot's value, the first entry's:
		// it ends with x[:j+1] at most p, x[j+1:] at least p, 0 <= j < l.
		p := x[0].k
		i, j := -1, len(x)
		for {
			for i++; x[i].k < p; i++ {
			}
			for j--; x[j].k > p; j-- {
			}
			if i >= j {
				break
			}
			x[i], x[j] = x[j], x[i]
		}
		// The shorter side by recursion, the longer in the loop.
		if j+1 < len(x)-j-1 {
			sortByK(x[:j+1])
			x = x[j+1:]
		} else {
			sortByK(x[j+1:])
			x = x[:j+1]
		}
	}
	for i := 1; i < len(x); i++ {
		e := x[i]
		j := i
		for ; j > 0 && x[j-1].k > e.k; j-- {
			x[j] = x[j-1]
		}
		x[j] = e
	}
}
