package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// jsonbSubscript binds one subscript of a jsonb value, j['a'] or j[0], as
// PostgreSQL's jsonb subscripting reads it: the subscript, an integer or
// text (an untyped literal is text), becomes a path element as text, so
// that j['a'][0] is j #> '{a,0}': a
// field of an object, an element of an array (negative from the end), or
// NULL. Slices are refused, as in PostgreSQL.
func (b *binder) jsonbSubscript(s *scope, e expr.Expr, idx *pg_query.A_Indices, loc int32) (expr.Expr, error) {
	if idx.IsSlice {
		return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "jsonb subscript does not support slices")
	}
	x, err := b.bindExpr(s, idx.Uidx)
	if err != nil {
		return nil, err
	}
	if x, _, err = b.jsonbKey(x, nodeLoc(idx.Uidx, loc)); err != nil {
		return nil, err
	}
	// Consecutive subscripts apply one after another, as one path would.
	return b.callFunc(nil, "jsonb_extract_path", nil, []expr.Expr{e, x}, loc)
}

// jsonbKey makes x, a jsonb subscript, a path element: text, from an
// integer (isInt) or from text or an untyped literal; another type is
// 42804, as in PostgreSQL.
func (b *binder) jsonbKey(x expr.Expr, loc int32) (key expr.Expr, isInt bool, err error) {
	switch k := x.Type().Kind; {
	case k == value.Int2 || k == value.Int4:
		if x, err = b.coerce(x, value.Int4Type, loc); err != nil {
			return nil, false, err
		}
		x, err = expr.Coerce(x, value.TextType, true)
		return x, true, err
	case k == value.Unknown || k.IsString():
		x, err = b.coerce(x, value.TextType, loc)
		return x, false, err
	}
	return nil, false, b.stmt.errf(loc, pgerr.DatatypeMismatch, "subscript type %s is not supported", x.Type()).
		WithHint("jsonb subscript must be coercible to either integer or text.")
}
