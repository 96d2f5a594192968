package expr

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// codeSubscript is SQLSTATE 2202E, array_subscript_error, which
// get_byte/set_byte and get_bit/set_bit raise for an index out of range.
const codeSubscript = "2202E"

// PostgreSQL's functions on bytea: length, substring, position, bytes
// and bits by index, concatenation, encode/decode and digests (the
// conversions between text and bytes are in func_convert.go).
func init() {
	B, T, I4, I8 := value.Bytea, value.Text, value.Int4, value.Int8
	bytea := func(b []byte) value.Value { return value.NewBytea(b) }

	strict("length", kinds(B), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(len(a[0].Str()))), nil
	}, "octet_length")
	strict("bit_length", kinds(B), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(8 * int64(len(a[0].Str()))), nil
	})
	strict("bit_count", kinds(B), value.Int8Type, func(a []value.Value) (value.Value, error) {
		n := 0
		s := a[0].Str()
		for i := 0; i < len(s); i++ {
			for c := s[i]; c != 0; c &= c - 1 {
				n++
			}
		}
		return value.NewInt(value.Int8, int64(n)), nil
	})
	strict("||", kinds(B, B), value.ByteaType, func(a []value.Value) (value.Value, error) {
		return bytea([]byte(a[0].Str() + a[1].Str())), nil
	})
	strict("substr", kinds(B, I4), value.ByteaType, func(a []value.Value) (value.Value, error) {
		return byteaSubstr(a[0].Str(), a[1].Int(), 0, false)
	}, "substring")
	strict("substr", kinds(B, I4, I4), value.ByteaType, func(a []value.Value) (value.Value, error) {
		return byteaSubstr(a[0].Str(), a[1].Int(), a[2].Int(), true)
	}, "substring")
	// position(needle IN haystack) binds as strpos(haystack, needle).
	strict("strpos", kinds(B, B), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(strings.Index(a[0].Str(), a[1].Str()) + 1)), nil
	})
	strict("get_byte", kinds(B, I4), value.Int4Type, func(a []value.Value) (value.Value, error) {
		s, i := a[0].Str(), a[1].Int()
		if i < 0 || i >= int64(len(s)) {
			return value.Null, errIndexRange(i, int64(len(s))-1)
		}
		return int4(int64(s[i])), nil
	})
	strict("set_byte", kinds(B, I4, I4), value.ByteaType, func(a []value.Value) (value.Value, error) {
		s, i := a[0].Str(), a[1].Int()
		if i < 0 || i >= int64(len(s)) {
			return value.Null, errIndexRange(i, int64(len(s))-1)
		}
		b := []byte(s)
		b[i] = byte(a[2].Int())
		return bytea(b), nil
	})
	strict("get_bit", kinds(B, I8), value.Int4Type, func(a []value.Value) (value.Value, error) {
		s, i := a[0].Str(), a[1].Int()
		if i < 0 || i >= 8*int64(len(s)) {
			return value.Null, errIndexRange(i, 8*int64(len(s))-1)
		}
		return int4(int64(s[i/8] >> (i % 8) & 1)), nil
	})
	strict("set_bit", kinds(B, I8, I4), value.ByteaType, func(a []value.Value) (value.Value, error) {
		s, i, bit := a[0].Str(), a[1].Int(), a[2].Int()
		if i < 0 || i >= 8*int64(len(s)) {
			return value.Null, errIndexRange(i, 8*int64(len(s))-1)
		}
		if bit != 0 && bit != 1 {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "new bit must be 0 or 1")
		}
		b := []byte(s)
		b[i/8] = b[i/8]&^(1<<(i%8)) | byte(bit)<<(i%8)
		return bytea(b), nil
	})
	strict("encode", kinds(B, T), value.TextType, func(a []value.Value) (value.Value, error) {
		s := a[0].Str()
		switch strings.ToLower(textOf(a[1])) {
		case "hex":
			return text(hex.EncodeToString([]byte(s))), nil
		case "base64":
			return text(base64Encode(s)), nil
		case "escape":
			return text(escapeEncode(s)), nil
		}
		return value.Null, pgerr.New(pgerr.InvalidParameter, "unrecognized encoding: \"%s\"", textOf(a[1]))
	})
	strict("decode", kinds(T, T), value.ByteaType, func(a []value.Value) (value.Value, error) {
		s := textOf(a[0])
		var b []byte
		var err error
		switch strings.ToLower(textOf(a[1])) {
		case "hex":
			b, err = value.DecodeHex(s)
		case "base64":
			b, err = base64Decode(s)
		case "escape":
			var ok bool
			if b, ok = value.DecodeEscape(s); !ok {
				err = pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type bytea")
			}
		default:
			return value.Null, pgerr.New(pgerr.InvalidParameter, "unrecognized encoding: \"%s\"", textOf(a[1]))
		}
		if err != nil {
			return value.Null, err
		}
		return bytea(b), nil
	})
	for _, t := range []struct {
		name        string
		left, right bool
	}{{"btrim", true, true}, {"ltrim", true, false}, {"rtrim", false, true}} {
		strict(t.name, kinds(B, B), value.ByteaType, func(a []value.Value) (value.Value, error) {
			s, set := a[0].Str(), a[1].Str()
			i, j := 0, len(s)
			for t.left && i < j && strings.IndexByte(set, s[i]) >= 0 {
				i++
			}
			for t.right && j > i && strings.IndexByte(set, s[j-1]) >= 0 {
				j--
			}
			return bytea([]byte(s[i:j])), nil
		})
	}
	overlay := func(a []value.Value) (value.Value, error) {
		s, r := a[0].Str(), a[1].Str()
		n := int64(len(r))
		if len(a) > 3 {
			n = a[3].Int()
		}
		head, tail, err := overlayBounds(int64(len(s)), a[2].Int(), n)
		if err != nil {
			return value.Null, err
		}
		return bytea([]byte(s[:head] + r + s[tail:])), nil
	}
	strict("overlay", kinds(B, B, I4), value.ByteaType, overlay)
	strict("overlay", kinds(B, B, I4, I4), value.ByteaType, overlay)
	strict("md5", kinds(B), value.TextType, func(a []value.Value) (value.Value, error) {
		sum := md5.Sum([]byte(a[0].Str()))
		return text(hex.EncodeToString(sum[:])), nil
	})
	digest := func(name string, f func([]byte) []byte) {
		strict(name, kinds(B), value.ByteaType, func(a []value.Value) (value.Value, error) {
			return bytea(f([]byte(a[0].Str()))), nil
		})
	}
	digest("sha224", func(b []byte) []byte { s := sha256.Sum224(b); return s[:] })
	digest("sha256", func(b []byte) []byte { s := sha256.Sum256(b); return s[:] })
	digest("sha384", func(b []byte) []byte { s := sha512.Sum384(b); return s[:] })
	digest("sha512", func(b []byte) []byte { s := sha512.Sum512(b); return s[:] })
}

// byteaSubstr is bytea_substr: count bytes from the 1-based start, the
// part before byte 1 counting too.
func byteaSubstr(s string, start, count int64, hasCount bool) (value.Value, error) {
	if hasCount && count < 0 {
		return value.Null, pgerr.New(codeSubstringError, "negative substring length not allowed")
	}
	n := int64(len(s))
	end := n + 1
	if hasCount {
		end = start + count
	}
	from := max(start, 1)
	if end <= from || from > n {
		return value.NewBytea(nil), nil
	}
	return value.NewBytea([]byte(s[from-1 : min(end-1, n)])), nil
}

func errIndexRange(i, last int64) error {
	return pgerr.New(codeSubscript, "index %d out of valid range, 0..%d", i, last)
}

// codeUntranslatable is SQLSTATE 22P05, untranslatable_character.
const codeUntranslatable = "22P05"

// hexBytes prints bytes as PostgreSQL's conversion errors do: "0xc3 0xa9".
func hexBytes(s string) string {
	parts := make([]string, len(s))
	for i := range parts {
		parts[i] = "0x" + hex.EncodeToString([]byte{s[i]})
	}
	return strings.Join(parts, " ")
}

// errByteSequence is PostgreSQL's report of bytes that are not UTF8: the
// offending sequence in hex, as far as it goes.
func errByteSequence(s string) error {
	n := min(len(s), 1)
	if c := s[0]; c >= 0xC0 {
		want := 2
		if c >= 0xE0 {
			want = 3
		}
		if c >= 0xF0 {
			want = 4
		}
		n = min(len(s), want)
	}
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, "0x"+hex.EncodeToString([]byte{s[i]}))
	}
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(parts, " "))
}

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// base64Encode is PostgreSQL's pg_base64_encode: padded, a newline after
// every 76 characters of output.
func base64Encode(s string) string {
	var b strings.Builder
	line := 0
	for i := 0; i < len(s); i += 3 {
		var buf uint32
		n := min(3, len(s)-i)
		for j := 0; j < 3; j++ {
			buf <<= 8
			if j < n {
				buf |= uint32(s[i+j])
			}
		}
		if line >= 76 {
			b.WriteByte('\n')
			line = 0
		}
		for j := 0; j < 4; j++ {
			if j <= n {
				b.WriteByte(base64Chars[buf>>(18-6*j)&63])
			} else {
				b.WriteByte('=')
			}
		}
		line += 4
	}
	return b.String()
}

// base64Decode is PostgreSQL's pg_base64_decode, white space skipped and
// its errors (22023) kept.
func base64Decode(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)*3/4)
	var buf uint32
	pos, end := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		var b uint32
		if c == '=' {
			if end == 0 {
				switch pos {
				case 2:
					end = 1
				case 3:
					end = 2
				default:
					return nil, pgerr.New(pgerr.InvalidParameter, "unexpected \"=\" while decoding base64 sequence")
				}
			}
		} else {
			k := strings.IndexByte(base64Chars, c)
			if k < 0 {
				return nil, pgerr.New(pgerr.InvalidParameter, "invalid symbol \"%s\" found while decoding base64 sequence", firstChar(s[i:]))
			}
			b = uint32(k)
		}
		buf = buf<<6 | b
		pos++
		if pos == 4 {
			out = append(out, byte(buf>>16))
			if end == 0 || end > 1 {
				out = append(out, byte(buf>>8))
			}
			if end == 0 || end > 2 {
				out = append(out, byte(buf))
			}
			buf, pos = 0, 0
		}
	}
	if pos != 0 {
		return nil, pgerr.New(pgerr.InvalidParameter, "invalid base64 end sequence").
			WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
	}
	return out, nil
}

// firstChar is s's first character, whole.
func firstChar(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:max(n, 1)]
}

// escapeEncode is encode(…, 'escape'): a backslash doubled, a zero byte
// and bytes with the high bit set as \ooo.
func escapeEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0 || c >= 0x80:
			b.WriteByte('\\')
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
		case c == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// overlayBounds is how PostgreSQL's byteaoverlay and bitoverlay cut a
// string of length l to place a replacement at 1-based from, over n
// places: the part before from, and the part from from+n on (n may be
// negative, which repeats a part). from below 1 is 22011.
func overlayBounds(l, from, n int64) (head, tail int64, err error) {
	if from <= 0 {
		return 0, 0, pgerr.New(codeSubstringError, "negative substring length not allowed")
	}
	end := from + n
	if end > math.MaxInt32 || end < math.MinInt32 {
		return 0, 0, pgerr.New(pgerr.NumericOutOfRange, "integer out of range")
	}
	return min(from-1, l), min(max(end, 1)-1, l), nil
}

// ByteaChars reads a bytea as text of one character per byte (the byte's
// code point), so that LIKE, which matches characters, matches a bytea
// byte by byte, as PostgreSQL's bytealike does. The binder wraps bytea
// operands of LIKE in it; it prints as its argument.
var ByteaChars = &FuncDef{Name: "bytea_chars", Strict: true, Params: []value.Kind{value.Bytea}, Result: value.TextType,
	Eval: func(a []value.Value) (value.Value, error) {
		s := a[0].Str()
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); i++ {
			b.WriteRune(rune(s[i]))
		}
		return text(b.String()), nil
	},
	Print: func(args []Expr) string { return args[0].String() }}
