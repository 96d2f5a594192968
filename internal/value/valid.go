package value

import (
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ValidText reports whether s is valid text as PostgreSQL requires it of
// every value and statement in a UTF8 database: valid UTF-8 without NUL
// bytes. The error (22021, character_not_in_repertoire) names the first
// offending bytes and, through Position, where they are.
func ValidText(s string) error {
	i := strings.IndexByte(s, 0)
	if utf8.ValidString(s) {
		if i < 0 {
			return nil
		}
		return invalidByteSeq(s, i)
	}
	for j := 0; j < len(s); {
		if i >= 0 && j >= i {
			return invalidByteSeq(s, i)
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && n <= 1 {
			return invalidByteSeq(s, j)
		}
		j += n
	}
	return invalidByteSeq(s, i)
}

// invalidByteSeq is PostgreSQL's error for a byte sequence at off that is
// not valid UTF-8: it shows up to the bytes the sequence's first byte
// announces, as PostgreSQL does.
func invalidByteSeq(s string, off int) *pgerr.Error {
	n := 1
	switch c := s[off]; {
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
	e := pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", b.String())
	// The position counts characters up to the bad byte, which are valid.
	e.Position = utf8.RuneCountInString(s[:off]) + 1
	return e
}
