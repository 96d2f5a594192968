package op

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bitsAcc is bit_and, bit_or or bit_xor of an integer type: per group,
// the count of non-NULL values and, for each bit of the type, the count
// of values that have it set. A bit is in bit_and when every value has
// it, in bit_or when one does, in bit_xor when an odd number do; a
// retraction subtracts as exactly as an assertion adds, so a change
// costs O(bits of the type).
type bitsAcc struct {
	f    plan.AggFunc
	kind value.Kind
	n    int64
	cnt  []int64 // committed counts per bit
	next []int64 // staged counts, swapped in by commit
	nn   int64
}

var _ accum = (*bitsAcc)(nil)

func newBitsAcc(s *aggSpec) accum {
	width := map[value.Kind]int{value.Int2: 16, value.Int4: 32}[s.in]
	if width == 0 {
		width = 64
	}
	return &bitsAcc{f: s.Func, kind: s.in, cnt: make([]int64, width), next: make([]int64, width)}
}

func (a *bitsAcc) stage(_ *stepCtx, ch []aggChange) (value.Value, error) {
	copy(a.next, a.cnt)
	a.nn = a.n
	for _, c := range ch {
		v := c.vals[0]
		if v.IsNull() {
			continue
		}
		a.nn += c.w
		x := uint64(v.Int())
		for i := range a.next {
			if x&(1<<uint(i)) != 0 {
				a.next[i] += c.w
			}
		}
	}
	if a.nn < 0 {
		return value.Null, errNegativeCount()
	}
	if a.nn == 0 {
		return value.Null, nil
	}
	var r uint64
	for i, k := range a.next {
		if k < 0 {
			return value.Null, errNegativeCount()
		}
		set := false
		switch a.f {
		case plan.AggBitAnd:
			set = k == a.nn
		case plan.AggBitOr:
			set = k > 0
		case plan.AggBitXor:
			set = k%2 == 1
		}
		if set {
			r |= 1 << uint(i)
		}
	}
	// The type's width: the top bit is the sign.
	x := int64(r)
	switch a.kind {
	case value.Int2:
		x = int64(int16(r))
	case value.Int4:
		x = int64(int32(r))
	}
	return value.NewInt(a.kind, x), nil
}

func (a *bitsAcc) commit() { a.cnt, a.next = a.next, a.cnt; a.n = a.nn }
func (a *bitsAcc) abort()  { a.nn = a.n }
func (a *bitsAcc) bytes() int64 {
	return int64(unsafe.Sizeof(*a)) + int64(len(a.cnt)+len(a.next))*8
}
