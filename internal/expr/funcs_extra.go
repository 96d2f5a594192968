package expr

import (
	"math"
	"strconv"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// More of PostgreSQL's catalog: hyperbolic and degree-based trigonometry,
// octet_length, bit_length, to_hex, div, num_nulls, num_nonnulls,
// isfinite and make_timestamp.
func init() {
	F8, T := value.Float8, value.Text
	f1 := func(name string, f func(float64) (float64, error)) {
		strict(name, kinds(F8), value.Float8Type, floatErrFn(f))
	}
	ok := func(f func(float64) float64) func(float64) (float64, error) {
		return func(x float64) (float64, error) { return f(x), nil }
	}
	inRange := func(lo, hi float64, f func(float64) float64) func(float64) (float64, error) {
		return func(x float64) (float64, error) {
			if x < lo || x > hi {
				return 0, pgerr.New(pgerr.NumericOutOfRange, "input is out of range")
			}
			return f(x), nil
		}
	}
	f1("sinh", ok(cSinh))
	f1("cosh", ok(cCosh))
	f1("tanh", ok(cTanh))
	f1("asinh", ok(cAsinh))
	f1("acosh", inRange(1, math.Inf(1), cAcosh))
	f1("atanh", inRange(-1, 1, cAtanh))
	f1("sind", pgSind)
	f1("cosd", pgCosd)
	f1("tand", pgTand)
	f1("cotd", pgCotd)
	f1("asind", pgAsind)
	f1("acosd", pgAcosd)
	f1("atand", ok(func(x float64) float64 { return cAtan(x) / cAtan(1) * 45 }))

	strict("octet_length", kinds(T), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(len(rawText(a[0])))), nil
	})
	// char(n) keeps its padding, which octet_length counts.
	strict("octet_length", kinds(value.Char), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(len(a[0].Str()))), nil
	})
	strict("bit_length", kinds(T), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(8 * len(rawText(a[0])))), nil
	})
	strict("to_hex", kinds(value.Int4), value.TextType, func(a []value.Value) (value.Value, error) {
		return text(strconv.FormatUint(uint64(uint32(a[0].Int())), 16)), nil
	})
	strict("to_hex", kinds(value.Int8), value.TextType, func(a []value.Value) (value.Value, error) {
		return text(strconv.FormatUint(uint64(a[0].Int()), 16)), nil
	})
	strict("div", kinds(value.Numeric, value.Numeric), value.NumericType, func(a []value.Value) (value.Value, error) {
		x, y := a[0].Decimal(), a[1].Decimal()
		// The special values as PostgreSQL's numeric_div_trunc takes
		// them: NaN first, then an infinite dividend (NaN over an
		// infinite divisor, the signs' infinity over a finite one), then
		// a finite dividend over an infinite divisor, 0.
		switch {
		case x.Form == apd.NaN || y.Form == apd.NaN:
			return value.NewNumeric(&apd.Decimal{Form: apd.NaN}), nil
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			return value.NewNumeric(&apd.Decimal{Form: apd.NaN}), nil
		case x.Form == apd.Infinite && !y.IsZero():
			return value.NewNumeric(&apd.Decimal{Form: apd.Infinite, Negative: x.Negative != y.Negative}), nil
		case y.Form == apd.Infinite:
			return value.NewNumeric(&apd.Decimal{}), nil
		}
		if y.IsZero() {
			return value.Null, pgerr.New(pgerr.DivisionByZero, "division by zero")
		}
		var q apd.Decimal
		ctx := apd.BaseContext.WithPrecision(1000)
		if _, err := ctx.QuoInteger(&q, x, y); err != nil {
			return value.Null, pgerr.New(pgerr.NumericOutOfRange, "value overflows numeric format")
		}
		return value.NewNumeric(&q), nil
	})
	countNulls := func(null bool) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			n := 0
			for _, v := range a {
				if v.IsNull() == null {
					n++
				}
			}
			return int4(int64(n)), nil
		}
	}
	register(&FuncDef{Name: "num_nulls", Params: kinds(value.Unknown), Variadic: true, Result: value.Int4Type, Eval: countNulls(true)})
	register(&FuncDef{Name: "num_nonnulls", Params: kinds(value.Unknown), Variadic: true, Result: value.Int4Type, Eval: countNulls(false)})
	finite := func(a []value.Value) (value.Value, error) {
		v := a[0]
		switch v.Kind() {
		case value.Date:
			return value.NewBool(v.Int() != value.DateNegInfinity && v.Int() != value.DatePosInfinity), nil
		case value.Timestamp, value.TimestampTZ:
			return value.NewBool(v.Int() != value.TimestampNegInfinity && v.Int() != value.TimestampPosInfinity), nil
		}
		return value.NewBool(true), nil
	}
	for _, k := range []value.Kind{value.Date, value.Timestamp, value.TimestampTZ, value.Interval} {
		strict("isfinite", kinds(k), value.BoolType, finite)
	}
	I4 := value.Int4
	strict("make_timestamp", kinds(I4, I4, I4, I4, I4, F8), value.Type{Kind: value.Timestamp, Mod: -1}, func(a []value.Value) (value.Value, error) {
		d, err := value.MakeDate(a[0].Int(), a[1].Int(), a[2].Int())
		if err != nil {
			return value.Null, err
		}
		h, mi, sec := a[3].Int(), a[4].Int(), a[5].Float()
		if h < 0 || h > 24 || mi < 0 || mi > 59 || sec < 0 || sec > 60 || math.IsNaN(sec) ||
			h == 24 && (mi > 0 || sec > 0) {
			return value.Null, pgerr.New(pgerr.DatetimeOverflow, "time field value out of range: %d:%02d:%02g", h, mi, sec)
		}
		us := d.Int()*86400*1000000 + (h*60+mi)*60*1000000 + int64(math.Round(sec*1e6))
		return value.NewTimestamp(value.Timestamp, us), nil
	})
}

// exactDegrees converts radians to degrees, rounding results within a
