package sql

// lexer walks SQL text token by token as PostgreSQL's scanner does, as far
// as statement ends and expression nesting need: it knows string
// constants (standard, E'…' with backslash escapes, dollar-quoted), quoted
// identifiers, nested /* */ and -- comments, words, numbers, operators and
// single-character punctuation. It keeps only its offset, allocates
// nothing, and never fails: an unterminated string or comment runs to the
// end of the text, where the parser reports it.
//
// It runs in Go before the cgo parser sees the text, so that nothing the
// text holds can make the parser exhaust its stack or memory.
type lexer struct {
	s string
	i int
}

type tokKind uint8

const (
	tkEOF      tokKind = iota
	tkWord             // an unquoted identifier or keyword
	tkIdent            // a quoted identifier
	tkString           // a string constant of any kind
	tkNumber           // a numeric constant
	tkOp               // a run of operator characters
	tkTypecast         // ::
	tkPunct            // one of ( ) [ ] , ; . : and anything unrecognised
	tkParam            // $n
	tkComment          // a comment
)

// next returns the next token's kind and the offsets of its text.
func (l *lexer) next() (tokKind, int, int) {
	s := l.s
	for l.i < len(s) && isSpace(s[l.i]) {
		l.i++
	}
	start := l.i
	if l.i >= len(s) {
		return tkEOF, start, start
	}
	c := s[l.i]
	switch {
	case c == '-' && l.peek(1) == '-':
		for l.i < len(s) && s[l.i] != '\n' && s[l.i] != '\r' {
			l.i++
		}
		return tkComment, start, l.i
	case c == '/' && l.peek(1) == '*':
		l.skipComment()
		return tkComment, start, l.i
	case c == '\'':
		l.skipQuoted('\'', false)
		return tkString, start, l.i
	case c == '"':
		l.skipQuoted('"', false)
		return tkIdent, start, l.i
	case c == '$':
		if d := l.dollarTag(); d > 0 {
			tag := s[l.i : l.i+d]
			l.i += d
			for l.i < len(s) {
				if s[l.i] == '$' && len(s)-l.i >= len(tag) && s[l.i:l.i+len(tag)] == tag {
					l.i += len(tag)
					return tkString, start, l.i
				}
				l.i++
			}
			return tkString, start, l.i
		}
		l.i++
		for l.i < len(s) && isDigit(s[l.i]) {
			l.i++
		}
		if l.i > start+1 {
			return tkParam, start, l.i
		}
		return tkPunct, start, l.i
	case isIdentStart(c):
		for l.i < len(s) && isIdentCont(s[l.i]) {
			l.i++
		}
		// E'…' is one token, an escape string constant. Other prefixes
		// (B, X, N, U&) are followed by a standard string, which the next
		// call reads as a token of its own.
		if l.i == start+1 && (c == 'e' || c == 'E') && l.peek(0) == '\'' {
			l.skipQuoted('\'', true)
			return tkString, start, l.i
		}
		return tkWord, start, l.i
	case isDigit(c) || (c == '.' && isDigit(l.peek(1))):
		for l.i < len(s) {
			d := s[l.i]
			if (d == 'e' || d == 'E') && (l.peek(1) == '+' || l.peek(1) == '-') {
				l.i += 2
				continue
			}
			if !isDigit(d) && !isIdentStart(d) && d != '.' {
				break
			}
			if d == '.' && l.peek(1) == '.' { // 1..2 is not a number
				break
			}
			l.i++
		}
		return tkNumber, start, l.i
	case c == ':' && l.peek(1) == ':':
		l.i += 2
		return tkTypecast, start, l.i
	case isOpChar(c):
		for l.i < len(s) && isOpChar(s[l.i]) {
			// A comment starts inside an operator, as in PostgreSQL.
			if (s[l.i] == '-' && l.peek(1) == '-') || (s[l.i] == '/' && l.peek(1) == '*') {
				if l.i > start {
					break
				}
			}
			l.i++
		}
		return tkOp, start, l.i
	}
	l.i++
	return tkPunct, start, l.i
}

func (l *lexer) peek(k int) byte {
	if l.i+k < len(l.s) {
		return l.s[l.i+k]
	}
	return 0
}

// skipComment skips a /* */ comment, which nests.
func (l *lexer) skipComment() {
	s, depth := l.s, 0
	for l.i < len(s) {
		switch {
		case s[l.i] == '/' && l.peek(1) == '*':
			depth++
			l.i += 2
		case s[l.i] == '*' && l.peek(1) == '/':
			depth--
			l.i += 2
			if depth == 0 {
				return
			}
		default:
			l.i++
		}
	}
}

// skipQuoted skips a quoted token starting at or just after l.i: a doubled
// quote stands for itself, and with backslash a backslash escapes the
// next byte.
func (l *lexer) skipQuoted(q byte, backslash bool) {
	s := l.s
	if s[l.i] != q {
		l.i++ // the E of E'…'
	}
	l.i++
	for l.i < len(s) {
		switch c := s[l.i]; {
		case backslash && c == '\\':
			l.i += 2
		case c == q && l.peek(1) == q:
			l.i += 2
		case c == q:
			l.i++
			return
		default:
			l.i++
		}
	}
	if l.i > len(s) {
		l.i = len(s)
	}
}

// dollarTag returns the length of the $tag$ (or $$) at l.i, or 0.
func (l *lexer) dollarTag() int {
	s := l.s
	j := l.i + 1
	if j < len(s) && isIdentStart(s[j]) {
		for j < len(s) && isIdentStart(s[j]) || j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && s[j] == '$' {
		return j + 1 - l.i
	}
	return 0
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}
func isIdentCont(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }
func isOpChar(c byte) bool {
	switch c {
	case '~', '!', '@', '#', '^', '&', '|', '`', '?', '+', '-', '*', '/', '%', '<', '>', '=':
		return true
	}
	return false
}
