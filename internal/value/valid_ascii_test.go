package value

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInvalidTextAtASCIIPath checks InvalidTextAt, whose ASCII strings
// without NUL take a word-at-a-time path, against the definition (the
// first NUL or byte of invalid UTF-8): random strings of 0 to 40 bytes
// drawn from ASCII, NUL, bytes 0x7f to 0x81, 0xff and multi-byte
// characters, at every offset of a word.
func TestInvalidTextAtASCIIPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 12))
	parts := []string{"a", "Z", "0", "\x00", "\x01", "\x7f", "\x80", "\x81", "\xff", "é", "€", "😀", " ", "~", "\xe2\x82"}
	want := func(s string) int {
		for j := 0; j < len(s); {
			if s[j] == 0 {
				return j
			}
			r, n := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && n <= 1 {
				return j
			}
			j += n
		}
		return -1
	}
	for range 200_000 {
		var b strings.Builder
		n := rng.IntN(40)
		ascii := rng.IntN(2) == 0
		for b.Len() < n {
			if ascii {
				b.WriteByte(byte(0x20 + rng.IntN(0x5f)))
				if rng.IntN(60) == 0 {
					b.WriteString(parts[rng.IntN(len(parts))])
				}
			} else {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
		}
		s := b.String()
		if got, w := InvalidTextAt(s), want(s); got != w {
			t.Fatalf("InvalidTextAt(%q) = %d, want %d", s, got, w)
		}
		if got, w := asciiNoNUL(s), want(s) < 0 && !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }); got != w {
			t.Fatalf("asciiNoNUL(%q) = %v, want %v", s, got, w)
		}
	}
}
