package expr

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// to_ascii(text [, encoding]): the text's bytes read in an 8-bit encoding
// (LATIN1, LATIN2, LATIN9 or WIN1250), each byte from 128 on replaced by
// the ASCII letter or sign nearest its character there, as PostgreSQL's
// to_ascii does. The text is UTF-8, so a character beyond ASCII becomes
// two to four such bytes. Without an encoding the database's, UTF8, which
// has no such table (0A000); an encoding that exists without a table is
// 0A000 too; a name or code that names none 42704.
func init() {
	T := value.Text
	strict("to_ascii", kinds(T), value.TextType, func(a []value.Value) (value.Value, error) {
		return toASCII(textOf(a[0]), pgEncUTF8)
	})
	strict("to_ascii", kinds(T, T), value.TextType, func(a []value.Value) (value.Value, error) {
		name := textOf(a[1])
		enc, ok := pgEncodingByName(name)
		if !ok {
			return value.Null, pgerr.New(pgerr.UndefinedObject, "%s is not a valid encoding name", name)
		}
		return toASCII(textOf(a[0]), enc)
	})
	strict("to_ascii", kinds(T, value.Int4), value.TextType, func(a []value.Value) (value.Value, error) {
		enc := a[1].Int()
		if enc < 0 || enc >= int64(len(pgEncodings)) {
			return value.Null, pgerr.New(pgerr.UndefinedObject, "%d is not a valid encoding code", enc)
		}
		return toASCII(textOf(a[0]), int(enc))
	})
}

// PostgreSQL's encodings by their codes (pg_encoding_to_char).
var pgEncodings = [...]string{
	"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8", "MULE_INTERNAL",
	"LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10",
	"WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5", "ISO_8859_6",
	"ISO_8859_7", "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U", "SJIS",
	"BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004",
}

const (
	pgEncUTF8    = 6
	pgEncLatin1  = 8
	pgEncLatin2  = 9
	pgEncLatin9  = 16
	pgEncWin1250 = 29
)

// pgEncodingByName resolves an encoding's name as PostgreSQL does: case
// and characters other than letters and digits do not count.
func pgEncodingByName(name string) (int, bool) {
	pg, ok := pgenc.Lookup(name)
	if !ok {
		return 0, false
	}
	return slices.Index(pgEncodings[:], pg), true
}

// asciiTables give, for the bytes 128 to 255 of each encoding to_ascii
// reads, the ASCII character it writes: the character's letter without
// its accent, a sign like it, or a space. The bytes that UTF-8 text never
// holds (0xc0, 0xc1, 0xf5 to 0xff) are spaces.
var asciiTables = map[int]string{
	pgEncLatin1:  "                                  cL Y  \"Ca  -R     'u .,      ?  AAAAACEEEEIIII NOOOOOxOUUUUYTBaaaaaaaceeeeiiii nooo           ",
	pgEncLatin2:  "                                 A L LS \"SSTZ-ZZ a,l'ls ,sstz\"zz  AAALCCCEEEEIIDDNNOOOOxRUUUUYTBraaaalccceeeeiiddnnoo           ",
	pgEncLatin9:  "                                  cL YS sCa  -R     Zu .z   EeY?  AAAAACEEEEIIII NOOOOOxOUUUUYTBaaaaaaaceeeeiiii nooo           ",
	pgEncWin1250: "  ' \"    %S<STZZ `'\"\".--  s>stzz   L A  \"CS  -RZ  ,l'u .,as L\"lz  AAALCCCEEEEIIDDNNOOOOxRUUUUYTBraaaalccceeeeiiddnnoo           ",
}

func toASCII(s string, enc int) (value.Value, error) {
	tab, ok := asciiTables[enc]
	if !ok {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "encoding conversion from %s to ASCII not supported", pgEncodings[enc])
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 128 {
			b[i] = tab[c-128]
		}
	}
	return text(string(b)), nil
}
