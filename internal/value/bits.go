package value

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Bit strings: bit(n) holds exactly n bits, bit varying(n) at most n. A
// value holds its digits as '0' and '1' bytes (see bytea.go).

// codeLengthMismatch is SQLSTATE 22026, string_data_length_mismatch.
const codeLengthMismatch = "22026"

// bitsTypeString is format_type of bit(n) and bit varying(n).
func bitsTypeString(t Type) string {
	return t.Kind.String() + "(" + strconv.Itoa(int(t.Mod)) + ")"
}

// parseBits is PostgreSQL's bit_in and varbit_in: binary digits, or hex
// digits after an x (a leading b, which B'…' literals carry, says binary),
// with the declared length checked as an implicit coercion does.
func parseBits(s string, t Type) (Value, error) {
	hex := false
	switch {
	case s != "" && (s[0] == 'b' || s[0] == 'B'):
		s = s[1:]
	case s != "" && (s[0] == 'x' || s[0] == 'X'):
		s, hex = s[1:], true
	}
	var b strings.Builder
	if !hex {
		for i := 0; i < len(s); i++ {
			if s[i] != '0' && s[i] != '1' {
				return Null, pgerr.New(pgerr.InvalidTextRep, "\"%s\" is not a valid binary digit", firstRune(s[i:]))
			}
		}
		b.WriteString(s)
	} else {
		b.Grow(4 * len(s))
		for i := 0; i < len(s); i++ {
			d, ok := hexDigit(s[i])
			if !ok {
				return Null, pgerr.New(pgerr.InvalidTextRep, "\"%s\" is not a valid hexadecimal digit", firstRune(s[i:]))
			}
			for m := byte(8); m > 0; m >>= 1 {
				if d&m != 0 {
					b.WriteByte('1')
				} else {
					b.WriteByte('0')
				}
			}
		}
	}
	return coerceBits(NewBits(t.Kind, b.String()), t, false)
}

// coerceBits applies bit(n) and bit varying(n): an implicit coercion
// wants exactly n bits (22026) or at most n (22001); an explicit cast
// truncates, and pads bit(n) with zeros on the right.
func coerceBits(v Value, t Type, explicit bool) (Value, error) {
	if t.Mod < 0 {
		return NewBits(t.Kind, v.Str()), nil
	}
	s, n := v.Str(), int(t.Mod)
	switch {
	case len(s) == n:
	case t.Kind == Bit && !explicit:
		return Null, pgerr.New(codeLengthMismatch, "bit string length %d does not match type bit(%d)", len(s), n)
	case len(s) > n && !explicit:
		return Null, pgerr.New(pgerr.StringTooLong, "bit string too long for type bit varying(%d)", n)
	case len(s) > n:
		s = s[:n]
	case t.Kind == Bit:
		s += strings.Repeat("0", n-len(s))
	}
	return NewBits(t.Kind, s), nil
}

// intToBits is PostgreSQL's bitfromint4 and bitfromint8: the low n bits
// of x (n is bit(n)'s length, 1 without one), sign-extended on the left
// beyond the integer's width.
func intToBits(x int64, from Kind, t Type) Value {
	n := int(t.Mod)
	if n <= 0 {
		n = 1
	}
	width := 32
	if from == Int8 {
		width = 64
	}
	b := make([]byte, n)
	for i := range b {
		shift := n - 1 - i // the bit's position, counted from the right
		if shift >= width {
			shift = width - 1
		}
		b[i] = '0' + byte(x>>uint(shift)&1)
	}
	return NewBits(Bit, string(b))
}

// bitsToInt is PostgreSQL's bittoint4 and bittoint8: the bits as an
// unsigned number, out of range when there are more than the integer's
// width.
func bitsToInt(v Value, to Kind) (Value, error) {
	s := v.Str()
	width := 32
	if to == Int8 {
		width = 64
	}
	if len(s) > width {
		return Null, errIntRange(to)
	}
	var u uint64
	for i := 0; i < len(s); i++ {
		u = u<<1 | uint64(s[i]-'0')
	}
	if to == Int4 {
		return NewInt(Int4, int64(int32(uint32(u)))), nil
	}
	return NewInt(Int8, int64(u)), nil
}

// castBits converts to and from the bit kinds where Cast's generic paths
// do not: integers to bit(n) (which needs the length), bit to integers,
// and bit and bit varying into each other. ok is false for other casts.
func castBits(v Value, to Type, explicit bool) (r Value, ok bool, err error) {
	switch {
	case v.kind.IsBits() && to.Kind.IsBits():
		r, err = coerceBits(v, to, explicit)
		return r, true, err
	case (v.kind == Int4 || v.kind == Int8) && to.Kind == Bit && explicit:
		return intToBits(v.n, v.kind, to), true, nil
	case v.kind == Bit && (to.Kind == Int4 || to.Kind == Int8) && explicit:
		r, err = bitsToInt(v, to.Kind)
		return r, true, err
	}
	return Null, false, nil
}
