package zset

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/value"
)

func compareEntries(a, b Entry) int { return CompareRows(a.Row, b.Row) }

// CompareRows is the order of Z-set rows: value.CompareRowsExact. Values
// that are equal in SQL but print differently (-0 and 0, 1.5 and 1.50,
// '1 day' and '24:00:00') make different rows, as they are different rows
// of a PostgreSQL table or query result: a change from one to the other is
// a change, and a view holding both holds both.
func CompareRows(a, b value.Row) int { return value.CompareRowsExact(a, b) }

// Consolidate sorts z by row, merges entries with equal rows by summing
// their weights and drops zero weights. It works in place and returns the
// consolidated prefix of z; it allocates nothing beyond what sorting needs.
// Rows are shared, not copied.
func Consolidate(z ZSet) ZSet {
	switch len(z) {
	case 0:
		return z
	case 2:
		// A single-row change (a retraction and an assertion), the most
		// common batch: one comparison.
		switch c := CompareRows(z[0].Row, z[1].Row); {
		case c == 0:
			z[0].W += z[1].W
			z[1] = Entry{}
			z = z[:1]
		case c > 0:
			z[0], z[1] = z[1], z[0]
		}
		return dropZeros(z)
	}
	if len(z) >= prefixSortMin {
		return consolidateByPrefix(z, nil)
	}
	if !slices.IsSortedFunc(z, compareEntries) {
		slices.SortFunc(z, compareEntries)
	}
	return merge(z, nil)
}

// ConsolidateByFirst is Consolidate of a z whose rows are likely in
// order of their first values already, those of one first value in any
// order, as a projection of a consolidated (sorted) batch that keeps its
// first column first is: one pass over the runs of one first value, each
// sorted (a replacement's two rows, mostly) and merged, without the sort
// of the whole batch. Equal rows have one first value, so they meet in one
// run, and runs in order of first values are rows in order. At a first
// value out of order it hands what is left to Consolidate. Every row of z
// has a value.
func ConsolidateByFirst(z ZSet) ZSet {
	if len(z) < prefixSortMin {
		// Consolidate's way for a small batch (a change alone: one
		// comparison) costs less than the runs' two comparisons a row.
		return Consolidate(z)
	}
	out := 0 // z[:out] is consolidated, every row of it before z[i]'s
	for i := 0; i < len(z); {
		first := z[i].Row[0]
		j := i + 1
		for j < len(z) && value.Compare(z[j].Row[0], first) == 0 {
			j++
		}
		if j < len(z) && value.Compare(z[j].Row[0], first) < 0 {
			// Out of order: the same entries, z[:out] and z[i:],
			// consolidated the general way.
			n := out + copy(z[out:], z[i:])
			clear(z[n:])
			return Consolidate(z[:n])
		}
		run := z[i:j]
		for k := 1; k < len(run); k++ { // insertion sort: a run is short
			for m := k; m > 0 && compareEntries(run[m-1], run[m]) > 0; m-- {
				run[m-1], run[m] = run[m], run[m-1]
			}
		}
		for k := 0; k < len(run); {
			e := run[k]
			m := k + 1
			for m < len(run) && CompareRows(run[m].Row, e.Row) == 0 {
				e.W += run[m].W
				m++
			}
			if e.W != 0 {
				z[out] = e // out ≤ i + k: never ahead of what is read
				out++
			}
			k = m
		}
		i = j
	}
	clear(z[out:]) // drop references to rows no longer in the batch
	return z[:out]
}

// merge sums the weights of equal rows, adjacent in the sorted z, and
// drops zero weights, in place. keys, when not nil, are z's prefixes in
// order: rows whose prefixes differ are not compared.
func merge(z ZSet, keys []keyed) ZSet {
	out := 0
	for i := 0; i < len(z); {
		e := z[i]
		j := i + 1
		for j < len(z) && (keys == nil || keys[j].samePrefix(keys[i])) && CompareRows(z[j].Row, e.Row) == 0 {
			e.W += z[j].W
			j++
		}
		if e.W != 0 {
			z[out] = e
			out++
		}
		i = j
	}
	clear(z[out:]) // drop references to rows no longer in the batch
	return z[:out]
}

// dropZeros removes the entries of weight zero from a sorted z with no
// duplicate rows.
func dropZeros(z ZSet) ZSet {
	out := 0
	for _, e := range z {
		if e.W != 0 {
			z[out] = e
			out++
		}
	}
	clear(z[out:])
	return z[:out]
}

// IsConsolidated reports whether z is sorted by row with no duplicate rows
// and no zero weights.
func IsConsolidated(z ZSet) bool {
	for i, e := range z {
		if e.W == 0 {
			return false
		}
		if i > 0 && CompareRows(z[i-1].Row, e.Row) >= 0 {
			return false
		}
	}
	return true
}

// Negate returns a new Z-set with every weight negated. The rows are shared.
// A consolidated z gives a consolidated result.
func (z ZSet) Negate() ZSet {
	if len(z) == 0 {
		return nil
	}
	out := make(ZSet, len(z))
	for i, e := range z {
		out[i] = Entry{Row: e.Row, W: -e.W}
	}
	return out
}

// Add returns a + b as a new consolidated Z-set; a and b must be
// consolidated. The rows are shared.
func Add(a, b ZSet) ZSet {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make(ZSet, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := CompareRows(a[i].Row, b[j].Row); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			if w := a[i].W + b[j].W; w != 0 {
				out = append(out, Entry{Row: a[i].Row, W: w})
			}
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	out = append(out, b[j:]...)
	return out
}

// Equal reports whether two consolidated Z-sets hold the same rows with the
// same weights.
func Equal(a, b ZSet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].W != b[i].W || CompareRows(a[i].Row, b[i].Row) != 0 {
			return false
		}
	}
	return true
}

// String prints z canonically, one entry per line in row order: the weight
// with its sign, a space, and the row as a parenthesised list of values.
// Numbers and booleans print bare, NULL as NULL, and every other value as a
// single-quoted literal of its PostgreSQL text output:
//
//	-1 (1, 'open', NULL)
//	+1 (1, 'closed', 2.50)
//
// An unconsolidated z is printed as if consolidated (z is not modified). The
// empty Z-set prints as the empty string.
func (z ZSet) String() string {
	if !IsConsolidated(z) {
		z = Consolidate(slices.Clone(z))
	}
	var b strings.Builder
	for _, e := range z {
		if e.W > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatInt(e.W, 10))
		b.WriteByte(' ')
		b.WriteString(FormatRow(e.Row))
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatRow prints a row as String does: (v1, v2, …).
func FormatRow(r value.Row) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, v := range r {
		if i > 0 {
			b.WriteString(", ")
		}
		writeValue(&b, v)
	}
	b.WriteByte(')')
	return b.String()
}

func writeValue(b *strings.Builder, v value.Value) {
	if v.IsNull() {
		b.WriteString("NULL")
		return
	}
	s := v.String()
	switch v.Kind() {
	case value.Bool, value.Int2, value.Int4, value.Int8, value.Numeric, value.Float4, value.Float8:
		b.WriteString(s)
	default:
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(s, "'", "''"))
		b.WriteByte('\'')
	}
}

// prefixSortMin is the length from which Consolidate sorts by prefix.
const prefixSortMin = 64

// keyed is an entry's place in z with its first two values' prefixes,
// the second only when the first is exact: it decides most ties of the
// first, such as an update's old and new rows of one key.
type keyed struct {
	bits, bits2   uint64
	class, class2 uint8
	i             int32
}

func (k keyed) samePrefix(o keyed) bool {
	return k.bits == o.bits && k.bits2 == o.bits2 && k.class == o.class && k.class2 == o.class2
}

// RowPrefix is what Consolidate sorts a row by before comparing rows:
// the prefixes (value.Prefix) of its first two values, the second only
// when the first is exact.
type RowPrefix struct {
	bits, bits2   uint64
	class, class2 uint8
}

// PrefixOf returns row's RowPrefix.
func PrefixOf(r value.Row) RowPrefix {
	var p RowPrefix // an empty row sorts first, a shorter one before
	exact := false
	if len(r) > 0 {
		p.class, p.bits, exact = value.Prefix(r[0])
	}
	// The second value orders rows only if the first are equal.
	if exact && len(r) > 1 {
		p.class2, p.bits2, _ = value.Prefix(r[1])
	}
	return p
}

// ConsolidatePrefixed is Consolidate given each row's RowPrefix, pre[i]
// of z[i] (pre is not modified): a batch whose prefixes were taken while
// its rows were in the cache (a table's changes, as they are made) is
// then consolidated reading rows only where prefixes tie.
func ConsolidatePrefixed(z ZSet, pre []RowPrefix) ZSet {
	if len(pre) != len(z) {
		panic("zset: ConsolidatePrefixed given a prefix per row of another batch")
	}
	if len(z) < prefixSortMin {
		return Consolidate(z)
	}
	return consolidateByPrefix(z, pre)
}

// scratch holds consolidateByPrefix's buffers between calls.
var scratch = sync.Pool{New: func() any { return new(sortScratch) }}

type sortScratch struct {
	keys  []keyed
	radix []keyed // radixSort's second buffer
	tmp   []Entry
}

// consolidateByPrefix is Consolidate for a large batch: sorted by the
// prefixes of each row's first two values (value.Prefix), computed once
// per entry and kept beside its index, and by the rows only where
// prefixes tie; merged comparing only rows whose prefixes tie. A batch of
// a table's changes, whose rows lie all over memory, is then consolidated
// with one read of most rows rather than one per comparison, or none
// when pre, the rows' prefixes, is given.
func consolidateByPrefix(z ZSet, pre []RowPrefix) ZSet {
	if len(z) > math.MaxInt32 {
		slices.SortFunc(z, compareEntries)
		return merge(z, nil)
	}
	s := scratch.Get().(*sortScratch)
	keys := slices.Grow(s.keys[:0], len(z))[:len(z)]
	prefixes(z, pre, keys, 0)
	if ascending(z, keys) {
		s.keys = keys[:0]
		scratch.Put(s)
		return z
	}
	if sameClass(keys) {
		s.radix = radixSort(keys, s.radix)
		sortTies(keys, z)
	} else {
		slices.SortFunc(keys, func(a, b keyed) int { return compareKeyed(z, a, b) })
	}
	tmp := append(s.tmp[:0], z...)
	for j, k := range keys {
		z[j] = tmp[k.i]
	}
	clear(tmp) // the pool keeps no rows alive
	z = merge(z, keys)
	s.keys, s.tmp = keys, tmp[:0]
	scratch.Put(s)
	return z
}

// prefixes sets keys[j] to the prefixes of z[j], the entry at place
// base+j of the batch: pre[j] when pre is given.
func prefixes(z ZSet, pre []RowPrefix, keys []keyed, base int) {
	for j, e := range z {
		var p RowPrefix
		if pre != nil {
			p = pre[j]
		} else {
			p = PrefixOf(e.Row)
		}
		keys[j] = keyed{bits: p.bits, bits2: p.bits2, class: p.class, class2: p.class2, i: int32(base + j)}
	}
}

// ConsolidateOn is Consolidate for a batch big enough to share out: par
// runs the functions it is given at the same time and returns once all
// have returned. The passes that read the rows (their prefixes, where
// prefixes tie their comparisons, the merge) run in two halves, the
// second from a change of prefix, so that no run of equal prefixes is
// split; the radix sort between them runs alone. The result is
// Consolidate's, entry for entry. pre, when not nil, holds the rows'
// prefixes, as for ConsolidatePrefixed.
func ConsolidateOn(z ZSet, pre []RowPrefix, par func(fns ...func())) ZSet {
	if pre != nil && len(pre) != len(z) {
		panic("zset: ConsolidateOn given a prefix per row of another batch")
	}
	if len(z) < 2*prefixSortMin || len(z) > math.MaxInt32 {
		if pre != nil {
			return ConsolidatePrefixed(z, pre)
		}
		return Consolidate(z)
	}
	s := scratch.Get().(*sortScratch)
	keys := slices.Grow(s.keys[:0], len(z))[:len(z)]
	half := len(z) / 2
	preLo, preHi := pre, pre
	if pre != nil {
		preLo, preHi = pre[:half], pre[half:]
	}
	par(func() { prefixes(z[:half], preLo, keys[:half], 0) },
		func() { prefixes(z[half:], preHi, keys[half:], half) })
	if !sameClass(keys) {
		s.keys = keys[:0]
		scratch.Put(s)
		return consolidateByPrefix(z, pre)
	}
	s.radix = radixSort(keys, s.radix)
	m := half
	for m < len(keys) && keys[m].bits == keys[m-1].bits {
		m++
	}
	// Each half reads the rows by their places in the batch from a copy,
	// while both write the batch.
	tmp := append(s.tmp[:0], z...)
	finish := func(z ZSet, keys []keyed) ZSet {
		sortTies(keys, tmp)
		for j, k := range keys {
			z[j] = tmp[k.i]
		}
		return merge(z, keys)
	}
	var lo, hi int
	par(func() { lo = len(finish(z[:m], keys[:m])) },
		func() { hi = len(finish(z[m:], keys[m:])) })
	copy(z[lo:], z[m:m+hi])
	clear(z[lo+hi : m+hi])
	clear(tmp) // the pool keeps no rows alive
	s.keys, s.tmp = keys[:0], tmp[:0]
	scratch.Put(s)
	return z[:lo+hi]
}

// compareKeyed orders two entries of z by their prefixes, then by rows.
func compareKeyed(z ZSet, a, b keyed) int {
	if a.class != b.class {
		return cmp.Compare(a.class, b.class)
	}
	if a.bits != b.bits {
		return cmp.Compare(a.bits, b.bits)
	}
	return compareTie(z, a, b)
}

// compareTie orders two entries whose first prefixes are equal.
func compareTie(z ZSet, a, b keyed) int {
	if a.class2 != b.class2 {
		return cmp.Compare(a.class2, b.class2)
	}
	if a.bits2 != b.bits2 {
		return cmp.Compare(a.bits2, b.bits2)
	}
	return CompareRows(z[a.i].Row, z[b.i].Row)
}

// ascending reports whether z, whose prefixes are keys, is consolidated
// as it is, by its prefixes alone: no weight is zero and each entry's
// prefixes order strictly after the entry's before (so that no two rows
// are equal, and sorting would move none). A batch of a table's rows in
// key order, or of their projections that keep the key first, as a cold
// start feeds them, then costs one pass over the prefixes.
func ascending(z ZSet, keys []keyed) bool {
	for j := range keys {
		if z[j].W == 0 {
			return false
		}
		if j == 0 {
			continue
		}
		a, b := &keys[j-1], &keys[j]
		switch {
		case a.class != b.class:
			if a.class > b.class {
				return false
			}
		case a.bits != b.bits:
			if a.bits > b.bits {
				return false
			}
		case a.class2 != b.class2:
			if a.class2 > b.class2 {
				return false
			}
		case a.bits2 >= b.bits2:
			return false
		}
	}
	return true
}

// sameClass reports whether every key's first value has one kind (and so
// the keys order by their first prefix's bits alone, then by ties).
func sameClass(keys []keyed) bool {
	for _, k := range keys[1:] {
		if k.class != keys[0].class {
			return false
		}
	}
	return true
}

// radixSort sorts keys by bits, stably, a byte at a time from the least
// significant, skipping the bytes that all keys share (the high bytes of
// small integers): a few linear passes where a comparison sort makes
// log2(n) of them, each with a function call per comparison. buf is the
// second buffer, grown as needed and returned for reuse.
func radixSort(keys, buf []keyed) []keyed {
	var count [8][256]int
	and, or := ^uint64(0), uint64(0)
	for _, k := range keys {
		and &= k.bits
		or |= k.bits
		for d := range 8 {
			count[d][byte(k.bits>>(8*d))]++
		}
	}
	if cap(buf) < len(keys) {
		buf = make([]keyed, len(keys))
	}
	buf = buf[:len(keys)]
	src, dst := keys, buf
	for d := range 8 {
		if byte((and^or)>>(8*d)) == 0 {
			continue // every key has the same byte here
		}
		pos := 0
		for b := range 256 {
			c := count[d][b]
			count[d][b] = pos
			pos += c
		}
		for _, k := range src {
			b := byte(k.bits >> (8 * d))
			dst[count[d][b]] = k
			count[d][b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	return buf
}

// sortTies orders the runs of keys, sorted by bits, whose bits are equal:
// by the second prefix, then by rows. Such runs are short (an update's old
// and new row of one key), so they are sorted by insertion.
func sortTies(keys []keyed, z ZSet) {
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].bits == keys[i].bits {
			j++
		}
		if run := keys[i:j]; len(run) > 12 {
			slices.SortFunc(run, func(a, b keyed) int { return compareTie(z, a, b) })
		} else {
			for x := 1; x < len(run); x++ {
				for y := x; y > 0 && compareTie(z, run[y-1], run[y]) > 0; y-- {
					run[y-1], run[y] = run[y], run[y-1]
				}
			}
		}
		i = j
	}
}
