package value

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// icuTitle title-cases s as ICU's u_strToTitle does with its default
// word break iterator, as PostgreSQL's initcap does under an ICU
// collation: s is cut at the word boundaries of Unicode's UAX #29 (with
// CLDR's tailoring: a colon joins letters only in Swedish), and in each
// piece the first letter, digit or symbol is title-cased and the rest
// lowered. Title-casing the first letter only after a word boundary, not
// after every non-letter, is what makes initcap('3abc') '3abc' and
// initcap('a.b') 'A.b' under ICU.
func icuTitle(locale, s string) string {
	tag := language.MustParse(locale)
	title, lower := cases.Title(tag), cases.Lower(tag)
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for start := 0; start < len(rs); {
		end := nextWordBoundary(rs, start, locale)
		piece := rs[start:end]
		i := 0
		for i < len(piece) && !titleAnchor(piece[i]) {
			i++
		}
		b.WriteString(string(piece[:i]))
		if i < len(piece) {
			head := string(piece[i])
			rest := string(piece[i+1:])
			if locale == "nl" && (piece[i] == 'i' || piece[i] == 'I') && len(rest) > 0 && (rest[0] == 'j' || rest[0] == 'J') {
				// ICU's Dutch tailoring: a word's initial "ij" is one letter.
				head, rest = "IJ", rest[1:]
			} else {
				head = title.String(head)
			}
			b.WriteString(head)
			b.WriteString(lower.String(rest))
		}
		start = end
	}
	return b.String()
}

// titleAnchor reports whether ICU title-cases r when it is the first such
// character of a word: a letter, a number or a symbol (ICU's default
// "adjust to letter, number, symbol or private use").
func titleAnchor(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsSymbol(r) || unicode.Is(unicode.Co, r)
}

// wordClass is a character's Word_Break property (UAX #29), for the
// classes that join characters into one word.
type wordClass uint8

const (
	wbOther wordClass = iota
	wbLetter
	wbNumeric
	wbMidLetter
	wbMidNum
	wbMidNumLet // MidNumLet and Single_Quote (MidNumLetQ)
	wbExtendNumLet
	wbFormat // Format and Extend: attach to what precedes (WB4)
	wbSpace
)

func wordClassOf(r rune, locale string) wordClass {
	switch {
	case r == ' ':
		return wbSpace
	case r == '.' || r == '\'' || r == '\u2018' || r == '\u2019' || r == '\u2024':
		return wbMidNumLet
	case r == ',' || r == ';' || r == '\u037e':
		return wbMidNum
	case r == '\u00b7' || r == '\u0387' || r == '\u2027':
		return wbMidLetter
	case r == ':':
		if locale == "sv" || locale == "fi" {
			return wbMidLetter
		}
		return wbOther
	case r == '_' || r == '\u203f' || r == '\u2040' || r == '\u2054':
		return wbExtendNumLet
	case r == '\u00ad' || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return wbFormat
	case unicode.Is(unicode.Nd, r):
		return wbNumeric
	case unicode.IsLetter(r):
		return wbLetter
	}
	return wbOther
}

// nextWordBoundary is the first word boundary after rs[start].
func nextWordBoundary(rs []rune, start int, locale string) int {
	// cls skips Format and Extend characters (WB4): it returns the class
	// of the next character at or after i that is neither, and its index.
	cls := func(i int) (wordClass, int) {
		for ; i < len(rs); i++ {
			if c := wordClassOf(rs[i], locale); c != wbFormat {
				return c, i
			}
		}
		return wbOther, len(rs)
	}
	prev := wordClassOf(rs[start], locale)
	for i := start + 1; i < len(rs); {
		cur, ci := cls(i)
		if ci >= len(rs) {
			return len(rs)
		}
		joined := false
		switch {
		case prev == wbSpace && cur == wbSpace && ci == i: // WB3d
			joined = true
		case prev == wbLetter && cur == wbLetter, // WB5
			prev == wbNumeric && cur == wbNumeric, // WB8
			prev == wbLetter && cur == wbNumeric,  // WB9
			prev == wbNumeric && cur == wbLetter:  // WB10
			joined = true
		case prev == wbLetter && (cur == wbMidLetter || cur == wbMidNumLet): // WB6/7
			if next, _ := cls(ci + 1); next == wbLetter {
				_, ni := cls(ci + 1)
				prev, i = wbLetter, ni+1
				continue
			}
		case prev == wbNumeric && (cur == wbMidNum || cur == wbMidNumLet): // WB11/12
			if next, _ := cls(ci + 1); next == wbNumeric {
				_, ni := cls(ci + 1)
				prev, i = wbNumeric, ni+1
				continue
			}
		case cur == wbExtendNumLet && (prev == wbLetter || prev == wbNumeric || prev == wbExtendNumLet), // WB13a
			prev == wbExtendNumLet && (cur == wbLetter || cur == wbNumeric): // WB13b
			joined = true
		}
		if !joined {
			return ci
		}
		prev, i = cur, ci+1
	}
	return len(rs)
}
