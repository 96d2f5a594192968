package value

import (
	"math"
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The vector types of PostgreSQL's catalogs: int2vector (pg_index.indkey,
// pg_trigger.tgattr, …) and oidvector (pg_proc.proargtypes,
// pg_index.indclass, …). Each is an array in PostgreSQL: one dimension,
// subscripts from 0, no NULL elements, at most 100 of them. Here a vector
// is held as an array value of its own kind (IsArray holds, Elem is int2
// or oid) whose only dimension starts at 0, so subscripts, = ANY, unnest
// and the array functions read it as they read any array; what differs is
// its text form, numbers separated by spaces, and its casts: to any array
// its elements cast to (keeping the lower bound 0) and to and from the
// string types, never from an array.

// Int2VectorType and OidVectorType are the vector types.
var (
	Int2VectorType = Type{Int2Vector, -1}
	OidVectorType  = Type{OidVector, -1}
)

// maxVectorElems is PostgreSQL's FUNC_MAX_ARGS, the most elements a
// vector's input accepts.
const maxVectorElems = 100

// IsVector reports whether k is int2vector or oidvector.
func (k Kind) IsVector() bool { return k == Int2Vector || k == OidVector }

// emptyVectorDims are an empty vector's dimensions: PostgreSQL's vector
// input makes one dimension of length 0 from 0 ("[0:-1]"), not the empty
// array's none, so array_length(proargtypes, 1) of a function without
// arguments is 0.
var emptyVectorDims = []Dim{{Len: 0, Lower: 0}}

// NewVector returns the vector of kind k (Int2Vector or OidVector) holding
// elems, which are of k's element kind and not NULL; elems must not be
// modified afterwards.
func NewVector(k Kind, elems []Value) Value {
	return NewArrayDims(k, elems, []Dim{{Len: len(elems), Lower: 0}})
}

// NewInt2Vector returns the int2vector of ns.
func NewInt2Vector(ns []int16) Value {
	elems := make([]Value, len(ns))
	for i, n := range ns {
		elems[i] = NewInt(Int2, int64(n))
	}
	return NewVector(Int2Vector, elems)
}

// NewOidVector returns the oidvector of oids.
func NewOidVector(oids []uint32) Value {
	elems := make([]Value, len(oids))
	for i, o := range oids {
		elems[i] = NewOid(o)
	}
	return NewVector(OidVector, elems)
}

// parseInt2Vector is PostgreSQL 15's int2vectorin: numbers separated by
// spaces (any white space before a number, only a space after it), each
// an int2 read as C's strtol reads it; an error quotes the text from the
// number that failed on.
func parseInt2Vector(s string) (Value, error) {
	var elems []Value
	p := 0
	for {
		for p < len(s) && isSpace(s[p]) {
			p++
		}
		if p == len(s) {
			break
		}
		if len(elems) == maxVectorElems {
			return Null, pgerr.New(pgerr.InvalidParameter, "int2vector has too many elements")
		}
		rest := s[p:]
		n, end, ok, over := strtolPrefix(rest)
		if !ok {
			return Null, errSyntax(Int2, rest)
		}
		if over || n < math.MinInt16 || n > math.MaxInt16 {
			return Null, pgerr.New(pgerr.NumericOutOfRange, "value %q is out of range for type smallint", rest)
		}
		if end < len(rest) && rest[end] != ' ' {
			return Null, errSyntax(Int2, rest)
		}
		elems = append(elems, NewInt(Int2, n))
		p += end
	}
	return NewVector(Int2Vector, elems), nil
}

// strtolPrefix reads a decimal number as C's strtol does (white space, a
// sign, digits) and returns it with the length read; ok is false when no
// digit was read, over true when it overflowed an int64.
func strtolPrefix(s string) (n int64, end int, ok, over bool) {
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	neg := false
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		neg = s[p] == '-'
		p++
	}
	start := p
	var u uint64
	for ; p < len(s) && s[p] >= '0' && s[p] <= '9'; p++ {
		d := uint64(s[p] - '0')
		if u > (math.MaxUint64-d)/10 {
			over = true
		} else {
			u = u*10 + d
		}
	}
	if p == start {
		return 0, 0, false, false
	}
	if u > math.MaxInt64 {
		over = true
	}
	n = int64(u)
	if neg {
		n = -n
	}
	return n, p, true, over
}

// parseOidVector is PostgreSQL 15's oidvectorin: oids separated by white
// space, each read as oidin reads one (a negative number wraps around),
// whatever follows a number's digits starting the next.
func parseOidVector(s string) (Value, error) {
	var elems []Value
	p := 0
	for {
		for p < len(s) && isSpace(s[p]) {
			p++
		}
		if p == len(s) {
			break
		}
		if len(elems) == maxVectorElems {
			return Null, pgerr.New(pgerr.InvalidParameter, "oidvector has too many elements")
		}
		rest := s[p:]
		u, tail, ok := strtoulPrefix(rest, 10)
		if !ok && u == 0 {
			return Null, errSyntax(Oid, rest)
		}
		// uint32in_subr: an overflow of C's unsigned long, or a number
		// that is neither a uint32 nor an int32 read unsigned.
		if !ok || u > math.MaxUint32 && u < math.MaxUint64-math.MaxInt32 {
			return Null, pgerr.New(pgerr.NumericOutOfRange, "value %q is out of range for type oid", rest)
		}
		elems = append(elems, NewOid(uint32(u)))
		p += len(rest) - len(tail)
	}
	return NewVector(OidVector, elems), nil
}

// appendVector is int2vectorout and oidvectorout: the elements separated
// by single spaces.
func appendVector(buf []byte, v Value) []byte {
	for i, e := range v.Elems() {
		if i > 0 {
			buf = append(buf, ' ')
		}
		if e.kind == Oid {
			buf = strconv.AppendUint(buf, uint64(uint32(e.n)), 10)
		} else {
			buf = strconv.AppendInt(buf, e.n, 10)
		}
	}
	return buf
}

// vectorCastable reports whether a cast from one kind to another, one of
// them a vector, exists: a vector to the string kinds (explicitly or in
// assignment) and to any array its elements cast to (implicitly when they
// do), a string to a vector explicitly; never an array to a vector or one
// vector to the other.
func vectorCastable(from, to Kind, explicit bool) bool {
	switch {
	case to.IsVector():
		return from.IsString() && explicit
	case to.IsString():
		return explicit
	case to.IsArray():
		return CanCast(from.Elem(), to.Elem(), explicit)
	}
	return false
}

// vectorToArray is a vector's cast to the array kind to: its elements
// cast, their subscripts still from 0.
func vectorToArray(v Value, to Kind, explicit bool) (Value, error) {
	src := v.Elems()
	out := make([]Value, len(src))
	for i, e := range src {
		c, err := Cast(e, Type{to.Elem(), -1}, explicit)
		if err != nil {
			return Null, err
		}
		out[i] = c
	}
	return NewArrayDims(to, out, v.Dims()), nil
}
