package expr

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// unistr(s) reads Unicode escapes (\XXXX, \+XXXXXX, \uXXXX, \UXXXXXXXX, a
// UTF-16 surrogate pair as two escapes, and \\ for a backslash);
// normalize(s[, form]) and s IS [NOT] [form] NORMALIZED (which the parser
// writes as is_normalized(s[, form])) use Unicode's normalization forms
// NFC (the default), NFD, NFKC and NFKD; parse_ident(s[, strict]) splits a
// qualified name into its identifiers, as PostgreSQL does.
func init() {
	T, B := value.Text, value.Bool
	strict("unistr", kinds(T), value.TextType, func(a []value.Value) (value.Value, error) {
		s, err := unistr(rawText(a[0]))
		if err != nil {
			return value.Null, err
		}
		return value.NewText(value.Text, s), nil
	})
	normalize := func(a []value.Value) (value.Value, error) {
		f, err := normForm(a)
		if err != nil {
			return value.Null, err
		}
		return value.NewText(value.Text, f.String(rawText(a[0]))), nil
	}
	isNormalized := func(a []value.Value) (value.Value, error) {
		f, err := normForm(a)
		if err != nil {
			return value.Null, err
		}
		return value.NewBool(f.IsNormalString(rawText(a[0]))), nil
	}
	strict("normalize", kinds(T), value.TextType, normalize)
	strict("normalize", kinds(T, T), value.TextType, normalize)
	strict("is_normalized", kinds(T), value.BoolType, isNormalized)
	strict("is_normalized", kinds(T, T), value.BoolType, isNormalized)
	parse := func(a []value.Value) (value.Value, error) {
		strictMode := len(a) < 2 || a[1].Bool()
		parts, err := parseIdent(rawText(a[0]), strictMode)
		if err != nil {
			return value.Null, err
		}
		elems := make([]value.Value, len(parts))
		for i, p := range parts {
			elems[i] = value.NewText(value.Text, p)
		}
		return value.NewArray(value.ArrayOf(value.Text), elems), nil
	}
	strict("parse_ident", kinds(T), value.ArrayType(value.Text), parse)
	strict("parse_ident", kinds(T, B), value.ArrayType(value.Text), parse)
}

// normForm is the normalization form of normalize's and is_normalized's
// second argument, NFC without one.
func normForm(a []value.Value) (norm.Form, error) {
	if len(a) < 2 {
		return norm.NFC, nil
	}
	switch f := rawText(a[1]); strings.ToUpper(f) {
	case "NFC":
		return norm.NFC, nil
	case "NFD":
		return norm.NFD, nil
	case "NFKC":
		return norm.NFKC, nil
	case "NFKD":
		return norm.NFKD, nil
	default:
		return 0, pgerr.New(pgerr.InvalidParameter, "invalid normalization form: %s", f)
	}
}

func isHexN(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := range n {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func unistr(s string) (string, error) {
	var b strings.Builder
	var first rune // a pending high surrogate
	badPair := func() error { return pgerr.New(pgerr.SyntaxError, "invalid Unicode surrogate pair") }
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			if first != 0 {
				return "", badPair()
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		var digits, skip int
		switch rest := s[i+1:]; {
		case strings.HasPrefix(rest, `\`):
			if first != 0 {
				return "", badPair()
			}
			b.WriteByte('\\')
			i += 2
			continue
		case isHexN(rest, 4):
			digits, skip = 4, 1
		case strings.HasPrefix(rest, "u") && isHexN(rest[1:], 4):
			digits, skip = 4, 2
		case strings.HasPrefix(rest, "+") && isHexN(rest[1:], 6):
			digits, skip = 6, 2
		case strings.HasPrefix(rest, "U") && isHexN(rest[1:], 8):
			digits, skip = 8, 2
		default:
			return "", pgerr.New(pgerr.SyntaxError, "invalid Unicode escape").
				WithHint(`Unicode escapes must be \XXXX, \+XXXXXX, \uXXXX, or \UXXXXXXXX.`)
		}
		u, _ := strconv.ParseUint(s[i+skip:i+skip+digits], 16, 32)
		c := rune(u)
		if u == 0 || u > 0x10FFFF {
			return "", pgerr.New(pgerr.InvalidParameter, "invalid Unicode code point: %04X", u)
		}
		i += skip + digits
		isLow := c >= 0xDC00 && c <= 0xDFFF
		switch {
		case first != 0 && isLow:
			c = utf16.DecodeRune(first, c)
			first = 0
		case first != 0 || isLow:
			return "", badPair()
		case c >= 0xD800 && c <= 0xDBFF:
			first = c
			continue
		}
		b.WriteRune(c)
	}
	if first != 0 {
		return "", badPair()
	}
	return b.String(), nil
}

// parseIdent is parse_ident: identifiers separated by dots, quoted ones
// as written (with "" for a quote), others in lower case; in strict mode
// nothing may follow the last.
func parseIdent(s string, strictMode bool) ([]string, error) {
	bad := func() *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameter, "string is not a valid identifier: \"%s\"", s)
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	isStart := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80 }
	isCont := func(c byte) bool { return isStart(c) || c >= '0' && c <= '9' || c == '$' }
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	var parts []string
	i := 0
	for isSpace(at(i)) {
		i++
	}
	afterDot := false
	for {
		switch c := at(i); {
		case c == '"':
			var name strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '"')
				if k < 0 {
					return nil, bad().WithDetail("String has unclosed double quotes.")
				}
				name.WriteString(s[j : j+k])
				j += k + 1
				if at(j) != '"' {
					break
				}
				name.WriteByte('"')
				j++
			}
			if name.Len() == 0 {
				return nil, bad().WithDetail("Quoted identifier must not be empty.")
			}
			parts = append(parts, name.String())
			i = j
		case isStart(c):
			j := i + 1
			for isCont(at(j)) {
				j++
			}
			parts = append(parts, strings.Map(func(r rune) rune {
				if r >= 'A' && r <= 'Z' {
					return r + 'a' - 'A'
				}
				return r
			}, s[i:j]))
			i = j
		case c == '.':
			return nil, bad().WithDetail(`No valid identifier before ".".`)
		case afterDot:
			return nil, bad().WithDetail(`No valid identifier after ".".`)
		default:
			return nil, bad()
		}
		for isSpace(at(i)) {
			i++
		}
		switch {
		case at(i) == '.':
			afterDot = true
			i++
			for isSpace(at(i)) {
				i++
			}
		case i >= len(s):
			return parts, nil
		default:
			if strictMode {
				return nil, bad()
			}
			return parts, nil
		}
	}
}
