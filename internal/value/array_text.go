package value

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// appendArray writes PostgreSQL's text output of an array (array_out):
// {1,NULL,"a b"}, nested braces per dimension ({{1,2},{3,4}}), and the
// dimensions first ([0:1]={1,2}) when a lower bound is not 1. An element
// is quoted when it is empty, is NULL spelt as text, or holds a brace, a
// quote, a comma, a backslash or white space.
func appendArray(buf []byte, v Value, st TextStyle, z Zone) []byte {
	dims := v.Dims()
	if len(dims) == 0 {
		return append(buf, "{}"...)
	}
	if v.sc == shaped {
		for _, d := range dims {
			if d.Lower != 1 {
				for _, d := range dims {
					buf = append(buf, '[')
					buf = strconv.AppendInt(buf, int64(d.Lower), 10)
					buf = append(buf, ':')
					buf = strconv.AppendInt(buf, int64(d.Lower+d.Len-1), 10)
					buf = append(buf, ']')
				}
				buf = append(buf, '=')
				break
			}
		}
	}
	var tmp []byte
	es := v.Elems()
	delim := arrayDelim(v.kind.Elem())
	// idx counts the position in each dimension; a brace opens where the
	// inner indexes are all 0 and closes where they all reach the end.
	idx := make([]int, len(dims))
	for range dims {
		buf = append(buf, '{')
	}
	for n, e := range es {
		if n > 0 {
			// Advance the index, closing and reopening the dimensions
			// that wrapped.
			j := len(dims) - 1
			for ; j > 0 && idx[j] == dims[j].Len-1; j-- {
				idx[j] = 0
			}
			idx[j]++
			for k := j + 1; k < len(dims); k++ {
				buf = append(buf, '}')
			}
			buf = append(buf, delim)
			for k := j + 1; k < len(dims); k++ {
				buf = append(buf, '{')
			}
		}
		if e.kind == Unknown {
			buf = append(buf, "NULL"...)
			continue
		}
		switch e.kind {
		case Record:
			tmp = appendRecord(tmp[:0], e, st, z)
		case Int2Vector, OidVector:
			tmp = appendVector(tmp[:0], e)
		case Interval:
			tmp = AppendIntervalStyle(tmp[:0], e.Span(), st)
		case TimestampTZ, TSTZRange, TSTZMultirange, Date, Timestamp, Bytea, DateRange, TSRange, DateMultirange, TSMultirange,
			Float4, Float8, Point, LSeg, Path, Box, Polygon, Line, Circle:
			tmp = AppendTextZone(tmp[:0], e, st, z)
		default:
			tmp = appendScalarText(tmp[:0], e)
		}
		if !needsQuotes(tmp, delim) {
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
	for range dims {
		buf = append(buf, '}')
	}
	return buf
}

func needsQuotes(s []byte, delim byte) bool {
	if len(s) == 0 || strings.EqualFold(string(s), "NULL") {
		return true
	}
	for _, c := range s {
		switch c {
		case '{', '}', '"', delim, '\\':
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

const errRagged = "Multidimensional arrays must have sub-arrays with matching dimensions."

// arrayReader reads PostgreSQL's text input of an array (array_in).
type arrayReader struct {
	s, t  string // the input, and it without surrounding white space
	i     int
	elem  Type
	delim byte      // between elements: ',', or a box's ';'
	style TextStyle // in which interval elements read
	zone  *Zone     // in which timestamptz elements without an offset read; nil: UTC
	elems []Value
	dims  [MaxDims]int // the length of each dimension, 0 until seen
	depth int          // the dimension whose elements are scalars; -1 before the first
	sb    strings.Builder
}

// parseArray reads PostgreSQL's text input of an array of elem: {1, 2,
// NULL}, {"a b","c\"d"}, {{1,2},{3,4}}, [0:1]={1,2}. Elements are parsed
// as elem, so '{1,x}'::int[] fails as 'x'::int does; sub-arrays of
// different lengths are 22P02.
func parseArray(s string, elem Type) (Value, error) {
	return parseArrayIn(s, elem, IntervalPostgres)
}

// parseArrayIn is parseArray reading interval elements under IntervalStyle
// st (ParseIntervalIn).
func parseArrayIn(s string, elem Type, st TextStyle) (Value, error) {
	return parseArrayZone(s, elem, st, nil)
}

// parseArrayZone is parseArrayIn reading timestamptz elements (alone or
// in ranges) without an offset as z's wall-clock time.
func parseArrayZone(s string, elem Type, st TextStyle, z *Zone) (Value, error) {
	r := &arrayReader{s: s, t: trimSpace(s), elem: elem, style: st, zone: z, depth: -1, delim: arrayDelim(elem.Kind)}
	var explicit []Dim
	if len(r.t) > 0 && r.t[0] == '[' {
		var err error
		if explicit, err = r.readBounds(); err != nil {
			return Null, err
		}
	} else if len(r.t) == 0 || r.t[0] != '{' {
		return Null, errArrayLiteral(s, `Array value must start with "{" or dimension information.`)
	}
	r.i++
	if err := r.readLevel(0); err != nil {
		return Null, err
	}
	for ; r.i < len(r.t); r.i++ {
		if !isSpace(r.t[r.i]) {
			return Null, errArrayLiteral(s, "Junk after closing right brace.")
		}
	}
	k := ArrayOf(elem.Kind)
	nd := r.depth + 1
	if explicit != nil {
		if len(explicit) != nd {
			return Null, errArrayLiteral(s, "Specified array dimensions do not match array contents.")
		}
		for i, d := range explicit {
			if d.Len != r.dims[i] {
				return Null, errArrayLiteral(s, "Specified array dimensions do not match array contents.")
			}
		}
		return NewArrayDims(k, r.elems, explicit), nil
	}
	if nd <= 1 {
		return NewArray(k, r.elems), nil
	}
	dims := make([]Dim, nd)
	for i, n := range r.dims[:nd] {
		dims[i] = Dim{Len: n, Lower: 1}
	}
	return NewArrayDims(k, r.elems, dims), nil
}

// readBounds reads the dimensions before the elements, [l:u] or [u] for
// each, then = and the opening brace.
func (r *arrayReader) readBounds() ([]Dim, error) {
	var dims []Dim
	t := r.t
	num := func() (int, bool) {
		j := r.i
		if j < len(t) && (t[j] == '+' || t[j] == '-') {
			j++
		}
		k := j
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		if k == j {
			return 0, false
		}
		n, err := strconv.ParseInt(t[r.i:k], 10, 32)
		if err != nil {
			return 0, false
		}
		r.i = k
		return int(n), true
	}
	for {
		for r.i < len(t) && isSpace(t[r.i]) {
			r.i++
		}
		if r.i >= len(t) || t[r.i] != '[' {
			break
		}
		if len(dims) == MaxDims {
			return nil, CheckDims(MaxDims + 1)
		}
		r.i++
		lo, ok := num()
		if !ok {
			return nil, errArrayLiteral(r.s, `"[" must introduce explicitly-specified array dimensions.`)
		}
		hi := lo
		if r.i < len(t) && t[r.i] == ':' {
			r.i++
			if hi, ok = num(); !ok {
				return nil, errArrayLiteral(r.s, "Missing array dimension value.")
			}
		} else {
			lo = 1
		}
		if r.i >= len(t) || t[r.i] != ']' {
			return nil, errArrayLiteral(r.s, `Missing "]" after array dimensions.`)
		}
		r.i++
		if hi < lo {
			return nil, pgerr.New(ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
		dims = append(dims, Dim{Len: hi - lo + 1, Lower: lo})
	}
	if r.i >= len(t) || t[r.i] != '=' {
		return nil, errArrayLiteral(r.s, `Missing "=" after array dimensions.`)
	}
	r.i++
	for r.i < len(t) && isSpace(t[r.i]) {
		r.i++
	}
	if r.i >= len(t) || t[r.i] != '{' {
		return nil, errArrayLiteral(r.s, `Array contents must start with "{".`)
	}
	return dims, nil
}

func (r *arrayReader) skip() {
	for r.i < len(r.t) && isSpace(r.t[r.i]) {
		r.i++
	}
}

// readLevel reads the items of a brace at depth d, after the brace, up
// to and including the closing one: sub-arrays or elements, never both.
func (r *arrayReader) readLevel(d int) error {
	if d >= MaxDims {
		return CheckDims(d + 1)
	}
	t := r.t
	r.skip()
	if r.i < len(t) && t[r.i] == '}' {
		if d > 0 {
			return errArrayLiteral(r.s, `Unexpected "}" character.`)
		}
		r.i++
		return nil
	}
	n := 0
	for {
		r.skip()
		if r.i >= len(t) {
			return errArrayLiteral(r.s, "Unexpected end of input.")
		}
		if t[r.i] == '{' {
			if r.depth == d {
				return errArrayLiteral(r.s, `Unexpected "{" character.`)
			}
			r.i++
			if err := r.readLevel(d + 1); err != nil {
				return err
			}
		} else {
			switch {
			case t[r.i] == r.delim || t[r.i] == '}':
				return errArrayLiteral(r.s, "Unexpected \""+string(t[r.i])+"\" character.")
			case r.depth == -1:
				r.depth = d
			case r.depth != d:
				return errArrayLiteral(r.s, "Unexpected array element.")
			}
			if err := r.readElem(); err != nil {
				return err
			}
		}
		n++
		r.skip()
		if r.i >= len(t) {
			return errArrayLiteral(r.s, "Unexpected end of input.")
		}
		c := t[r.i]
		r.i++
		if c == '}' {
			break
		}
		if c != r.delim {
			return errArrayLiteral(r.s, "Unexpected \""+string(c)+"\" character.")
		}
	}
	switch {
	case r.dims[d] == 0:
		r.dims[d] = n
	case r.dims[d] != n:
		return errArrayLiteral(r.s, errRagged)
	}
	return nil
}

// readElem reads one element, quoted or not, up to the comma or brace
// after it.
func (r *arrayReader) readElem() error {
	t, s := r.t, r.s
	sb := &r.sb
	sb.Reset()
	quoted, escaped, keep := false, false, 0
	if t[r.i] == '"' {
		quoted = true
		r.i++
		for {
			if r.i >= len(t) {
				return errArrayLiteral(s, "Unexpected end of input.")
			}
			c := t[r.i]
			r.i++
			if c == '"' {
				break
			}
			if c == '\\' && r.i < len(t) {
				c = t[r.i]
				r.i++
			}
			sb.WriteByte(c)
		}
	} else {
		// Unquoted: up to a comma or brace, trailing white space
		// dropped unless escaped.
		for r.i < len(t) && t[r.i] != r.delim && t[r.i] != '}' {
			c := t[r.i]
			r.i++
			switch {
			case c == '{' || c == '"':
				return errArrayLiteral(s, "Unexpected \""+string(c)+"\" character.")
			case c == '\\' && r.i < len(t):
				sb.WriteByte(t[r.i])
				r.i++
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
			return errArrayLiteral(s, "Unexpected \""+string(t[min(r.i, len(t)-1)])+"\" character.")
		}
	}
	text := sb.String()
	if !quoted {
		text = text[:keep]
	}
	if !quoted && !escaped && strings.EqualFold(text, "NULL") {
		r.elems = append(r.elems, Null)
		return nil
	}
	var e Value
	var err error
	if r.style.Order() != OrderMDY && DateInputKind(r.elem.Kind) {
		z := UTC
		if r.zone != nil {
			z = *r.zone
		}
		e, err = ParseStyled(text, r.elem, r.style, z)
	} else if r.zone != nil {
		e, err = ParseZone(text, r.elem, *r.zone)
	} else {
		e, err = ParseIntervalIn(text, r.elem, r.style)
	}
	if err != nil {
		return err
	}
	r.elems = append(r.elems, e)
	return nil
}

// arrayDelim is pg_type.typdelim of an element kind: ';' for box, whose
// text holds commas, ',' for every other type.
func arrayDelim(elem Kind) byte {
	if elem == Box {
		return ';'
	}
	return ','
}
