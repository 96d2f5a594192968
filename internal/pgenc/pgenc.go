// Package pgenc keeps PostgreSQL's character encodings: their names and
// aliases, and their conversion to and from UTF8,
// the server's encoding, with PostgreSQL's errors for what does not
// convert. COPY … ENCODING and client_encoding convert through it.
//
//	enc, ok := pgenc.Lookup("latin-1") // "LATIN1"
//	c, err := pgenc.Get(enc)           // nil for UTF8 and SQL_ASCII: no conversion
//	s, err := c.ToUTF8(nil, []byte{0xe9})
package pgenc

import (
	"strings"

	"golang.org/x/text/encoding/charmap"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// names are PostgreSQL's encoding names and aliases (encnames.c), as
// pg_char_to_encoding compares them: lower case, letters and digits only.
var names = map[string]string{
	"abc": "WIN1258", "alt": "WIN866", "big5": "BIG5", "euccn": "EUC_CN", "eucjis2004": "EUC_JIS_2004", "eucjp": "EUC_JP",
	"euckr": "EUC_KR", "euctw": "EUC_TW", "gb18030": "GB18030", "gbk": "GBK",
	"iso88591": "LATIN1", "iso885910": "LATIN6", "iso885913": "LATIN7", "iso885914": "LATIN8", "iso885915": "LATIN9",
	"iso885916": "LATIN10", "iso88592": "LATIN2", "iso88593": "LATIN3", "iso88594": "LATIN4", "iso88595": "ISO_8859_5",
	"iso88596": "ISO_8859_6", "iso88597": "ISO_8859_7", "iso88598": "ISO_8859_8", "iso88599": "LATIN5",
	"johab": "JOHAB", "koi8": "KOI8R", "koi8r": "KOI8R", "koi8u": "KOI8U",
	"latin1": "LATIN1", "latin2": "LATIN2", "latin3": "LATIN3", "latin4": "LATIN4", "latin5": "LATIN5", "latin6": "LATIN6",
	"latin7": "LATIN7", "latin8": "LATIN8", "latin9": "LATIN9", "latin10": "LATIN10",
	"mskanji": "SJIS", "muleinternal": "MULE_INTERNAL", "shiftjis": "SJIS", "shiftjis2004": "SHIFT_JIS_2004", "sjis": "SJIS",
	"sqlascii": "SQL_ASCII", "tcvn": "WIN1258", "tcvn5712": "WIN1258", "uhc": "UHC", "unicode": "UTF8", "utf8": "UTF8",
	"vscii": "WIN1258", "win": "WIN1251", "win1250": "WIN1250", "win1251": "WIN1251", "win1252": "WIN1252",
	"win1253": "WIN1253", "win1254": "WIN1254", "win1255": "WIN1255", "win1256": "WIN1256", "win1257": "WIN1257",
	"win1258": "WIN1258", "win866": "WIN866", "win874": "WIN874", "win932": "SJIS", "win936": "GBK", "win949": "UHC",
	"win950": "BIG5", "windows1250": "WIN1250", "windows1251": "WIN1251", "windows1252": "WIN1252", "windows1253": "WIN1253",
	"windows1254": "WIN1254", "windows1255": "WIN1255", "windows1256": "WIN1256", "windows1257": "WIN1257",
	"windows1258": "WIN1258", "windows866": "WIN866", "windows874": "WIN874", "windows932": "SJIS", "windows936": "GBK",
	"windows949": "UHC", "windows950": "BIG5",
}

// Lookup resolves an encoding's name or alias, in any case and with any
// punctuation, to PostgreSQL's name for it ("latin-1" is LATIN1).
func Lookup(name string) (string, bool) {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	enc, ok := names[b.String()]
	return enc, ok
}

// maps are the single-byte encodings that convert, by PostgreSQL's name.
var maps = map[string]*charmap.Charmap{
	"LATIN1": charmap.ISO8859_1, "LATIN2": charmap.ISO8859_2, "LATIN3": charmap.ISO8859_3, "LATIN4": charmap.ISO8859_4,
	"LATIN5": charmap.ISO8859_9, "LATIN6": charmap.ISO8859_10, "LATIN7": charmap.ISO8859_13, "LATIN8": charmap.ISO8859_14,
	"LATIN9": charmap.ISO8859_15, "LATIN10": charmap.ISO8859_16, "ISO_8859_5": charmap.ISO8859_5,
	"ISO_8859_6": charmap.ISO8859_6, "ISO_8859_7": charmap.ISO8859_7, "ISO_8859_8": charmap.ISO8859_8,
	"WIN1250": charmap.Windows1250, "WIN1251": charmap.Windows1251, "WIN1252": charmap.Windows1252,
	"WIN1253": charmap.Windows1253, "WIN1254": charmap.Windows1254, "WIN1255": charmap.Windows1255,
	"WIN1256": charmap.Windows1256, "WIN1257": charmap.Windows1257, "WIN1258": charmap.Windows1258,
	"WIN866": charmap.CodePage866, "WIN874": charmap.Windows874, "KOI8R": charmap.KOI8R, "KOI8U": charmap.KOI8U,
}

// Get returns the conversion of the encoding PostgreSQL names enc: nil
// for UTF8 and SQL_ASCII, which the server reads as they are (checking
// that they are valid UTF8); 0A000 for MULE_INTERNAL, which does not
// convert.
func Get(enc string) (*Encoding, error) {
	switch enc {
	case "UTF8", "SQL_ASCII":
		return nil, nil
	}
	if mb, err := loadMultiByte(enc); err != nil || mb != nil {
		if err != nil {
			return nil, err
		}
		return &Encoding{Name: enc, mb: mb}, nil
	}
	m, ok := maps[enc]
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "conversion between %s and UTF8 is not supported", enc)
	}
	return newEncoding(enc, m), nil
}
