package expr

import "strings"

// Case mapping under the database's ctype, C: PostgreSQL maps only the
// ASCII letters there (pg_ascii_toupper, and isalnum of the C locale for
// initcap's words), leaving every other character, é and ß included, as
// it is. A string under an ICU collation is mapped by ICU instead
// (caseFn).

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	}, s)
}

// initcap upper-cases the first ASCII letter of each run of ASCII letters
// and digits and lower-cases the rest; other characters end a word.
func initcap(s string) string {
	b := []byte(s)
	inWord := false
	for i, c := range b {
		switch {
		case inWord && c >= 'A' && c <= 'Z':
			b[i] = c + ('a' - 'A')
		case !inWord && c >= 'a' && c <= 'z':
			b[i] = c - ('a' - 'A')
		}
		inWord = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return string(b)
}
