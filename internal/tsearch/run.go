package tsearch

import "unicode/utf8"

// Token is one token of a text as the default parser reads it.
type Token struct {
	Type TokenType
	Text string
}

// Parse splits text into the default parser's tokens, as ts_parse does,
// passing each to emit in order.
func Parse(text string, emit func(Token)) {
	p := newParser(text)
	for p.next() {
		emit(Token{Type: p.tokType, Text: text[p.start : p.start+p.tokLen]})
	}
}

// position is where the automaton stands: in a state, at a byte offset,
// with n bytes read into the current token. pushed is the rule that pushed
// the position above it, or -1.
type position struct {
	state  pstate
	pos, n int
	pushed int
}

type parser struct {
	text     string
	stack    []position // the last is the current position
	ignore   bool       // inside <script> or <style>: text is blank
	wantHost bool       // the next host test stops at a host's end
	start    int        // where the current token starts

	// The last token accepted.
	tokLen  int
	tokType TokenType
}

func newParser(text string) *parser {
	return &parser{text: text, stack: []position{{state: sBase, pushed: -1}}}
}

// next reads one token; it reports false at the end of the text.
func (p *parser) next() bool {
	cur := &p.stack[len(p.stack)-1]
	if cur.pos >= len(p.text) {
		return false
	}
	p.start = cur.pos
	cur.pushed = -1
	for {
		cur = &p.stack[len(p.stack)-1]
		tab := rules[cur.state]
		i := 0
		if cur.pushed >= 0 {
			i, cur.pushed = cur.pushed+1, -1
		}
		for tab[i].test != tAny && !p.test(tab[i], cur) {
			i++
		}
		ru := tab[i]
		switch ru.x {
		case xTags:
			p.tags(cur.n)
		case xRewind:
			cur.pos -= cur.n
		case xFURL:
			p.wantHost = true
			cur.pos -= cur.n
		case xVerVersion:
			cur.pos -= cur.n
			cur.n = 0
		}
		if ru.act&aBingo != 0 {
			p.tokLen, p.tokType = cur.n, ru.tok
			cur.n = 0
		}
		switch {
		case ru.act&aPop != 0:
			p.stack = p.stack[:len(p.stack)-1]
		case ru.act&aPush != 0:
			cur.pushed = i
			p.stack = append(p.stack, position{state: cur.state, pos: cur.pos, n: cur.n, pushed: -1})
		case ru.act&aClear != 0:
			last := len(p.stack) - 1
			p.stack[last-1] = p.stack[last]
			p.stack = p.stack[:last]
		case ru.act&aClrAll != 0:
			p.stack[0] = p.stack[len(p.stack)-1]
			p.stack = p.stack[:1]
		case ru.act&aMerge != 0:
			last := len(p.stack) - 1
			p.stack[last-1].pos, p.stack[last-1].n = p.stack[last].pos, p.stack[last].n
			p.stack = p.stack[:last]
		}
		cur = &p.stack[len(p.stack)-1]
		if ru.to != sStay {
			cur.state = ru.to
		}
		if ru.act&aBingo != 0 {
			return true
		}
		if cur.pos >= len(p.text) && ru.act&aRerun == 0 {
			return false
		}
		if ru.act&(aRerun|aPop) != 0 {
			continue
		}
		size := 1
		if p.text[cur.pos] >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(p.text[cur.pos:])
		}
		cur.pos += size
		cur.n += size
	}
}

func (p *parser) test(ru rule, cur *position) bool {
	switch ru.test {
	case tEOF:
		return cur.pos >= len(p.text)
	case tIgnore:
		return p.ignore
	case tStopHost:
		if p.wantHost {
			p.wantHost = false
			return true
		}
		return false
	}
	if cur.pos >= len(p.text) {
		return ru.test == tNotAlnum
	}
	c := rune(p.text[cur.pos])
	if c >= utf8.RuneSelf {
		c, _ = utf8.DecodeRuneInString(p.text[cur.pos:])
	}
	switch ru.test {
	case tEq:
		return c == ru.c
	case tASCIILetter:
		return isASCIILetter(c)
	case tAlpha:
		return c >= 0x80 || isASCIILetter(c)
	case tDigit:
		return isDigit(c)
	case tAlnum:
		return c >= 0x80 || isASCIILetter(c) || isDigit(c)
	case tNotAlnum:
		return c < 0x80 && !isASCIILetter(c) && !isDigit(c)
	case tSpace:
		return c == ' ' || c >= '\t' && c <= '\r'
	case tXDigit:
		return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	case tURLChar:
		return isURLChar(c)
	case tHost:
		return p.follows(cur, Host, sBase)
	case tURLPath:
		return p.follows(cur, URLPath, sURLPathFirst)
	}
	panic("tsearch: unknown character test")
}

// follows reports whether a token of type typ starts at cur, read from
// state from; if so it extends the current token over it.
func (p *parser) follows(cur *position, typ TokenType, from pstate) bool {
	sub := newParser(p.text[cur.pos:])
	sub.wantHost = typ == Host
	if from != sBase {
		sub.stack = append(sub.stack, position{state: from, pushed: -1})
	}
	if !sub.next() || sub.tokType != typ {
		return false
	}
	cur.pos += sub.tokLen
	cur.n += sub.tokLen
	return true
}

// tags notes the start and end of <script> and <style>, whose content is
// blank; n bytes of a tag have been read.
func (p *parser) tags(n int) {
	switch tag := p.text[p.start : p.start+n]; {
	case equalFoldASCII(tag, "</script"), equalFoldASCII(tag, "</style"):
		p.ignore = false
	case equalFoldASCII(tag, "<script"), equalFoldASCII(tag, "<style"):
		p.ignore = true
	}
}

// equalFoldASCII reports whether s is lower, ignoring the case of ASCII
// letters.
func equalFoldASCII(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != lower[i] && !(c >= 'A' && c <= 'Z' && c+'a'-'A' == lower[i]) {
			return false
		}
	}
	return true
}

func isASCIILetter(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c rune) bool       { return c >= '0' && c <= '9' }

// isURLChar reports whether c may appear in a URL path: printable ASCII
// but for the characters RFC 3986 excludes.
func isURLChar(c rune) bool {
	if c <= ' ' || c >= 0x7f {
		return false
	}
	switch c {
	case '"', '<', '>', '\\', '^', '`', '{', '|', '}':
		return false
	}
	return true
}
