package expr

import (
	"strings"

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

// pgEncodingNames are the names PostgreSQL takes for each encoding
// (pg_char_to_encoding), lower case, without the characters other than
// letters and digits, which it ignores.
var pgEncodingNames = map[string]int{
	"abc": 19, "alt": 20, "big5": 36, "euccn": 2, "eucjis2004": 5, "eucjp": 1, "euckr": 3, "euctw": 4,
	"gb18030": 39, "gbk": 37, "iso88591": 8, "iso885910": 13, "iso885913": 14, "iso885914": 15,
	"iso885915": 16, "iso885916": 17, "iso88592": 9, "iso88593": 10, "iso88594": 11, "iso88595": 25,
	"iso88596": 26, "iso88597": 27, "iso88598": 28, "iso88599": 12, "johab": 40, "koi8": 22, "koi8r": 22,
	"koi8u": 34, "latin1": 8, "latin2": 9, "latin3": 10, "latin4": 11, "latin5": 12, "latin6": 13,
	"latin7": 14, "latin8": 15, "latin9": 16, "latin10": 17, "mskanji": 35, "muleinternal": 7,
	"shiftjis": 35, "shiftjis2004": 41, "sjis": 35, "sqlascii": 0, "tcvn": 19, "tcvn5712": 19, "uhc": 38,
	"unicode": 6, "utf8": 6, "vscii": 19, "win": 23, "win1250": 29, "win1251": 23, "win1252": 24,
	"win1253": 30, "win1254": 31, "win1255": 32, "win1256": 18, "win1257": 33, "win1258": 19, "win866": 20,
	"win874": 21, "win932": 35, "win936": 37, "win949": 38, "win950": 36, "windows1250": 29,
	"windows1251": 23, "windows1252": 24, "windows1253": 30, "windows1254": 31, "windows1255": 32,
	"windows1256": 18, "windows1257": 33, "windows1258": 19, "windows866": 20, "windows874": 21,
	"windows932": 35, "windows936": 37, "windows949": 38, "windows950": 36,
}

// pgEncodingByName resolves an encoding's name as PostgreSQL does: case
// and characters other than letters and digits do not count.
func pgEncodingByName(name string) (int, bool) {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	enc, ok := pgEncodingNames[b.String()]
	return enc, ok
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
