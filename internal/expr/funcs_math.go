package expr

import (
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SQLSTATEs of the math functions.
const (
	codeInvalidLog   = "2201E"
	codeInvalidPower = "2201F"
)

// Now is the clock of now(), current_timestamp, transaction_timestamp(),
// statement_timestamp() and current_date. It reads the wall clock; the
// engine may replace it to pin one timestamp per transaction.
// clock_timestamp() always reads the wall clock.
var Now = time.Now

// pgEpochMicros is 2000-01-01 00:00:00 UTC in Unix microseconds.
const pgEpochMicros = 946684800000000

func float8(f float64) value.Value { return value.NewFloat(value.Float8, f) }

func init() {
	N, F8, I4 := value.Numeric, value.Float8, value.Int4
	for _, k := range []value.Kind{value.Int2, value.Int4, value.Int8, N, value.Float4, F8} {
		strict("abs", kinds(k), plain(k), func(a []value.Value) (value.Value, error) { return value.Abs(a[0]) })
	}
	for _, name := range []string{"round", "trunc"} {
		f := value.Round
		if name == "trunc" {
			f = value.Trunc
		}
		strict(name, kinds(N), value.NumericType, func(a []value.Value) (value.Value, error) { return f(a[0], 0) })
		strict(name, kinds(N, I4), value.NumericType, func(a []value.Value) (value.Value, error) { return f(a[0], a[1].Int()) })
		strict(name, kinds(F8), value.Float8Type, func(a []value.Value) (value.Value, error) { return f(a[0], 0) })
	}
	for _, k := range []value.Kind{value.Int2, value.Int4, value.Int8, N} {
		strict("mod", kinds(k, k), plain(k), func(a []value.Value) (value.Value, error) { return value.Mod(a[0], a[1]) })
	}
	strict("ceil", kinds(N), value.NumericType, numericFn(ceilFloor(true)), "ceiling")
	strict("ceil", kinds(F8), value.Float8Type, floatFn(math.Ceil), "ceiling")
	strict("floor", kinds(N), value.NumericType, numericFn(ceilFloor(false)))
	strict("floor", kinds(F8), value.Float8Type, floatFn(math.Floor))
	strict("sign", kinds(N), value.NumericType, numericFn(numericSign))
	strict("sign", kinds(F8), value.Float8Type, floatFn(func(f float64) float64 {
		switch {
		case f > 0:
			return 1
		case f < 0:
			return -1
		}
		return 0
	}))
	strict("sqrt", kinds(F8), value.Float8Type, floatErrFn(floatSqrt))
	strict("sqrt", kinds(N), value.NumericType, numericFn(numericSqrt))
	strict("exp", kinds(F8), value.Float8Type, floatErrFn(floatExp))
	strict("exp", kinds(N), value.NumericType, numericFn(numericExp))
	strict("ln", kinds(F8), value.Float8Type, floatErrFn(floatLn))
	strict("ln", kinds(N), value.NumericType, numericFn(numericLn))
	strict("power", kinds(F8, F8), value.Float8Type, func(a []value.Value) (value.Value, error) {
		f, err := floatPow(a[0].Float(), a[1].Float())
		if err != nil {
			return value.Null, err
		}
		return float8(f), nil
	}, "pow")
	strict("power", kinds(N, N), value.NumericType, func(a []value.Value) (value.Value, error) {
		d, err := numericPow(a[0].Decimal(), a[1].Decimal())
		if err != nil {
			return value.Null, err
		}
		return value.NewNumeric(d), nil
	}, "pow")

	register(&FuncDef{Name: "random", Volatile: true, Result: value.Float8Type,
		Eval: pgRandom})
	now := func([]value.Value) (value.Value, error) {
		return value.NewTimestamp(value.TimestampTZ, Now().UnixMicro()-pgEpochMicros), nil
	}
	for _, name := range []string{"now", "transaction_timestamp", "statement_timestamp"} {
		register(&FuncDef{Name: name, Volatile: true, Result: value.TimestampTZType, Eval: now})
	}
	register(&FuncDef{Name: "current_timestamp", Volatile: true, Result: value.TimestampTZType, Eval: now, NoParens: true})
	register(&FuncDef{Name: "clock_timestamp", Volatile: true, Result: value.TimestampTZType,
		Eval: func([]value.Value) (value.Value, error) {
			return value.NewTimestamp(value.TimestampTZ, time.Now().UnixMicro()-pgEpochMicros), nil
		}})
	// current_date is the UTC date of Now: deltaview's sessions run in UTC.
	register(&FuncDef{Name: "current_date", Volatile: true, Result: value.DateType, NoParens: true,
		Eval: func([]value.Value) (value.Value, error) {
			us := Now().UnixMicro() - pgEpochMicros
			const day = 86400 * 1000000
			days := us / day
			if us%day < 0 {
				days--
			}
			return value.NewDate(days), nil
		}})
}

func floatFn(f func(float64) float64) func([]value.Value) (value.Value, error) {
	return func(a []value.Value) (value.Value, error) { return float8(f(a[0].Float())), nil }
}

func floatErrFn(f func(float64) (float64, error)) func([]value.Value) (value.Value, error) {
	return func(a []value.Value) (value.Value, error) {
		r, err := f(a[0].Float())
		if err != nil {
			return value.Null, err
		}
		return float8(r), nil
	}
}

func errOverflow() error  { return pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow") }
func errUnderflow() error { return pgerr.New(pgerr.NumericOutOfRange, "value out of range: underflow") }

// checkFloat is PostgreSQL's float overflow check: an infinite result from
// finite inputs overflowed, a zero result from a non-zero one underflowed.
func checkFloat(r float64, inputInf, zeroOK bool) (float64, error) {
	if math.IsInf(r, 0) && !inputInf {
		return 0, errOverflow()
	}
	if r == 0 && !zeroOK {
		return 0, errUnderflow()
	}
	return r, nil
}

func floatSqrt(f float64) (float64, error) {
	if f < 0 {
		return 0, pgerr.New(codeInvalidPower, "cannot take square root of a negative number")
	}
	return math.Sqrt(f), nil
}

func floatExp(f float64) (float64, error) {
	if math.IsNaN(f) {
		return f, nil
	}
	if math.IsInf(f, 0) {
		if f > 0 {
			return f, nil
		}
		return 0, nil
	}
	return checkFloat(cExp(f), false, false)
}

func floatLn(f float64) (float64, error) {
	switch {
	case f == 0:
		return 0, pgerr.New(codeInvalidLog, "cannot take logarithm of zero")
	case f < 0:
		return 0, pgerr.New(codeInvalidLog, "cannot take logarithm of a negative number")
	}
	return cLog(f), nil
}

func floatPow(x, y float64) (float64, error) {
	if x == 0 && y < 0 {
		return 0, pgerr.New(codeInvalidPower, "zero raised to a negative power is undefined")
	}
	if x < 0 && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y) {
		return 0, pgerr.New(codeInvalidPower, "a negative number raised to a non-integer power yields a complex result")
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		if (math.IsNaN(x) && y == 0) || x == 1 {
			return 1, nil
		}
		return math.NaN(), nil
	}
	r := cPow(x, y)
	return checkFloat(r, math.IsInf(x, 0) || math.IsInf(y, 0), x == 0 || math.IsInf(y, 0) || math.Abs(x) < 1 || y < 0)
}

// Numeric math follows PostgreSQL's choice of result scale: at least 16
// significant digits (NUMERIC_MIN_SIG_DIGITS), at least the inputs' scale,
// at most 1000 places, rounding half away from zero.
const (
	numericMinSigDigits = 16
	numericMaxScale     = 1000
	numericMaxWeight    = 131072
)

var (
	decNaN  = &apd.Decimal{Form: apd.NaN}
	decInf  = &apd.Decimal{Form: apd.Infinite}
	decZero = &apd.Decimal{}
	decOne  = apd.New(1, 0)
)

func numericFn(f func(d *apd.Decimal) (*apd.Decimal, error)) func([]value.Value) (value.Value, error) {
	return func(a []value.Value) (value.Value, error) {
		d := a[0].Decimal()
		if d == nil {
			return value.Null, pgerr.New(pgerr.Internal, "numeric argument expected")
		}
		r, err := f(d)
		if err != nil {
			return value.Null, err
		}
		return value.NewNumeric(r), nil
	}
}

func errNumericOverflow() error {
	return pgerr.New(pgerr.NumericOutOfRange, "value overflows numeric format")
}

// dscale is a finite numeric's number of decimal places.
func dscale(d *apd.Decimal) int64 { return max(0, -int64(d.Exponent)) }

// weight10 is the power of ten of a finite non-zero numeric's leading digit.
func weight10(d *apd.Decimal) int64 { return d.NumDigits() + int64(d.Exponent) - 1 }

// log10Abs estimates log10(|d|) for a finite non-zero numeric, even far
// outside float64's range.
func log10Abs(d *apd.Decimal) float64 {
	n := d.NumDigits()
	var m apd.Decimal
	m.Set(d)
	m.Negative = false
	m.Exponent = int32(-(n - 1)) // 1 <= m < 10
	f, _ := m.Float64()
	return math.Log10(f) + float64(n-1+int64(d.Exponent))
}

// finish rounds r, computed with spare digits, to rscale places.
func finish(r *apd.Decimal, rscale int64) (*apd.Decimal, error) {
	rscale = clamp(rscale, 0, numericMaxScale)
	ctx := apd.BaseContext.WithPrecision(uint32(max(r.NumDigits()+int64(r.Exponent)+rscale+2, 1)))
	ctx.Rounding = apd.RoundHalfUp
	out := new(apd.Decimal)
	if _, err := ctx.Quantize(out, r, int32(-rscale)); err != nil {
		return nil, errNumericOverflow()
	}
	if out.IsZero() {
		out.Negative = false
	}
	return out, nil
}

// workContext has enough precision for a result of about 10^weight with
// rscale places.
func workContext(weight, rscale int64) *apd.Context {
	return apd.BaseContext.WithPrecision(uint32(max(weight, 0) + clamp(rscale, 0, numericMaxScale) + 10))
}

func ceilFloor(ceil bool) func(*apd.Decimal) (*apd.Decimal, error) {
	return func(d *apd.Decimal) (*apd.Decimal, error) {
		if d.Form != apd.Finite {
			return d, nil
		}
		ctx := apd.BaseContext.WithPrecision(uint32(max(d.NumDigits()+int64(d.Exponent), 1) + 1))
		r := new(apd.Decimal)
		var err error
		if ceil {
			_, err = ctx.Ceil(r, d)
		} else {
			_, err = ctx.Floor(r, d)
		}
		if err != nil {
			return nil, errNumericOverflow()
		}
		return finish(r, 0)
	}
}

func numericSign(d *apd.Decimal) (*apd.Decimal, error) {
	switch {
	case d.Form == apd.NaN || d.Form == apd.NaNSignaling:
		return decNaN, nil
	case d.IsZero():
		return decZero, nil
	case d.Negative:
		return apd.New(-1, 0), nil
	}
	return apd.New(1, 0), nil
}

func numericSqrt(d *apd.Decimal) (*apd.Decimal, error) {
	switch {
	case d.Form == apd.NaN || d.Form == apd.NaNSignaling:
		return decNaN, nil
	case d.Negative && !d.IsZero():
		return nil, pgerr.New(codeInvalidPower, "cannot take square root of a negative number")
	case d.Form == apd.Infinite:
		return decInf, nil
	}
	// PostgreSQL estimates the result's weight from the argument's weight
	// in base-10000 digits.
	var w int64
	if !d.IsZero() {
		w = floorDiv(weight10(d), 4)
	}
	rscale := max(numericMinSigDigits-(2*w+1), dscale(d))
	r := new(apd.Decimal)
	if _, err := workContext(w*2+4, rscale).Sqrt(r, d); err != nil {
		return nil, errNumericOverflow()
	}
	return finish(r, rscale)
}

func numericLn(d *apd.Decimal) (*apd.Decimal, error) {
	switch {
	case d.Form == apd.NaN || d.Form == apd.NaNSignaling:
		return decNaN, nil
	case d.IsZero():
		return nil, pgerr.New(codeInvalidLog, "cannot take logarithm of zero")
	case d.Negative:
		return nil, pgerr.New(codeInvalidLog, "cannot take logarithm of a negative number")
	case d.Form == apd.Infinite:
		return decInf, nil
	}
	// PostgreSQL's estimate_ln_dweight.
	var lnWeight int64
	if f, _ := d.Float64(); f >= 0.9 && f <= 1.1 {
		var x apd.Decimal
		if _, err := apd.BaseContext.Sub(&x, d, decOne); err == nil && !x.IsZero() {
			lnWeight = weight10(&x)
		}
	} else {
		ln := log10Abs(d) * math.Ln10
		lnWeight = int64(math.Log10(math.Abs(ln)))
	}
	rscale := max(numericMinSigDigits-lnWeight, dscale(d))
	r := new(apd.Decimal)
	if _, err := workContext(max(lnWeight, 0)+2, rscale).Ln(r, d); err != nil {
		return nil, errNumericOverflow()
	}
	return finish(r, rscale)
}

func numericExp(d *apd.Decimal) (*apd.Decimal, error) {
	switch {
	case d.Form == apd.NaN || d.Form == apd.NaNSignaling:
		return decNaN, nil
	case d.Form == apd.Infinite:
		if d.Negative {
			return decZero, nil
		}
		return decInf, nil
	}
	f, _ := d.Float64()
	w := f * math.Log10E // the result's decimal weight
	if w > numericMaxWeight {
		return nil, errNumericOverflow()
	}
	w = max(w, -2000)
	rscale := max(numericMinSigDigits-int64(w), dscale(d))
	if int64(w)+clamp(rscale, 0, numericMaxScale) < -1 {
		return finish(decZero, rscale) // below the last place kept
	}
	r := new(apd.Decimal)
	if _, err := workContext(int64(w)+2, rscale).Exp(r, d); err != nil {
		return nil, errNumericOverflow()
	}
	return finish(r, rscale)
}

func numericPow(x, y *apd.Decimal) (*apd.Decimal, error) {
	if x == nil || y == nil {
		return nil, pgerr.New(pgerr.Internal, "numeric argument expected")
	}
	isNaN := func(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }
	var yInt apd.Decimal
	if y.Form == apd.Finite {
		if _, err := apd.BaseContext.WithPrecision(uint32(max(y.NumDigits(), 1))).RoundToIntegralValue(&yInt, y); err != nil {
			return nil, errNumericOverflow()
		}
	}
	integral := y.Form == apd.Finite && yInt.Cmp(y) == 0
	switch {
	case isNaN(x) || isNaN(y):
		if (isNaN(x) && y.Form == apd.Finite && y.IsZero()) || (x.Form == apd.Finite && x.Cmp(decOne) == 0) {
			return decOne, nil
		}
		return decNaN, nil
	case x.Form == apd.Finite && x.IsZero() && y.Negative && !y.IsZero():
		return nil, pgerr.New(codeInvalidPower, "zero raised to a negative power is undefined")
	case x.Form == apd.Finite && x.Negative && y.Form == apd.Finite && !integral:
		return nil, pgerr.New(codeInvalidPower, "a negative number raised to a non-integer power yields a complex result")
	case x.Form == apd.Infinite || y.Form == apd.Infinite:
		xf, _ := x.Float64()
		yf, _ := y.Float64()
		r, err := floatPow(xf, yf)
		if err != nil {
			return nil, err
		}
		switch {
		case math.IsInf(r, 1):
			return decInf, nil
		case math.IsInf(r, -1):
			return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
		case r == 0:
			return decZero, nil
		}
		return apd.New(1, 0), nil
	}
	rscale := max(int64(numericMinSigDigits), dscale(x), dscale(y))
	if y.IsZero() {
		return finish(decOne, rscale)
	}
	if x.IsZero() {
		return finish(decZero, rscale)
	}
	yf, _ := y.Float64()
	w := yf * log10Abs(x) // the result's decimal weight
	if w > numericMaxWeight {
		return nil, errNumericOverflow()
	}
	w = max(w, -2000)
	if integral {
		// PostgreSQL 15 gives an integral power at least 16 places, whatever
		// the result's size.
		rscale = max(numericMinSigDigits, dscale(x))
	} else {
		rscale = max(numericMinSigDigits-int64(w), dscale(x), dscale(y))
	}
	if int64(w)+clamp(rscale, 0, numericMaxScale) < -1 {
		return finish(decZero, rscale)
	}
	r := new(apd.Decimal)
	if _, err := workContext(int64(w)+2, rscale).Pow(r, x, y); err != nil {
		return nil, errNumericOverflow()
	}
	return finish(r, rscale)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
