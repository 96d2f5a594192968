package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// hash_range and hash_multirange (each with its _extended form), as
// PostgreSQL computes them: a range's flags hashed as an integer, the
// lower bound's hash xored in, the result rotated left one bit (each
// 32-bit half in the extended form), the upper bound's hash xored in; a
// multirange folds its ranges' hashes as hash_array does, from 1.
// Stateless.

// The flags of PostgreSQL's range header that the hash reads.
const (
	hashRangeEmpty = 0x01
	hashRangeLBInc = 0x02
	hashRangeUBInc = 0x04
	hashRangeLBInf = 0x08
	hashRangeUBInf = 0x10
)

// hashRange is hash_range_extended(v, seed); its low half under seed 0
// is hash_range(v).
func hashRange(v value.Value, seed uint64) (uint64, error) {
	var flags uint32
	var lh, uh uint64
	if v.IsEmptyRange() {
		flags = hashRangeEmpty
	} else {
		lo, up := v.RangeBounds()
		if lo.Inc {
			flags |= hashRangeLBInc
		}
		if up.Inc {
			flags |= hashRangeUBInc
		}
		var err error
		if lo.Inf {
			flags |= hashRangeLBInf
		} else if lh, err = hashKind(lo.Val, seed); err != nil {
			return 0, err
		}
		if up.Inf {
			flags |= hashRangeUBInf
		} else if uh, err = hashKind(up.Val, seed); err != nil {
			return 0, err
		}
	}
	h := hashUint32(flags, seed) ^ lh
	// ROTATE_HIGH_AND_LOW_32BITS: each half rotated left one bit.
	h = h<<1&0xfffffffefffffffe | h>>31&0x100000001
	return h ^ uh, nil
}

// hashMultirange is hash_multirange_extended(v, seed).
func hashMultirange(v value.Value, seed uint64) (uint64, error) {
	h := uint64(1)
	for _, r := range v.Ranges() {
		rh, err := hashRange(r, seed)
		if err != nil {
			return 0, err
		}
		h = h<<5 - h + rh
	}
	return h, nil
}

// hashRangeFuncs gives add hash_range and hash_range_extended of the
// range kind k, or hash_multirange and hash_multirange_extended of the
// multirange kind k.
func hashRangeFuncs(k value.Kind, add func(*FuncDef)) {
	name, hash := "hash_range", hashRange
	if k.IsMultirange() {
		name, hash = "hash_multirange", hashMultirange
	}
	add(&FuncDef{Name: name, Strict: true, Params: kinds(k), Result: value.Int4Type,
		Eval: func(a []value.Value) (value.Value, error) {
			h, err := hash(a[0], 0)
			return int4(int64(int32(uint32(h)))), err
		}})
	add(&FuncDef{Name: name + "_extended", Strict: true, Params: kinds(k, value.Int8), Result: value.Int8Type,
		Eval: func(a []value.Value) (value.Value, error) {
			h, err := hash(a[0], uint64(a[1].Int()))
			return value.NewInt(value.Int8, int64(h)), err
		}})
}
