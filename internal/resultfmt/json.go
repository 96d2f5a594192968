package resultfmt

import (
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/value"
)

// appendJSON appends s as one JSON array of objects, keys in column order,
// then a newline. Booleans print as true/false; integers, finite floats and
// finite numerics as numbers written exactly as their PostgreSQL text; NaN
// and infinities, and every other type, as strings; NULL as null.
func appendJSON(buf []byte, s *Set) []byte {
	buf = append(buf, '[')
	var t []byte
	for i, r := range s.Rows {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '{')
		for j, v := range r {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = AppendJSONString(buf, s.Columns[j].Name)
			buf = append(buf, ':')
			buf = AppendJSON(buf, v, &t)
		}
		buf = append(buf, '}')
	}
	return append(buf, "]\n"...)
}

// AppendJSON appends v as appendJSON writes a value: booleans as
// true/false; integers, finite floats and finite numerics as numbers
// written exactly as their PostgreSQL text; NaN and infinities, and every
// other type, as strings; NULL as null. *scratch is reused for the text.
func AppendJSON(buf []byte, v value.Value, scratch *[]byte) []byte {
	switch k := v.Kind(); {
	case v.IsNull():
		return append(buf, "null"...)
	case k == value.Bool:
		if v.Bool() {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case k.IsNumeric():
		*scratch = value.AppendText((*scratch)[:0], v)
		if isFinite(*scratch) {
			return append(buf, *scratch...)
		}
		return AppendJSONString(buf, string(*scratch))
	case k.IsJSON():
		return value.AppendText(buf, v) // a document, not a string
	default:
		*scratch = value.AppendText((*scratch)[:0], v)
		return AppendJSONString(buf, string(*scratch))
	}
}

// isFinite reports whether a number's PostgreSQL text is not NaN or an
// infinity.
func isFinite(t []byte) bool {
	switch string(t) {
	case "NaN", "Infinity", "-Infinity":
		return false
	}
	return true
}

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD.
func AppendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, "\ufffd"...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}
