package expr

import (
	"crypto/rand"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's operators and functions on bit strings (& | # ~ << >> ||,
// length, bit_count, get_bit/set_bit, substring, position) and on uuid
// (gen_random_uuid). Bit strings hold one '0' or '1' byte per bit, so
// these work on digits.
func init() {
	Bit, I4 := value.Bit, value.Int4
	bits := func(s string) value.Value { return value.NewBits(value.Bit, s) }

	bitwise := func(op, verb string, f func(x, y byte) byte) {
		strict(op, kinds(Bit, Bit), value.BitType, func(a []value.Value) (value.Value, error) {
			x, y := a[0].Str(), a[1].Str()
			if len(x) != len(y) {
				return value.Null, pgerr.New(codeLengthMismatch, "cannot %s bit strings of different sizes", verb)
			}
			b := make([]byte, len(x))
			for i := range b {
				b[i] = '0' + f(x[i]-'0', y[i]-'0')
			}
			return bits(string(b)), nil
		})
	}
	bitwise("&", "AND", func(x, y byte) byte { return x & y })
	bitwise("|", "OR", func(x, y byte) byte { return x | y })
	bitwise("#", "XOR", func(x, y byte) byte { return x ^ y })
	strict("~", kinds(Bit), value.BitType, func(a []value.Value) (value.Value, error) {
		x := a[0].Str()
		b := make([]byte, len(x))
		for i := range b {
			b[i] = '0' + '1' - x[i]
		}
		return bits(string(b)), nil
	})
	shift := func(op string, left bool) {
		strict(op, kinds(Bit, I4), value.BitType, func(a []value.Value) (value.Value, error) {
			return bits(shiftBits(a[0].Str(), a[1].Int(), left)), nil
		})
	}
	shift("<<", true)
	shift(">>", false)
	strict("||", kinds(value.Varbit, value.Varbit), value.VarbitType, func(a []value.Value) (value.Value, error) {
		return value.NewBits(value.Varbit, a[0].Str()+a[1].Str()), nil
	})
	strict("length", kinds(Bit), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(len(a[0].Str()))), nil
	}, "bit_length")
	strict("octet_length", kinds(Bit), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(len(a[0].Str())+7) / 8), nil
	})
	strict("bit_count", kinds(Bit), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(strings.Count(a[0].Str(), "1"))), nil
	})
	strict("get_bit", kinds(Bit, I4), value.Int4Type, func(a []value.Value) (value.Value, error) {
		s, i := a[0].Str(), a[1].Int()
		if i < 0 || i >= int64(len(s)) {
			return value.Null, errBitIndex(i, len(s))
		}
		return int4(int64(s[i] - '0')), nil
	})
	strict("set_bit", kinds(Bit, I4, I4), value.BitType, func(a []value.Value) (value.Value, error) {
		s, i, n := a[0].Str(), a[1].Int(), a[2].Int()
		if i < 0 || i >= int64(len(s)) {
			return value.Null, errBitIndex(i, len(s))
		}
		if n != 0 && n != 1 {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "new bit must be 0 or 1")
		}
		b := []byte(s)
		b[i] = '0' + byte(n)
		return bits(string(b)), nil
	})
	// PostgreSQL has substring of bit strings, but no substr.
	strict("substring", kinds(Bit, I4), value.BitType, func(a []value.Value) (value.Value, error) {
		return bitSubstr(a[0].Str(), a[1].Int(), 0, false)
	})
	strict("substring", kinds(Bit, I4, I4), value.BitType, func(a []value.Value) (value.Value, error) {
		return bitSubstr(a[0].Str(), a[1].Int(), a[2].Int(), true)
	})
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
		return bits(s[:head] + r + s[tail:]), nil
	}
	strict("overlay", kinds(Bit, Bit, I4), value.BitType, overlay)
	strict("overlay", kinds(Bit, Bit, I4, I4), value.BitType, overlay)
	// position(needle IN haystack) binds as strpos(haystack, needle).
	strict("strpos", kinds(Bit, Bit), value.Int4Type, func(a []value.Value) (value.Value, error) {
		switch {
		case a[0].Str() == "" || len(a[1].Str()) > len(a[0].Str()):
			return int4(0), nil
		case a[1].Str() == "":
			return int4(1), nil
		}
		return int4(int64(strings.Index(a[0].Str(), a[1].Str()) + 1)), nil
	})

	register(&FuncDef{Name: "gen_random_uuid", Volatile: true, Result: value.UUIDType,
		Eval: func([]value.Value) (value.Value, error) {
			var u [16]byte
			_, _ = rand.Read(u[:])  // crypto/rand.Read never fails
			u[6] = u[6]&0x0f | 0x40 // version 4
			u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
			return value.NewUUID(u), nil
		}})
}

// codeLengthMismatch is SQLSTATE 22026, string_data_length_mismatch.
const codeLengthMismatch = "22026"

func errBitIndex(i int64, n int) error {
	return pgerr.New(codeSubscript, "bit index %d out of valid range (0..%d)", i, n-1)
}

// shiftBits shifts digits by n places, keeping the length and filling
// with zeros; a negative n shifts the other way.
func shiftBits(s string, n int64, left bool) string {
	if n < 0 {
		n, left = -n, !left
	}
	l := int64(len(s))
	if n >= l {
		return strings.Repeat("0", int(l))
	}
	if left {
		return s[n:] + strings.Repeat("0", int(n))
	}
	return strings.Repeat("0", int(n)) + s[:l-n]
}

// bitSubstr is bitsubstr: as substring of text, by bit.
func bitSubstr(s string, start, count int64, hasCount bool) (value.Value, error) {
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
		return value.NewBits(value.Bit, ""), nil
	}
	return value.NewBits(value.Bit, s[from-1:min(end-1, n)]), nil
}
