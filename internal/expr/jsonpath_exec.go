package expr

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The evaluation of a jsonpath over a jsonb document, as PostgreSQL's
// jsonpath_exec.c does it: lax mode unwraps arrays and wraps scalars where
// an accessor needs the other, and ignores structural errors (a missing
// key); strict mode raises them. A predicate is three-valued (true, false,
// unknown); an error inside a predicate's operands makes it unknown. With
// silent, the errors that PostgreSQL's functions suppress are not raised.

// SQL/JSON error codes.
const (
	codeJSONMemberNotFound   = "2203A"
	codeJSONArrayNotFound    = "22039"
	codeJSONObjectNotFound   = "2203C"
	codeInvalidJSONSubscript = "22033"
	codeSingletonRequired    = "22038"
	codeJSONNumberNotFound   = "2203B"
	codeNonNumericJSONItem   = "22036"
	codeJSONDatetimeFunction = "22031"
)

// jpItem is one item of a sequence: a node of a document, or a datetime
// that .datetime() made (dt; n is nil).
type jpItem struct {
	n  *value.JSONNode
	dt value.Value
	// tz is a timestamptz's or timetz's offset in seconds east of UTC, as
	// written in its text.
	tz int
}

func (it jpItem) kind() value.JSONKind {
	if it.n == nil {
		return 255
	}
	return it.n.Type
}

// jpStatus is an evaluation's outcome: items found, none, or an error
// that was not raised (silent mode or inside a predicate).
type jpStatus uint8

const (
	jpOK jpStatus = iota
	jpNotFound
	jpError
)

// jpBool is a predicate's three-valued result.
type jpBool uint8

const (
	jpFalse jpBool = iota
	jpTrue
	jpUnknown
)

// jpBase is the document whose containers keyvalue's ids count from.
type jpBase struct {
	root *value.JSONNode
	id   int64
}

type jpCtx struct {
	vars    *value.JSONNode
	root    *value.JSONNode
	current jpItem
	lax     bool
	// ignoreStructural is lax mode's, but set inside .** too.
	ignoreStructural bool
	throw            bool
	useTz            bool
	arraySize        int // the innermost subscripted array's size, for last; -1 outside
	base             jpBase
	lastGenerated    int64
}

// errOr raises err when errors are thrown, and otherwise records an
// error that was not raised.
func (c *jpCtx) errOr(code, format string, args ...any) (jpStatus, error) {
	if c.throw {
		return jpError, pgerr.New(code, format, args...)
	}
	return jpError, nil
}

// runJSONPath evaluates path over doc; found, when not nil, receives the
// items. vars is the vars argument's document (nil for none).
func runJSONPath(path *value.JSONPathExpr, vars, doc *value.JSONNode, throw, useTz bool, found *[]jpItem) (jpStatus, error) {
	if vars != nil && vars.Type != value.JSONObject {
		return jpError, pgerr.New(pgerr.InvalidParameter, "\"vars\" argument is not an object").
			WithDetail("Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.")
	}
	c := &jpCtx{vars: vars, root: doc, current: jpItem{n: doc}, lax: path.Lax, ignoreStructural: path.Lax,
		throw: throw, useTz: useTz, arraySize: -1, lastGenerated: 1}
	if vars != nil {
		c.lastGenerated = 2
	}
	if !c.lax && found == nil {
		// Strict mode needs every item, to see that none is an error.
		var all []jpItem
		st, err := c.exec(path.Root, jpItem{n: doc}, &all)
		if st == jpError || err != nil {
			return st, err
		}
		if len(all) == 0 {
			return jpNotFound, nil
		}
		return jpOK, nil
	}
	return c.exec(path.Root, jpItem{n: doc}, found)
}

func (c *jpCtx) exec(p *value.JSONPathItem, jb jpItem, found *[]jpItem) (jpStatus, error) {
	return c.execOpt(p, jb, found, c.lax)
}

// next applies p's next item to v, or adds v to found at the end.
func (c *jpCtx) next(p *value.JSONPathItem, v jpItem, found *[]jpItem) (jpStatus, error) {
	if p.Next != nil {
		return c.exec(p.Next, v, found)
	}
	if found != nil {
		*found = append(*found, v)
	}
	return jpOK, nil
}

func numItem(v value.Value) jpItem {
	return jpItem{n: &value.JSONNode{Type: value.JSONNumber, Num: v}}
}

func strItem(s string) jpItem { return jpItem{n: &value.JSONNode{Type: value.JSONString, Str: s}} }

func (c *jpCtx) execOpt(p *value.JSONPathItem, jb jpItem, found *[]jpItem, unwrap bool) (jpStatus, error) {
	switch p.Op {
	case value.JPNull, value.JPBool, value.JPNumeric, value.JPString, value.JPVariable:
		if p.Next == nil && found == nil && p.Op != value.JPVariable {
			return jpOK, nil
		}
		saved := c.base
		v, err := c.literal(p)
		if err != nil {
			return jpError, err
		}
		st, err := c.next(p, v, found)
		c.base = saved
		return st, err

	case value.JPAnd, value.JPOr, value.JPNot, value.JPIsUnknown, value.JPEqual, value.JPNotEqual, value.JPLess,
		value.JPGreater, value.JPLessOrEqual, value.JPGreaterOrEqual, value.JPExists, value.JPStartsWith, value.JPLikeRegex:
		b, err := c.boolItem(p, jb)
		if err != nil {
			return jpError, err
		}
		if p.Next == nil && found == nil {
			return jpOK, nil
		}
		n := &value.JSONNode{Type: value.JSONNull}
		if b != jpUnknown {
			n = &value.JSONNode{Type: value.JSONBool, Bool: b == jpTrue}
		}
		return c.next(p, jpItem{n: n}, found)

	case value.JPAdd, value.JPSub, value.JPMul, value.JPDiv, value.JPMod:
		return c.binaryArith(p, jb, found)

	case value.JPPlus, value.JPMinus:
		return c.unaryArith(p, jb, found)

	case value.JPAnyArray:
		if jb.kind() == value.JSONArray {
			return c.anyItemWith(p.Next, jb.n, found, 1, 1, 1, false, c.lax)
		}
		if c.lax {
			return c.next(p, jb, found)
		}
		if !c.ignoreStructural {
			return c.errOr(codeJSONArrayNotFound, "jsonpath wildcard array accessor can only be applied to an array")
		}
		return jpNotFound, nil

	case value.JPIndexArray:
		return c.indexArray(p, jb, found)

	case value.JPAnyKey:
		switch {
		case jb.kind() == value.JSONObject:
			return c.anyItemWith(p.Next, jb.n, found, 1, 1, 1, false, c.lax)
		case unwrap && jb.kind() == value.JSONArray:
			return c.unwrapTarget(p, jb, found, false)
		case !c.ignoreStructural:
			return c.errOr(codeJSONObjectNotFound, "jsonpath wildcard member accessor can only be applied to an object")
		}
		return jpNotFound, nil

	case value.JPAny:
		res := jpNotFound
		if p.First == 0 {
			saved := c.ignoreStructural
			c.ignoreStructural = true
			st, err := c.next(p, jb, found)
			c.ignoreStructural = saved
			if err != nil {
				return st, err
			}
			res = st
			if st == jpOK && found == nil {
				return st, nil
			}
		}
		if jb.kind() == value.JSONArray || jb.kind() == value.JSONObject {
			return c.anyItemWith(p.Next, jb.n, found, 1, p.First, p.Last, true, c.lax)
		}
		return res, nil

	case value.JPKey:
		switch {
		case jb.kind() == value.JSONObject:
			if v := jsonbField(jb.n, p.Str); v != nil {
				return c.next(p, jpItem{n: v}, found)
			}
			if !c.ignoreStructural {
				return c.errOr(codeJSONMemberNotFound, "JSON object does not contain key \"%s\"", p.Str)
			}
		case unwrap && jb.kind() == value.JSONArray:
			return c.unwrapTarget(p, jb, found, false)
		case !c.ignoreStructural:
			return c.errOr(codeJSONMemberNotFound, "jsonpath member accessor can only be applied to an object")
		}
		return jpNotFound, nil

	case value.JPCurrent:
		return c.next(p, c.current, found)

	case value.JPRoot:
		saved := c.base
		c.base = jpBase{root: c.root}
		st, err := c.next(p, jpItem{n: c.root}, found)
		c.base = saved
		return st, err

	case value.JPFilter:
		if unwrap && jb.kind() == value.JSONArray {
			return c.unwrapTarget(p, jb, found, false)
		}
		b, err := c.nestedBool(p.Arg, jb)
		if err != nil {
			return jpError, err
		}
		if b != jpTrue {
			return jpNotFound, nil
		}
		return c.next(p, jb, found)

	case value.JPLast:
		if c.arraySize < 0 {
			return jpError, pgerr.New(pgerr.Internal, "evaluating jsonpath LAST outside of array subscript")
		}
		if p.Next == nil && found == nil {
			return jpOK, nil
		}
		return c.next(p, numItem(jpNumeric(int64(c.arraySize-1))), found)

	case value.JPType:
		return c.next(p, strItem(jpTypeName(jb)), found)

	case value.JPSize:
		size := 1
		if jb.kind() == value.JSONArray {
			size = len(jb.n.Elems)
		} else if !c.lax {
			if !c.ignoreStructural {
				return c.errOr(codeJSONArrayNotFound, "jsonpath item method .%s() can only be applied to an array", value.JSONPathOpName(p.Op))
			}
			return jpNotFound, nil
		}
		return c.next(p, numItem(jpNumeric(int64(size))), found)

	case value.JPAbs, value.JPFloor, value.JPCeiling:
		if unwrap && jb.kind() == value.JSONArray {
			return c.unwrapTarget(p, jb, found, false)
		}
		if jb.kind() != value.JSONNumber {
			return c.errOr(codeNonNumericJSONItem, "jsonpath item method .%s() can only be applied to a numeric value", value.JSONPathOpName(p.Op))
		}
		if p.Next == nil && found == nil {
			return jpOK, nil
		}
		r, err := jpNumericMethod(p.Op, jb.n.Num)
		if err != nil {
			return jpError, err
		}
		return c.next(p, numItem(r), found)

	case value.JPDouble:
		if unwrap && jb.kind() == value.JSONArray {
			return c.unwrapTarget(p, jb, found, false)
		}
		switch jb.kind() {
		case value.JSONNumber:
			f, err := value.Parse(jb.n.Num.String(), value.Float8Type)
			if err != nil || math.IsInf(f.Float(), 0) || math.IsNaN(f.Float()) {
				return c.errOr(codeNonNumericJSONItem, "numeric argument of jsonpath item method .%s() is out of range for type double precision", value.JSONPathOpName(p.Op))
			}
			return c.next(p, jb, found)
		case value.JSONString:
			f, err := value.Parse(jb.n.Str, value.Float8Type)
			if err != nil || math.IsInf(f.Float(), 0) || math.IsNaN(f.Float()) {
				return c.errOr(codeNonNumericJSONItem, "string argument of jsonpath item method .%s() is not a valid representation of a double precision number", value.JSONPathOpName(p.Op))
			}
			n, err := value.Parse(strconv.FormatFloat(f.Float(), 'g', 15, 64), value.NumericType)
			if err != nil {
				return jpError, err
			}
			return c.next(p, numItem(n), found)
		}
		return c.errOr(codeNonNumericJSONItem, "jsonpath item method .%s() can only be applied to a string or numeric value", value.JSONPathOpName(p.Op))

	case value.JPKeyValue:
		return c.keyValue(p, jb, found, unwrap)

	case value.JPDatetime:
		if unwrap && jb.kind() == value.JSONArray {
			return c.unwrapTarget(p, jb, found, false)
		}
		return c.datetime(p, jb, found)
	}
	return jpError, pgerr.New(pgerr.Internal, "unrecognized jsonpath item type: %d", p.Op)
}

// jsonbField is an object's value for key, or nil.
func jsonbField(n *value.JSONNode, key string) *value.JSONNode {
	for i, k := range n.Keys {
		if k == key {
			return &n.Elems[i]
		}
	}
	return nil
}

func jpNumeric(n int64) value.Value {
	v, _ := value.Cast(value.NewInt(value.Int8, n), value.NumericType, false)
	return v
}

func jpNumericMethod(op value.JSONPathOp, v value.Value) (value.Value, error) {
	if op == value.JPAbs {
		return value.Abs(v)
	}
	r, err := ceilFloor(op == value.JPCeiling)(v.Decimal())
	if err != nil {
		return value.Null, err
	}
	return value.NewNumeric(r), nil
}

func jpTypeName(it jpItem) string {
	if it.n == nil {
		switch it.dt.Kind() {
		case value.Date:
			return "date"
		case value.Time:
			return "time without time zone"
		case value.TimeTZ:
			return "time with time zone"
		case value.Timestamp:
			return "timestamp without time zone"
		}
		return "timestamp with time zone"
	}
	return it.n.Type.String()
}

func (c *jpCtx) literal(p *value.JSONPathItem) (jpItem, error) {
	switch p.Op {
	case value.JPNull:
		return jpItem{n: &value.JSONNode{Type: value.JSONNull}}, nil
	case value.JPBool:
		return jpItem{n: &value.JSONNode{Type: value.JSONBool, Bool: p.Bool}}, nil
	case value.JPNumeric:
		return numItem(p.Num), nil
	case value.JPString:
		return strItem(p.Str), nil
	}
	var v *value.JSONNode
	if c.vars != nil {
		v = jsonbField(c.vars, p.Str)
	}
	if v == nil {
		return jpItem{}, pgerr.New(pgerr.UndefinedObject, "could not find jsonpath variable \"%s\"", p.Str)
	}
	c.base = jpBase{root: c.vars, id: 1}
	return jpItem{n: v}, nil
}

// unwrapTarget applies p to each element of the array jb.
func (c *jpCtx) unwrapTarget(p *value.JSONPathItem, jb jpItem, found *[]jpItem, unwrapElems bool) (jpStatus, error) {
	return c.anyItemWith(p, jb.n, found, 1, 1, 1, false, unwrapElems)
}

// anyItemWith applies p (nil: collect) to the values of container n at
// the levels first to last below it, as .** and the wildcards do.
func (c *jpCtx) anyItemWith(p *value.JSONPathItem, n *value.JSONNode, found *[]jpItem, level, first, last uint32, ignoreStructural, unwrapNext bool) (jpStatus, error) {
	// As in PostgreSQL, the outcome is the last application's.
	res := jpNotFound
	if level > last {
		return res, nil
	}
	for i := range n.Elems {
		v := &n.Elems[i]
		container := v.Type == value.JSONArray || v.Type == value.JSONObject
		if level >= first || first == value.JSONPathAnyLast && last == value.JSONPathAnyLast && !container {
			switch {
			case p != nil:
				saved := c.ignoreStructural
				if ignoreStructural {
					c.ignoreStructural = true
				}
				st, err := c.execOpt(p, jpItem{n: v}, found, unwrapNext)
				c.ignoreStructural = saved
				res = st
				if err != nil || st == jpError || st == jpOK && found == nil {
					return st, err
				}
			case found != nil:
				*found = append(*found, jpItem{n: v})
			default:
				return jpOK, nil
			}
		}
		if level < last && container {
			st, err := c.anyItemWith(p, v, found, level+1, first, last, ignoreStructural, unwrapNext)
			res = st
			if err != nil || st == jpError || st == jpOK && found == nil {
				return st, err
			}
		}
	}
	return res, nil
}

// seqUnwrapped evaluates p over jb, unwrapping the arrays among the items
// in lax mode when unwrap.
func (c *jpCtx) seqUnwrapped(p *value.JSONPathItem, jb jpItem, unwrap bool, found *[]jpItem) (jpStatus, error) {
	if !unwrap || !c.lax {
		return c.exec(p, jb, found)
	}
	var seq []jpItem
	st, err := c.exec(p, jb, &seq)
	if err != nil || st == jpError {
		return st, err
	}
	for _, it := range seq {
		if it.kind() == value.JSONArray {
			for i := range it.n.Elems {
				*found = append(*found, jpItem{n: &it.n.Elems[i]})
			}
		} else {
			*found = append(*found, it)
		}
	}
	return jpOK, nil
}

// seqNoThrow is seqUnwrapped with errors recorded rather than raised.
func (c *jpCtx) seqNoThrow(p *value.JSONPathItem, jb jpItem, unwrap bool, found *[]jpItem) (jpStatus, error) {
	saved := c.throw
	c.throw = false
	st, err := c.seqUnwrapped(p, jb, unwrap, found)
	c.throw = saved
	return st, err
}

func (c *jpCtx) binaryArith(p *value.JSONPathItem, jb jpItem, found *[]jpItem) (jpStatus, error) {
	var l, r []jpItem
	if st, err := c.seqUnwrapped(p.Left, jb, true, &l); err != nil || st == jpError {
		return st, err
	}
	if st, err := c.seqUnwrapped(p.Right, jb, true, &r); err != nil || st == jpError {
		return st, err
	}
	name := value.JSONPathOpName(p.Op)
	if len(l) != 1 || l[0].kind() != value.JSONNumber {
		return c.errOr(codeSingletonRequired, "left operand of jsonpath operator %s is not a single numeric value", name)
	}
	if len(r) != 1 || r[0].kind() != value.JSONNumber {
		return c.errOr(codeSingletonRequired, "right operand of jsonpath operator %s is not a single numeric value", name)
	}
	a, b := l[0].n.Num, r[0].n.Num
	var v value.Value
	var err error
	switch p.Op {
	case value.JPAdd:
		v, err = value.Add(a, b)
	case value.JPSub:
		v, err = value.Sub(a, b)
	case value.JPMul:
		v, err = value.Mul(a, b)
	case value.JPDiv:
		v, err = value.Div(a, b)
	default:
		v, err = value.Mod(a, b)
	}
	if err != nil {
		if c.throw {
			return jpError, err
		}
		return jpError, nil
	}
	if p.Next == nil && found == nil {
		return jpOK, nil
	}
	return c.next(p, numItem(v), found)
}

func (c *jpCtx) unaryArith(p *value.JSONPathItem, jb jpItem, found *[]jpItem) (jpStatus, error) {
	var seq []jpItem
	if st, err := c.seqUnwrapped(p.Arg, jb, true, &seq); err != nil || st == jpError {
		return st, err
	}
	res := jpNotFound
	for _, it := range seq {
		if it.kind() != value.JSONNumber {
			if found == nil && p.Next == nil {
				continue
			}
			return c.errOr(codeJSONNumberNotFound, "operand of unary jsonpath operator %s is not a numeric value", value.JSONPathOpName(p.Op))
		}
		if found == nil && p.Next == nil {
			return jpOK, nil
		}
		v := it.n.Num
		if p.Op == value.JPMinus {
			var err error
			if v, err = value.Neg(v); err != nil {
				return jpError, err
			}
		}
		st, err := c.next(p, numItem(v), found)
		if err != nil || st == jpError {
			return st, err
		}
		if st == jpOK {
			if found == nil {
				return jpOK, nil
			}
			res = jpOK
		}
	}
	return res, nil
}

// subscript evaluates an array subscript to an integer.
func (c *jpCtx) subscript(p *value.JSONPathItem, jb jpItem) (int64, jpStatus, error) {
	var seq []jpItem
	st, err := c.exec(p, jb, &seq)
	if err != nil || st == jpError {
		return 0, st, err
	}
	if len(seq) != 1 || seq[0].kind() != value.JSONNumber {
		st, err := c.errOr(codeInvalidJSONSubscript, "jsonpath array subscript is not a single numeric value")
		return 0, st, err
	}
	t, err := value.Trunc(seq[0].n.Num, 0)
	if err != nil {
		return 0, jpError, err
	}
	d := t.Decimal()
	i, err := d.Int64()
	if err != nil || d.Form != apd.Finite || i < math.MinInt32 || i > math.MaxInt32 {
		st, err := c.errOr(codeInvalidJSONSubscript, "jsonpath array subscript is out of integer range")
		return 0, st, err
	}
	return i, jpOK, nil
}

func (c *jpCtx) indexArray(p *value.JSONPathItem, jb jpItem, found *[]jpItem) (jpStatus, error) {
	isArray := jb.kind() == value.JSONArray
	if !isArray && !c.lax {
		if !c.ignoreStructural {
			return c.errOr(codeJSONArrayNotFound, "jsonpath array accessor can only be applied to an array")
		}
		return jpNotFound, nil
	}
	size := 1
	if isArray {
		size = len(jb.n.Elems)
	}
	savedSize := c.arraySize
	c.arraySize = size
	defer func() { c.arraySize = savedSize }()
	res := jpNotFound
	for _, s := range p.Subs {
		from, st, err := c.subscript(s.From, jb)
		if err != nil || st == jpError {
			return st, err
		}
		to := from
		if s.To != nil {
			if to, st, err = c.subscript(s.To, jb); err != nil || st == jpError {
				return st, err
			}
		}
		if !c.ignoreStructural && (from < 0 || from > to || to >= int64(size)) {
			return c.errOr(codeInvalidJSONSubscript, "jsonpath array subscript is out of bounds")
		}
		from = max(from, 0)
		to = min(to, int64(size)-1)
		res = jpNotFound
		for i := from; i <= to; i++ {
			v := jb
			if isArray {
				v = jpItem{n: &jb.n.Elems[i]}
			}
			if p.Next == nil && found == nil {
				return jpOK, nil
			}
			st, err := c.next(p, v, found)
			if err != nil || st == jpError {
				return st, err
			}
			res = st
			if st == jpOK && found == nil {
				break
			}
		}
		if res == jpOK && found == nil {
			break
		}
	}
	return res, nil
}

func (c *jpCtx) keyValue(p *value.JSONPathItem, jb jpItem, found *[]jpItem, unwrap bool) (jpStatus, error) {
	if unwrap && jb.kind() == value.JSONArray {
		return c.unwrapTarget(p, jb, found, false)
	}
	if jb.kind() != value.JSONObject {
		return c.errOr(codeJSONObjectNotFound, "jsonpath item method .%s() can only be applied to an object", value.JSONPathOpName(p.Op))
	}
	if len(jb.n.Keys) == 0 {
		return jpNotFound, nil
	}
	var id int64
	if c.base.root != nil {
		if off, ok := jsonbOffset(c.base.root, jb.n); ok {
			id = off
		}
	}
	id += c.base.id * 10000000000
	res := jpNotFound
	for i, k := range jb.n.Keys {
		obj := &value.JSONNode{Type: value.JSONObject, Keys: []string{"id", "key", "value"},
			Elems: []value.JSONNode{{Type: value.JSONNumber, Num: jpNumeric(id)}, {Type: value.JSONString, Str: k}, jb.n.Elems[i]}}
		saved := c.base
		c.base = jpBase{root: obj, id: c.lastGenerated}
		c.lastGenerated++
		st, err := c.next(p, jpItem{n: obj}, found)
		c.base = saved
		if err != nil || st == jpError {
			return st, err
		}
		res = st
		if st == jpOK && found == nil {
			break
		}
	}
	return res, nil
}

// nestedBool evaluates a filter's predicate with @ = jb.
func (c *jpCtx) nestedBool(p *value.JSONPathItem, jb jpItem) (jpBool, error) {
	saved := c.current
	c.current = jb
	b, err := c.boolItem(p, jb)
	c.current = saved
	return b, err
}

func (c *jpCtx) boolItem(p *value.JSONPathItem, jb jpItem) (jpBool, error) {
	switch p.Op {
	case value.JPAnd:
		l, err := c.boolItem(p.Left, jb)
		if err != nil || l == jpFalse {
			return l, err
		}
		r, err := c.boolItem(p.Right, jb)
		if r == jpTrue {
			return l, err
		}
		return r, err
	case value.JPOr:
		l, err := c.boolItem(p.Left, jb)
		if err != nil || l == jpTrue {
			return l, err
		}
		r, err := c.boolItem(p.Right, jb)
		if r == jpFalse {
			return l, err
		}
		return r, err
	case value.JPNot:
		b, err := c.boolItem(p.Arg, jb)
		switch b {
		case jpTrue:
			return jpFalse, err
		case jpFalse:
			return jpTrue, err
		}
		return b, err
	case value.JPIsUnknown:
		b, err := c.boolItem(p.Arg, jb)
		if b == jpUnknown {
			return jpTrue, err
		}
		return jpFalse, err
	case value.JPEqual, value.JPNotEqual, value.JPLess, value.JPGreater, value.JPLessOrEqual, value.JPGreaterOrEqual:
		return c.predicate(p, p.Left, p.Right, jb, true, c.compare)
	case value.JPStartsWith:
		return c.predicate(p, p.Left, p.Right, jb, false, func(_ *value.JSONPathItem, whole, initial jpItem) (jpBool, error) {
			if whole.kind() != value.JSONString || initial.kind() != value.JSONString {
				return jpUnknown, nil
			}
			return jpBoolOf(strings.HasPrefix(whole.n.Str, initial.n.Str)), nil
		})
	case value.JPLikeRegex:
		re, err := jpRegex(p)
		if err != nil {
			return jpUnknown, err
		}
		return c.predicate(p, p.Arg, nil, jb, false, func(_ *value.JSONPathItem, s, _ jpItem) (jpBool, error) {
			if s.kind() != value.JSONString {
				return jpUnknown, nil
			}
			return jpBoolOf(re.MatchString(s.n.Str)), nil
		})
	case value.JPExists:
		if !c.lax {
			var vals []jpItem
			st, err := c.seqNoThrow(p.Arg, jb, false, &vals)
			if err != nil {
				return jpUnknown, err
			}
			if st == jpError {
				return jpUnknown, nil
			}
			return jpBoolOf(len(vals) > 0), nil
		}
		saved := c.throw
		c.throw = false
		st, err := c.exec(p.Arg, jb, nil)
		c.throw = saved
		if err != nil {
			return jpUnknown, err
		}
		if st == jpError {
			return jpUnknown, nil
		}
		return jpBoolOf(st == jpOK), nil
	}
	return jpUnknown, pgerr.New(pgerr.Internal, "invalid boolean jsonpath item type: %d", p.Op)
}

func jpBoolOf(b bool) jpBool {
	if b {
		return jpTrue
	}
	return jpFalse
}

// jpRegex compiles like_regex's pattern with its flags: . matches a
// newline only with s (or m and s), ^ and $ match at lines with m.
func jpRegex(p *value.JSONPathItem) (*regexp.Regexp, error) {
	flags := ""
	if p.Flags&value.JPRegexICase != 0 {
		flags += "i"
	}
	if p.Flags&value.JPRegexMLine != 0 {
		flags += "m"
	}
	if p.Flags&value.JPRegexDotAll != 0 {
		flags += "s"
	}
	pat := p.Str
	if p.Flags&value.JPRegexQuote != 0 {
		pat = regexp.QuoteMeta(pat)
	}
	if flags != "" {
		pat = "(?" + flags + ")" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		// The engine's own translation gives the error its message.
		if _, err2 := CompileRegex(p.Str, false); err2 != nil {
			return nil, err2
		}
		return nil, pgerr.New(pgerr.InvalidRegex, "invalid regular expression: %v", err)
	}
	return re, nil
}

// predicate evaluates a comparison-like predicate over every pair of its
// operands' items: true when one pair is true (in lax mode, at once),
// unknown when one is unknown (in strict mode, at once).
func (c *jpCtx) predicate(p, left, right *value.JSONPathItem, jb jpItem, unwrapRight bool,
	fn func(p *value.JSONPathItem, l, r jpItem) (jpBool, error)) (jpBool, error) {
	var lseq, rseq []jpItem
	st, err := c.seqNoThrow(left, jb, true, &lseq)
	if err != nil {
		return jpUnknown, err
	}
	if st == jpError {
		return jpUnknown, nil
	}
	if right != nil {
		st, err := c.seqNoThrow(right, jb, unwrapRight, &rseq)
		if err != nil {
			return jpUnknown, err
		}
		if st == jpError {
			return jpUnknown, nil
		}
	}
	var isFound, isErr bool
	for _, l := range lseq {
		rs := rseq
		if right == nil {
			rs = []jpItem{{}}
		}
		for _, r := range rs {
			b, err := fn(p, l, r)
			if err != nil {
				return jpUnknown, err
			}
			switch b {
			case jpUnknown:
				if !c.lax {
					return jpUnknown, nil
				}
				isErr = true
			case jpTrue:
				if c.lax {
					return jpTrue, nil
				}
				isFound = true
			}
		}
	}
	switch {
	case isFound:
		return jpTrue, nil
	case isErr:
		return jpUnknown, nil
	}
	return jpFalse, nil
}

// compare is a comparison of two items: null equals only null, items of
// other different types and containers are not comparable (unknown).
func (c *jpCtx) compare(p *value.JSONPathItem, a, b jpItem) (jpBool, error) {
	var cmp int
	switch {
	case a.n == nil || b.n == nil:
		if a.n != nil || b.n != nil {
			if a.kind() == value.JSONNull || b.kind() == value.JSONNull {
				return jpBoolOf(p.Op == value.JPNotEqual), nil
			}
			return jpUnknown, nil
		}
		r, ok, err := c.compareDatetimes(a, b)
		if err != nil || !ok {
			return jpUnknown, err
		}
		cmp = r
	case a.n.Type != b.n.Type:
		if a.n.Type == value.JSONNull || b.n.Type == value.JSONNull {
			return jpBoolOf(p.Op == value.JPNotEqual), nil
		}
		return jpUnknown, nil
	default:
		switch a.n.Type {
		case value.JSONNull:
			cmp = 0
		case value.JSONBool:
			switch {
			case a.n.Bool == b.n.Bool:
				cmp = 0
			case a.n.Bool:
				cmp = 1
			default:
				cmp = -1
			}
		case value.JSONNumber:
			cmp = value.Compare(a.n.Num, b.n.Num)
		case value.JSONString:
			cmp = strings.Compare(a.n.Str, b.n.Str)
		default:
			return jpUnknown, nil
		}
	}
	var r bool
	switch p.Op {
	case value.JPEqual:
		r = cmp == 0
	case value.JPNotEqual:
		r = cmp != 0
	case value.JPLess:
		r = cmp < 0
	case value.JPGreater:
		r = cmp > 0
	case value.JPLessOrEqual:
		r = cmp <= 0
	default:
		r = cmp >= 0
	}
	return jpBoolOf(r), nil
}
