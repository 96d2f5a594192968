package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The date/time functions of PostgreSQL's catalog: extract and date_part
// (the SQL syntax extract(year FROM d) arrives as extract('year', d)),
// date_trunc, age, make_date and the justify functions.
func init() {
	const (
		T   = value.Text
		D   = value.Date
		TS  = value.Timestamp
		TZ  = value.TimestampTZ
		IV  = value.Interval
		I4  = value.Int4
		cur = "current_date"
	)
	field := func(f func(string, value.Value) (value.Value, error)) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) { return f(a[0].Str(), a[1]) }
	}
	for _, k := range []value.Kind{D, TS, TZ, IV} {
		strict("extract", kinds(T, k), value.NumericType, field(value.Extract))
		strict("date_part", kinds(T, k), value.Float8Type, field(value.DatePart))
	}
	for _, k := range []value.Kind{TS, TZ, IV} {
		strict("date_trunc", kinds(T, k), value.Type{Kind: k, Mod: -1}, field(value.DateTrunc))
	}
	strict("date_trunc", kinds(T, TZ, T), value.TimestampTZType, func(a []value.Value) (value.Value, error) {
		if us := a[1].Int(); us == value.TimestampPosInfinity || us == value.TimestampNegInfinity {
			return a[1], nil
		}
		z, err := value.LookupZone(a[2].Str())
		if err != nil {
			return value.Null, err
		}
		return value.DateTruncZone(a[0].Str(), a[1], z)
	})
	age := func(a []value.Value) (value.Value, error) { return value.Age(a[0], a[1]) }
	strict("age", kinds(TS, TS), value.IntervalType, age)
	strict("age", kinds(TZ, TZ), value.IntervalType, age)
	// age(t) is the age at midnight of the current date: stable, so a view
	// refuses it as it refuses now().
	for _, k := range []value.Kind{TS, TZ} {
		register(&FuncDef{Name: "age", Volatile: true, Strict: true, Params: kinds(k), Result: value.IntervalType,
			Eval: func(a []value.Value) (value.Value, error) {
				today, err := catalog[cur][0].Eval(nil)
				if err != nil {
					return value.Null, err
				}
				return value.Age(value.NewTimestamp(a[0].Kind(), today.Int()*86400*1000000), a[0])
			}})
	}
	strict("make_date", kinds(I4, I4, I4), value.DateType, func(a []value.Value) (value.Value, error) {
		return value.MakeDate(a[0].Int(), a[1].Int(), a[2].Int())
	})
	strict("justify_hours", kinds(IV), value.IntervalType, func(a []value.Value) (value.Value, error) {
		return value.JustifyHours(a[0])
	})
	strict("justify_days", kinds(IV), value.IntervalType, func(a []value.Value) (value.Value, error) {
		return value.JustifyDays(a[0])
	})
	strict("justify_interval", kinds(IV), value.IntervalType, func(a []value.Value) (value.Value, error) {
		return value.JustifyInterval(a[0])
	})
}

// intervalLength is the length of an interval as a numeric; it is not in
// the catalog: only join keys use it.
var intervalLength = &FuncDef{Name: "interval_length", Strict: true, Params: kinds(value.Interval), Result: value.NumericType,
	Eval: func(a []value.Value) (value.Value, error) { return value.IntervalLength(a[0]), nil }}

// EqualityKey returns the expression an equi-join compares for e: e
// itself, except that an interval compares by its length, as SQL's =
// compares intervals ('1 mon' = '30 days'), where the key encoding keeps
// the two apart.
func EqualityKey(e Expr) Expr {
	if e.Type().Kind != value.Interval {
		return e
	}
	return &Func{Def: intervalLength, Args: []Expr{e}, T: value.NumericType}
}
