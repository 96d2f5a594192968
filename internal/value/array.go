package value

import (
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Arrays. An array is one-dimensional with lower bound 1, of one scalar
// kind, and may hold NULL elements. Its kind is arrayBase + the element's
// kind, so that every array type is a Kind of its own: int4[] and text[]
// never meet without a cast, as in PostgreSQL. The Value points at its
// elements (immutable once built) and holds their count.
const arrayBase Kind = 64

// ArrayOf returns the kind of arrays of elem, a scalar kind.
func ArrayOf(elem Kind) Kind { return arrayBase + elem }

// ArrayType returns the type of arrays of elem.
func ArrayType(elem Kind) Type { return Type{ArrayOf(elem), -1} }

// IsArray reports whether k is an array kind.
func (k Kind) IsArray() bool { return k > arrayBase && k < arrayBase+numKinds }

// Elem returns an array kind's element kind; Unknown for other kinds.
func (k Kind) Elem() Kind {
	if k.IsArray() {
		return k - arrayBase
	}
	return Unknown
}

// NewArray returns an array of kind k (an array kind) holding elems, which
// are NULL or of k's element kind; elems must not be modified afterwards.
func NewArray(k Kind, elems []Value) Value {
	return Value{kind: k, p: unsafe.Pointer(unsafe.SliceData(elems)), n: int64(len(elems))}
}

// Elems returns an array's elements, which must not be modified; nil for
// an empty array or another kind.
func (v Value) Elems() []Value {
	if !v.kind.IsArray() || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), int(v.n))
}

// compareArrays is PostgreSQL's btree order of arrays: element by element
// (NULL after every value, equal to NULL), then the shorter first.
func compareArrays(a, b Value) int {
	x, y := a.Elems(), b.Elems()
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := Compare(x[i], y[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(x)), int64(len(y)))
}

// appendArrayKey writes each element's key after a 1 byte, then a 0 byte:
// a proper prefix of an array sorts first, as in compareArrays.
func appendArrayKey(buf []byte, v Value) []byte {
	for _, e := range v.Elems() {
		buf = appendScalarKey(append(buf, 1), e)
	}
	return append(buf, 0)
}

// appendArray writes PostgreSQL's text output of an array: {1,NULL,"a b"}.
// An element is quoted when it is empty, is NULL spelt as text, or holds a
// brace, a quote, a comma, a backslash or white space.
func appendArray(buf []byte, v Value) []byte {
	buf = append(buf, '{')
	var tmp []byte
	for i, e := range v.Elems() {
		if i > 0 {
			buf = append(buf, ',')
		}
		if e.kind == Unknown {
			buf = append(buf, "NULL"...)
			continue
		}
		if tmp = appendScalarText(tmp[:0], e); e.kind == Record {
			tmp = appendRecord(tmp[:0], e)
		}
		if !needsQuotes(tmp) {
			buf = append(buf, tmp...)
			continue
		}
		buf = append(buf, '"')
		for _, c := range tmp {
			if c == '"' || c == '\\' {
				buf = append(buf, '\\')
			}
			buf = append(buf, c)
		}
		buf = append(buf, '"')
	}
	return append(buf, '}')
}

func needsQuotes(s []byte) bool {
	if len(s) == 0 || strings.EqualFold(string(s), "NULL") {
		return true
	}
	for _, c := range s {
		switch c {
		case '{', '}', '"', ',', '\\':
			return true
		}
		if isSpace(c) {
			return true
		}
	}
	return false
}

func errArrayLiteral(s, detail string) error {
	return &pgerr.Error{Code: pgerr.InvalidTextRep, Message: "malformed array literal: \"" + s + "\"", Detail: detail}
}

// parseArray reads PostgreSQL's text input of a one-dimensional array of
// elem: {1, 2, NULL}, {"a b","c\"d"}. Elements are parsed as elem, so
// '{1,x}'::int[] fails as 'x'::int does. A nested array is 0A000.
func parseArray(s string, elem Type) (Value, error) {
	t := trimSpace(s)
	if len(t) == 0 || t[0] != '{' {
		if len(t) > 0 && t[0] == '[' {
			return Null, pgerr.New(pgerr.FeatureNotSupported, "array bounds other than the default are not supported")
		}
		return Null, errArrayLiteral(s, `Array value must start with "{" or dimension information.`)
	}
	var elems []Value
	i := 1
	skip := func() {
		for i < len(t) && isSpace(t[i]) {
			i++
		}
	}
	skip()
	if i < len(t) && t[i] == '}' {
		i++
	} else {
		var sb strings.Builder
		for {
			skip()
			if i >= len(t) {
				return Null, errArrayLiteral(s, "Unexpected end of input.")
			}
			if t[i] == '{' {
				return Null, pgerr.New(pgerr.FeatureNotSupported, "multidimensional arrays are not supported")
			}
			sb.Reset()
			quoted, escaped, keep := false, false, 0
			if t[i] == '"' {
				quoted = true
				i++
				for {
					if i >= len(t) {
						return Null, errArrayLiteral(s, "Unexpected end of input.")
					}
					c := t[i]
					i++
					if c == '"' {
						break
					}
					if c == '\\' && i < len(t) {
						c = t[i]
						i++
					}
					sb.WriteByte(c)
				}
				skip()
			} else {
				// Unquoted: up to a comma or brace, trailing white space
				// dropped unless escaped.
				for i < len(t) && t[i] != ',' && t[i] != '}' {
					c := t[i]
					i++
					switch {
					case c == '{' || c == '"':
						return Null, errArrayLiteral(s, "Unexpected \""+string(c)+"\" character.")
					case c == '\\' && i < len(t):
						sb.WriteByte(t[i])
						i++
						escaped = true
						keep = sb.Len()
					default:
						sb.WriteByte(c)
						if !isSpace(c) {
							keep = sb.Len()
						}
					}
				}
				if keep == 0 {
					return Null, errArrayLiteral(s, "Unexpected \""+string(t[min(i, len(t)-1)])+"\" character.")
				}
			}
			text := sb.String()
			if !quoted {
				text = text[:keep]
			}
			if !quoted && !escaped && strings.EqualFold(text, "NULL") {
				elems = append(elems, Null)
			} else {
				e, err := Parse(text, elem)
				if err != nil {
					return Null, err
				}
				elems = append(elems, e)
			}
			if i >= len(t) {
				return Null, errArrayLiteral(s, "Unexpected end of input.")
			}
			c := t[i]
			i++
			if c == '}' {
				break
			}
			if c != ',' {
				return Null, errArrayLiteral(s, "Unexpected \""+string(c)+"\" character.")
			}
		}
	}
	for ; i < len(t); i++ {
		if !isSpace(t[i]) {
			return Null, errArrayLiteral(s, "Junk after closing right brace.")
		}
	}
	return NewArray(ArrayOf(elem.Kind), elems), nil
}

// castArray casts each element of v to to's element kind.
func castArray(v Value, to Kind, explicit bool) (Value, error) {
	if v.kind == to {
		return v, nil
	}
	src := v.Elems()
	out := make([]Value, len(src))
	et := Type{to.Elem(), -1}
	for i, e := range src {
		c, err := Cast(e, et, explicit)
		if err != nil {
			return Null, err
		}
		out[i] = c
	}
	return NewArray(to, out), nil
}

// ArrayBytes is the memory an array's elements take beyond its Value.
func ArrayBytes(v Value) int64 {
	es := v.Elems()
	n := int64(len(es)) * int64(unsafe.Sizeof(Value{}))
	for _, e := range es {
		if e.kind.IsString() {
			n += (e.n + 7) &^ 7
		}
	}
	return n
}
