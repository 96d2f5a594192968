package value

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// JSON documents. A json value keeps the text it was given, checked to be
// JSON, as PostgreSQL's json does: its output is its input, byte for byte.
// A jsonb value is a parsed document (a *JSONNode, immutable once built):
// object keys sorted as PostgreSQL stores them (shorter first, then by
// bytes), a duplicate key keeping its last value, numbers as numerics.

// JSONKind is the type of a JSON node, declared in the order of
// PostgreSQL's jsonb btree class: null < string < number < boolean <
// array < object.
type JSONKind uint8

// The JSON node types.
const (
	JSONNull JSONKind = iota
	JSONString
	JSONNumber
	JSONBool
	JSONArray
	JSONObject
)

// jsonTypeNames are json_typeof's answers.
var jsonTypeNames = [...]string{"null", "string", "number", "boolean", "array", "object"}

// String is the type's name as json_typeof prints it.
func (t JSONKind) String() string { return jsonTypeNames[t] }

// JSONNode is one node of a parsed JSON document.
type JSONNode struct {
	Type JSONKind
	Bool bool
	// Str is a string's value (escapes decoded).
	Str string
	// Num is a number (jsonb), as a numeric.
	Num Value
	// Keys are an object's keys; Elems its values beside them, or an
	// array's elements.
	Keys  []string
	Elems []JSONNode
	// Raw is the text the node was parsed from, without surrounding white
	// space (a json document's nodes).
	Raw string
}

// NewJSON returns a json value holding s, which must be valid JSON.
func NewJSON(s string) Value {
	return Value{kind: JSON, p: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s))}
}

// NewJSONB returns a jsonb value holding n, a normalized document (keys
// sorted and unique: as ParseJSON(s, true) or NormalizeJSONB makes them);
// n must not be modified afterwards.
func NewJSONB(n *JSONNode) Value { return Value{kind: JSONB, p: unsafe.Pointer(n)} }

// JSONText returns a json value's text.
func (v Value) JSONText() string {
	if v.kind != JSON {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n))
}

// JSONB returns a jsonb value's document; nil for another kind.
func (v Value) JSONB() *JSONNode {
	if v.kind != JSONB {
		return nil
	}
	return (*JSONNode)(v.p)
}

// IsJSON reports whether k is json or jsonb.
func (k Kind) IsJSON() bool { return k == JSON || k == JSONB }

// JSONBytes approximates the memory behind a json, jsonb or jsonpath
// value; 0 for other kinds.
func JSONBytes(v Value) int64 {
	switch v.kind {
	case JSON:
		return (v.n + 7) &^ 7
	case JSONB:
		return jsonNodeBytes(v.JSONB())
	case JSONPath:
		// The parsed items and the canonical text, about as large.
		return 2 * int64(len(v.JSONPathOf().text)+7) &^ 7
	}
	return 0
}

func jsonNodeBytes(n *JSONNode) int64 {
	b := int64(unsafe.Sizeof(*n)) + int64(len(n.Str)+7)&^7
	for _, k := range n.Keys {
		b += 16 + int64(len(k)+7)&^7
	}
	for i := range n.Elems {
		b += jsonNodeBytes(&n.Elems[i])
	}
	return b
}

// maxJSONDepth bounds nesting, as PostgreSQL's stack depth limit does.
const maxJSONDepth = 6400

func errJSONSyntax(detail string) error {
	return &pgerr.Error{Code: pgerr.InvalidTextRep, Message: "invalid input syntax for type json", Detail: detail}
}

// ParseJSON parses s with PostgreSQL's JSON grammar. For jsonb, objects
// are normalized and numbers parsed as numerics, and \u0000 is refused
// (22P05); for json, each node keeps its text in Raw and objects keep
// their keys as written.
func ParseJSON(s string, jsonb bool) (*JSONNode, error) {
	p := jsonParser{s: s, jsonb: jsonb}
	n := new(JSONNode)
	p.space()
	if err := p.value(n, 0); err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(s) {
		return nil, errJSONSyntax("Expected end of input, but found \"" + p.token() + "\".")
	}
	return n, nil
}

type jsonParser struct {
	s     string
	i     int
	jsonb bool
}

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// token is the token at p.i as PostgreSQL's messages quote it.
func (p *jsonParser) token() string {
	j := p.i
	if j >= len(p.s) {
		return ""
	}
	switch p.s[j] {
	case '{', '}', '[', ']', ',', ':':
		return p.s[j : j+1]
	}
	for j < len(p.s) && !strings.ContainsRune(" \t\n\r{}[],:\"", rune(p.s[j])) {
		j++
	}
	if j == p.i {
		j++
	}
	return p.s[p.i:j]
}

func (p *jsonParser) unexpected(expected string) error {
	if p.i >= len(p.s) {
		return errJSONSyntax("The input string ended unexpectedly.")
	}
	c := p.s[p.i]
	if c != '{' && c != '}' && c != '[' && c != ']' && c != ',' && c != ':' && c != '"' && c != '-' && (c < '0' || c > '9') &&
		!strings.HasPrefix(p.s[p.i:], "true") && !strings.HasPrefix(p.s[p.i:], "false") && !strings.HasPrefix(p.s[p.i:], "null") {
		return errJSONSyntax("Token \"" + p.token() + "\" is invalid.")
	}
	return errJSONSyntax("Expected " + expected + ", but found \"" + p.token() + "\".")
}

func (p *jsonParser) value(n *JSONNode, depth int) error {
	if depth > maxJSONDepth {
		return pgerr.New("54001", "stack depth limit exceeded")
	}
	start := p.i
	if p.i >= len(p.s) {
		return errJSONSyntax("The input string ended unexpectedly.")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		if err := p.object(n, depth); err != nil {
			return err
		}
	case c == '[':
		if err := p.array(n, depth); err != nil {
			return err
		}
	case c == '"':
		str, err := p.str()
		if err != nil {
			return err
		}
		n.Type, n.Str = JSONString, str
	case c == '-' || c >= '0' && c <= '9':
		if err := p.number(n); err != nil {
			return err
		}
	default:
		w := p.token()
		switch w {
		case "true", "false":
			n.Type, n.Bool = JSONBool, w == "true"
		case "null":
			n.Type = JSONNull
		default:
			return errJSONSyntax("Token \"" + w + "\" is invalid.")
		}
		p.i += len(w)
	}
	if !p.jsonb {
		n.Raw = p.s[start:p.i]
	}
	return nil
}

func (p *jsonParser) number(n *JSONNode) error {
	s, j := p.s, p.i
	if s[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j - k
	}
	start := p.i
	invalid := func() error {
		e := j
		for e < len(s) && !strings.ContainsRune(" \t\n\r{}[],:\"", rune(s[e])) {
			e++
		}
		return errJSONSyntax("Token \"" + s[start:e] + "\" is invalid.")
	}
	if j < len(s) && s[j] == '0' {
		j++
	} else if digits() == 0 {
		return invalid()
	}
	if j < len(s) && s[j] == '.' {
		j++
		if digits() == 0 {
			return invalid()
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if digits() == 0 {
			return invalid()
		}
	}
	if j < len(s) && !strings.ContainsRune(" \t\n\r{}[],:\"", rune(s[j])) {
		return invalid()
	}
	n.Type = JSONNumber
	if p.jsonb {
		v, err := parseNumeric(s[start:j])
		if err != nil {
			return err
		}
		n.Num = v
	} else {
		n.Str = s[start:j]
	}
	p.i = j
	return nil
}

// str reads a string token, decoding its escapes.
func (p *jsonParser) str() (string, error) {
	s := p.s
	j := p.i + 1
	start := j
	var b []byte // the decoded text, once an escape is met
	for {
		if j >= len(s) {
			return "", errJSONSyntax("The input string ended unexpectedly.")
		}
		c := s[j]
		switch {
		case c == '"':
			p.i = j + 1
			if b == nil {
				return s[start:j], nil
			}
			return string(b), nil
		case c < 0x20:
			return "", errJSONSyntax("Character with value 0x" + strconv.FormatUint(uint64(c)|0x100, 16)[1:] + " must be escaped.")
		case c != '\\':
			if b != nil {
				b = append(b, c)
			}
			j++
			continue
		}
		if b == nil {
			b = append([]byte(nil), s[start:j]...)
		}
		j++
		if j >= len(s) {
			return "", errJSONSyntax("The input string ended unexpectedly.")
		}
		switch s[j] {
		case '"', '\\', '/':
			b = append(b, s[j])
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
		case 'u':
			r, k, err := p.unicode(j)
			if err != nil {
				return "", err
			}
			b, j = utf8.AppendRune(b, r), k
			continue
		default:
			_, size := utf8.DecodeRuneInString(s[j:])
			return "", errJSONSyntax("Escape sequence \"\\" + s[j:j+size] + "\" is invalid.")
		}
		j++
	}
}

// unicode decodes \uXXXX at s[j] == 'u' (and a low surrogate after a
// high one); k is the index after it.
func (p *jsonParser) unicode(j int) (r rune, k int, err error) {
	hex4 := func(at int) (rune, bool) {
		if at+4 > len(p.s) {
			return 0, false
		}
		n, err := strconv.ParseUint(p.s[at:at+4], 16, 32)
		return rune(n), err == nil && !strings.ContainsAny(p.s[at:at+4], "+-")
	}
	r, ok := hex4(j + 1)
	if !ok {
		return 0, 0, errJSONSyntax("\"\\u\" must be followed by four hexadecimal digits.")
	}
	k = j + 5
	switch {
	case r >= 0xD800 && r <= 0xDBFF:
		if k+1 < len(p.s) && p.s[k] == '\\' && p.s[k+1] == 'u' {
			lo, ok := hex4(k + 2)
			if !ok {
				return 0, 0, errJSONSyntax("\"\\u\" must be followed by four hexadecimal digits.")
			}
			if lo >= 0xDC00 && lo <= 0xDFFF {
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), k + 6, nil
			}
		}
		return 0, 0, errJSONSyntax("Unicode low surrogate must follow a high surrogate.")
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, 0, errJSONSyntax("Unicode low surrogate must follow a high surrogate.")
	case r == 0 && p.jsonb:
		return 0, 0, &pgerr.Error{Code: "22P05", Message: "unsupported Unicode escape sequence", Detail: "\\u0000 cannot be converted to text."}
	}
	return r, k, nil
}

func (p *jsonParser) array(n *JSONNode, depth int) error {
	p.i++
	n.Type = JSONArray
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.space()
		var e JSONNode
		if err := p.value(&e, depth+1); err != nil {
			return err
		}
		n.Elems = append(n.Elems, e)
		p.space()
		if p.i >= len(p.s) {
			return errJSONSyntax("The input string ended unexpectedly.")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.unexpected("\",\" or \"]\"")
		}
	}
}

func (p *jsonParser) object(n *JSONNode, depth int) error {
	p.i++
	n.Type = JSONObject
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.unexpected("string")
		}
		k, err := p.str()
		if err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.unexpected("\":\"")
		}
		p.i++
		p.space()
		var e JSONNode
		if err := p.value(&e, depth+1); err != nil {
			return err
		}
		n.Keys = append(n.Keys, k)
		n.Elems = append(n.Elems, e)
		p.space()
		if p.i >= len(p.s) {
			return errJSONSyntax("The input string ended unexpectedly.")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			if p.jsonb {
				normalizeObject(n)
			}
			return nil
		default:
			return p.unexpected("\",\" or \"}\"")
		}
	}
}

// CompareJSONKeys is the order of jsonb's stored keys: shorter first, then
// by bytes.
func CompareJSONKeys(a, b string) int {
	if len(a) != len(b) {
		return cmpInt(int64(len(a)), int64(len(b)))
	}
	return strings.Compare(a, b)
}

// normalizeObject sorts an object's keys as jsonb stores them and keeps
// the last value of a duplicate key.
func normalizeObject(n *JSONNode) {
	if len(n.Keys) < 2 {
		return
	}
	idx := make([]int, len(n.Keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return CompareJSONKeys(n.Keys[a], n.Keys[b]) })
	keys := make([]string, 0, len(idx))
	elems := make([]JSONNode, 0, len(idx))
	for i, j := range idx {
		if i+1 < len(idx) && n.Keys[idx[i+1]] == n.Keys[j] {
			continue // a later duplicate wins
		}
		keys = append(keys, n.Keys[j])
		elems = append(elems, n.Elems[j])
	}
	n.Keys, n.Elems = keys, elems
}

// NormalizeJSONB makes an object built by hand a jsonb object: keys sorted,
// the last of duplicates kept. Nested nodes must be normalized already.
func NormalizeJSONB(n *JSONNode) {
	if n.Type == JSONObject {
		normalizeObject(n)
	}
}

// parseJSONValue is the input function of json and jsonb.
func parseJSONValue(s string, k Kind) (Value, error) {
	n, err := ParseJSON(s, k == JSONB)
	if err != nil {
		return Null, err
	}
	if k == JSON {
		return NewJSON(s), nil
	}
	return NewJSONB(n), nil
}

// AppendJSONString appends s as a JSON string literal, escaped as
// PostgreSQL's escape_json does.
func AppendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			buf = append(buf, '\\', '"')
		case '\\':
			buf = append(buf, '\\', '\\')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			if c < 0x20 {
				buf = append(buf, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				buf = append(buf, c)
			}
		}
	}
	return append(buf, '"')
}

// AppendJSONB appends n in jsonb's output format: {"a": 1, "b": [1, 2]}.
func AppendJSONB(buf []byte, n *JSONNode) []byte {
	switch n.Type {
	case JSONNull:
		return append(buf, "null"...)
	case JSONBool:
		if n.Bool {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case JSONString:
		return AppendJSONString(buf, n.Str)
	case JSONNumber:
		if n.Num.kind == Unknown {
			return append(buf, n.Str...)
		}
		return AppendText(buf, n.Num)
	case JSONArray:
		buf = append(buf, '[')
		for i := range n.Elems {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendJSONB(buf, &n.Elems[i])
		}
		return append(buf, ']')
	}
	buf = append(buf, '{')
	for i := range n.Elems {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = AppendJSONString(buf, n.Keys[i])
		buf = append(buf, ": "...)
		buf = AppendJSONB(buf, &n.Elems[i])
	}
	return append(buf, '}')
}

// AppendJSONBPretty appends n as jsonb_pretty prints it: one element or
// pair per line, indented by four spaces a level.
func AppendJSONBPretty(buf []byte, n *JSONNode, level int) []byte {
	indent := func(b []byte, l int) []byte {
		b = append(b, '\n')
		for range l {
			b = append(b, "    "...)
		}
		return b
	}
	switch n.Type {
	case JSONArray, JSONObject:
	default:
		return AppendJSONB(buf, n)
	}
	open, close := byte('['), byte(']')
	if n.Type == JSONObject {
		open, close = '{', '}'
	}
	buf = append(buf, open) // an empty one too takes two lines, as in PostgreSQL
	for i := range n.Elems {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = indent(buf, level+1)
		if n.Type == JSONObject {
			buf = AppendJSONString(buf, n.Keys[i])
			buf = append(buf, ": "...)
		}
		buf = AppendJSONBPretty(buf, &n.Elems[i], level+1)
	}
	buf = indent(buf, level)
	return append(buf, close)
}

// compareJSONB is PostgreSQL's jsonb btree order (compareJsonbContainers):
// a top-level scalar is a one-element array marked raw, below a real
// array of one element and above an empty one. str orders two strings
// (keys and values): jsonb_cmp gives PostgreSQL's raw varstr_cmp result.
func compareJSONB(a, b *JSONNode, str func(x, y string) int) int {
	as, bs := a.Type < JSONArray, b.Type < JSONArray
	switch {
	case as && bs:
		return compareJSONNodes(a, b, str)
	case as && b.Type == JSONArray:
		if len(b.Elems) != 1 {
			return cmpInt(1, int64(len(b.Elems)))
		}
		return -1
	case bs && a.Type == JSONArray:
		if len(a.Elems) != 1 {
			return cmpInt(int64(len(a.Elems)), 1)
		}
		return 1
	case as:
		return -1 // a raw scalar's pseudo array before an object
	case bs:
		return 1
	}
	return compareJSONNodes(a, b, str)
}

// CompareJSONB is jsonb_cmp of two jsonb values: str orders their strings,
// as varstr_cmp under the default collation; every other difference is
// -1 or 1.
func CompareJSONB(a, b Value, str func(x, y string) int) int {
	return compareJSONB(a.JSONB(), b.JSONB(), str)
}

func compareJSONNodes(a, b *JSONNode, str func(x, y string) int) int {
	if a.Type != b.Type {
		return cmpInt(int64(a.Type), int64(b.Type))
	}
	switch a.Type {
	case JSONNull:
		return 0
	case JSONString:
		return str(a.Str, b.Str)
	case JSONNumber:
		return Compare(a.Num, b.Num)
	case JSONBool:
		return cmpInt(boolInt(a.Bool), boolInt(b.Bool))
	}
	if len(a.Elems) != len(b.Elems) {
		return cmpInt(int64(len(a.Elems)), int64(len(b.Elems)))
	}
	for i := range a.Elems {
		if a.Type == JSONObject {
			if c := str(a.Keys[i], b.Keys[i]); c != 0 {
				return c
			}
		}
		if c := compareJSONNodes(&a.Elems[i], &b.Elems[i], str); c != 0 {
			return c
		}
	}
	return 0
}

// appendJSONBKey writes the key encoding of a jsonb document, in
// compareJSONB's order: a top-level scalar as the array tag, a count of 1
// and a 0 (raw) byte before its own encoding; a top-level array as its
// tag, its length and a 1 byte before its elements. Below, each node is
// its type's byte, then a scalar's key or a container's count and its
// elements (an object's each after its key). It does not recurse, so that
// a caller's stack buffer stays on the stack.
func appendJSONBKey(buf []byte, n *JSONNode) []byte {
	switch n.Type {
	case JSONArray:
		buf = appendOrderedInt(append(buf, byte(JSONArray)), int64(len(n.Elems)))
		buf = append(buf, 1)
	case JSONObject:
		buf = appendOrderedInt(append(buf, byte(JSONObject)), int64(len(n.Elems)))
	default:
		buf = appendOrderedInt(append(buf, byte(JSONArray)), 1)
		return appendJSONScalarKey(append(buf, 0), n)
	}
	type frame struct {
		n *JSONNode
		i int
	}
	stack := append(make([]frame, 0, 8), frame{n, 0})
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == len(top.n.Elems) {
			stack = stack[:len(stack)-1]
			continue
		}
		i := top.i
		top.i++
		if top.n.Type == JSONObject {
			buf = appendStringKey(buf, top.n.Keys[i])
		}
		c := &top.n.Elems[i]
		if c.Type < JSONArray {
			buf = appendJSONScalarKey(buf, c)
			continue
		}
		buf = appendOrderedInt(append(buf, byte(c.Type)), int64(len(c.Elems)))
		stack = append(stack, frame{c, 0})
	}
	return buf
}

func appendJSONScalarKey(buf []byte, n *JSONNode) []byte {
	buf = append(buf, byte(n.Type))
	switch n.Type {
	case JSONString:
		return appendStringKey(buf, n.Str)
	case JSONNumber:
		var d apd.Decimal
		return appendNumericKey(append(buf, byte(Numeric)), n.Num.DecimalInto(&d))
	case JSONBool:
		return append(buf, byte(boolInt(n.Bool)))
	}
	return buf
}

// appendJSONText is the output function of json (its text) and jsonb.
func appendJSONText(buf []byte, v Value) []byte {
	if v.kind == JSON {
		return append(buf, v.JSONText()...)
	}
	return AppendJSONB(buf, v.JSONB())
}

// compareJSONValues orders json by its text (PostgreSQL has no order on
// json: this one only keeps rows of json values comparable) and jsonb as
// PostgreSQL does.
func compareJSONValues(a, b Value) int {
	if a.kind == JSON {
		return strings.Compare(a.JSONText(), b.JSONText())
	}
	return compareJSONB(a.JSONB(), b.JSONB(), strings.Compare)
}

func appendJSONValueKey(buf []byte, v Value) []byte {
	if v.kind == JSON {
		return appendStringKey(buf, v.JSONText())
	}
	return appendJSONBKey(buf, v.JSONB())
}

// canCastJSON is CanCast where one side is json or jsonb: to and from the
// string kinds, between json and jsonb, and from jsonb to boolean and the
// numeric kinds, all explicit (PostgreSQL's assignment casts between json
// and jsonb are taken as explicit).
func canCastJSON(from, to Kind, explicit bool) bool {
	switch {
	case !explicit:
		return false
	case from.IsString() || to.IsString():
		return true
	case from.IsJSON() && to.IsJSON():
		return true
	case from == JSONB:
		return to == Bool || to.IsNumeric()
	case from == HStore:
		return true // to json or jsonb
	}
	return false
}

// castJSON converts a json or jsonb value to a kind other than a string.
func castJSON(v Value, to Kind) (Value, error) {
	switch {
	case v.kind == JSON && to == JSONB:
		return parseJSONValue(v.JSONText(), JSONB)
	case v.kind == JSONB && to == JSON:
		return NewJSON(string(AppendJSONB(nil, v.JSONB()))), nil
	case v.kind == JSONB && (to == Bool || to.IsNumeric()):
		n := v.JSONB()
		switch {
		case to == Bool && n.Type == JSONBool:
			return NewBool(n.Bool), nil
		case to.IsNumeric() && n.Type == JSONNumber:
			if to == Numeric {
				return n.Num, nil
			}
			return convertNumber(n.Num, to)
		}
		name := n.Type.String()
		if n.Type == JSONNumber {
			name = "numeric"
		}
		return Null, pgerr.New(pgerr.InvalidParameter, "cannot cast jsonb %s to type %s", name, to)
	}
	return Null, errCannotCast(v.kind, to)
}
