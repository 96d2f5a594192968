package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// zoned makes the operations of e that depend on the session's time zone
// (timestamptz to or from timestamp, date, time and text, timestamptz ±
// interval, extract, date_trunc, to_char, age of timestamptz,
// to_timestamp of a text without a zone, and string
// literals read as timestamptz) run in the zone: in an ad-hoc statement
// the zone of the session that runs it, read when it runs (a literal is
// read when it is bound, as PostgreSQL reads it); in a materialized view
// the zone of the session that creates it, which the view captures and
// keeps. A view created in UTC, a column's default and a check run in UTC.
func (b *binder) zoned(e expr.Expr) expr.Expr {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		switch n := x.(type) {
		case *expr.Const:
			if n.Local == "" {
				return x
			}
			z, _, ok := b.zoneClock()
			if !ok {
				// A default's or a check's literal: read in the zone of
				// the session that binds it, as PostgreSQL reads it once.
				z, _ = b.sessionZone()
			}
			if z.IsUTC() {
				return x
			}
			v, err := value.ParseStyled(n.Local, n.T, value.IntervalPostgres.WithDate(value.DateISO, n.Order), z)
			if err != nil {
				return x
			}
			return &expr.Const{V: v, T: n.T}
		case *expr.Cast:
			if !value.ZoneCast(n.E.Type().Kind, n.To.Kind) {
				return x
			}
			if !b.forView && b.stmtClock != nil && n.To.Kind.IsString() && expr.HoldsStyled(n.E.Type().Kind) {
				return x // expr.IntervalText prints it in the session's style and zone
			}
			z, c, ok := b.zoneClock()
			if !ok {
				return x
			}
			if k, isConst := n.E.(*expr.Const); isConst && (c == nil || c.Set || b.forView) {
				if k.V.IsNull() {
					return &expr.Const{V: value.Null, T: n.To}
				}
				if v, err := value.CastZone(k.V, n.To, n.Explicit || k.T.Kind == value.Unknown, z); err == nil {
					return &expr.Const{V: v, T: n.To}
				}
			}
			if c == nil {
				return x
			}
			return &expr.ZoneCast{C: c, Cast: n, Fixed: b.forView}
		case *expr.Arith:
			if !expr.ZoneArithOf(n) || timeOnly(n.L) || timeOnly(n.R) {
				return x // a constant without days or months moves the instant alone
			}
			if _, c, ok := b.zoneClock(); ok && c != nil {
				return &expr.ZoneArith{C: c, A: n, Fixed: b.forView}
			}
		case *expr.Func:
			f := expr.ZoneFuncOf(n)
			if s := expr.StyleFuncOf(n); s != nil && !b.forView && b.stmtClock != nil {
				// Floats in json follow the session's extra_float_digits.
				return &expr.ZoneFunc{C: b.stmtClock, F: n, Z: n.Def.EvalZone, S: s}
			}
			if f == nil {
				return x
			}
			if _, c, ok := b.zoneClock(); ok && c != nil {
				return &expr.ZoneFunc{C: c, F: n, Z: f, Fixed: b.forView}
			}
		}
		return x
	})
}

// zoneClock is the zone in which the statement's zone-dependent
// operations run, as it is when the statement is bound, and the clock
// they read it from when they run (nil when they run in UTC); ok is false
// when they keep running in UTC.
func (b *binder) zoneClock() (value.Zone, *expr.StmtClock, bool) {
	if !b.forView {
		if b.stmtClock == nil {
			return value.UTC, nil, false
		}
		z, _ := b.sessionZone()
		return z, b.stmtClock, true
	}
	z, name := b.sessionZone()
	if z.IsUTC() {
		return z, nil, false
	}
	if b.viewZone == nil {
		b.viewZone = &expr.StmtClock{Zone: z}
		if sc, ok := b.cat.(SettingCapturer); ok {
			sc.CaptureSetting("timezone", name)
		}
	}
	return z, b.viewZone, true
}

// sessionZone is the TimeZone of the session binding the statement, and
// its name; UTC when none binds it.
func (b *binder) sessionZone() (value.Zone, string) {
	s := b.viewSettings()
	if s == nil {
		return value.UTC, ""
	}
	name, _, err := s.Setting("timezone", false)
	if err != nil {
		return value.UTC, ""
	}
	z, _ := value.SessionZone(name)
	return z, name
}

// coerceZoned is expr.Coerce of a bound expression, its zone-dependent
// conversions made to run in the zone (zoned).
func (b *binder) coerceZoned(e expr.Expr, t value.Type, explicit bool) (expr.Expr, error) {
	out, err := expr.Coerce(e, t, explicit)
	if err != nil || out == e {
		return out, err
	}
	return b.zoned(out), nil
}

// zonedSeries makes the arguments of a set-returning function, which it
// coerced, run in the zone, and generate_series over timestamptz step by
// days and months in the zone (expr.ZoneSeries).
func (b *binder) zonedSeries(srf *expr.SRF) {
	for i, a := range srf.Args {
		srf.Args[i] = b.zoned(a)
	}
	if srf.Name != "generate_series" || len(srf.Args) < 3 || len(srf.Cols) != 1 || srf.Cols[0].Kind != value.TimestampTZ {
		return
	}
	if _, c, ok := b.zoneClock(); ok && c != nil {
		srf.Gen = expr.ZoneSeries(c)
	}
}

// timeOnly reports whether e is a constant interval without days or
// months.
func timeOnly(e expr.Expr) bool {
	c, ok := e.(*expr.Const)
	if !ok || c.V.IsNull() || c.V.Kind() != value.Interval {
		return false
	}
	s := c.V.Span()
	return s.Months == 0 && s.Days == 0
}

// refuseTodaysOffset refuses, in a materialized view created in a zone
// other than UTC, a cast of a time to timetz in e: it takes the zone's
// offset on the current date, so that rows computed on either side of a
// change to summer time would differ from a recomputation.
func (b *binder) refuseTodaysOffset(e expr.Expr, loc int32) error {
	c, ok := e.(*expr.ZoneCast)
	if !ok || !c.Fixed || c.Cast.E.Type().Kind != value.Time || c.Cast.To.Kind != value.TimeTZ {
		return nil
	}
	return b.refuse(loc, "a cast of time to time with time zone, which takes the offset of the current date, cannot be maintained in a view created in a time zone other than UTC").
		WithHint("cast a timestamp with time zone to time with time zone, or create the view with TimeZone set to a fixed offset such as UTC")
}
