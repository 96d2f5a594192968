package zset

import (
	"math"
	"slices"
)

// PrefixSorter orders a batch's items by a prefix of each (value.Prefix of
// its first sort value, computed once per item) and, where prefixes tie
// and do not decide, by a comparison: the radix sort of Consolidate for
// an operator's own records (a grouping's keys, kept in its arena). Its
// buffers are kept from one batch to the next.
type PrefixSorter struct {
	keys  []keyed
	radix []keyed
	perm  []int32
}

// Sort returns the permutation that orders n items: perm[j] is the item
// at place j. prefix gives item i's prefix (value.Prefix of its first sort
// value); cmp compares two items whole, and is called where prefixes tie
// (unless they are exact and exactDecides: a key of one value, whose exact
// prefix is the value) and wherever the prefixes' classes differ (kinds,
// NULL), since prefixes of different kinds need not order as their
// values do. The order is cmp's. The result is valid until the next call.
func (s *PrefixSorter) Sort(n int, exactDecides bool, prefix func(i int) (uint8, uint64, bool), cmp func(i, j int) int) []int32 {
	if n > math.MaxInt32 {
		panic("zset: PrefixSorter given more than 2^31 items")
	}
	keys := s.keys[:0]
	for i := range n {
		class, bits, exact := prefix(i)
		k := keyed{bits: bits, class: class, i: int32(i)}
		if exact && exactDecides {
			k.class2 = 1 // no tie to break
		}
		keys = append(keys, k)
	}
	tie := func(a, b keyed) int {
		if a.class2 == 1 && b.class2 == 1 {
			return 0
		}
		return cmp(int(a.i), int(b.i))
	}
	if n > 0 && sameClass(keys) {
		s.radix = radixSort(keys, s.radix)
		for i := 0; i < len(keys); {
			j := i + 1
			for j < len(keys) && keys[j].bits == keys[i].bits {
				j++
			}
			if run := keys[i:j]; len(run) > 1 && run[0].class2 != 1 {
				slices.SortStableFunc(run, tie)
			}
			i = j
		}
	} else {
		// Prefixes of different classes (kinds, NULL) need not order as
		// their values do: cmp decides alone.
		slices.SortStableFunc(keys, func(a, b keyed) int { return cmp(int(a.i), int(b.i)) })
	}
	perm := s.perm[:0]
	for _, k := range keys {
		perm = append(perm, k.i)
	}
	s.keys, s.perm = keys, perm
	return perm
}
