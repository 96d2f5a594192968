package expr

import (
	"fmt"
	"strings"
	"unicode"
)

// Character classes under an ICU collation are ICU's character
// properties (PostgreSQL's regc_pg_locale.c calls u_isalpha and kin),
// which are the Unicode general categories: [:alpha:] the letters (L),
// [:digit:] the decimal digits (Nd), [:upper:] and [:lower:] Lu and Ll
// only (not ª or ǅ), [:punct:] the punctuation (P, not the symbols $ + <
// = > ^ ` | ~), [:space:] the separators (Z, with U+00A0) and the control
// characters tab to CR, U+001C–U+001F and U+0085, [:graph:] every
// assigned character but the controls, formats, surrogates and
// separators, [:print:] the same with the separators and without the
// private use characters. [:blank:], [:cntrl:], [:xdigit:] and [:ascii:]
// are fixed sets whatever the collation. Go's tables and ICU 72 are both Unicode 15.

// inClassICU reports whether r is in the named class under an ICU
// collation.
func inClassICU(name string, r rune) bool {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.Is(unicode.Nd, r)
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return unicode.Is(unicode.Nd, r)
	case "lower":
		return unicode.Is(unicode.Ll, r)
	case "upper":
		return unicode.Is(unicode.Lu, r)
	case "punct":
		return unicode.IsPunct(r)
	case "space":
		return icuSpace(r)
	case "graph":
		return icuGraph(r)
	case "print":
		return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nd, r)
	}
	return inClassFixed(name, r)
}

// icuSpace is ICU's u_isspace.
func icuSpace(r rune) bool {
	return unicode.Is(unicode.Z, r) || r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x1f || r == 0x85
}

// icuGraph is ICU's u_isgraph: an assigned character that is neither a
// control, a format character, a surrogate nor a separator.
func icuGraph(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Co)
}

// re2ClassICU writes the named class (or its complement, "^name") under
// an ICU collation inside an RE2 bracket expression; false when RE2
// cannot say it there (the complement of a union).
func re2ClassICU(sb *strings.Builder, name string) bool {
	neg := strings.HasPrefix(name, "^")
	name = strings.TrimPrefix(name, "^")
	single := map[string]string{"alpha": "L", "digit": "Nd", "lower": "Ll", "upper": "Lu", "punct": "P"}
	if cat, ok := single[name]; ok {
		if neg {
			fmt.Fprintf(sb, `\P{%s}`, cat)
		} else {
			fmt.Fprintf(sb, `\p{%s}`, cat)
		}
		return true
	}
	if neg {
		return false
	}
	switch name {
	case "alnum":
		sb.WriteString(`\p{L}\p{Nd}`)
	case "word":
		sb.WriteString(`\p{L}\p{Nd}_`)
	case "space":
		sb.WriteString(`\p{Z}\t-\r\x{1c}-\x{1f}\x{85}`)
	case "graph":
		sb.WriteString(`\p{L}\p{M}\p{N}\p{P}\p{S}\p{Co}`)
	case "print":
		sb.WriteString(`\p{L}\p{M}\p{N}\p{P}\p{S}\p{Z}`)
	default:
		return re2ClassFixed(sb, name)
	}
	return true
}
