package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// intervalText makes a cast of intervals to a string type in an ad-hoc
// statement write them in the IntervalStyle of the session that runs it
// (expr.IntervalText). A view's casts, which no session runs, and a
// column's default keep the postgres style.
func (b *binder) intervalText(e expr.Expr) expr.Expr {
	c, ok := e.(*expr.Cast)
	if !ok || b.stmtClock == nil || b.forView || !c.To.Kind.IsString() || !expr.HoldsStyled(c.E.Type().Kind) {
		return e
	}
	return &expr.IntervalText{C: b.stmtClock, Cast: c}
}

// intervalInput makes out, the conversion of e to t, read a string as an
// interval in the IntervalStyle of the session that runs the statement
// (expr.IntervalInput): a cast of a string expression, or a literal whose
// reading depends on the style (value.IntervalInputStyled). A view's
// conversions keep the postgres style.
func (b *binder) intervalInput(e expr.Expr, t value.Type, out expr.Expr) expr.Expr {
	if b.stmtClock == nil || b.forView || t.Kind != value.Interval && t.Kind != value.ArrayOf(value.Interval) {
		return out
	}
	switch k := e.Type().Kind; {
	case k == value.Unknown && t.Kind != value.Interval:
		// An array literal: its elements may read in the style.
	case k == value.Unknown:
		c, ok := e.(*expr.Const)
		if !ok || c.V.IsNull() || !value.IntervalInputStyled(c.V.Str()) {
			return out
		}
	case k.IsArray() && t.Kind != value.Interval && k.Elem().IsString():
		// text[] to interval[]: each element reads in the style.
	case !k.IsString():
		return out
	}
	return &expr.IntervalInput{C: b.stmtClock, E: e, T: t}
}

// textOfArgs are the functions that write their arguments as text, as
// their output functions write them: an interval in the session's
// IntervalStyle, as in PostgreSQL.
var textOfArgs = map[string]bool{
	"to_json": true, "to_jsonb": true, "array_to_json": true, "json_build_object": true, "jsonb_build_object": true,
	"json_build_array": true, "jsonb_build_array": true, "format": true, "concat": true, "concat_ws": true,
}

// styledIntervalArgs makes the interval arguments of a call of a
// textOfArgs function in an ad-hoc statement their text in the session's
// IntervalStyle, which the function then writes as it writes text. An
// interval inside a record argument keeps the postgres style.
func (b *binder) styledIntervalArgs(name string, args []expr.Expr) {
	if b.forView && textOfArgs[name] && !strings.Contains(name, "json") {
		b.zonedTextArgs(args)
		return
	}
	if b.stmtClock == nil || b.forView || !textOfArgs[name] {
		return
	}
	for i, a := range args {
		t := a.Type()
		if !styledArg(name, t.Kind) {
			continue
		}
		to := value.TextType
		if t.Kind.IsArray() {
			to = value.ArrayType(value.Text)
		}
		args[i] = &expr.IntervalText{C: b.stmtClock, Cast: &expr.Cast{E: a, To: to, Explicit: true}}
	}
}

// inputClock is the clock whose IntervalStyle the statement's readings of
// intervals from text follow (json(b)_populate_record's columns); nil in a
// view, which reads them in the postgres style.
func (b *binder) inputClock() *expr.StmtClock {
	if b.forView {
		return nil
	}
	return b.stmtClock
}

// styledArg reports whether an argument of kind k of a textOfArgs
// function writes in the session's settings: an interval or a bytea (or
// an array of them) in each; a date, timestamp or timestamptz (or their
// ranges) in DateStyle outside the json functions, which write them in
// ISO 8601 whatever the style.
func styledArg(name string, k value.Kind) bool {
	if k.IsArray() {
		k = k.Elem()
	}
	switch {
	case k == value.Interval, k == value.Bytea:
		return true
	case k == value.Record:
		return false
	}
	return expr.HoldsStyled(k) && !strings.Contains(name, "json")
}

// zonedTextArgs makes the arguments of a call of format, concat or
// concat_ws in a view whose text depends on the zone (timestamptz, and
// records that may hold one) their text in the zone the view captured, as a
// cast of them to text in the view prints them.
func (b *binder) zonedTextArgs(args []expr.Expr) {
	for i, a := range args {
		// Arrays keep their elements: a VARIADIC array's are the
		// arguments.
		if k := a.Type().Kind; k.IsString() || k.IsArray() || k == value.Unknown || !value.ZoneCast(k, value.Text) {
			continue
		}
		args[i] = b.zoned(&expr.Cast{E: a, To: value.TextType, Explicit: true})
	}
}
