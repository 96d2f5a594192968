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
	if asciiNoNUL(s) {
		return -1
	}
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

// asciiNoNUL reports whether s is ASCII without a NUL byte, most text a
// change carries: eight bytes at a time, in one pass where IndexByte and
// utf8.ValidString make two, each with its call, which for a short value
// cost more than the bytes (a row's text of 20 bytes: about 170
// instructions against 40). False sends s to the full check.
func asciiNoNUL(s string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one bounds check; the loads combine into one
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		// A byte of 0x80 or over sets its high bit in x; a zero byte
		// sets it in x-lo (a borrow may set others: false alarms only).
		if (x|(x-lo))&hi != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= 0x80 {
			return false
		}
	}
	return true
}
