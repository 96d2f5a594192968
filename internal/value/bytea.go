package value

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Byte kinds. A bytea, a bit string and a uuid point at their bytes as a
// string does: a bytea at its octets, a uuid at its 16 octets, a bit or
// bit varying at its digits, one '0' or '1' byte per bit. Bytewise order
// of those bytes is PostgreSQL's btree order of each type (a bit string's
// zero-padded octets compare as its digits do, the shorter first on a
// tie), so Compare and the key encoding treat them as strings.

// IsBytes reports whether k is bytea, bit, bit varying or uuid.
func (k Kind) IsBytes() bool { return k >= Bytea && k <= UUID }

// IsBits reports whether k is bit or bit varying.
func (k Kind) IsBits() bool { return k == Bit || k == Varbit }

// ByteaType, BitType, VarbitType and UUIDType have no modifier.
var (
	ByteaType  = Type{Bytea, -1}
	BitType    = Type{Bit, -1}
	VarbitType = Type{Varbit, -1}
	UUIDType   = Type{UUID, -1}
)

// NewBytea returns a bytea holding b's bytes; b must not be modified
// afterwards.
func NewBytea(b []byte) Value {
	if len(b) == 0 {
		return Value{kind: Bytea, p: unsafe.Pointer(unsafe.StringData("")), n: 0}
	}
	return Value{kind: Bytea, p: unsafe.Pointer(unsafe.SliceData(b)), n: int64(len(b))}
}

// NewBits returns a bit string of kind Bit or Varbit whose digits are s,
// '0' and '1' bytes only.
func NewBits(k Kind, s string) Value {
	return Value{kind: k, p: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s))}
}

// NewUUID returns a uuid.
func NewUUID(b [16]byte) Value {
	s := string(b[:])
	return Value{kind: UUID, p: unsafe.Pointer(unsafe.StringData(s)), n: 16}
}

// bytesTypeFromName resolves the names of the byte kinds; ok is false for
// any other name. bit without a length is bit(1) when a user writes it
// (PostgreSQL's grammar adds the 1), and an unbounded bit string when the
// type is named without modifiers.
func bytesTypeFromName(n string, mods []int32) (t Type, ok bool, err error) {
	var k Kind
	switch n {
	case "bytea":
		k = Bytea
	case "uuid":
		k = UUID
	case "bit":
		k = Bit
	case "varbit", "bit varying":
		k = Varbit
	default:
		return Type{}, false, nil
	}
	if !k.IsBits() {
		if len(mods) > 0 {
			return Type{}, true, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type %q", n)
		}
		return Type{k, -1}, true, nil
	}
	switch {
	case len(mods) == 0:
		return Type{k, -1}, true, nil
	case len(mods) > 1:
		return Type{}, true, pgerr.New(pgerr.InvalidParameter, "invalid type modifier")
	case mods[0] < 1:
		return Type{}, true, pgerr.New(pgerr.InvalidParameter, "length for type %s must be at least 1", n)
	case mods[0] > maxBitLen:
		return Type{}, true, pgerr.New(pgerr.InvalidParameter, "length for type %s cannot exceed %d", n, maxBitLen)
	}
	return Type{k, mods[0]}, true, nil
}

// maxBitLen is PostgreSQL's MaxAttrSize * 8, the longest declared bit
// string.
const maxBitLen = 83886080

// parseBytea is PostgreSQL's byteain: \x followed by hex digit pairs (white
// space between pairs), else the escape format where \\ is a backslash and
// \ooo an octal byte.
func parseBytea(s string) (Value, error) {
	if len(s) >= 2 && s[0] == '\\' && s[1] == 'x' {
		b, err := DecodeHex(s[2:])
		if err != nil {
			return Null, err
		}
		return NewBytea(b), nil
	}
	b, ok := DecodeEscape(s)
	if !ok {
		return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type bytea")
	}
	return NewBytea(b), nil
}

// DecodeHex is PostgreSQL's hex_decode: pairs of hex digits, with white
// space allowed before a pair.
func DecodeHex(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)/2)
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			i++
			continue
		}
		hi, ok := hexDigit(c)
		if !ok {
			return nil, errHexDigit(s[i:])
		}
		i++
		if i >= len(s) {
			return nil, pgerr.New(pgerr.InvalidParameter, "invalid hexadecimal data: odd number of digits")
		}
		lo, ok := hexDigit(s[i])
		if !ok {
			return nil, errHexDigit(s[i:])
		}
		i++
		out = append(out, hi<<4|lo)
	}
	return out, nil
}

func errHexDigit(rest string) error {
	return pgerr.New(pgerr.InvalidParameter, "invalid hexadecimal digit: \"%s\"", firstRune(rest))
}

// firstRune is s's first character, whole (PostgreSQL's %.*s with
// pg_mblen).
func firstRune(s string) string {
	for i := range s {
		if i > 0 {
			return s[:i]
		}
	}
	return s
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// DecodeEscape reads bytea's escape format; ok is false on a backslash
// followed by anything but a backslash or three octal digits (the first
// 0-3).
func DecodeEscape(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		switch {
		case s[i] != '\\':
			out = append(out, s[i])
			i++
		case i+3 < len(s) && s[i+1] >= '0' && s[i+1] <= '3' && isOctal(s[i+2]) && isOctal(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 4
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i += 2
		default:
			return nil, false
		}
	}
	return out, true
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

const hexDigits = "0123456789abcdef"

// AppendHex appends b's bytes as lowercase hex digit pairs.
func AppendHex(buf []byte, b string) []byte {
	for i := 0; i < len(b); i++ {
		buf = append(buf, hexDigits[b[i]>>4], hexDigits[b[i]&15])
	}
	return buf
}

// appendBytea writes bytea's hex output format (bytea_output = hex).
func appendBytea(buf []byte, v Value) []byte {
	return AppendHex(append(buf, '\\', 'x'), v.Str())
}

// AppendConcat appends v as string_agg joins it: a bytea's bytes, any
// other value's text output.
func AppendConcat(buf []byte, v Value) []byte {
	if v.kind == Bytea {
		return append(buf, v.Str()...)
	}
	return AppendText(buf, v)
}

// Concatenated returns string_agg's result of kind k (bytea or text)
// from the joined bytes b, which it copies.
func Concatenated(k Kind, b []byte) Value {
	if k == Bytea {
		return NewBytea(append([]byte{}, b...))
	}
	return NewText(Text, string(b))
}
