package value

// citext, the citext extension's case-insensitive text. A citext value is
// text as written (it prints, casts and is stored as written); it compares,
// groups, hashes and keys as its lower-case form, as the extension's
// citext_cmp does: str_tolower under the database's collation, then a
// comparison of the bytes. The collation here is C, whose lower case folds
// only the ASCII letters, so 'É' and 'é' stay apart, as in PostgreSQL with
// LC_CTYPE C. Values equal but written differently ('Abc' and 'ABC') are
// one value to SQL and several representations (CompareRepr orders them by
// their bytes, so 'ABC' comes before 'Abc'), as 1.5 and 1.50 are.

// CITextType is the citext type.
var CITextType = Type{CIText, -1}

// foldASCII lowers b's ASCII letters in place.
func foldASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// compareCIText orders two citext strings as citext_cmp does under the C
// collation: their ASCII-lowered bytes, without allocating.
func compareCIText(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return cmpInt(int64(len(a)), int64(len(b)))
}

// appendCITextKey is text's key of s lowered, so that keys of equal citext
// values agree and order as compareCIText.
func appendCITextKey(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0:
			buf = append(buf, 0, 0xFF)
		case 'A' <= c && c <= 'Z':
			buf = append(buf, c+'a'-'A')
		default:
			buf = append(buf, c)
		}
	}
	return append(buf, 0x00, 0x01)
}
