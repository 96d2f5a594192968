package value

import (
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// InvalidTextAt returns the offset of the first byte of s that makes it
// invalid text as PostgreSQL requires of every value and statement in a
// UTF8 database (invalid UTF-8, or a NUL byte), or -1 when s is valid.
func InvalidTextAt(s string) int {
	nul := strings.IndexByte(s, 0)
	if utf8.ValidString(s) {
		return nul
	}
	for j := 0; j < len(s); {
		if nul >= 0 && j >= nul {
			return nul
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && n <= 1 {
			return j
		}
		j += n
	}
	return nul
}

// ValidText returns nil when s is valid text, else PostgreSQL's error
// (22021) positioned at the offending bytes, for statement text.
func ValidText(s string) error {
	off := InvalidTextAt(s)
	if off < 0 {
		return nil
	}
	e := InvalidTextError(s, off)
	// The position counts characters up to the bad byte, which are valid.
	e.Position = utf8.RuneCountInString(s[:off]) + 1
	return e
}

// CheckText returns nil when s is valid text, else PostgreSQL's error
// (22021) without a position, for values.
func CheckText(s string) error {
	if off := InvalidTextAt(s); off >= 0 {
		return InvalidTextError(s, off)
	}
	return nil
}

// InvalidTextError is PostgreSQL's error for the byte sequence at off of
// s, which is not valid UTF-8 or is NUL: it shows the bytes the
// sequence's first byte announces, as PostgreSQL does.
func InvalidTextError(s string, off int) *pgerr.Error {
	n := 1 // a continuation byte, or 0xf8 and over (pg_utf_mblen)
	switch c := s[off]; {
	case c >= 0xf8:
	case c >= 0xf0:
		n = 4
	case c >= 0xe0:
		n = 3
	case c >= 0xc0:
		n = 2
	}
	if off+n > len(s) {
		n = len(s) - off
	}
	var b strings.Builder
	for k := 0; k < n; k++ {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("0x")
		b.WriteByte("0123456789abcdef"[s[off+k]>>4])
		b.WriteByte("0123456789abcdef"[s[off+k]&15])
	}
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", b.String())
}
