package pgenc

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Encoding converts one of PostgreSQL's encodings to and from UTF8 with
// PostgreSQL's tables. For a single-byte encoding dec maps each byte to
// its character (-1 where PostgreSQL has none), enc maps back; a
// multi-byte one converts through mb.
type Encoding struct {
	Name string
	dec  [256]rune
	enc  map[rune]byte
	mb   *multiByte
}

// SQLSTATEs of what does not convert.
const (
	codeUntranslatable = "22P05" // untranslatable_character
)

var (
	cacheMu sync.Mutex
	cache   = map[string]*Encoding{}
)

// newEncoding builds the tables of enc from m, corrected where
// PostgreSQL's tables differ from those m follows: the ISO 8859
// encodings map 0x80–0x9F to the C1 controls; WIN1255 has no 0xCA;
// KOI8U's 0xAE and 0xBE are box drawing characters, as in KOI8-R.
func newEncoding(name string, m *charmap.Charmap) *Encoding {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if e, ok := cache[name]; ok {
		return e
	}
	e := &Encoding{Name: name, enc: make(map[rune]byte, 256)}
	iso := strings.HasPrefix(name, "LATIN") || strings.HasPrefix(name, "ISO_8859")
	for b := 1; b < 256; b++ {
		r := m.DecodeByte(byte(b))
		if r == utf8.RuneError {
			r = -1
		}
		if iso && b >= 0x80 && b <= 0x9f {
			r = rune(b)
		}
		e.dec[b] = r
	}
	e.dec[0] = -1 // NUL is invalid in every encoding
	switch name {
	case "WIN1255":
		e.dec[0xca] = -1
	case "KOI8U":
		e.dec[0xae], e.dec[0xbe] = 0x255d, 0x256c
	}
	for b, r := range e.dec {
		if r >= 0 {
			e.enc[r] = byte(b)
		}
	}
	cache[name] = e
	return e
}

// ToUTF8 appends src, in e, to dst in UTF8, as PostgreSQL's convert_from
// does: 22021 for input that is not valid in e (NUL included), found
// before anything converts; else it converts up to the first character
// PostgreSQL's table leaves without an equivalent and returns 22P05.
func (e *Encoding) ToUTF8(dst, src []byte) ([]byte, error) {
	if e.mb != nil {
		if err := e.mb.verify(src); err != nil {
			return dst, err
		}
		dst, _, err := e.mb.decode(dst, src, true)
		return dst, err
	}
	return e.toUTF8(dst, src)
}

// toUTF8 is ToUTF8 of a single-byte encoding, which has nothing to verify.
func (e *Encoding) toUTF8(dst, src []byte) ([]byte, error) {
	for _, b := range src {
		if b < 0x80 && b != 0 {
			dst = append(dst, b)
			continue
		}
		r := e.dec[b]
		if r < 0 {
			if b == 0 {
				return dst, pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding %q: 0x00", e.Name)
			}
			return dst, pgerr.New(codeUntranslatable, "character with byte sequence 0x%02x in encoding %q has no equivalent in encoding \"UTF8\"", b, e.Name)
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst, nil
}

// FromUTF8 appends src, valid UTF8, to dst in e. It converts up to the
// first character e does not have, and then returns PostgreSQL's error
// for it (22P05).
func (e *Encoding) FromUTF8(dst, src []byte) ([]byte, error) {
	if e.mb != nil {
		return e.mb.encode(dst, src)
	}
	for i := 0; i < len(src); {
		if c := src[i]; c < 0x80 {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		b, ok := e.enc[r]
		if !ok || r == utf8.RuneError && n <= 1 {
			return dst, pgerr.New(codeUntranslatable, "character with byte sequence %s in encoding \"UTF8\" has no equivalent in encoding %q", hexBytes(src[i:i+n]), e.Name)
		}
		dst = append(dst, b)
		i += n
	}
	return dst, nil
}

// decodeSome converts src as ToUTF8 does, character by character, but
// leaves a multi-byte character cut short at its end for the next call
// unless final: used says how much of src converted.
func (e *Encoding) decodeSome(dst, src []byte, final bool) ([]byte, int, error) {
	if e.mb != nil {
		return e.mb.decode(dst, src, final)
	}
	dst, err := e.toUTF8(dst, src)
	return dst, len(src), err
}

// hexBytes writes bytes as PostgreSQL's conversion errors do: 0xe2 0x82 0xac.
func hexBytes(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("0x%02x", c)
	}
	return strings.Join(parts, " ")
}

// Verify is PostgreSQL's pg_verify_mbstr: 22021 for the first bytes of
// src that are not valid in e (NUL, in a single-byte encoding).
func (e *Encoding) Verify(src []byte) error {
	if e.mb != nil {
		return e.mb.verify(src)
	}
	if bytes.IndexByte(src, 0) >= 0 {
		return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding %q: 0x00", e.Name)
	}
	return nil
}

// Len is the number of characters in src, which must be valid in e.
func (e *Encoding) Len(src []byte) (int, error) {
	if err := e.Verify(src); err != nil {
		return 0, err
	}
	if e.mb == nil {
		return len(src), nil
	}
	n := 0
	for i := 0; i < len(src); n++ {
		if src[i] < 0x80 {
			i++
		} else {
			i += e.mb.clen(src[i:])
		}
	}
	return n, nil
}
