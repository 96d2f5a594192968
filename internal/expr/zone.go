package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The operations on timestamptz that depend on the session's time zone
// (value.CastZone, AddZone, ExtractZone, FormatZone, AgeZone,
// DateTruncZone). Each wraps the zone-free node and keeps no state: it
// reads the zone from its clock when it runs, so that an ad-hoc
// statement follows its session's TimeZone as PostgreSQL's does. A
// materialized view's nodes have a clock of their own holding the zone
// of the session that created the view (Fixed), which the view keeps.

// zoneOf is the zone c's statement runs in: UTC without a clock.
func zoneOf(c *StmtClock) value.Zone {
	if c == nil {
		return value.UTC
	}
	return c.Zone
}

// ZoneCast is a cast whose result depends on the zone (value.ZoneCast).
type ZoneCast struct {
	C     *StmtClock
	Cast  *Cast
	Fixed bool // the clock is a view's: the zone never changes
}

var _ Expr = (*ZoneCast)(nil)

func (c *ZoneCast) Type() value.Type { return c.Cast.To }
func (c *ZoneCast) Volatile() bool   { return !c.Fixed || c.Cast.Volatile() }
func (*ZoneCast) expr()              {}
func (c *ZoneCast) String() string   { return c.Cast.String() }

// Eval implements Expr.
func (c *ZoneCast) Eval(row value.Row) (value.Value, error) {
	v, err := c.Cast.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	out, err := value.CastZone(v, c.Cast.To, c.Cast.Explicit || c.Cast.E.Type().Kind == value.Unknown, zoneOf(c.C))
	if err != nil && c.Cast.Saturate {
		return value.DateBeyondStamps(v, c.Cast.To.Kind), nil
	}
	return out, err
}

// ZoneArith is timestamptz ± interval (value.AddZone).
type ZoneArith struct {
	C     *StmtClock
	A     *Arith
	Fixed bool
}

var _ Expr = (*ZoneArith)(nil)

func (a *ZoneArith) Type() value.Type { return a.A.T }
func (a *ZoneArith) Volatile() bool   { return !a.Fixed || a.A.Volatile() }
func (*ZoneArith) expr()              {}
func (a *ZoneArith) String() string   { return a.A.String() }

// Eval implements Expr.
func (a *ZoneArith) Eval(row value.Row) (value.Value, error) {
	l, err := a.A.L.Eval(row)
	if err != nil {
		return value.Null, err
	}
	r, err := a.A.R.Eval(row)
	if err != nil || l.IsNull() || r.IsNull() {
		return value.Null, err
	}
	if l.Kind() == value.Interval {
		l, r = r, l // interval + timestamptz
	}
	return value.AddZone(l, r, a.A.Op == OpSub, zoneOf(a.C))
}

// ZoneArithOf reports whether a is timestamptz ± interval.
func ZoneArithOf(a *Arith) bool {
	l, r := a.L.Type().Kind, a.R.Type().Kind
	switch a.Op {
	case OpAdd:
		return l == value.TimestampTZ && r == value.Interval || l == value.Interval && r == value.TimestampTZ
	case OpSub:
		return l == value.TimestampTZ && r == value.Interval
	}
	return false
}

// ZoneFunc is a call of a catalog function on timestamptz whose result
// depends on the zone: extract, date_part, date_trunc, to_char, age,
// make_timestamptz without a zone, timestamptz(date, time), and the json functions given a
// timestamptz, alone or in an array or a record (FuncDef.EvalZone).
type ZoneFunc struct {
	C     *StmtClock
	F     *Func
	Z     func(a []value.Value, z value.Zone) (value.Value, error)
	Fixed bool
	// S, when set, is Z with the session's text style too (the json
	// functions, FuncDef.EvalStyle), which an ad-hoc statement's call
	// follows.
	S func(a []value.Value, z value.Zone, st value.TextStyle) (value.Value, error)
}

var _ Expr = (*ZoneFunc)(nil)

func (f *ZoneFunc) Type() value.Type { return f.F.T }
func (f *ZoneFunc) Volatile() bool   { return !f.Fixed || f.F.Volatile() }
func (*ZoneFunc) expr()              {}
func (f *ZoneFunc) String() string   { return f.F.String() }

// Eval implements Expr.
func (f *ZoneFunc) Eval(row value.Row) (value.Value, error) {
	var buf [6]value.Value
	args := buf[:0]
	for _, a := range f.F.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() && f.F.Def.Strict {
			return value.Null, nil
		}
		args = append(args, v)
	}
	if f.S != nil && f.C != nil && !f.Fixed {
		return f.S(args, f.C.Zone, f.C.TextStyle)
	}
	return f.Z(args, zoneOf(f.C))
}

// StyleFuncOf is the session's text style's version of a call of f (the
// json functions given a float, a geometric value or a record, alone or
// in an array), nil when f does not depend on it.
func StyleFuncOf(f *Func) func([]value.Value, value.Zone, value.TextStyle) (value.Value, error) {
	if f.Def == nil || f.Def.EvalStyle == nil {
		return nil
	}
	for _, a := range f.Args {
		if HoldsFloat(a.Type().Kind) {
			return f.Def.EvalStyle
		}
	}
	return nil
}

// ZoneFuncOf is the zone's version of a call of f, nil when f does not
// depend on the zone.
func ZoneFuncOf(f *Func) func([]value.Value, value.Zone) (value.Value, error) {
	if f.Def != nil && f.Def.EvalZone != nil {
		for _, a := range f.Args {
			if k := a.Type().Kind; k == value.TimestampTZ || k == value.Record || k.Elem() == value.TimestampTZ || k.Elem() == value.Record {
				return f.Def.EvalZone
			}
		}
		return nil
	}
	if f.Def == nil || !f.Def.Strict {
		return nil
	}
	kinds := make([]value.Kind, len(f.Args))
	for i, a := range f.Args {
		kinds[i] = a.Type().Kind
	}
	tz := func(i int) bool { return i < len(kinds) && kinds[i] == value.TimestampTZ }
	switch f.Def.Name {
	case "extract", "date_part":
		if len(kinds) == 2 && tz(1) {
			part := f.Def.Name == "date_part"
			return func(a []value.Value, z value.Zone) (value.Value, error) {
				return value.ExtractZone(a[0].Str(), a[1], part, z)
			}
		}
	case "date_trunc":
		if len(kinds) == 2 && tz(1) {
			return func(a []value.Value, z value.Zone) (value.Value, error) {
				if z.IsUTC() {
					return value.DateTrunc(a[0].Str(), a[1])
				}
				return value.DateTruncZone(a[0].Str(), a[1], z)
			}
		}
	case "to_char":
		if len(kinds) == 2 && tz(0) {
			return func(a []value.Value, z value.Zone) (value.Value, error) { return value.FormatZone(a[0], a[1].Str(), z) }
		}
	case "age":
		if len(kinds) == 2 && tz(0) && tz(1) {
			return func(a []value.Value, z value.Zone) (value.Value, error) { return value.AgeZone(a[0], a[1], z) }
		}
		if len(kinds) == 1 {
			return ageFromToday
		}
	case "to_timestamp":
		if len(kinds) == 2 {
			return func(a []value.Value, z value.Zone) (value.Value, error) {
				return value.ParseDateTimeZone(textOf(a[0]), rawText(a[1]), z)
			}
		}
	case "timestamptz":
		if len(kinds) == 2 && kinds[1] == value.Time {
			return func(a []value.Value, z value.Zone) (value.Value, error) {
				v, err := value.Add(a[0], a[1]) // the wall-clock time
				if err != nil {
					return v, err
				}
				return value.CastZone(v, value.TimestampTZType, true, z)
			}
		}
	case "make_timestamptz":
		if len(kinds) == 6 {
			def := f.Def
			return func(a []value.Value, z value.Zone) (value.Value, error) {
				v, err := def.Eval(a) // the wall-clock time, read as UTC
				if err != nil || v.IsNull() || z.IsUTC() {
					return v, err
				}
				return value.CastZone(value.NewTimestamp(value.Timestamp, v.Int()), value.TimestampTZType, false, z)
			}
		}
	}
	return nil
}

// ageFromToday is age(t): t's age at midnight of the current date, both
// in z, as PostgreSQL's age of one argument.
func ageFromToday(a []value.Value, z value.Zone) (value.Value, error) {
	now, err := catalog["now"][0].Eval(nil)
	if err != nil {
		return value.Null, err
	}
	today, err := value.CastZone(now, value.DateType, true, z)
	if err != nil {
		return value.Null, err
	}
	midnight, err := value.CastZone(today, value.Type{Kind: a[0].Kind()}, true, z)
	if err != nil {
		return value.Null, err
	}
	if a[0].Kind() == value.TimestampTZ {
		return value.AgeZone(midnight, a[0], z)
	}
	return value.Age(midnight, a[0])
}
