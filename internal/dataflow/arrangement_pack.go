package dataflow

import (
	"math"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// An arrangement whose first two sort expressions are columns of 32-bit
// integers or dates (ORDER BY val DESC, id) summarises both in an entry's
// k0: the first value's 32-bit code above the second's. Entries whose
// first values tie (a value that half a million rows draw from a million)
// are then still ordered by their summaries, and a search that meets an
// equal first value reads no row; equal summaries of codes away from the
// ends (exactPair) mean equal sort values, which cmp then does not
// evaluate.

// packsPair reports whether spec's order is summarised by pairSummary.
func packsPair(spec ArrangementSpec) bool {
	if len(spec.Sort) < 2 {
		return false
	}
	for _, s := range spec.Sort[:2] {
		if _, ok := s.Expr.(*expr.Col); !ok {
			return false
		}
		switch s.Expr.Type().Kind {
		case value.Int2, value.Int4, value.Date:
		default:
			return false
		}
	}
	return true
}

// code32 is v's place in s's order in 32 bits: NULL at 0 or at the top, as
// s puts it, and a value at 1 to 2³²-2, reversed under Desc. Values at and
// beyond the ends of the 32-bit range (a date's infinities) share the
// codes 1 and 2³²-2: the codes never order two values against their
// order, but those two may stand for several values (inexact).
func code32(s *SortKey, v value.Value) uint64 {
	if v.IsNull() {
		if s.NullsFirst {
			return 0
		}
		return math.MaxUint32
	}
	n := min(max(v.Int(), math.MinInt32+1), math.MaxInt32-1)
	c := uint64(n - math.MinInt32) // 1 … 2³²-2
	if s.Desc {
		c = math.MaxUint32 - c
	}
	return c
}

// inexact reports whether a code may stand for several values.
func inexact(c uint64) bool { return c == 1 || c == math.MaxUint32-1 }

// pairSummary is k0 of sort values u and v of an arrangement that packs
// its first two. Under an inexact code of u, unequal values of u share
// the upper half, and the lower is 0: v's code would order them by v.
func (a *Arrangement) pairSummary(u, v value.Value) uint64 {
	hi := code32(&a.spec.Sort[0], u)
	if inexact(hi) {
		return hi << 32
	}
	return hi<<32 | code32(&a.spec.Sort[1], v)
}

// exactPair reports whether entries sharing the summary k0 of an
// arrangement that packs its order have equal first two sort values: both
// codes stand for one value each (NULLs are equal in the order).
func exactPair(k0 uint64) bool {
	return !inexact(k0>>32) && !inexact(k0&math.MaxUint32)
}
