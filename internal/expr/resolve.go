package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// codeAmbiguous is SQLSTATE 42725, ambiguous_function: an operator or
// function call that matches several candidates equally well.
const codeAmbiguous = "42725"

const (
	hintNoOperator = "No operator matches the given name and argument types. You might need to add explicit type casts."
	hintAmbigOp    = "Could not choose a best candidate operator. You might need to add explicit type casts."
)

// category is PostgreSQL's type category (pg_type.typcategory).
type category byte

const (
	catUnknown  category = 'X'
	catBool     category = 'B'
	catNumeric  category = 'N'
	catString   category = 'S'
	catDateTime category = 'D'
	catTimespan category = 'T'
	catBits     category = 'V'
	catUser     category = 'U'
	catNetwork  category = 'I'
	catInternal category = 'Z' // "char"
)

func categoryOf(k value.Kind) category {
	switch {
	case k == value.Bool:
		return catBool
	case k.IsNumeric():
		return catNumeric
	case k.IsString():
		return catString
	case k.IsDateTime(), k == value.Time, k == value.TimeTZ:
		return catDateTime
	case k == value.Interval:
		return catTimespan
	case k.IsBits():
		return catBits
	case k == value.Inet || k == value.Cidr:
		return catNetwork
	case k.IsBytes(), k.IsNetwork(), k == value.XML:
		return catUser
	case k == value.InternalChar:
		return catInternal
	}
	return catUnknown
}

// preferred reports whether k is its category's preferred type.
func preferred(k value.Kind) bool {
	switch k {
	case value.Bool, value.Float8, value.Text, value.TimestampTZ, value.Interval, value.Varbit, value.Inet:
		return true
	}
	return false
}

// implicit reports whether from converts to to implicitly.
func implicit(from, to value.Kind) bool {
	if to == value.CIText && from != to && from != value.Unknown {
		return false // the citext extension casts text to citext by assignment only
	}
	if (from == value.Name || to == value.Name) && !value.NameImplicit(from, to) {
		return false // name to varchar and char is an assignment cast
	}
	return from == to || from == value.Unknown || value.CanCast(from, to, false)
}

// typeName is a type's name as PostgreSQL's messages print it, without
// modifier.
func typeName(k value.Kind) string { return k.String() }

// plain is the type of kind k without modifier.
func plain(k value.Kind) value.Type { return value.Type{Kind: k, Mod: -1} }

// keep returns t when it already has kind k (so no cast is needed), else
// k without modifier.
func keep(t value.Type, k value.Kind) value.Type {
	if t.Kind == k {
		return t
	}
	return plain(k)
}

// numericRank orders the exact numeric kinds by width.
func numericRank(k value.Kind) int {
	switch k {
	case value.Int2:
		return 1
	case value.Int4:
		return 2
	case value.Int8:
		return 3
	case value.Numeric:
		return 4
	}
	return 0
}

// widerNumeric is the kind two numeric kinds are computed in: the wider
// exact kind, real only for two reals, double precision whenever a float
// is involved otherwise.
func widerNumeric(a, b value.Kind) value.Kind {
	if a.IsFloat() || b.IsFloat() {
		if a == value.Float4 && b == value.Float4 {
			return value.Float4
		}
		return value.Float8
	}
	if numericRank(a) >= numericRank(b) {
		return a
	}
	return b
}

func errNoOperator(op string, l, r value.Kind) error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", typeName(l), op, typeName(r)).
		WithHint(hintNoOperator)
}

func errAmbiguousOperator(op string, l, r value.Kind) error {
	return (&pgerr.Error{Code: codeAmbiguous,
		Message: "operator is not unique: " + typeName(l) + " " + op + " " + typeName(r)}).WithHint(hintAmbigOp)
}

// ResolveArith resolves l op r as PostgreSQL's operator resolution does
// for the built-in operators: lt and rt are the types to cast the operands
// to (the operand's own type when its kind already fits) and result the
// result type.
//
//   - integers compute in the wider integer (int2 + int2 is int2), an
//     integer with numeric in numeric, anything with a float in double
//     precision except real with real;
//   - % takes integers and numeric only;
//   - date + int4, int4 + date and date - int4 give a date, date - date an
//     integer;
//   - date or timestamp ± interval gives a timestamp (timestamptz stays
//     timestamptz), timestamp - timestamp an interval, interval ± interval
//     an interval, interval * or / a number an interval (the number as
//     double precision);
//   - money ± money is money, money / money double precision, money * or
//     / a number and a number * money money (moneyKinds);
//   - an untyped literal takes the other operand's type; two are ambiguous
//     (42725).
//
// Anything else is 42883 "operator does not exist".
func ResolveArith(op ArithOp, l, r value.Type) (lt, rt, result value.Type, err error) {
	lk, rk := l.Kind, r.Kind
	ops := op.String()
	switch {
	case lk == value.Unknown && rk == value.Unknown:
		return lt, rt, result, errAmbiguousOperator(ops, lk, rk)
	case lk == value.Unknown || rk == value.Unknown:
		known := lk
		if known == value.Unknown {
			known = rk
		}
		if ltk, rtk, res, ok := arithKinds(op, known, known); ok {
			return keep(l, ltk), keep(r, rtk), plain(res), nil
		}
		if known == value.Date {
			// date + unknown could be date + integer or date + interval.
			return lt, rt, result, errAmbiguousOperator(ops, lk, rk)
		}
		// The only candidate left: interval with a date/time, double
		// precision with an interval or money (the preferred of money's
		// numeric factors).
		other := value.Interval
		if known == value.Interval || known == value.Money {
			other = value.Float8
		}
		if known == value.PgLSN {
			other = value.Numeric
		}
		ak, bk := known, other
		if lk == value.Unknown {
			ak, bk = other, known
		}
		if ltk, rtk, res, ok := arithKinds(op, ak, bk); ok {
			return keep(l, ltk), keep(r, rtk), plain(res), nil
		}
		return lt, rt, result, errNoOperator(ops, lk, rk)
	}
	ltk, rtk, res, ok := arithKinds(op, lk, rk)
	if !ok {
		if lk == value.Time && rk == value.Time && op == OpAdd {
			return lt, rt, result, errAmbiguousOperator(ops, lk, rk) // time + interval or interval + time
		}
		return lt, rt, result, errNoOperator(ops, lk, rk)
	}
	return keep(l, ltk), keep(r, rtk), plain(res), nil
}

// arithKinds is ResolveArith on known kinds.
func arithKinds(op ArithOp, l, r value.Kind) (lk, rk, res value.Kind, ok bool) {
	if l == value.Money || r == value.Money {
		return moneyKinds(op, l, r)
	}
	if l == value.PgLSN || r == value.PgLSN {
		return lsnKinds(op, l, r)
	}
	switch {
	case l.IsNumeric() && r.IsNumeric():
		if op == OpMod && (l.IsFloat() || r.IsFloat()) {
			return 0, 0, 0, false
		}
		w := widerNumeric(l, r)
		return w, w, w, true
	case l == value.Date && r == value.Date:
		if op == OpSub {
			return value.Date, value.Date, value.Int4, true
		}
	case l == value.Date && (r == value.Int2 || r == value.Int4):
		if op == OpAdd || op == OpSub {
			return value.Date, value.Int4, value.Date, true
		}
	case r == value.Date && (l == value.Int2 || l == value.Int4):
		if op == OpAdd {
			return value.Int4, value.Date, value.Date, true
		}
	case l.IsDateTime() && r.IsDateTime():
		if op == OpSub {
			w := max(l, r, value.Timestamp)
			return w, w, value.Interval, true
		}
	}
	return intervalKinds(op, l, r)
}

// intervalKinds is arithKinds for the operators of PostgreSQL's catalog
// with an interval operand.
func intervalKinds(op ArithOp, l, r value.Kind) (lk, rk, res value.Kind, ok bool) {
	switch {
	case l == value.Interval && r == value.Interval:
		if op == OpAdd || op == OpSub {
			return l, r, value.Interval, true
		}
	case l.IsDateTime() && r == value.Interval:
		if op == OpAdd || op == OpSub {
			return l, r, max(l, value.Timestamp), true
		}
	case l == value.Interval && r.IsDateTime():
		if op == OpAdd {
			return l, r, max(r, value.Timestamp), true
		}
	case l == value.Interval && r.IsNumeric():
		if op == OpMul || op == OpDiv {
			return l, value.Float8, value.Interval, true
		}
	case l.IsNumeric() && r == value.Interval:
		if op == OpMul {
			return value.Float8, r, value.Interval, true
		}
	}
	return timeKinds(op, l, r)
}

// ResolveCompare returns the type both sides of a comparison are cast to:
// the wider integer, numeric for an integer with numeric, double precision
// for any numeric kind with a float (real only for two reals), text for
// strings except char with char or varchar (which compares without
// trailing spaces),
// the wider of date < timestamp < timestamptz, and for an untyped literal
// the other side's kind (text for two literals). Comparing across
// categories is 42883 "operator does not exist".
func ResolveCompare(l, r value.Type) (value.Type, error) {
	lk, rk := l.Kind, r.Kind
	switch {
	case lk == value.JSON || rk == value.JSON || lk == value.JSONPath || rk == value.JSONPath || lk == value.XML || rk == value.XML,
		lk.IsSnapshot() || rk.IsSnapshot(), lk == value.RefCursor || rk == value.RefCursor, lk == value.Cstring || rk == value.Cstring,
		lk == value.Void || rk == value.Void, lk.IsValueless() || rk.IsValueless():
		return value.Type{}, errNoOperator("=", lk, rk) // json, jsonpath, xml, the snapshots, refcursor and void have no equality, as in PostgreSQL
	case lk.Elem() == value.XML || rk.Elem() == value.XML:
		return value.Type{}, pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type xml") // nor have arrays of xml
	case lk.IsGeometric() || rk.IsGeometric() || lk.Elem().IsGeometric() || rk.Elem().IsGeometric():
		// The geometric types' comparisons are operators of their own
		// (box = box compares areas, point has none), which the binder
		// resolves; IN, CASE, NULLIF and the other forms built on
		// equality are not offered over them.
		return value.Type{}, errNoOperator("=", lk, rk)
	case l == r && lk != value.Unknown:
		return l, nil
	case lk == value.Unknown && rk == value.Unknown:
		return value.TextType, nil
	case lk == value.Unknown:
		return unmodified(r), nil
	case rk == value.Unknown:
		return unmodified(l), nil
	case isUserType(l) || isUserType(r):
		return value.Type{}, errNoOperator("=", lk, rk) // enums compare only with their own type
	case lk.IsVector() || rk.IsVector():
		return value.Type{}, errNoOperator("=", lk, rk) // a vector compares only with its own type, as arrays' operators take it
	case lk.IsArray() && rk.IsArray():
		t, err := ResolveCompare(plain(lk.Elem()), plain(rk.Elem()))
		if err != nil {
			return value.Type{}, errNoOperator("=", lk, rk)
		}
		return value.ArrayType(t.Kind), nil
	case (lk == value.Time && rk == value.TimeTZ) || (lk == value.TimeTZ && rk == value.Time):
		return value.TimeTZType, nil
	case lk == rk:
		if lk == value.Varchar {
			return value.TextType, nil
		}
		return plain(lk), nil
	case oidCompared([]value.Kind{lk, rk}):
		return value.OidType, nil
	case lk == value.Xid && rk == value.Int4, lk == value.Int4 && rk == value.Xid:
		return value.XidType, nil // PostgreSQL's xideqint4 and xidneqint4
	case lk == value.InternalChar && rk.IsString(), rk == value.InternalChar && lk.IsString():
		return value.TextType, nil // "char" converts to text implicitly
	}
	switch categoryOf(lk) {
	case catNumeric:
		if rk.IsNumeric() {
			return plain(widerNumeric(lk, rk)), nil
		}
	case catString:
		if lk == value.Char && rk == value.Varchar || lk == value.Varchar && rk == value.Char {
			// PostgreSQL picks bpchar's operator, whose operand matches
			// exactly (varchar converts to bpchar without a function):
			// trailing spaces do not count on either side. Beside text,
			// text's operator wins as the preferred type, and the char
			// loses its trailing spaces in the cast.
			return plain(value.Char), nil
		}
		if rk.IsString() {
			return value.TextType, nil
		}
	case catDateTime:
		if rk.IsDateTime() && lk.IsDateTime() {
			return plain(max(lk, rk)), nil // Date < Timestamp < TimestampTZ
		}
	case catBits:
		if rk.IsBits() {
			return value.VarbitType, nil
		}
	case catNetwork:
		if categoryOf(rk) == catNetwork {
			return value.InetType, nil // a cidr compares as the inet it is
		}
	case catUser:
		if lk.IsNetwork() && rk.IsNetwork() {
			return value.Type{}, errAmbiguousOperator("=", lk, rk) // macaddr and macaddr8 convert to each other implicitly
		}
	}
	return value.Type{}, errNoOperator("=", lk, rk)
}

// ResolveCompareOp is ResolveCompare for the comparison operator op, which
// its "operator does not exist" error names.
func ResolveCompareOp(op string, l, r value.Type) (value.Type, error) {
	t, err := ResolveCompare(l, r)
	switch {
	case err == nil && ((t.Kind == value.Xid || t.Kind == value.HStore) && op != "=" && op != "<>" || (t.Kind == value.Cid || t.Kind == value.ACLItem) && op != "="):
		// xid has only = and <>, cid only =: their numbers wrap around;
		// aclitem has only = (aclitemeq);
		// hstore's order serves its btree class (ORDER BY) alone.
		return t, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", typeNameOf(l), op, typeNameOf(r)).
			WithHint(hintNoOperator)
	case err == nil:
	case pgerr.Code(err) == pgerr.UndefinedFunction:
		return t, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", typeNameOf(l), op, typeNameOf(r)).
			WithHint(hintNoOperator)
	case pgerr.Code(err) == codeAmbiguous:
		return t, errAmbiguousOperator(op, l.Kind, r.Kind)
	}
	return t, err
}

// CommonType resolves the type of a set of expressions that must agree, as
// PostgreSQL's select_common_type does for UNION, CASE, COALESCE, IN,
// GREATEST…: untyped literals are ignored (all untyped gives text); the
// others must share a category, and within it the first type is replaced
// by a later one it converts to implicitly but not back, unless it is the
// category's preferred type. The modifier is kept only when every
// expression has exactly the result type. context names the construct in
// the 42804 error "CASE types integer and text cannot be matched".
func CommonType(ts []value.Type, context string) (value.Type, error) {
	kinds := make([]value.Kind, 0, len(ts))
	for _, t := range ts {
		if t.Kind != value.Unknown {
			kinds = append(kinds, t.Kind)
		}
	}
	if oidCompared(kinds) {
		return value.OidType, nil
	}
	var p value.Type
	have := false
	for _, t := range ts {
		if t.Kind == value.Unknown {
			continue
		}
		if !have {
			p, have = t, true
			continue
		}
		if t.Kind == p.Kind && !(isUserType(t) && t != p) {
			continue
		}
		if moneyBesideNumber(p.Kind, t.Kind) {
			if context == "IN" {
				return value.Type{}, errNoOperator("=", p.Kind, t.Kind) // PostgreSQL compares each item with =
			}
			continue // the first stays; the caller fails to convert the other to it
		}
		if (t.Kind == value.Enum) != (p.Kind == value.Enum) && context != "IN" {
			// An enum and a type of another category (text, integer).
			return value.Type{}, pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched", context, typeNameOf(p), typeNameOf(t))
		}
		if isUserType(t) || isUserType(p) {
			// Enums share a category, so PostgreSQL picks one and fails
			// to convert the other to it.
			if context == "CASE" {
				context = "CASE/WHEN" // PostgreSQL's coerce_to_common_type names it so
			}
			return value.Type{}, pgerr.New(pgerr.CannotCoerce, "%s could not convert type %s to %s", context, typeNameOf(t), typeNameOf(p))
		}
		if plainArray(t.Kind) && plainArray(p.Kind) {
			// Arrays are one category without a preferred type: the
			// first gives way to a later one its elements convert to.
			if context == "IN" {
				return value.Type{}, errNoOperator("=", p.Kind, t.Kind) // no = between arrays of different types
			}
			if implicit(p.Kind, t.Kind) && !implicit(t.Kind, p.Kind) {
				p = t
			}
			continue
		}
		if categoryOf(t.Kind) != categoryOf(p.Kind) || categoryOf(t.Kind) == catUnknown || categoryOf(t.Kind) == catUser {
			return value.Type{}, pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched",
				context, typeName(p.Kind), typeName(t.Kind))
		}
		if !preferred(p.Kind) && implicit(p.Kind, t.Kind) && !implicit(t.Kind, p.Kind) {
			p = t
		}
	}
	if !have {
		return value.TextType, nil
	}
	for _, t := range ts {
		if t != p && !(t.Kind == value.Unknown && isRowType(p)) {
			return unmodified(p), nil // a NULL keeps a table's row type (or its array's), not a modifier
		}
	}
	return p, nil
}

// plainArray reports whether k is an array of a type other than record,
// whose arrays PostgreSQL puts in its array category (record[] is a
// pseudo-type).
func plainArray(k value.Kind) bool {
	return k.IsArray() && k != value.ArrayOf(value.Record)
}

// isRowType reports whether t is a table's row type or an array of it.
func isRowType(t value.Type) bool {
	d := t.RecordDesc()
	return (t.Kind == value.Record || t.Kind == value.ArrayOf(value.Record)) && d != nil && d.Name != ""
}

// Coerce converts e to type to: e itself when it already has that type
// (modifier included), else a Cast. A constant is converted at once, so a
// bad literal fails here rather than at evaluation; an untyped literal is
// parsed as to (with to's modifier applied as input does when implicit, as
// a cast does when explicit). A conversion value.CanCast forbids is 42804
// "cannot cast type text to integer implicitly" when implicit (the binder
// rewords it for its context) and 42846 "cannot cast type boolean to date"
// when explicit.
func Coerce(e Expr, to value.Type, explicit bool) (Expr, error) {
	from := e.Type()
	if from == to {
		return e, nil
	}
	if isUserType(from) && from.Kind == to.Kind {
		if !isUserType(to) {
			return e, nil // to a polymorphic parameter (anyenum, anyarray): the value as it is
		}
		return nil, errCast(from, to, explicit)
	}
	if from.UserRange() != nil && to.UserRange() != nil && from.Mod != to.Mod {
		return nil, errCast(from, to, explicit) // a user range and another's multirange
	}
	if p, ok := e.(*Param); ok && from.Kind == value.Unknown {
		return coerceParam(p, to, explicit)
	}
	if from.Kind != value.Unknown && from.Kind != to.Kind && !value.CanCast(from.Kind, to.Kind, explicit) {
		return nil, errCast(from, to, explicit)
	}
	if c, ok := e.(*Const); ok && !(from.Kind != value.Unknown && !c.V.IsNull() && (value.ZoneCast(from.Kind, to.Kind) || to.Kind.IsString() && HoldsStyled(from.Kind))) {
		// A conversion to text of a value whose text depends on the
		// session's settings is left to a binder too (IntervalText).
		// A conversion that depends on the session's zone is left to a
		// binder to fold in the zone (timestamptz to date).
		v, err := castConst(c, to, explicit)
		if err != nil {
			return nil, err
		}
		if c.T.Kind == value.Unknown && value.ZoneCast(value.Unknown, to.Kind) && !v.IsNull() {
			return &Const{V: v, T: to, Local: rawText(c.V), Order: c.Order}, nil
		}
		return &Const{V: v, T: to}, nil
	}
	return &Cast{E: e, To: to, Explicit: explicit}, nil
}

func castConst(c *Const, to value.Type, explicit bool) (value.Value, error) {
	v := c.V
	if v.IsNull() {
		if c.T.Kind == value.Unknown && to.Kind.IsValueless() {
			// trigger_in is not strict: PostgreSQL calls it on NULL too.
			return value.Null, value.ErrPseudoValue(to.Kind)
		}
		return value.Null, nil
	}
	if c.T.Kind != value.Unknown {
		return value.Cast(v, to, explicit)
	}
	s := rawText(v)
	if c.Order != value.OrderMDY && value.DateInputKind(to.Kind) {
		return value.ParseStyled(s, to, value.IntervalPostgres.WithDate(value.DateISO, c.Order), value.UTC)
	}
	// An interval's field range also decides what a bare number means
	// (interval '90' day is 90 days), so it applies while parsing; a
	// row type's modifier says its fields.
	if !explicit || to.Mod < 0 || to.Kind == value.Interval || to.Kind == value.Record || to.Kind == value.ArrayOf(value.Record) || isUserType(to) {
		return value.Parse(s, to)
	}
	v, err := value.Parse(s, plain(to.Kind))
	if err != nil {
		return value.Null, err
	}
	return value.Cast(v, to, true)
}

// oidCompared reports whether kinds, none unknown, are oids, reg* types
// and integers, of more than one kind and at least one an oid: they
// compare as oids, the integers and the reg* types converting to oid
// implicitly, as in PostgreSQL.
func oidCompared(kinds []value.Kind) bool {
	oid, mixed := false, false
	for _, k := range kinds {
		if !k.IsOid() && !k.IsInteger() {
			return false
		}
		oid = oid || k.IsOid()
		mixed = mixed || k != kinds[0]
	}
	return oid && mixed
}
