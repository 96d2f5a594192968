package value

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// hstore values (the hstore extension's type): a set of key/value pairs of
// strings, a value possibly NULL. A value keeps its output text, which is
// canonical as PostgreSQL's is (the pairs ordered by key length, then key
// bytes, each key once), so that equal hstores have equal texts and the
// text serves as the value's key.

// HStoreType is the hstore type.
var HStoreType = Type{HStore, -1}

// HPair is a pair of an hstore; Null marks a NULL value.
type HPair struct {
	Key, Val string
	Null     bool
}

// NewHStore returns the hstore of pairs, sorted and made unique as
// PostgreSQL does: of pairs with the same key, the first is kept. pairs
// may be reordered.
func NewHStore(pairs []HPair) Value {
	slices.SortStableFunc(pairs, func(a, b HPair) int {
		if len(a.Key) != len(b.Key) {
			return len(a.Key) - len(b.Key)
		}
		return strings.Compare(a.Key, b.Key)
	})
	pairs = slices.CompactFunc(pairs, func(a, b HPair) bool { return a.Key == b.Key })
	var buf []byte
	for i, p := range pairs {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendHStoreString(buf, p.Key)
		buf = append(buf, "=>"...)
		if p.Null {
			buf = append(buf, "NULL"...)
		} else {
			buf = appendHStoreString(buf, p.Val)
		}
	}
	s := string(buf)
	return Value{kind: HStore, p: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s))}
}

// appendHStoreString quotes s as hstore's output does.
func appendHStoreString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			buf = append(buf, '\\')
		}
		buf = append(buf, s[i])
	}
	return append(buf, '"')
}

// HStorePairs returns an hstore's pairs, in its order.
func (v Value) HStorePairs() []HPair {
	if v.kind != HStore {
		return nil
	}
	pairs, _ := parseHStorePairs(v.Str())
	return pairs
}

// ParseHStore reads s with hstore's input function, with its errors
// (XX000 in PostgreSQL 15, as its parser raises them).
func ParseHStore(s string) (Value, error) {
	pairs, err := parseHStorePairs(s)
	if err != nil {
		return Null, err
	}
	return NewHStore(pairs), nil
}

func errHStoreEnd() error { return pgerr.New(pgerr.Internal, "Unexpected end of string") }

func errHStoreNear(s string, i int) error {
	_, n := utf8.DecodeRuneInString(s[i:])
	return pgerr.New(pgerr.Internal, "Syntax error near \"%s\" at position %d", s[i:i+n], i)
}

func isHStoreSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// hstoreWord reads a key (value false) or a value from s at i, quoted or
// not, backslash escaping the next byte; it returns the word, whether it
// was quoted, the index of the last byte read and false when s ends
// before a word.
func hstoreWord(s string, i int, value bool) (w string, quoted bool, end int, ok bool, err error) {
	var b []byte
	for ; i < len(s) && isHStoreSpace(s[i]); i++ {
	}
	if i == len(s) {
		return "", false, i, false, nil
	}
	switch {
	case s[i] == '"':
		for i++; ; i++ {
			if i == len(s) {
				return "", false, i, false, errHStoreEnd()
			}
			switch s[i] {
			case '\\':
				if i+1 == len(s) {
					return "", false, i, false, errHStoreEnd()
				}
				i++
				b = append(b, s[i])
			case '"':
				return string(b), true, i, true, nil
			default:
				b = append(b, s[i])
			}
		}
	case s[i] == '=' && !value:
		return "", false, i, false, errHStoreNear(s, i)
	case s[i] != '\\':
		// The first byte is the word's, whatever it is (a value may start
		// with a comma).
		b = append(b, s[i])
		i++
	}
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			if i+1 == len(s) {
				return "", false, i, false, errHStoreEnd()
			}
			i++
			b = append(b, s[i])
		case c == '=' && !value, c == ',' && value:
			return string(b), false, i - 1, true, nil
		case isHStoreSpace(c):
			return string(b), false, i, true, nil
		default:
			b = append(b, c)
		}
	}
	return string(b), false, i - 1, true, nil
}

// parseHStorePairs reads hstore's input syntax: "key"=>"value" pairs (the
// quotes optional, a value NULL when it is an unquoted null in any case)
// separated by commas, with blanks around each.
func parseHStorePairs(s string) ([]HPair, error) {
	var pairs []HPair
	i := 0
	for {
		k, _, end, ok, err := hstoreWord(s, i, false)
		if err != nil {
			return nil, err
		}
		if !ok {
			return pairs, nil
		}
		// "=>" after blanks.
		for i = end + 1; i < len(s) && isHStoreSpace(s[i]); i++ {
		}
		if i == len(s) {
			return nil, errHStoreEnd()
		}
		if s[i] != '=' {
			return nil, errHStoreNear(s, i)
		}
		if i++; i == len(s) {
			return nil, errHStoreEnd()
		}
		if s[i] != '>' {
			return nil, errHStoreNear(s, i)
		}
		v, quoted, end, ok, err := hstoreWord(s, i+1, true)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errHStoreEnd()
		}
		p := HPair{Key: k, Val: v}
		if !quoted && strings.EqualFold(v, "null") {
			p = HPair{Key: k, Null: true}
		}
		pairs = append(pairs, p)
		// "," or the end, after blanks.
		for i = end + 1; i < len(s) && isHStoreSpace(s[i]); i++ {
		}
		if i == len(s) {
			return pairs, nil
		}
		if s[i] != ',' {
			return nil, errHStoreNear(s, i)
		}
		i++
	}
}

// compareHStores orders hstores as hstore's btree operator class does:
// by the bytes of their keys and values laid end to end, then their
// lengths, the numbers of pairs, and the ends and NULLs of the entries.
func compareHStores(a, b Value) int {
	x, y := a.HStorePairs(), b.HStorePairs()
	if len(x) == 0 || len(y) == 0 {
		return cmpInt(int64(len(x)), int64(len(y)))
	}
	dx, ex := hstoreLayout(x)
	dy, ey := hstoreLayout(y)
	n := min(len(dx), len(dy))
	if c := strings.Compare(dx[:n], dy[:n]); c != 0 {
		return c
	}
	switch {
	case len(dx) != len(dy):
		return cmpInt(int64(len(dx)), int64(len(dy)))
	case len(x) != len(y):
		return cmpInt(int64(len(x)), int64(len(y)))
	}
	for i := range ex {
		if ex[i] != ey[i] {
			switch {
			case ex[i].end != ey[i].end:
				return cmpInt(int64(ex[i].end), int64(ey[i].end))
			case ex[i].null:
				return 1
			default:
				return -1
			}
		}
	}
	return 0
}

type hstoreEntry struct {
	end  int
	null bool
}

// hstoreLayout lays pairs out as PostgreSQL stores them: the keys and
// values end to end (a NULL value empty), and each entry's end and NULL
// mark, a key's then its value's.
func hstoreLayout(pairs []HPair) (string, []hstoreEntry) {
	var b strings.Builder
	es := make([]hstoreEntry, 0, 2*len(pairs))
	for _, p := range pairs {
		b.WriteString(p.Key)
		es = append(es, hstoreEntry{b.Len(), false})
		if !p.Null {
			b.WriteString(p.Val)
		}
		es = append(es, hstoreEntry{b.Len(), p.Null})
	}
	return b.String(), es
}

// appendHStoreKey appends v's key, which orders as compareHStores: an
// empty hstore first, then the laid-out bytes (a string key orders as
// memcmp, the shorter first), the number of pairs and the entries.
func appendHStoreKey(buf []byte, v Value) []byte {
	pairs := v.HStorePairs()
	if len(pairs) == 0 {
		return append(buf, 0)
	}
	data, es := hstoreLayout(pairs)
	buf = appendStringKey(append(buf, 1), data)
	buf = appendOrderedInt(buf, int64(len(pairs)))
	for _, e := range es {
		buf = appendOrderedInt(buf, int64(e.end))
		if e.null {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	return buf
}

// HStoreJSON writes an hstore as hstore_to_json does: {"k": "v", "n":
// null}; loose writes t and f as booleans and JSON numbers unquoted
// (hstore_to_json_loose).
func HStoreJSON(v Value, loose bool) string {
	var b []byte
	b = append(b, '{')
	for i, p := range v.HStorePairs() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = AppendJSONString(b, p.Key)
		b = append(b, ": "...)
		switch {
		case p.Null:
			b = append(b, "null"...)
		case loose && p.Val == "t":
			b = append(b, "true"...)
		case loose && p.Val == "f":
			b = append(b, "false"...)
		case loose && isJSONNumber(p.Val):
			b = append(b, p.Val...)
		default:
			b = AppendJSONString(b, p.Val)
		}
	}
	return string(append(b, '}'))
}

// isJSONNumber reports whether s is a JSON number, as hstore's *_loose
// functions ask before writing a value unquoted.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// castHStoreJSON is the cast of an hstore to json or jsonb, as the
// extension's casts call hstore_to_json and hstore_to_jsonb.
func castHStoreJSON(v Value, to Kind) (Value, error) {
	return parseJSONValue(HStoreJSON(v, false), to)
}
