package xpath

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is a token's kind.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokNumber
	tokLiteral
	tokName     // a name test or function name: NCName, prefix:NCName, prefix:*, *
	tokOp       // an operator or punctuation, by its text; "mul" for *
	tokAxis     // an axis name, its "::" consumed
	tokFunc     // a function name or node type, "(" following
	tokVariable // $QName, by the name
)

type token struct {
	kind tokKind
	text string
	num  float64
}

// lex splits an XPath expression into tokens, applying XPath 1.0's
// disambiguation: after a token that can end an operand, * is
// multiplication and and/or/mod/div are operators.
func lex(s string) ([]token, error) {
	var toks []token
	i := 0
	operand := func() bool {
		if len(toks) == 0 {
			return false
		}
		t := toks[len(toks)-1]
		switch t.kind {
		case tokOp:
			return t.text == ")" || t.text == "]" || t.text == "." || t.text == ".."
		case tokAxis, tokFunc:
			return false
		}
		return true
	}
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return append(toks, token{kind: tokEOF}), nil
		}
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, compileError("Unfinished literal")
			}
			toks = append(toks, token{kind: tokLiteral, text: s[i+1 : i+1+j]})
			i += j + 2
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			n, used, ok := parseNumber(s[i:])
			if !ok {
				return nil, compileError("Invalid number")
			}
			toks = append(toks, token{kind: tokNumber, num: n})
			i += used
		case c == '.':
			if strings.HasPrefix(s[i:], "..") {
				toks = append(toks, token{kind: tokOp, text: ".."})
				i += 2
			} else {
				toks = append(toks, token{kind: tokOp, text: "."})
				i++
			}
		case c == '*':
			if operand() {
				toks = append(toks, token{kind: tokOp, text: "mul"})
			} else {
				toks = append(toks, token{kind: tokName, text: "*"})
			}
			i++
		case c == '$':
			i++
			n := scanQName(s[i:])
			if n == "" {
				return nil, compileError("Invalid variable name")
			}
			toks = append(toks, token{kind: tokVariable, text: n})
			i += len(n)
		case isNameStartByte(s[i:]):
			n := scanQName(s[i:])
			if operand() {
				if n != "and" && n != "or" && n != "mod" && n != "div" {
					return nil, compileError("Invalid expression")
				}
				toks = append(toks, token{kind: tokOp, text: n})
				i += len(n)
				break
			}
			i += len(n)
			if !strings.Contains(n, ":") && i < len(s) && s[i] == ':' && i+1 < len(s) && s[i+1] == '*' {
				n += ":*"
				i += 2
			}
			j := i
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			switch {
			case strings.HasPrefix(s[j:], "::"):
				toks = append(toks, token{kind: tokAxis, text: n})
				i = j + 2
			case strings.HasPrefix(s[j:], "(") && !strings.HasSuffix(n, "*"):
				toks = append(toks, token{kind: tokFunc, text: n})
				i = j + 1
			default:
				toks = append(toks, token{kind: tokName, text: n})
			}
		default:
			op := ""
			for _, o := range []string{"//", "!=", "<=", ">=", "::", "/", "|", "+", "-", "=", "<", ">", "(", ")", "[", "]", "@", ","} {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" || op == "::" {
				return nil, compileError("Invalid expression")
			}
			toks = append(toks, token{kind: tokOp, text: op})
			i += len(op)
		}
	}
}

func isNameStartByte(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

func isNameRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || r == 0xB7
}

// scanNCName returns the NCName at the start of s.
func scanNCName(s string) string {
	if !isNameStartByte(s) {
		return ""
	}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isNameRune(r) {
			break
		}
		i += n
	}
	return s[:i]
}

// scanQName returns the QName at the start of s (NCName, or prefix:NCName).
func scanQName(s string) string {
	n := scanNCName(s)
	if n == "" || !strings.HasPrefix(s[len(n):], ":") {
		return n
	}
	if l := scanNCName(s[len(n)+1:]); l != "" {
		return n + ":" + l
	}
	return n
}
