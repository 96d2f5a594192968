package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// dateOrder is the DateStyle field order of the session binding the
// statement, in which its string literals read as dates (expr.Const's
// Order); MDY when none binds it.
func (b *binder) dateOrder() value.DateOrder {
	s := b.viewSettings()
	if s == nil {
		return value.OrderMDY
	}
	v, _, err := s.Setting("datestyle", false)
	if err != nil {
		return value.OrderMDY
	}
	_, o, _ := value.ParseDateStyle(v)
	return o
}

// dateInput makes out, the conversion of e, a string expression, to t, a
// date, timestamp or timestamptz (or an array of them), read the string
// in the DateStyle order and the zone of the session that runs the
// statement (expr.IntervalInput), when the binding session's order is
// not MDY. A literal reads in the order when it is bound (dateOrder); a
// view's conversions keep MDY.
func (b *binder) dateInput(e expr.Expr, t value.Type, out expr.Expr) expr.Expr {
	if b.stmtClock == nil || b.forView || !value.DateInputKind(t.Kind) || b.dateOrder() == value.OrderMDY {
		return out
	}
	if k := e.Type().Kind; !k.IsString() && !(k.IsArray() && k.Elem().IsString() && t.Kind.IsArray()) {
		return out
	}
	return &expr.IntervalInput{C: b.stmtClock, E: e, T: t}
}
