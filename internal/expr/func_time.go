package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The functions and operators of time and timetz: extract and date_part of
// their fields, make_time, and the arithmetic PostgreSQL's catalog has for
// them. date_trunc, to_char, sum and avg of a time reach the interval's
// through the implicit cast time → interval, as in PostgreSQL.
func init() {
	T, TM, TTZ := value.Text, value.Time, value.TimeTZ
	field := func(f func(string, value.Value) (value.Value, error)) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) { return f(a[0].Str(), a[1]) }
	}
	for _, k := range []value.Kind{TM, TTZ} {
		strict("extract", kinds(T, k), value.NumericType, field(value.Extract))
		strict("date_part", kinds(T, k), value.Float8Type, field(value.DatePart))
	}
	strict("make_time", kinds(value.Int4, value.Int4, value.Float8), value.TimeType, func(a []value.Value) (value.Value, error) {
		return value.MakeTime(a[0].Int(), a[1].Int(), a[2].Float())
	})
}

// timeKinds is arithKinds for the operators with a time or timetz
// operand: time or timetz ± interval (and interval + either) keep the
// time's kind, time - time is an interval, date + time a timestamp and
// date + timetz a timestamptz. Any other operator with a time takes it as
// an interval, through the implicit cast (timestamp + time, time * 2).
func timeKinds(op ArithOp, l, r value.Kind) (lk, rk, res value.Kind, ok bool) {
	isTime := func(k value.Kind) bool { return k == value.Time || k == value.TimeTZ }
	dateTime := func(t value.Kind) value.Kind {
		if t == value.TimeTZ {
			return value.TimestampTZ
		}
		return value.Timestamp
	}
	switch {
	case isTime(l) && r == value.Interval && (op == OpAdd || op == OpSub):
		return l, r, l, true
	case l == value.Interval && isTime(r) && op == OpAdd:
		return l, r, r, true
	case l == value.Time && r == value.Time:
		if op == OpSub {
			return l, r, value.Interval, true
		}
		return 0, 0, 0, false
	case l == value.Date && isTime(r) && op == OpAdd:
		return l, r, dateTime(r), true
	case isTime(l) && r == value.Date && op == OpAdd:
		return l, r, dateTime(l), true
	case l == value.Time && r != value.Time:
		if lk, rk, res, ok := arithKinds(op, value.Interval, r); ok {
			return lk, rk, res, true
		}
	case r == value.Time && l != value.Time:
		if lk, rk, res, ok := arithKinds(op, l, value.Interval); ok {
			return lk, rk, res, true
		}
	}
	return 0, 0, 0, false
}

// AT TIME ZONE, which the parser writes as timezone(zone, value): of
// timestamps, timestamptz and timetz (a time through the implicit cast to
// timetz), the zone a name or an interval. A timetz takes a named zone's
// offset now, so its calls by name are volatile, as they read the clock.
func init() {
	T, IV := value.Text, value.Interval
	byName := func(a []value.Value) (value.Value, error) {
		z, err := value.LookupZone(a[0].Str())
		if err != nil {
			return value.Null, err
		}
		return value.AtTimeZone(z, a[1], Now().UnixMicro()-pgEpochMicros)
	}
	byInterval := func(a []value.Value) (value.Value, error) {
		z, err := value.IntervalZone(a[0])
		if err != nil {
			return value.Null, err
		}
		return value.AtTimeZone(z, a[1], 0)
	}
	for _, k := range []value.Kind{value.Timestamp, value.TimestampTZ} {
		res := value.TimestampTZType
		if k == value.TimestampTZ {
			res = value.TimestampType
		}
		strict("timezone", kinds(T, k), res, byName)
		strict("timezone", kinds(IV, k), res, byInterval)
	}
	register(&FuncDef{Name: "timezone", Volatile: true, Strict: true, Params: kinds(T, value.TimeTZ), Result: value.TimeTZType, Eval: byName})
	strict("timezone", kinds(IV, value.TimeTZ), value.TimeTZType, byInterval)
}
