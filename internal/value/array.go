package value

import "unsafe"

// Arrays. An array has up to MaxDims dimensions, each with a length and a
// lower bound, holds elements of one scalar kind in row-major order, and
// may hold NULL elements; an empty array has no dimensions. Its kind is
// arrayBase + the element's kind, so that every array type is a Kind of
// its own: int4[] and text[] never meet without a cast, as in PostgreSQL
// (int4[][] is int4[]). A one-dimensional array with lower bound 1, the
// common case, points at its elements (immutable once built) and holds
// their count; any other shape points at an arrayShape (sc is shaped).
const arrayBase Kind = 128

// ArrayOf returns the kind of arrays of elem, a scalar kind.
func ArrayOf(elem Kind) Kind { return arrayBase + elem }

// ArrayType returns the type of arrays of elem.
func ArrayType(elem Kind) Type { return Type{ArrayOf(elem), -1} }

// IsArray reports whether k is an array kind: an array of a scalar kind,
// or int2vector or oidvector, which are arrays too (vector.go).
func (k Kind) IsArray() bool {
	return k > arrayBase && k < arrayBase+numKinds || k == Int2Vector || k == OidVector
}

// Elem returns an array kind's element kind; Unknown for other kinds.
func (k Kind) Elem() Kind {
	switch {
	case k > arrayBase && k < arrayBase+numKinds:
		return k - arrayBase
	case k == Int2Vector:
		return Int2
	case k == OidVector:
		return Oid
	}
	return Unknown
}

// NewArray returns the one-dimensional array from 1 of kind k (an array
// kind) holding elems, which are NULL or of k's element kind; elems must
// not be modified afterwards. NewArrayDims makes other shapes.
func NewArray(k Kind, elems []Value) Value {
	return Value{kind: k, p: unsafe.Pointer(unsafe.SliceData(elems)), n: int64(len(elems))}
}

// Elems returns an array's elements in row-major order, which must not be
// modified; nil for an empty array or another kind.
func (v Value) Elems() []Value {
	if !v.kind.IsArray() || v.n == 0 {
		return nil
	}
	if v.sc == shaped {
		return (*arrayShape)(v.p).elems
	}
	return unsafe.Slice((*Value)(v.p), int(v.n))
}

// castArray casts each element of v to to's element kind.
func castArray(v Value, to Kind, explicit bool) (Value, error) {
	if v.kind == to {
		return v, nil
	}
	return castElems(v, Type{to.Elem(), -1}, explicit)
}

// castElems casts each element of the array v to et.
func castElems(v Value, et Type, explicit bool) (Value, error) {
	src := v.Elems()
	out := make([]Value, len(src))
	for i, e := range src {
		c, err := Cast(e, et, explicit)
		if err != nil {
			return Null, err
		}
		out[i] = c
	}
	return NewArrayDims(ArrayOf(et.Kind), out, v.Dims()), nil
}
