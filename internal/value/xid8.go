package value

import "strconv"

// xid8, a transaction id with its epoch (pg_current_xact_id()): an
// unsigned 64-bit number. It is held in n with its top bit flipped, as
// pg_lsn is, so that comparing the signed integers orders ids as unsigned
// numbers. Its input is xid8in's strtou64 (base by prefix; no digits read
// as 0, an overflow as the largest, a negative number wrapped); it has
// =, <>, <, >, <=, >=, min and max, and casts to xid (its low 32 bits)
// explicitly, to the string types, and from them.

// Xid8Type is xid8's type.
var Xid8Type = Type{Xid8, -1}

// NewXid8 returns the transaction id x.
func NewXid8(x uint64) Value { return Value{kind: Xid8, n: int64(x ^ 1<<63)} }

// Xid8 returns an xid8's number.
func (v Value) Xid8() uint64 { return uint64(v.n) ^ 1<<63 }

func appendXid8(buf []byte, v Value) []byte { return strconv.AppendUint(buf, v.Xid8(), 10) }
