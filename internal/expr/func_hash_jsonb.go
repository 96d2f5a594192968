package expr

import (
	"encoding/binary"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/value"
)

// hash_numeric and jsonb_hash with their …_extended(value, seed) forms,
// as PostgreSQL computes them: a numeric hashes its base-10000 digits
// without the leading and trailing zero ones, mixed with its weight
// (equal numbers of other scales hash alike); a jsonb document combines
// its scalars' hashes in its order, rotating the running hash at each.
// Stateless.

const (
	jbFArray  = 0x40000000
	jbFObject = 0x20000000
)

func init() {
	N, J, I8 := value.Numeric, value.JSONB, value.Int8
	strict("hash_numeric", kinds(N), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(int32(hashNumeric(a[0].Decimal())))), nil
	})
	strict("hash_numeric_extended", kinds(N, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(hashNumericExtended(a[0].Decimal(), uint64(a[1].Int())))), nil
	})
	strict("jsonb_hash", kinds(J), value.Int4Type, func(a []value.Value) (value.Value, error) {
		n := a[0].JSONB()
		if (n.Type == value.JSONArray || n.Type == value.JSONObject) && len(n.Elems) == 0 {
			return int4(0), nil
		}
		var h uint32
		if n.Type != value.JSONArray && n.Type != value.JSONObject {
			h ^= jbFArray // a scalar document is an array of one
			jsonbHashScalar(n, &h)
		} else {
			jsonbHash(n, &h)
		}
		return int4(int64(int32(h))), nil
	})
	strict("jsonb_hash_extended", kinds(J, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(jsonbHashExtended(a[0].JSONB(), uint64(a[1].Int())))), nil
	})
}

// jsonbHashExtended is jsonb_hash_extended of the document n.
func jsonbHashExtended(n *value.JSONNode, seed uint64) uint64 {
	if (n.Type == value.JSONArray || n.Type == value.JSONObject) && len(n.Elems) == 0 {
		return seed
	}
	var h uint64
	if n.Type != value.JSONArray && n.Type != value.JSONObject {
		h ^= uint64(jbFArray)<<32 | jbFArray
		jsonbHashScalarExt(n, &h, seed)
	} else {
		jsonbHashExt(n, &h, seed)
	}
	return h
}

// jsonbHash adds container n's tokens to h.
func jsonbHash(n *value.JSONNode, h *uint32) {
	if n.Type == value.JSONArray {
		*h ^= jbFArray
	} else {
		*h ^= jbFObject
	}
	for i := range n.Elems {
		if n.Type == value.JSONObject {
			jsonbHashScalar(&value.JSONNode{Type: value.JSONString, Str: n.Keys[i]}, h)
		}
		if e := &n.Elems[i]; e.Type == value.JSONArray || e.Type == value.JSONObject {
			jsonbHash(e, h)
		} else {
			jsonbHashScalar(e, h)
		}
	}
}

func jsonbHashScalar(n *value.JSONNode, h *uint32) {
	var t uint32
	switch n.Type {
	case value.JSONNull:
		t = 1
	case value.JSONString:
		t = uint32(hashBytes([]byte(n.Str), 0))
	case value.JSONNumber:
		t = hashNumeric(n.Num.Decimal())
	case value.JSONBool:
		t = 4
		if n.Bool {
			t = 2
		}
	}
	*h = *h<<1 | *h>>31
	*h ^= t
}

func jsonbHashExt(n *value.JSONNode, h *uint64, seed uint64) {
	if n.Type == value.JSONArray {
		*h ^= uint64(jbFArray)<<32 | jbFArray
	} else {
		*h ^= uint64(jbFObject)<<32 | jbFObject
	}
	for i := range n.Elems {
		if n.Type == value.JSONObject {
			jsonbHashScalarExt(&value.JSONNode{Type: value.JSONString, Str: n.Keys[i]}, h, seed)
		}
		if e := &n.Elems[i]; e.Type == value.JSONArray || e.Type == value.JSONObject {
			jsonbHashExt(e, h, seed)
		} else {
			jsonbHashScalarExt(e, h, seed)
		}
	}
}

func jsonbHashScalarExt(n *value.JSONNode, h *uint64, seed uint64) {
	var t uint64
	switch n.Type {
	case value.JSONNull:
		t = seed + 1
	case value.JSONString:
		t = hashBytes([]byte(n.Str), seed)
	case value.JSONNumber:
		t = hashNumericExtended(n.Num.Decimal(), seed)
	case value.JSONBool:
		switch {
		case seed != 0:
			b := uint32(0)
			if n.Bool {
				b = 1
			}
			t = hashUint32(b, seed)
		case n.Bool:
			t = 2
		default:
			t = 4
		}
	}
	*h = *h<<1&0xfffffffefffffffe | *h>>31&0x100000001
	*h ^= t
}

// numericDigits are d's base-10000 digits as PostgreSQL stores them
// (int16, little-endian), without leading and trailing zero digits, and
// the weight of the first; ok is false for zero and the special values.
func numericDigits(d *apd.Decimal) (digits []byte, weight int, ok bool) {
	if d.Form != apd.Finite || d.IsZero() {
		return nil, 0, false
	}
	groups, weight := value.NumericGroups(d)
	digits = make([]byte, 2*len(groups))
	for i, g := range groups {
		binary.LittleEndian.PutUint16(digits[2*i:], g)
	}
	return digits, weight, true
}

// hashNumeric is PostgreSQL's hash_numeric: 0 for NaN and the
// infinities, all ones for zero.
func hashNumeric(d *apd.Decimal) uint32 {
	digits, weight, ok := numericDigits(d)
	switch {
	case d.Form != apd.Finite:
		return 0
	case !ok:
		return 0xffffffff
	}
	return uint32(hashBytes(digits, 0)) ^ uint32(int32(weight))
}

// hashNumericExtended is PostgreSQL's hash_numeric_extended: the seed for
// NaN and the infinities, the seed minus one for zero.
func hashNumericExtended(d *apd.Decimal, seed uint64) uint64 {
	digits, weight, ok := numericDigits(d)
	switch {
	case d.Form != apd.Finite:
		return seed
	case !ok:
		return seed - 1
	}
	return hashBytes(digits, seed) ^ uint64(int64(weight))
}
