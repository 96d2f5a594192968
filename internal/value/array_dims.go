package value

import (
	"encoding/binary"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Dim is one dimension of an array: its length and the subscript of its
// first element.
type Dim struct {
	Len, Lower int
}

// MaxDims is the most dimensions an array may have, PostgreSQL's MAXDIM.
const MaxDims = 6

// shaped is the sc of an array Value whose p points at an arrayShape.
const shaped uint8 = 1

// arrayShape is an array other than one-dimensional with lower bound 1:
// its elements in row-major order and its dimensions, outermost first.
type arrayShape struct {
	elems []Value
	dims  []Dim
}

// NewArrayDims returns an array of kind k with dimensions dims holding
// elems in row-major order; the product of the lengths is len(elems).
// Without elements it is the empty array, whatever dims says. Neither
// slice may be modified afterwards.
func NewArrayDims(k Kind, elems []Value, dims []Dim) Value {
	if len(elems) == 0 || len(dims) == 1 && dims[0].Lower == 1 {
		return NewArray(k, elems)
	}
	return Value{kind: k, p: unsafe.Pointer(&arrayShape{elems: elems, dims: dims}), n: int64(len(elems)), sc: shaped}
}

// Dims returns an array's dimensions, outermost first, which must not be
// modified; nil for an empty array or another kind.
func (v Value) Dims() []Dim {
	if !v.kind.IsArray() || v.n == 0 {
		if v.kind.IsVector() {
			return emptyVectorDims
		}
		return nil
	}
	if v.sc == shaped {
		return (*arrayShape)(v.p).dims
	}
	return []Dim{{Len: int(v.n), Lower: 1}}
}

// NDims returns the number of an array's dimensions: 0 when it is empty.
func (v Value) NDims() int {
	switch {
	case v.kind.IsVector() && v.n == 0:
		return 1 // emptyVectorDims
	case !v.kind.IsArray() || v.n == 0:
		return 0
	case v.sc == shaped:
		return len((*arrayShape)(v.p).dims)
	}
	return 1
}

// CheckDims returns PostgreSQL's error for more than MaxDims dimensions.
func CheckDims(n int) error {
	if n > MaxDims {
		return pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", n, MaxDims)
	}
	return nil
}

// SameDims reports whether two arrays have the same dimensions and lower
// bounds.
func SameDims(a, b Value) bool {
	x, y := a.Dims(), b.Dims()
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// compareArrays is PostgreSQL's btree order of arrays (array_cmp):
// element by element (NULL after every value, equal to NULL), then the
// one with fewer elements first, then fewer dimensions, then the
// dimensions' lengths, then their lower bounds.
func compareArrays(a, b Value) int {
	x, y := a.Elems(), b.Elems()
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := Compare(x[i], y[i]); c != 0 {
			return c
		}
	}
	if c := cmpInt(int64(len(x)), int64(len(y))); c != 0 {
		return c
	}
	if a.sc != shaped && b.sc != shaped {
		return 0
	}
	dx, dy := a.Dims(), b.Dims()
	if c := cmpInt(int64(len(dx)), int64(len(dy))); c != 0 {
		return c
	}
	for i := range dx {
		if c := cmpInt(int64(dx[i].Len), int64(dy[i].Len)); c != 0 {
			return c
		}
	}
	for i := range dx {
		if c := cmpInt(int64(dx[i].Lower), int64(dy[i].Lower)); c != 0 {
			return c
		}
	}
	return 0
}

// appendArrayKey writes each element's key after a 1 byte, then a 0 byte
// (a proper prefix of an array sorts first, as in compareArrays), then
// the shape of a non-empty array (appendArrayShapeKey).
func appendArrayKey(buf []byte, v Value) []byte {
	vectors := v.kind.Elem().IsVector()
	for _, e := range v.Elems() {
		if vectors && e.kind != Unknown {
			buf = appendVectorKey(append(buf, 1), e)
			continue
		}
		buf = appendScalarKey(append(buf, 1), e)
	}
	return appendArrayShapeKey(append(buf, 0), v)
}

// appendVectorKey is the key of an int2vector or oidvector, an element of
// an int2vector[] or oidvector[] too: an oidvector's length first, as
// oidvectorcmp orders, then its elements, which are scalars, as
// appendArrayKey writes them.
func appendVectorKey(buf []byte, v Value) []byte {
	if v.kind == OidVector {
		buf = binary.BigEndian.AppendUint32(buf, uint32(v.n))
	}
	for _, e := range v.Elems() {
		buf = appendScalarKey(append(buf, 1), e)
	}
	return appendArrayShapeKey(append(buf, 0), v)
}

// appendArrayShapeKey writes, for a non-empty array, the number of its
// dimensions as a byte; when there are several, each length as 4
// big-endian bytes (one dimension's length is the number of elements,
// already ordered); then each lower bound as one byte for the usual 1, or
// a byte below or above it and 4 ordered bytes. Arrays with the same
// elements thus order as compareArrays orders them, and the common
// one-dimensional array from 1 costs two bytes.
func appendArrayShapeKey(buf []byte, v Value) []byte {
	if v.n == 0 {
		return buf
	}
	if v.sc != shaped {
		return append(buf, 1, 1)
	}
	dims := v.Dims()
	buf = append(buf, byte(len(dims)))
	if len(dims) > 1 {
		for _, d := range dims {
			buf = binary.BigEndian.AppendUint32(buf, uint32(d.Len))
		}
	}
	for _, d := range dims {
		switch {
		case d.Lower == 1:
			buf = append(buf, 1)
		case d.Lower < 1:
			buf = binary.BigEndian.AppendUint32(append(buf, 0), uint32(int32(d.Lower))^1<<31)
		default:
			buf = binary.BigEndian.AppendUint32(append(buf, 2), uint32(int32(d.Lower))^1<<31)
		}
	}
	return buf
}

// ArrayBytes is the memory an array's elements take beyond its Value.
func ArrayBytes(v Value) int64 {
	es := v.Elems()
	n := int64(len(es)) * int64(unsafe.Sizeof(Value{}))
	if v.sc == shaped {
		n += int64(unsafe.Sizeof(arrayShape{})) + int64(len(v.Dims()))*int64(unsafe.Sizeof(Dim{}))
	}
	for _, e := range es {
		if e.kind.IsString() {
			n += (e.n + 7) &^ 7
		}
	}
	return n
}

// ArraySubscriptError is PostgreSQL's SQLSTATE for array bounds and
// dimensions that do not fit (array_subscript_error).
const ArraySubscriptError = "2202E"

// ArrayAgg is array_agg's result of kind k over vals, in order: the array
// of the values, or, when ofArrays (the values are arrays of kind k), the
// array with one more dimension whose elements they are. Those must all
// have the same dimensions, and none be NULL or empty.
func ArrayAgg(k Kind, vals []Value, ofArrays bool) (Value, error) {
	if !ofArrays {
		return NewArray(k, vals), nil
	}
	var inner []Dim
	var elems []Value
	for i, v := range vals {
		switch {
		case v.IsNull():
			return Null, pgerr.New("22004", "cannot accumulate null arrays")
		case v.NDims() == 0:
			return Null, pgerr.New(ArraySubscriptError, "cannot accumulate empty arrays")
		case i == 0:
			inner = v.Dims()
			if err := CheckDims(len(inner) + 1); err != nil {
				return Null, err
			}
		case !SameDims(v, vals[0]):
			return Null, pgerr.New(ArraySubscriptError, "cannot accumulate arrays of different dimensionality")
		}
		elems = append(elems, v.Elems()...)
	}
	if len(vals) == 0 {
		return Null, nil
	}
	if k.IsVector() {
		// array_agg(int2vector) is array_agg(anyarray) returning the
		// vector's type, whose check rejects the stacked result.
		return Null, pgerr.New(pgerr.DatatypeMismatch, "array is not a valid %s", k)
	}
	return NewArrayDims(k, elems, append([]Dim{{Len: len(vals), Lower: 1}}, inner...)), nil
}
