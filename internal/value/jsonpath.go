package value

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// jsonpath values. A jsonpath value points at its parsed expression (a
// *JSONPathExpr, immutable once built), which keeps its canonical text:
// PostgreSQL's output of the path, which is also what compares, hashes and
// prints. Evaluation lives with the functions that take a path.

// JSONPathOp is the operation of one item of a path.
type JSONPathOp uint8

// The items of a path, as PostgreSQL's jsonpath has them.
const (
	JPNull JSONPathOp = iota
	JPString
	JPNumeric
	JPBool
	JPVariable
	JPRoot    // $
	JPCurrent // @
	JPLast    // last, in an array subscript
	JPKey     // .key
	JPAnyKey  // .*
	JPAnyArray
	JPIndexArray // [a, b to c]
	JPAny        // .** and .**{a to b}
	JPFilter     // ?(predicate)
	JPAnd
	JPOr
	JPNot
	JPIsUnknown
	JPEqual
	JPNotEqual
	JPLess
	JPGreater
	JPLessOrEqual
	JPGreaterOrEqual
	JPStartsWith
	JPLikeRegex
	JPExists
	JPAdd
	JPSub
	JPMul
	JPDiv
	JPMod
	JPPlus  // unary +
	JPMinus // unary -
	JPType
	JPSize
	JPAbs
	JPFloor
	JPCeiling
	JPDouble
	JPKeyValue
	JPDatetime
)

// The flags of like_regex.
const (
	JPRegexICase = 1 << iota
	JPRegexDotAll
	JPRegexMLine
	JPRegexWSpace
	JPRegexQuote
)

// JSONPathAnyLast is the bound "last" of .**{…}.
const JSONPathAnyLast = ^uint32(0)

// JSONPathItem is one item of a path; Next is the accessor applied to its
// result.
type JSONPathItem struct {
	Op JSONPathOp
	// Str is a key, a string, a variable's name, a like_regex pattern or a
	// datetime template.
	Str string
	// Num is a numeric literal.
	Num  Value
	Bool bool
	// Left and Right are a binary operation's operands; Arg the operand of
	// a unary one, a filter's predicate, or .datetime's template (a string).
	Left, Right, Arg *JSONPathItem
	// Subs are an array accessor's subscripts; To is nil for a single one.
	Subs []JSONPathSub
	// First and Last bound .**'s levels.
	First, Last uint32
	// Flags are like_regex's.
	Flags uint8
	Next  *JSONPathItem
}

// JSONPathSub is one subscript of an array accessor.
type JSONPathSub struct{ From, To *JSONPathItem }

// JSONPathExpr is a parsed path.
type JSONPathExpr struct {
	Lax  bool
	Root *JSONPathItem
	text string
}

// String is the path's canonical text.
func (p *JSONPathExpr) String() string { return p.text }

// JSONPathType is the jsonpath type.
var JSONPathType = Type{JSONPath, -1}

// NewJSONPath returns a jsonpath value holding p.
func NewJSONPath(p *JSONPathExpr) Value { return Value{kind: JSONPath, p: unsafe.Pointer(p)} }

// JSONPathOf returns a jsonpath value's path; nil for another kind.
func (v Value) JSONPathOf() *JSONPathExpr {
	if v.kind != JSONPath {
		return nil
	}
	return (*JSONPathExpr)(v.p)
}

func errJSONPathSyntax(format string, args ...any) error {
	return pgerr.New(pgerr.SyntaxError, format, args...)
}

// ParseJSONPath parses s with PostgreSQL's jsonpath grammar.
func ParseJSONPath(s string) (*JSONPathExpr, error) {
	toks, err := lexJSONPath(s)
	if err != nil {
		return nil, err
	}
	if len(toks) == 1 {
		return nil, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type jsonpath: %q", s)
	}
	p := &jpParser{toks: toks}
	path := &JSONPathExpr{Lax: true}
	if p.isKeyword("strict") {
		path.Lax = false
		p.i++
	} else if p.isKeyword("lax") {
		p.i++
	}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.cur().kind != jtEOF {
		return nil, p.syntaxError()
	}
	if err := checkJSONPath(root, 0, false); err != nil {
		return nil, err
	}
	path.Root = root.item
	var b []byte
	if !path.Lax {
		b = append(b, "strict "...)
	}
	path.text = string(appendJSONPathItem(b, path.Root, false, true))
	return path, nil
}

// Tokens.
const (
	jtEOF = iota
	jtChar
	jtAnd
	jtOr
	jtNot
	jtAny
	jtLess
	jtLessEq
	jtEqual
	jtNotEqual
	jtGreaterEq
	jtGreater
	jtVariable
	jtString
	jtNumeric
	jtInt
	jtIdent
)

type jpToken struct {
	kind int
	text string // as written
	str  string // a string's, a variable's or an identifier's value
	num  Value
}

func jpSpecial(c byte) bool {
	return strings.IndexByte("?%$.[]{}()|&!=<>@#,*:-+/\\\" \t\n\r\f", c) >= 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func lexJSONPath(s string) ([]jpToken, error) {
	var toks []jpToken
	i := 0
	for {
		for i < len(s) && strings.IndexByte(" \t\n\r\f", s[i]) >= 0 {
			i++
		}
		if strings.HasPrefix(s[i:], "/*") {
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, errJSONPathSyntax("unexpected end of comment at end of jsonpath input")
			}
			i += end + 4
			continue
		}
		if i >= len(s) {
			return append(toks, jpToken{kind: jtEOF}), nil
		}
		start := i
		two := ""
		if i+1 < len(s) {
			two = s[i : i+2]
		}
		switch two {
		case "&&", "||", "!=", "**", "<=", "<>", "==", ">=":
			kind := map[string]int{"&&": jtAnd, "||": jtOr, "!=": jtNotEqual, "**": jtAny, "<=": jtLessEq, "<>": jtNotEqual, "==": jtEqual, ">=": jtGreaterEq}[two]
			toks = append(toks, jpToken{kind: kind, text: two})
			i += 2
			continue
		}
		c := s[i]
		switch {
		case c == '!':
			toks = append(toks, jpToken{kind: jtNot, text: "!"})
			i++
		case c == '<':
			toks = append(toks, jpToken{kind: jtLess, text: "<"})
			i++
		case c == '>':
			toks = append(toks, jpToken{kind: jtGreater, text: ">"})
			i++
		case c == '$' && i+1 < len(s) && s[i+1] == '"':
			str, n, err := lexJSONPathString(s, i+1)
			if err != nil {
				return nil, err
			}
			i = n
			toks = append(toks, jpToken{kind: jtVariable, text: s[start:i], str: str})
		case c == '$' && i+1 < len(s) && !jpSpecial(s[i+1]):
			i++
			for i < len(s) && !jpSpecial(s[i]) {
				i++
			}
			toks = append(toks, jpToken{kind: jtVariable, text: s[start:i], str: s[start+1 : i]})
		case c == '"':
			str, n, err := lexJSONPathString(s, i)
			if err != nil {
				return nil, err
			}
			i = n
			toks = append(toks, jpToken{kind: jtString, text: s[start:i], str: str})
		case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			t, n, err := lexJSONPathNumber(s, i)
			if err != nil {
				return nil, err
			}
			i = n
			toks = append(toks, t)
		case jpSpecial(c):
			toks = append(toks, jpToken{kind: jtChar, text: s[i : i+1]})
			i++
		default:
			for i < len(s) && !jpSpecial(s[i]) {
				i++
			}
			if strings.HasPrefix(s[i:], "/*") {
				// PostgreSQL's scanner loses an identifier that a comment
				// follows directly.
				continue
			}
			toks = append(toks, jpToken{kind: jtIdent, text: s[start:i], str: s[start:i]})
		}
	}
}

// lexJSONPathNumber reads an integer, a decimal or a real at s[i:].
func lexJSONPathNumber(s string, i int) (jpToken, int, error) {
	start := i
	kind := jtInt
	if s[i] == '0' {
		i++
	} else {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && s[i] == '.' {
		kind = jtNumeric
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			kind = jtNumeric
			i = j
		}
	}
	if i < len(s) && !jpSpecial(s[i]) {
		j := i
		for j < len(s) && !jpSpecial(s[j]) {
			j++
		}
		return jpToken{}, 0, errJSONPathSyntax("trailing junk after numeric literal at or near %q of jsonpath input", s[start:j])
	}
	v, err := parseNumeric(s[start:i])
	if err != nil {
		return jpToken{}, 0, err
	}
	return jpToken{kind: kind, text: s[start:i], num: v}, i, nil
}

// lexJSONPathString reads a double-quoted string at s[i:] with its
// escapes; it returns the value and the position after the closing quote.
func lexJSONPathString(s string, i int) (string, int, error) {
	var b []byte
	i++
	for {
		if i >= len(s) {
			return "", 0, errJSONPathSyntax("unexpected end of quoted string at end of jsonpath input")
		}
		c := s[i]
		if c == '"' {
			return string(b), i + 1, nil
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", 0, errJSONPathSyntax("unexpected end of quoted string at end of jsonpath input")
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, '\v')
		case 'x':
			if i+2 > len(s) || !isHex(s[i]) || !isHex(s[i+1]) {
				return "", 0, errJSONPathSyntax("invalid hexadecimal character sequence at or near %q of jsonpath input", s[i-2:min(i+2, len(s))])
			}
			n, _ := strconv.ParseUint(s[i:i+2], 16, 8)
			if n == 0 {
				return "", 0, pgerr.New("22P05", "unsupported Unicode escape sequence")
			}
			b = appendRune(b, rune(n))
			i += 2
		case 'u':
			r, n, err := lexJSONPathUnicode(s, i)
			if err != nil {
				return "", 0, err
			}
			b = appendRune(b, r)
			i = n
		default:
			b = append(b, e)
		}
	}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func appendRune(b []byte, r rune) []byte {
	return append(b, string(r)...)
}

// lexJSONPathUnicode reads the digits of \uXXXX or \u{X…} at s[i:],
// joining a surrogate pair.
func lexJSONPathUnicode(s string, i int) (rune, int, error) {
	bad := func() error {
		return errJSONPathSyntax("invalid Unicode escape sequence at or near %q of jsonpath input", s[max(i-2, 0):min(i+4, len(s))])
	}
	var r uint64
	if i < len(s) && s[i] == '{' {
		j := i + 1
		for j < len(s) && j-i <= 6 && isHex(s[j]) {
			j++
		}
		if j == i+1 || j >= len(s) || s[j] != '}' {
			return 0, 0, bad()
		}
		r, _ = strconv.ParseUint(s[i+1:j], 16, 32)
		i = j + 1
	} else {
		if i+4 > len(s) {
			return 0, 0, bad()
		}
		for _, c := range []byte(s[i : i+4]) {
			if !isHex(c) {
				return 0, 0, bad()
			}
		}
		r, _ = strconv.ParseUint(s[i:i+4], 16, 32)
		i += 4
	}
	switch {
	case r == 0:
		return 0, 0, pgerr.New("22P05", "unsupported Unicode escape sequence").WithDetail("\\u0000 cannot be converted to text.")
	case r >= 0xD800 && r <= 0xDBFF:
		if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			lo, n, err := lexJSONPathUnicode(s, i+2)
			if err == nil && lo >= 0xDC00 && lo <= 0xDFFF {
				return rune((r-0xD800)<<10 + uint64(lo-0xDC00) + 0x10000), n, nil
			}
		}
		return 0, 0, pgerr.New(pgerr.SyntaxError, "invalid input syntax for type jsonpath").WithDetail("Unicode high surrogate must not follow a high surrogate.")
	case r >= 0xDC00 && r <= 0xDFFF:
		return rune(r), i, nil
	case r > 0x10FFFF:
		return 0, 0, bad()
	}
	return rune(r), i, nil
}

// jpNode is a parsed item and whether it is a predicate (a boolean
// condition) rather than an expression; the grammar keeps them apart.
type jpNode struct {
	item *JSONPathItem
	pred bool
}

type jpParser struct {
	toks []jpToken
	i    int
}

func (p *jpParser) cur() jpToken { return p.toks[p.i] }

func (p *jpParser) isChar(c string) bool {
	t := p.toks[p.i]
	return t.kind == jtChar && t.text == c
}

func (p *jpParser) isKeyword(k string) bool {
	t := p.toks[p.i]
	return t.kind == jtIdent && strings.EqualFold(t.text, k)
}

func (p *jpParser) syntaxError() error {
	t := p.toks[p.i]
	if t.kind == jtEOF {
		return errJSONPathSyntax("syntax error at end of jsonpath input")
	}
	return errJSONPathSyntax("syntax error at or near %q of jsonpath input", t.text)
}

func (p *jpParser) expectChar(c string) error {
	if !p.isChar(c) {
		return p.syntaxError()
	}
	p.i++
	return nil
}

func (p *jpParser) pred(n jpNode) error {
	if !n.pred {
		return p.syntaxError()
	}
	return nil
}

func (p *jpParser) expr(n jpNode) error {
	if n.pred {
		return p.syntaxError()
	}
	return nil
}

func jpBinary(op JSONPathOp, l, r jpNode, pred bool) jpNode {
	return jpNode{item: &JSONPathItem{Op: op, Left: l.item, Right: r.item}, pred: pred}
}

func (p *jpParser) or() (jpNode, error) {
	l, err := p.and()
	for err == nil && p.cur().kind == jtOr {
		if err = p.pred(l); err != nil {
			break
		}
		p.i++
		var r jpNode
		if r, err = p.and(); err == nil {
			if err = p.pred(r); err == nil {
				l = jpBinary(JPOr, l, r, true)
			}
		}
	}
	return l, err
}

func (p *jpParser) and() (jpNode, error) {
	l, err := p.not()
	for err == nil && p.cur().kind == jtAnd {
		if err = p.pred(l); err != nil {
			break
		}
		p.i++
		var r jpNode
		if r, err = p.not(); err == nil {
			if err = p.pred(r); err == nil {
				l = jpBinary(JPAnd, l, r, true)
			}
		}
	}
	return l, err
}

func (p *jpParser) not() (jpNode, error) {
	if p.cur().kind != jtNot {
		return p.comparison()
	}
	p.i++
	switch {
	case p.isKeyword("exists"):
		x, err := p.exists()
		if err != nil {
			return x, err
		}
		return jpNode{item: &JSONPathItem{Op: JPNot, Arg: x.item}, pred: true}, nil
	case p.isChar("("):
		p.i++
		x, err := p.or()
		if err != nil {
			return x, err
		}
		if err := p.pred(x); err != nil {
			return x, err
		}
		if err := p.expectChar(")"); err != nil {
			return x, err
		}
		return jpNode{item: &JSONPathItem{Op: JPNot, Arg: x.item}, pred: true}, nil
	}
	return jpNode{}, p.syntaxError()
}

func (p *jpParser) exists() (jpNode, error) {
	p.i++
	if err := p.expectChar("("); err != nil {
		return jpNode{}, err
	}
	x, err := p.or()
	if err != nil {
		return x, err
	}
	if err := p.expr(x); err != nil {
		return x, err
	}
	if err := p.expectChar(")"); err != nil {
		return x, err
	}
	return jpNode{item: &JSONPathItem{Op: JPExists, Arg: x.item}, pred: true}, nil
}

var jpComparisons = map[int]JSONPathOp{jtEqual: JPEqual, jtNotEqual: JPNotEqual, jtLess: JPLess,
	jtGreater: JPGreater, jtLessEq: JPLessOrEqual, jtGreaterEq: JPGreaterOrEqual}

func (p *jpParser) comparison() (jpNode, error) {
	l, err := p.additive()
	if err != nil {
		return l, err
	}
	if op, ok := jpComparisons[p.cur().kind]; ok {
		if err := p.expr(l); err != nil {
			return l, err
		}
		p.i++
		r, err := p.additive()
		if err != nil {
			return r, err
		}
		if err := p.expr(r); err != nil {
			return r, err
		}
		return jpBinary(op, l, r, true), nil
	}
	switch {
	case p.isKeyword("starts"):
		if err := p.expr(l); err != nil {
			return l, err
		}
		p.i++
		if !p.isKeyword("with") {
			return l, p.syntaxError()
		}
		p.i++
		t := p.cur()
		var r *JSONPathItem
		switch t.kind {
		case jtString:
			r = &JSONPathItem{Op: JPString, Str: t.str}
		case jtVariable:
			r = &JSONPathItem{Op: JPVariable, Str: t.str}
		default:
			return l, p.syntaxError()
		}
		p.i++
		return jpNode{item: &JSONPathItem{Op: JPStartsWith, Left: l.item, Right: r}, pred: true}, nil
	case p.isKeyword("like_regex"):
		if err := p.expr(l); err != nil {
			return l, err
		}
		p.i++
		if p.cur().kind != jtString {
			return l, p.syntaxError()
		}
		it := &JSONPathItem{Op: JPLikeRegex, Arg: l.item, Str: p.cur().str}
		p.i++
		if p.isKeyword("flag") {
			p.i++
			if p.cur().kind != jtString {
				return l, p.syntaxError()
			}
			for _, c := range p.cur().str {
				switch c {
				case 'i':
					it.Flags |= JPRegexICase
				case 's':
					it.Flags |= JPRegexDotAll
				case 'm':
					it.Flags |= JPRegexMLine
				case 'x':
					it.Flags |= JPRegexWSpace
				case 'q':
					it.Flags |= JPRegexQuote
				default:
					return l, pgerr.New(pgerr.SyntaxError, "invalid input syntax for type jsonpath").
						WithDetail("Unrecognized flag character \"%c\" in LIKE_REGEX predicate.", c)
				}
			}
			if it.Flags&JPRegexWSpace != 0 {
				return l, pgerr.New(pgerr.FeatureNotSupported, "XQuery \"x\" flag (expanded regular expressions) is not implemented")
			}
			p.i++
		}
		return jpNode{item: it, pred: true}, nil
	}
	return l, nil
}

func (p *jpParser) additive() (jpNode, error) {
	l, err := p.multiplicative()
	for err == nil && (p.isChar("+") || p.isChar("-")) {
		op := JPAdd
		if p.isChar("-") {
			op = JPSub
		}
		if err = p.expr(l); err != nil {
			break
		}
		p.i++
		var r jpNode
		if r, err = p.multiplicative(); err == nil {
			if err = p.expr(r); err == nil {
				l = jpBinary(op, l, r, false)
			}
		}
	}
	return l, err
}

func (p *jpParser) multiplicative() (jpNode, error) {
	l, err := p.unary()
	for err == nil && (p.isChar("*") || p.isChar("/") || p.isChar("%")) {
		op := map[string]JSONPathOp{"*": JPMul, "/": JPDiv, "%": JPMod}[p.cur().text]
		if err = p.expr(l); err != nil {
			break
		}
		p.i++
		var r jpNode
		if r, err = p.unary(); err == nil {
			if err = p.expr(r); err == nil {
				l = jpBinary(op, l, r, false)
			}
		}
	}
	return l, err
}

func (p *jpParser) unary() (jpNode, error) {
	if !p.isChar("+") && !p.isChar("-") {
		return p.accessor()
	}
	minus := p.isChar("-")
	p.i++
	x, err := p.unary()
	if err != nil {
		return x, err
	}
	if err := p.expr(x); err != nil {
		return x, err
	}
	if x.item.Op == JPNumeric && x.item.Next == nil {
		if minus {
			n, err := Neg(x.item.Num)
			if err != nil {
				return x, err
			}
			return jpNode{item: &JSONPathItem{Op: JPNumeric, Num: n}}, nil
		}
		return x, nil
	}
	op := JPPlus
	if minus {
		op = JPMinus
	}
	return jpNode{item: &JSONPathItem{Op: op, Arg: x.item}}, nil
}

// appendNext appends it at the end of x's chain of accessors.
func appendNext(x, it *JSONPathItem) {
	for x.Next != nil {
		x = x.Next
	}
	x.Next = it
}

func (p *jpParser) accessor() (jpNode, error) {
	t := p.cur()
	var x jpNode
	switch {
	case t.kind == jtVariable:
		x.item = &JSONPathItem{Op: JPVariable, Str: t.str}
	case t.kind == jtString:
		x.item = &JSONPathItem{Op: JPString, Str: t.str}
	case t.kind == jtNumeric || t.kind == jtInt:
		x.item = &JSONPathItem{Op: JPNumeric, Num: t.num}
	case p.isKeyword("null"):
		x.item = &JSONPathItem{Op: JPNull}
	case p.isKeyword("true") || p.isKeyword("false"):
		x.item = &JSONPathItem{Op: JPBool, Bool: p.isKeyword("true")}
	case p.isKeyword("last"):
		x.item = &JSONPathItem{Op: JPLast}
	case p.isChar("$"):
		x.item = &JSONPathItem{Op: JPRoot}
	case p.isChar("@"):
		x.item = &JSONPathItem{Op: JPCurrent}
	case p.isKeyword("exists"):
		return p.exists()
	case p.isChar("("):
		p.i++
		inner, err := p.or()
		if err != nil {
			return inner, err
		}
		if err := p.expectChar(")"); err != nil {
			return inner, err
		}
		if inner.pred {
			if p.isKeyword("is") {
				p.i++
				if !p.isKeyword("unknown") {
					return inner, p.syntaxError()
				}
				p.i++
				return jpNode{item: &JSONPathItem{Op: JPIsUnknown, Arg: inner.item}, pred: true}, nil
			}
			if !p.isChar(".") && !p.isChar("[") && !p.isChar("?") {
				return inner, nil
			}
		}
		x = jpNode{item: inner.item}
		return x, p.accessors(x.item, inner.pred)
	default:
		return x, p.syntaxError()
	}
	p.i++
	return x, p.accessors(x.item, false)
}

var jpMethods = map[string]JSONPathOp{"type": JPType, "size": JPSize, "abs": JPAbs, "floor": JPFloor,
	"ceiling": JPCeiling, "double": JPDouble, "keyvalue": JPKeyValue}

var jpKeywords = map[string]bool{"is": true, "to": true, "abs": true, "lax": true, "flag": true, "last": true,
	"null": true, "size": true, "true": true, "type": true, "with": true, "false": true, "floor": true,
	"double": true, "exists": true, "starts": true, "strict": true, "ceiling": true, "unknown": true,
	"datetime": true, "keyvalue": true, "like_regex": true}

// accessors reads the accessors after x; one is required when must.
func (p *jpParser) accessors(x *JSONPathItem, must bool) error {
	for n := 0; ; n++ {
		var it *JSONPathItem
		switch {
		case p.isChar("."):
			p.i++
			t := p.cur()
			switch {
			case t.kind == jtChar && t.text == "*":
				it = &JSONPathItem{Op: JPAnyKey}
				p.i++
			case t.kind == jtAny:
				p.i++
				var err error
				if it, err = p.anyPath(); err != nil {
					return err
				}
			case t.kind == jtString:
				it = &JSONPathItem{Op: JPKey, Str: t.str}
				p.i++
			case t.kind == jtIdent:
				p.i++
				low := strings.ToLower(t.text)
				if op, ok := jpMethods[low]; ok && p.isChar("(") {
					p.i++
					if err := p.expectChar(")"); err != nil {
						return err
					}
					it = &JSONPathItem{Op: op}
				} else if low == "datetime" && p.isChar("(") {
					p.i++
					it = &JSONPathItem{Op: JPDatetime}
					if p.cur().kind == jtString {
						it.Arg = &JSONPathItem{Op: JPString, Str: p.cur().str}
						p.i++
					}
					if err := p.expectChar(")"); err != nil {
						return err
					}
				} else {
					it = &JSONPathItem{Op: JPKey, Str: t.str}
				}
			default:
				return p.syntaxError()
			}
		case p.isChar("["):
			p.i++
			var err error
			if it, err = p.subscripts(); err != nil {
				return err
			}
		case p.isChar("?"):
			p.i++
			if err := p.expectChar("("); err != nil {
				return err
			}
			f, err := p.or()
			if err != nil {
				return err
			}
			if err := p.pred(f); err != nil {
				return err
			}
			if err := p.expectChar(")"); err != nil {
				return err
			}
			it = &JSONPathItem{Op: JPFilter, Arg: f.item}
		default:
			if n == 0 && must {
				return p.syntaxError()
			}
			return nil
		}
		appendNext(x, it)
	}
}

func (p *jpParser) anyLevel() (uint32, error) {
	t := p.cur()
	switch {
	case t.kind == jtInt:
		p.i++
		n, err := strconv.ParseUint(t.text, 10, 32)
		if err != nil {
			return 0, errJSONPathSyntax("syntax error at or near %q of jsonpath input", t.text)
		}
		return uint32(n), nil
	case p.isKeyword("last"):
		p.i++
		return JSONPathAnyLast, nil
	}
	return 0, p.syntaxError()
}

func (p *jpParser) anyPath() (*JSONPathItem, error) {
	it := &JSONPathItem{Op: JPAny, First: 0, Last: JSONPathAnyLast}
	if !p.isChar("{") {
		return it, nil
	}
	p.i++
	var err error
	if it.First, err = p.anyLevel(); err != nil {
		return nil, err
	}
	it.Last = it.First
	if p.isKeyword("to") {
		p.i++
		if it.Last, err = p.anyLevel(); err != nil {
			return nil, err
		}
	}
	return it, p.expectChar("}")
}

func (p *jpParser) subscripts() (*JSONPathItem, error) {
	if p.isChar("*") && p.toks[p.i+1].kind == jtChar && p.toks[p.i+1].text == "]" {
		p.i += 2
		return &JSONPathItem{Op: JPAnyArray}, nil
	}
	it := &JSONPathItem{Op: JPIndexArray}
	for {
		from, err := p.additive()
		if err != nil {
			return nil, err
		}
		if err := p.expr(from); err != nil {
			return nil, err
		}
		sub := JSONPathSub{From: from.item}
		if p.isKeyword("to") {
			p.i++
			to, err := p.additive()
			if err != nil {
				return nil, err
			}
			if err := p.expr(to); err != nil {
				return nil, err
			}
			sub.To = to.item
		}
		it.Subs = append(it.Subs, sub)
		if p.isChar(",") {
			p.i++
			continue
		}
		return it, p.expectChar("]")
	}
}

// checkJSONPath refuses @ outside a filter and last outside an array
// subscript, as PostgreSQL does once the path is parsed.
func checkJSONPath(n jpNode, filters int, inSubscript bool) error {
	var walk func(it *JSONPathItem, filters int, inSub bool) error
	walk = func(it *JSONPathItem, filters int, inSub bool) error {
		for ; it != nil; it = it.Next {
			switch it.Op {
			case JPCurrent:
				if filters == 0 {
					return errJSONPathSyntax("@ is not allowed in root expressions")
				}
			case JPLast:
				if !inSub {
					return errJSONPathSyntax("LAST is allowed only in array subscripts")
				}
			case JPFilter:
				if err := walk(it.Arg, filters+1, inSub); err != nil {
					return err
				}
			case JPIndexArray:
				for _, s := range it.Subs {
					if err := walk(s.From, filters, true); err != nil {
						return err
					}
					if err := walk(s.To, filters, true); err != nil {
						return err
					}
				}
			default:
				for _, a := range []*JSONPathItem{it.Left, it.Right, it.Arg} {
					if err := walk(a, filters, inSub); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(n.item, filters, inSubscript)
}

// jpOpNames are the operators' names in the canonical text.
var jpOpNames = map[JSONPathOp]string{JPAnd: "&&", JPOr: "||", JPEqual: "==", JPNotEqual: "!=", JPLess: "<",
	JPGreater: ">", JPLessOrEqual: "<=", JPGreaterOrEqual: ">=", JPAdd: "+", JPSub: "-", JPMul: "*",
	JPDiv: "/", JPMod: "%", JPStartsWith: "starts with", JPLikeRegex: "like_regex", JPPlus: "+", JPMinus: "-",
	JPType: "type", JPSize: "size", JPAbs: "abs", JPFloor: "floor", JPCeiling: "ceiling", JPDouble: "double",
	JPKeyValue: "keyvalue", JPDatetime: "datetime"}

// JSONPathOpName is an operator's or a method's name as PostgreSQL's
// messages print it.
func JSONPathOpName(op JSONPathOp) string { return jpOpNames[op] }

func jpPriority(op JSONPathOp) int {
	switch op {
	case JPOr:
		return 0
	case JPAnd:
		return 1
	case JPEqual, JPNotEqual, JPLess, JPGreater, JPLessOrEqual, JPGreaterOrEqual, JPStartsWith:
		return 2
	case JPAdd, JPSub:
		return 3
	case JPMul, JPDiv, JPMod:
		return 4
	case JPPlus, JPMinus:
		return 5
	}
	return 6
}

// appendJSONPathItem prints it as PostgreSQL's jsonpath output does.
func appendJSONPathItem(b []byte, it *JSONPathItem, inKey, brackets bool) []byte {
	sub := func(b []byte, arg *JSONPathItem) []byte {
		return appendJSONPathItem(b, arg, false, jpPriority(arg.Op) <= jpPriority(it.Op))
	}
	switch it.Op {
	case JPNull:
		b = append(b, "null"...)
	case JPKey:
		if inKey {
			b = append(b, '.')
		}
		b = AppendJSONString(b, it.Str)
	case JPString:
		b = AppendJSONString(b, it.Str)
	case JPVariable:
		b = AppendJSONString(append(b, '$'), it.Str)
	case JPNumeric:
		if it.Next != nil {
			b = append(b, '(')
		}
		b = AppendText(b, it.Num)
		if it.Next != nil {
			b = append(b, ')')
		}
	case JPBool:
		if it.Bool {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	case JPAnd, JPOr, JPEqual, JPNotEqual, JPLess, JPGreater, JPLessOrEqual, JPGreaterOrEqual,
		JPAdd, JPSub, JPMul, JPDiv, JPMod, JPStartsWith:
		if brackets {
			b = append(b, '(')
		}
		b = sub(b, it.Left)
		b = append(append(append(b, ' '), jpOpNames[it.Op]...), ' ')
		b = sub(b, it.Right)
		if brackets {
			b = append(b, ')')
		}
	case JPLikeRegex:
		if brackets {
			b = append(b, '(')
		}
		b = sub(b, it.Arg)
		b = AppendJSONString(append(b, " like_regex "...), it.Str)
		if it.Flags != 0 {
			b = append(b, " flag \""...)
			for i, c := range "ismxq" {
				if it.Flags&[]uint8{JPRegexICase, JPRegexDotAll, JPRegexMLine, JPRegexWSpace, JPRegexQuote}[i] != 0 {
					b = append(b, byte(c))
				}
			}
			b = append(b, '"')
		}
		if brackets {
			b = append(b, ')')
		}
	case JPPlus, JPMinus:
		if brackets {
			b = append(b, '(')
		}
		b = append(b, jpOpNames[it.Op]...)
		b = sub(b, it.Arg)
		if brackets {
			b = append(b, ')')
		}
	case JPFilter:
		b = append(appendJSONPathItem(append(b, "?("...), it.Arg, false, false), ')')
	case JPNot:
		b = append(appendJSONPathItem(append(b, "!("...), it.Arg, false, false), ')')
	case JPIsUnknown:
		b = append(appendJSONPathItem(append(b, '('), it.Arg, false, false), ") is unknown"...)
	case JPExists:
		b = append(appendJSONPathItem(append(b, "exists ("...), it.Arg, false, false), ')')
	case JPCurrent:
		b = append(b, '@')
	case JPRoot:
		b = append(b, '$')
	case JPLast:
		b = append(b, "last"...)
	case JPAnyArray:
		b = append(b, "[*]"...)
	case JPAnyKey:
		if inKey {
			b = append(b, '.')
		}
		b = append(b, '*')
	case JPIndexArray:
		b = append(b, '[')
		for i, s := range it.Subs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONPathItem(b, s.From, false, false)
			if s.To != nil {
				b = appendJSONPathItem(append(b, " to "...), s.To, false, false)
			}
		}
		b = append(b, ']')
	case JPAny:
		if inKey {
			b = append(b, '.')
		}
		level := func(n uint32) string {
			if n == JSONPathAnyLast {
				return "last"
			}
			return strconv.FormatUint(uint64(n), 10)
		}
		switch {
		case it.First == 0 && it.Last == JSONPathAnyLast:
			b = append(b, "**"...)
		case it.First == it.Last:
			b = append(b, "**{"+level(it.First)+"}"...)
		default:
			b = append(b, "**{"+level(it.First)+" to "+level(it.Last)+"}"...)
		}
	case JPDatetime:
		b = append(b, ".datetime("...)
		if it.Arg != nil {
			b = appendJSONPathItem(b, it.Arg, false, false)
		}
		b = append(b, ')')
	default:
		b = append(append(append(b, '.'), jpOpNames[it.Op]...), "()"...)
	}
	if it.Next != nil {
		b = appendJSONPathItem(b, it.Next, true, true)
	}
	return b
}

// parseJSONPathValue is jsonpath's input function.
func parseJSONPathValue(s string) (Value, error) {
	p, err := ParseJSONPath(s)
	if err != nil {
		return Null, err
	}
	return NewJSONPath(p), nil
}
