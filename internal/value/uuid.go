package value

import "github.com/deltaview/deltaview/internal/pgerr"

// parseUUID is PostgreSQL's uuid_in: 32 hex digits, in either case,
// optionally in braces, with a hyphen allowed after any group of four.
func parseUUID(s string) (Value, error) {
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type uuid: \"%s\"", s)
	}
	src := s
	braces := false
	if src != "" && src[0] == '{' {
		src, braces = src[1:], true
	}
	var u [16]byte
	for i := range u {
		if len(src) < 2 {
			return bad()
		}
		hi, ok1 := hexDigit(src[0])
		lo, ok2 := hexDigit(src[1])
		if !ok1 || !ok2 {
			return bad()
		}
		u[i] = hi<<4 | lo
		src = src[2:]
		if src != "" && src[0] == '-' && i%2 == 1 && i < len(u)-1 {
			src = src[1:]
		}
	}
	if braces {
		if src == "" || src[0] != '}' {
			return bad()
		}
		src = src[1:]
	}
	if src != "" {
		return bad()
	}
	return NewUUID(u), nil
}

// appendUUID writes uuid_out's form: lowercase, hyphenated 8-4-4-4-12.
func appendUUID(buf []byte, v Value) []byte {
	s := v.Str()
	for i := 0; i < len(s); i++ {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			buf = append(buf, '-')
		}
		buf = append(buf, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return buf
}
