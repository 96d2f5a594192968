package value

// "char", PostgreSQL's one-byte internal type (pg_catalog's kinds and
// flags: relkind, contype, typtype…): a byte, held in n as 0…255. It
// compares and orders as an unsigned byte (chareq, charlt), reads the
// first byte of its input or a three-digit octal escape \ooo, and prints
// a byte with the high bit set as that escape, a zero byte as nothing.

// InternalCharType is "char"'s type.
var InternalCharType = Type{InternalChar, -1}

// NewInternalChar returns the "char" b.
func NewInternalChar(b byte) Value { return Value{kind: InternalChar, n: int64(b)} }

// CharByte returns a "char"'s byte.
func (v Value) CharByte() byte { return byte(v.n) }

// parseInternalChar is charin and text_char: "\ooo" is the byte of those
// three octal digits, anything else its first byte (the empty string a
// zero byte).
func parseInternalChar(s string) Value {
	if len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]) {
		return NewInternalChar((s[1]-'0')<<6 + (s[2]-'0')<<3 + s[3] - '0')
	}
	if s == "" {
		return NewInternalChar(0)
	}
	return NewInternalChar(s[0])
}

// appendInternalChar is charout.
func appendInternalChar(buf []byte, v Value) []byte {
	b := v.CharByte()
	switch {
	case b >= 0x80:
		return append(buf, '\\', '0'+b>>6, '0'+b>>3&7, '0'+b&7)
	case b == 0:
		return buf
	}
	return append(buf, b)
}

// internalCharCastable is CanCast with "char" on one side: "char" converts
// to text implicitly, to the other string kinds and to integer
// explicitly (by assignment, for the strings); the strings and integer
// convert to "char" explicitly.
func internalCharCastable(from, to Kind, explicit bool) bool {
	if from == InternalChar {
		return to == Text || explicit && (to.IsString() || to == Int4)
	}
	return explicit && (from.IsString() || from == Int4)
}

// convertInternalChar is a cast between "char" and integer (i4tochar,
// chartoi4: the byte is a signed one) or from a string (its first byte,
// a char's padding included).
func convertInternalChar(v Value, to Kind) (Value, error) {
	switch {
	case v.kind == InternalChar && to == Int4:
		return NewInt(Int4, int64(int8(v.CharByte()))), nil
	case v.kind == Int4 && to == InternalChar:
		if v.n < -128 || v.n > 127 {
			return Null, errIntRange(InternalChar)
		}
		return NewInternalChar(byte(int8(v.n))), nil
	case v.kind.IsString() && to == InternalChar:
		return parseInternalChar(v.Str()), nil
	}
	return Null, errCannotCast(v.kind, to)
}
