package value

import "unsafe"

// FlatBytes reports whether v refers to no memory but, perhaps, its own
// bytes, and how many: NULL and every value held inline refer to nothing
// (0, true); a string, a json text, a bytea, a bit string, a uuid, a network address, a geometric value and an xml value refer
// to their bytes (their length, true); a large numeric, an interval, an
// array, a record, a jsonb and a jsonpath refer to structures that hold
// pointers themselves (0, false).
//
// A flat value can be copied, with a copy of its bytes beside it, into
// memory that the garbage collector does not scan (WithBytesAt): the
// collector then need not trace it, provided the value's bytes are part
// of the same allocation as the value, so that whatever keeps the one
// alive keeps the other.
func (v Value) FlatBytes() (n int, ok bool) {
	if v.p == nil {
		return 0, true
	}
	if v.kind.IsString() || v.kind.IsBytes() || v.kind.IsNetwork() || v.kind.IsGeometric() || v.kind == JSON || v.kind == XML || v.kind == HStore || v.kind == ACLItem || v.kind == PgSnapshot || v.kind == TxidSnapshot || v.kind == RefCursor || v.kind == Cstring {
		return int(v.n), true
	}
	return 0, false
}

// WithBytesAt returns v, a value whose FlatBytes are n > 0 bytes, reading
// them at b, where the caller has copied them (CopyBytes); with n = 0 it
// returns v pointing at no memory of the heap. b must stay unchanged as
// long as the value is used.
func (v Value) WithBytesAt(b *byte) Value {
	if v.p == nil {
		return v
	}
	if v.n == 0 {
		v.p = unsafe.Pointer(unsafe.StringData(""))
		return v
	}
	v.p = unsafe.Pointer(b)
	return v
}

// CopyBytes copies the bytes of v, a flat value, to dst, which must hold
// them (FlatBytes).
func (v Value) CopyBytes(dst []byte) {
	if v.p != nil && v.n > 0 {
		copy(dst, unsafe.String((*byte)(v.p), int(v.n)))
	}
}
