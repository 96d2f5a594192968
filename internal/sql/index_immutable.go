package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// What an index expression or predicate may call: PostgreSQL takes only
// immutable functions, and a cast is the function (or the input and
// output functions) it runs.

// notImmutable reports whether e calls what PostgreSQL does not mark
// IMMUTABLE: a volatile function, the clock, a cast that reads the
// session's settings or the catalog (text to enum, date to text,
// timestamp to timestamptz, …) or a stable function (to_char, format).
func notImmutable(e expr.Expr) bool {
	if e.Volatile() || expr.ReadsClock(e) {
		return true
	}
	found := false
	expr.Walk(e, func(x expr.Expr) bool {
		switch x := x.(type) {
		case *expr.Cast:
			found = stableCast(x.E.Type(), x.To)
		case *expr.Func:
			// A reg* type's input from text looks the name up in the catalog.
			found = x.Def != nil && stableFunc(x.Def.Name, x.Args) ||
				x.T.Kind.IsReg() && len(x.Args) == 1 && x.Args[0].Type().Kind.IsString()
		}
		return !found
	})
	return found
}

// stableCast reports whether PostgreSQL's cast from one type to another
// is only STABLE: a conversion through text whose input or output
// function depends on DateStyle, TimeZone, lc_monetary or the catalog,
// or a cast function that reads TimeZone or lc_monetary.
func stableCast(from, to value.Type) bool {
	f, t := from.Kind, to.Kind
	switch {
	case f == t && from.Enum() == to.Enum():
		return false
	case f.IsString() && t.IsString():
		return false
	case f.IsString():
		return stableInput(to)
	case t.IsString():
		return stableOutput(from)
	case f == value.Money || t == value.Money:
		return true
	case t == value.TimestampTZ:
		return f == value.Date || f == value.Timestamp
	case f == value.TimestampTZ:
		return t == value.Date || t == value.Time || t == value.Timestamp || t == value.TimeTZ
	}
	return f == value.Time && t == value.TimeTZ
}

// stableInput reports whether t's input function is only STABLE.
func stableInput(t value.Type) bool {
	switch t.Kind {
	case value.Time, value.TimeTZ, value.XML:
		return true
	}
	return stableOutput(t)
}

// stableOutput reports whether t's output function is only STABLE (its
// input function is then too).
func stableOutput(t value.Type) bool {
	k := t.Kind
	switch k {
	case value.Date, value.Timestamp, value.TimestampTZ, value.Interval, value.Money, value.Enum, value.Record:
		return true
	}
	return t.Enum() != nil || k.IsArray() || k.IsRange() || k.IsMultirange() || k.IsReg()
}

// stableFunc reports whether PostgreSQL marks the function name called
// with args only STABLE: the text formatters that follow the session's
// settings, and the parts of a timestamptz, which depend on TimeZone.
func stableFunc(name string, args []expr.Expr) bool {
	switch name {
	case "to_char", "format", "concat", "concat_ws":
		return true
	case "date_part", "extract", "date_trunc":
		for _, a := range args {
			if a.Type().Kind == value.TimestampTZ {
				return true
			}
		}
	}
	return false
}
