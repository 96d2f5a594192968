package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// checkTypeNameSyntax reads s as PostgreSQL's grammar reads a type name
// (regtype's input and to_regtype parse "SELECT NULL::s"): a dotted name,
// the further words of a name of several (double precision, timestamp
// with time zone, interval's fields), modifiers in parentheses and array
// bounds. Input it cannot read is 42601, as PostgreSQL's: `syntax error
// at end of input`, `syntax error at or near "x"`; which names exist is
// left to the lookup. A quoted name left open is left to the lookup too.
func checkTypeNameSyntax(s string) error {
	toks, ok := typeNameTokens(s)
	if !ok {
		return nil
	}
	if len(toks) == 0 {
		return pgerr.New(pgerr.SyntaxError, "invalid type name %q", s)
	}
	i := 0
	next := func() string {
		if i < len(toks) {
			return toks[i]
		}
		return ""
	}
	fail := func() error {
		if i >= len(toks) {
			return pgerr.New(pgerr.SyntaxError, "syntax error at end of input")
		}
		return pgerr.New(pgerr.SyntaxError, "syntax error at or near %q", toks[i])
	}
	isWord := func(t string) bool {
		return t != "" && (t[0] == '"' || t[0] == '_' || t[0] >= 'a' && t[0] <= 'z' || t[0] >= 'A' && t[0] <= 'Z' || t[0] >= 0x80)
	}
	if !isWord(next()) {
		return fail()
	}
	words := []string{strings.ToLower(toks[0])}
	i++
	qualified := false
	for next() == "." {
		i++
		if !isWord(next()) {
			return fail()
		}
		qualified = true
		i++
	}
	more := func() bool {
		if qualified || !isWord(next()) {
			return false
		}
		return typeNameContinues(words, strings.ToLower(next()))
	}
	for more() {
		words = append(words, strings.ToLower(next()))
		i++
	}
	if next() == "(" {
		i++
		for {
			t := next()
			if t == "" || t == "(" || t == ")" || t == "," || t == "." || t == "[" || t == "]" {
				return fail()
			}
			digits := t[0] >= '0' && t[0] <= '9'
			if !digits && (intModifier[words[0]] || !isWord(t) && t[0] != '\'') {
				return fail() // these names' productions take an integer
			}
			i++
			if next() == "," {
				i++
				continue
			}
			if next() != ")" {
				return fail()
			}
			i++
			break
		}
		for more() {
			words = append(words, strings.ToLower(next()))
			i++
		}
	}
	for next() == "[" {
		i++
		if t := next(); t != "" && t[0] >= '0' && t[0] <= '9' {
			i++
		}
		if next() != "]" {
			return fail()
		}
		i++
	}
	if i < len(toks) {
		return fail()
	}
	return nil
}

// typeNameWords are the names of several words, as the grammar has them.
var typeNameWords = []string{
	"double precision", "character varying", "char varying", "national character varying",
	"national char varying", "national character", "national char", "nchar varying", "bit varying",
	"timestamp with time zone", "timestamp without time zone", "time with time zone", "time without time zone",
}

// intModifier are the names whose modifier the grammar reads as an
// integer; other names take constants and names there.
var intModifier = map[string]bool{"varchar": true, "character": true, "char": true, "nchar": true, "national": true,
	"timestamp": true, "time": true, "float": true, "interval": true}

// typeNameContinues reports whether w may follow words in a type name.
func typeNameContinues(words []string, w string) bool {
	if words[0] == "interval" {
		switch w {
		case "year", "month", "day", "hour", "minute", "second", "to":
			return true
		}
		return false
	}
	prefix := strings.Join(append(words[:len(words):len(words)], w), " ")
	for _, n := range typeNameWords {
		if n == prefix || strings.HasPrefix(n, prefix+" ") {
			return true
		}
	}
	return false
}

// typeNameTokens splits s into the tokens of a type name: words (a quoted
// one with its quotes), numbers, string literals and punctuation; ok is
// false for a quote left open.
func typeNameTokens(s string) (toks []string, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j++
						continue
					}
					break
				}
			}
			if j >= len(s) {
				return nil, false
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case strings.IndexByte("().,[]", c) >= 0:
			toks = append(toks, string(c))
			i++
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t\n\r\"'().,[]", s[j]) < 0 {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, true
}
