package pgenc

import (
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// multiByte converts one of PostgreSQL's multi-byte encodings to and from
// UTF8 with PostgreSQL's own tables (generated from PostgreSQL, see
// tables.go): dec maps each character's bytes, packed big-endian into a
// uint32, to its one or two code points; enc maps a code point back,
// pairs a pair of code points (the combining sequences of the JIS X 0213
// encodings). GB18030's four-byte characters beyond the BMP follow
// GB18030's linear rule instead of a table.
type multiByte struct {
	name    string
	clen    charLen
	lead    leadLen
	dec     map[uint32]string
	enc     map[rune]uint32
	pairs   map[[2]rune]uint32
	gb18030 bool
}

// pack packs a character's bytes, big-endian.
func pack(s []byte) uint32 {
	var v uint32
	for _, c := range s {
		v = v<<8 | uint32(c)
	}
	return v
}

// appendPacked appends the bytes pack packed (its lead byte is ≥ 0x80).
func appendPacked(dst []byte, v uint32) []byte {
	switch {
	case v > 0xffffff:
		return append(dst, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	case v > 0xffff:
		return append(dst, byte(v>>16), byte(v>>8), byte(v))
	case v > 0xff:
		return append(dst, byte(v>>8), byte(v))
	}
	return append(dst, byte(v))
}

// gbLinear is a GB18030 four-byte sequence's place in the four-byte range.
func gbLinear(v uint32) uint32 {
	b1, b2, b3, b4 := v>>24, v>>16&0xff, v>>8&0xff, v&0xff
	return (((b1-0x81)*10+(b2-0x30))*126+(b3-0x81))*10 + (b4 - 0x30)
}

// gbSupplementary is where GB18030 puts U+10000: 0x90308130.
const gbSupplementary = 189000

func (m *multiByte) lookup(s []byte) (string, bool) {
	v := pack(s)
	if r, ok := m.dec[v]; ok {
		return r, true
	}
	if m.gb18030 && len(s) == 4 {
		if l := gbLinear(v); l >= gbSupplementary && l-gbSupplementary <= 0x10ffff-0x10000 {
			return string(rune(0x10000 + l - gbSupplementary)), true
		}
	}
	return "", false
}

func (m *multiByte) invalid(s []byte) error {
	n := min(m.lead(s), len(s))
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding %q: %s", m.name, hexBytes(s[:n]))
}

// verify is pg_verify_mbstr: the error for the first character of src
// that is not valid in the encoding, NUL included.
func (m *multiByte) verify(src []byte) error {
	for i := 0; i < len(src); {
		if c := src[i]; c < 0x80 {
			if c == 0 {
				return m.invalid(src[i:])
			}
			i++
			continue
		}
		n := m.clen(src[i:])
		if n < 0 {
			return m.invalid(src[i:])
		}
		i += n
	}
	return nil
}

// decode appends src's characters, in UTF8, to dst, up to the first that
// is invalid or has no equivalent, whose error it returns. When final is
// false, a character cut short at the end of src is left for the next
// call: used says how much of src was converted.
func (m *multiByte) decode(dst, src []byte, final bool) (_ []byte, used int, _ error) {
	i := 0
	for i < len(src) {
		c := src[i]
		if c < 0x80 {
			if c == 0 {
				return dst, i, m.invalid(src[i:])
			}
			dst = append(dst, c)
			i++
			continue
		}
		rest := src[i:]
		n := m.clen(rest)
		if n < 0 {
			if !final && len(rest) < m.lead(rest) {
				return dst, i, nil
			}
			return dst, i, m.invalid(rest)
		}
		r, ok := m.lookup(rest[:n])
		if !ok {
			return dst, i, pgerr.New(codeUntranslatable, "character with byte sequence %s in encoding %q has no equivalent in encoding \"UTF8\"",
				hexBytes(rest[:min(m.lead(rest), n)]), m.name)
		}
		dst = append(dst, r...)
		i += n
	}
	return dst, i, nil
}

// encode appends src, valid UTF8, to dst in the encoding, up to the first
// character it lacks, whose error (22P05) it returns.
func (m *multiByte) encode(dst, src []byte) ([]byte, error) {
	for i := 0; i < len(src); {
		c := src[i]
		if c < 0x80 {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if len(m.pairs) > 0 && i+n < len(src) {
			r2, n2 := utf8.DecodeRune(src[i+n:])
			if v, ok := m.pairs[[2]rune{r, r2}]; ok {
				dst = appendPacked(dst, v)
				i += n + n2
				continue
			}
		}
		v, ok := m.enc[r]
		if !ok && m.gb18030 && r >= 0x10000 && r <= 0x10ffff {
			l := uint32(r-0x10000) + gbSupplementary
			v, ok = uint32(l/12600+0x81)<<24|uint32(l/1260%10+0x30)<<16|uint32(l/10%126+0x81)<<8|uint32(l%10+0x30), true
		}
		if !ok || r == utf8.RuneError && n <= 1 {
			return dst, pgerr.New(codeUntranslatable, "character with byte sequence %s in encoding \"UTF8\" has no equivalent in encoding %q", hexBytes(src[i:i+n]), m.name)
		}
		dst = appendPacked(dst, v)
		i += n
	}
	return dst, nil
}
