package value

import (
	"strconv"
)

// The types of the system columns of tables: tid, a row's place as a
// block number and an offset in it (ctid); xid, a transaction's id (xmin,
// xmax); cid, a command's number within its transaction (cmin, cmax).
// Each is held in n: a tid as block<<16 | offset, so that comparing the
// integers orders tids by block, then offset, as PostgreSQL's tid
// operators do; an xid or a cid as its unsigned 32-bit number.

// TidType, XidType and CidType are the types of the system columns.
var (
	TidType = Type{Tid, -1}
	XidType = Type{Xid, -1}
	CidType = Type{Cid, -1}
)

// NewTid returns the tid of offset in block.
func NewTid(block uint32, offset uint16) Value {
	return Value{kind: Tid, n: int64(block)<<16 | int64(offset)}
}

// NewXid returns the transaction id x; NewCid the command id c.
func NewXid(x uint32) Value { return Value{kind: Xid, n: int64(x)} }
func NewCid(c uint32) Value { return Value{kind: Cid, n: int64(c)} }

// parseTid is PostgreSQL 15's tidin: "(block,offset)", where what comes
// before the opening parenthesis and after the closing one is ignored,
// the block is an unsigned 32-bit number (a negative one wraps around)
// and the offset is from 0 to 65535.
func parseTid(s string) (Value, error) {
	var coord [2]int
	i := 0
	for p := 0; p < len(s) && i < 2 && s[p] != ')'; p++ {
		if s[p] == ',' || s[p] == '(' && i == 0 {
			coord[i] = p + 1
			i++
		}
	}
	if i < 2 {
		return Null, errSyntax(Tid, s)
	}
	block, rest, ok := strtoulPrefix(s[coord[0]:], 10)
	if !ok || rest == "" || rest[0] != ',' || block > 0xffffffff && block < 0xffffffff80000000 {
		return Null, errSyntax(Tid, s)
	}
	off, rest, ok := strtoulPrefix(s[coord[1]:], 10)
	if !ok || rest == "" || rest[0] != ')' || off > 0xffff {
		return Null, errSyntax(Tid, s)
	}
	return NewTid(uint32(block), uint16(off)), nil
}

func appendTid(buf []byte, v Value) []byte {
	buf = append(buf, '(')
	buf = strconv.AppendUint(buf, uint64(v.n>>16), 10)
	buf = append(buf, ',')
	buf = strconv.AppendUint(buf, uint64(v.n&0xffff), 10)
	return append(buf, ')')
}

// strtoul is C's strtoul(s, NULL, 0), which PostgreSQL 15's xidin and
// cidin are: leading spaces, a sign, a 0x (hexadecimal) or 0 (octal)
// prefix, digits; whatever follows is ignored, no digits is 0, and an
// overflow is the largest value.
func strtoul(s string) uint64 {
	n, _, _ := strtoulPrefix(s, 0)
	return n
}

// strtoulPrefix reads a number as C's strtoul does in base (0: by its
// prefix) and returns it with the rest of s; ok is false when no digit
// was read or the number overflowed (C's errno).
func strtoulPrefix(s string, base int) (n uint64, rest string, ok bool) {
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	neg := false
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		neg = s[p] == '-'
		p++
	}
	if (base == 0 || base == 16) && p+2 < len(s) && s[p] == '0' && (s[p+1] == 'x' || s[p+1] == 'X') && digitValue(s[p+2]) < 16 {
		base, p = 16, p+2
	} else if base == 0 && p < len(s) && s[p] == '0' {
		base = 8
	} else if base == 0 {
		base = 10
	}
	start, over := p, false
	for ; p < len(s); p++ {
		d := digitValue(s[p])
		if d >= base {
			break
		}
		if n > (^uint64(0)-uint64(d))/uint64(base) {
			over = true
		}
		n = n*uint64(base) + uint64(d)
	}
	if p == start {
		return 0, s, false
	}
	if over {
		return ^uint64(0), s[p:], false
	}
	if neg {
		n = -n
	}
	return n, s[p:], true
}

// digitValue is c's value as a digit of base up to 36; 99 for none.
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}
