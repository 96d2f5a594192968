package tsearch

import (
	"fmt"
	"unicode/utf8"
)

// Error is an error of text search input or of a function over vectors
// and queries, with PostgreSQL's SQLSTATE and message.
type Error struct{ Code, Msg string }

func (e *Error) Error() string    { return e.Msg }
func (e *Error) SQLState() string { return e.Code }

// SQLSTATEs of Error.
const (
	codeSyntax       = "42601"
	codeLimit        = "54000"
	codeInvalidParam = "22023"
	codeNullValue    = "22004"
	codeArrayIndex   = "2202E"
)

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// valueParser reads the words of a tsvector, or the operands of a tsquery,
// as PostgreSQL's gettoken_tsvector does: quoted or bare words with
// backslash escapes, and in a vector, positions and weights after a colon.
type valueParser struct {
	in        string
	at        int
	isQuery   bool // operators delimit words; errors speak of tsquery
	isWeb     bool // websearch_to_tsquery: no quotes or escapes
	word      []byte
	positions []Pos
}

// isOperator reports whether c is one of the characters that end a word of
// a query.
func isOperator(c byte) bool {
	return c == '!' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<'
}

func isSpace(c byte) bool  { return c == ' ' || c >= '\t' && c <= '\r' }
func isDigitB(c byte) bool { return c >= '0' && c <= '9' }

// charLen returns the length of the character at s[i], as pg_mblen does
// for UTF-8.
func charLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

func (p *valueParser) syntaxError() error {
	if p.isQuery {
		return errorf(codeSyntax, "syntax error in tsquery: \"%s\"", p.in)
	}
	return errorf(codeSyntax, "syntax error in tsvector: \"%s\"", p.in)
}

// The states of next.
const (
	waitWord = iota
	waitEndWord
	waitNextChar
	waitEndComplex
	waitPosInfo
	inPosInfo
	waitPosDelim
	waitCharComplex
)

// next reads the next word from p.at into p.word, and its positions into
// p.positions (hasPos false when it has none); ok is false at the end of
// the input.
func (p *valueParser) next() (ok, hasPos bool, err error) {
	p.word, p.positions = p.word[:0], p.positions[:0]
	state, old := waitWord, 0
	for {
		end := p.at >= len(p.in)
		var c byte
		if !end {
			c = p.in[p.at]
		}
		switch state {
		case waitWord:
			switch {
			case end:
				return false, false, nil
			case c == '\'' && !p.isWeb:
				state = waitEndComplex
			case c == '\\' && !p.isWeb:
				state, old = waitNextChar, waitEndWord
			case p.isQuery && isOperator(c), p.isWeb && c == '"':
				return false, false, p.syntaxError()
			case !isSpace(c):
				p.copyChar()
				state = waitEndWord
				continue
			}
		case waitNextChar:
			if end {
				return false, false, errorf(codeSyntax, "there is no escaped character: \"%s\"", p.in)
			}
			p.copyChar()
			state = old
			continue
		case waitEndWord:
			switch {
			case c == '\\' && !end && !p.isWeb:
				state, old = waitNextChar, waitEndWord
			case end || isSpace(c) || p.isQuery && isOperator(c) || p.isWeb && c == '"':
				if len(p.word) == 0 {
					return false, false, p.syntaxError()
				}
				return true, false, nil
			case c == ':':
				if len(p.word) == 0 {
					return false, false, p.syntaxError()
				}
				if p.isQuery {
					return true, false, nil
				}
				state = inPosInfo
			default:
				p.copyChar()
				continue
			}
		case waitEndComplex:
			switch {
			case end:
				return false, false, p.syntaxError()
			case c == '\'':
				state = waitCharComplex
			case c == '\\':
				state, old = waitNextChar, waitEndComplex
			default:
				p.copyChar()
				continue
			}
		case waitCharComplex:
			if !end && c == '\'' {
				p.copyChar()
				state = waitEndComplex
				continue
			}
			if len(p.word) == 0 {
				return false, false, p.syntaxError()
			}
			if p.isQuery {
				return true, false, nil
			}
			state = waitPosInfo
			continue // this character again
		case waitPosInfo:
			if end || c != ':' {
				return true, false, nil
			}
			state = inPosInfo
		case inPosInfo:
			if end || !isDigitB(c) {
				return false, false, p.syntaxError()
			}
			n := 0
			for i := p.at; i < len(p.in) && isDigitB(p.in[i]); i++ {
				n = min(n*10+int(p.in[i]-'0'), 1<<30)
			}
			if n == 0 {
				return false, false, errorf(codeSyntax, "wrong position info in tsvector: \"%s\"", p.in)
			}
			p.positions = append(p.positions, NewPos(n, 0))
			state = waitPosDelim
		case waitPosDelim:
			last := &p.positions[len(p.positions)-1]
			w := -1
			switch {
			case end || isSpace(c):
				return true, true, nil
			case c == ',':
				state = inPosInfo
			case c == 'a' || c == 'A' || c == '*':
				w = 3
			case c == 'b' || c == 'B':
				w = 2
			case c == 'c' || c == 'C':
				w = 1
			case c == 'd' || c == 'D':
				w = 0
			case !isDigitB(c):
				return false, false, p.syntaxError()
			}
			if w >= 0 {
				if last.Weight() != 0 {
					return false, false, p.syntaxError()
				}
				*last = NewPos(last.Position(), w)
			}
		}
		p.at += charLen(p.in, p.at)
	}
}

// copyChar appends the character at p.at to the word and moves past it.
func (p *valueParser) copyChar() {
	n := charLen(p.in, p.at)
	p.word = append(p.word, p.in[p.at:p.at+n]...)
	p.at += n
}

// ParseVector is tsvector's input function.
func ParseVector(s string) (Vector, error) {
	p := &valueParser{in: s}
	var ls []Lexeme
	for {
		ok, hasPos, err := p.next()
		if err != nil {
			return "", err
		}
		if !ok {
			break
		}
		if len(p.word) > MaxLexemeLen {
			return "", errorf(codeLimit, "word is too long (%d bytes, max %d bytes)", len(p.word), MaxLexemeLen)
		}
		l := Lexeme{Word: string(p.word), HasPos: hasPos}
		if hasPos {
			l.Pos = append([]Pos(nil), p.positions...)
		}
		ls = append(ls, l)
	}
	return BuildVector(uniqueLexemes(ls)), nil
}
