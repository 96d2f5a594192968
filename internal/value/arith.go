package value

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Arithmetic with PostgreSQL's semantics. Both operands of the numeric
// operators have the same kind (the binder inserts casts); the result has
// that kind. Date arithmetic takes a date and an integer, or two dates.
// A NULL operand gives NULL.

func errFloatOverflow() error {
	return pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
}

func errFloatUnderflow() error {
	return pgerr.New(pgerr.NumericOutOfRange, "value out of range: underflow")
}

func errDivByZero() error { return pgerr.New(pgerr.DivisionByZero, "division by zero") }

func errOperator(op string, a, b Value) error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", a.kind, op, b.kind)
}

// floatResult checks a float result for overflow (an infinity from finite
// operands) and, when checkUnderflow, for underflow (zero from nonzero).
func floatResult(k Kind, r float64, inf bool, zero bool) (Value, error) {
	if k == Float4 {
		r = float64(float32(r))
	}
	if math.IsInf(r, 0) && !inf {
		return Null, errFloatOverflow()
	}
	if r == 0 && !zero {
		return Null, errFloatUnderflow()
	}
	return Value{kind: k, n: int64(math.Float64bits(r))}, nil
}

// f32 rounds to the precision of k, so real arithmetic happens in float32.
func f32(k Kind, f float64) float64 {
	if k == Float4 {
		return float64(float32(f))
	}
	return f
}

// Add returns a + b.
func Add(a, b Value) (Value, error) {
	if a.kind == Unknown || b.kind == Unknown {
		return Null, nil
	}
	if r, ok, err := moneyArith('+', a, b); ok {
		return r, err
	}
	if r, ok, err := lsnArith('+', a, b); ok {
		return r, err
	}
	if r, ok, err := timeArith(a, b, false); ok {
		return r, err
	}
	if r, ok, err := intervalArith('+', a, b); ok {
		return r, err
	}
	if a.kind == Date && b.kind.IsInteger() {
		return dateAddDays(a.n, b.n)
	}
	if a.kind.IsInteger() && b.kind == Date {
		return dateAddDays(b.n, a.n)
	}
	if a.kind != b.kind {
		return Null, errOperator("+", a, b)
	}
	switch a.kind {
	case Int2, Int4, Int8:
		r := a.n + b.n
		if a.kind == Int8 && (a.n >= 0) == (b.n >= 0) && (r >= 0) != (a.n >= 0) {
			return Null, errIntRange(Int8)
		}
		return intResult(a.kind, r)
	case Float4, Float8:
		x, y := a.Float(), b.Float()
		r := f32(a.kind, x+y)
		return floatResult(a.kind, r, math.IsInf(x, 0) || math.IsInf(y, 0), true)
	case Numeric:
		if r, ok := addSmallNumeric(a, b, false); ok {
			return r, nil
		}
		var x, y apd.Decimal
		return numericAdd(a.DecimalInto(&x), b.DecimalInto(&y), false)
	}
	return Null, errOperator("+", a, b)
}

// Sub returns a - b; date - integer is a date, date - date the days
// between them.
func Sub(a, b Value) (Value, error) {
	if a.kind == Unknown || b.kind == Unknown {
		return Null, nil
	}
	if r, ok, err := moneyArith('-', a, b); ok {
		return r, err
	}
	if r, ok, err := lsnArith('-', a, b); ok {
		return r, err
	}
	if r, ok, err := timeArith(a, b, true); ok {
		return r, err
	}
	if r, ok, err := intervalArith('-', a, b); ok {
		return r, err
	}
	if a.kind == Date && b.kind.IsInteger() {
		if b.n == math.MinInt64 {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range")
		}
		return dateAddDays(a.n, -b.n)
	}
	if a.kind != b.kind {
		return Null, errOperator("-", a, b)
	}
	switch a.kind {
	case Int2, Int4, Int8:
		r := a.n - b.n
		if a.kind == Int8 && (a.n >= 0) != (b.n >= 0) && (r >= 0) != (a.n >= 0) {
			return Null, errIntRange(Int8)
		}
		return intResult(a.kind, r)
	case Float4, Float8:
		x, y := a.Float(), b.Float()
		r := f32(a.kind, x-y)
		return floatResult(a.kind, r, math.IsInf(x, 0) || math.IsInf(y, 0), true)
	case Numeric:
		if r, ok := addSmallNumeric(a, b, true); ok {
			return r, nil
		}
		var x, y apd.Decimal
		return numericAdd(a.DecimalInto(&x), b.DecimalInto(&y), true)
	case Date:
		if !dateIsFinite(a.n) || !dateIsFinite(b.n) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "cannot subtract infinite dates")
		}
		return NewInt(Int4, a.n-b.n), nil
	case Timestamp, TimestampTZ:
		return tsDiff(a.n, b.n)
	}
	return Null, errOperator("-", a, b)
}

// Mul returns a * b; a numeric product's scale is the sum of the scales.
func Mul(a, b Value) (Value, error) {
	if a.kind == Unknown || b.kind == Unknown {
		return Null, nil
	}
	if r, ok, err := moneyArith('*', a, b); ok {
		return r, err
	}
	if r, ok, err := intervalArith('*', a, b); ok {
		return r, err
	}
	if a.kind != b.kind {
		return Null, errOperator("*", a, b)
	}
	switch a.kind {
	case Int2, Int4:
		return intResult(a.kind, a.n*b.n)
	case Int8:
		r := a.n * b.n
		if (a.n != 0 && (r/a.n != b.n || (a.n == -1 && b.n == math.MinInt64))) ||
			(b.n == -1 && a.n == math.MinInt64) {
			return Null, errIntRange(Int8)
		}
		return NewInt(Int8, r), nil
	case Float4, Float8:
		x, y := a.Float(), b.Float()
		r := f32(a.kind, x*y)
		return floatResult(a.kind, r, math.IsInf(x, 0) || math.IsInf(y, 0), x == 0 || y == 0)
	case Numeric:
		if r, ok := mulSmallNumeric(a, b); ok {
			return r, nil
		}
		var x, y apd.Decimal
		return numericMul(a.DecimalInto(&x), b.DecimalInto(&y))
	}
	return Null, errOperator("*", a, b)
}

// Div returns a / b: integer division truncates toward zero; division by
// zero is an error for every kind, floats included; numeric quotients get
// PostgreSQL's select_div_scale scale.
func Div(a, b Value) (Value, error) {
	if a.kind == Unknown || b.kind == Unknown {
		return Null, nil
	}
	if r, ok, err := moneyArith('/', a, b); ok {
		return r, err
	}
	if r, ok, err := intervalArith('/', a, b); ok {
		return r, err
	}
	if a.kind != b.kind {
		return Null, errOperator("/", a, b)
	}
	switch a.kind {
	case Int2, Int4, Int8:
		if b.n == 0 {
			return Null, errDivByZero()
		}
		if b.n == -1 {
			if a.n == math.MinInt64 {
				return Null, errIntRange(a.kind)
			}
			return intResult(a.kind, -a.n)
		}
		return NewInt(a.kind, a.n/b.n), nil
	case Float4, Float8:
		x, y := a.Float(), b.Float()
		if y == 0 && !math.IsNaN(x) {
			return Null, errDivByZero()
		}
		r := f32(a.kind, x/y)
		return floatResult(a.kind, r, math.IsInf(x, 0), x == 0 || math.IsInf(y, 0))
	case Numeric:
		return numericDiv(a.Decimal(), b.Decimal())
	}
	return Null, errOperator("/", a, b)
}

// Mod returns a % b with the sign of a, for integers and numerics.
func Mod(a, b Value) (Value, error) {
	if a.kind == Unknown || b.kind == Unknown {
		return Null, nil
	}
	if a.kind != b.kind {
		return Null, errOperator("%", a, b)
	}
	switch a.kind {
	case Int2, Int4, Int8:
		if b.n == 0 {
			return Null, errDivByZero()
		}
		if b.n == -1 {
			return NewInt(a.kind, 0), nil
		}
		return NewInt(a.kind, a.n%b.n), nil
	case Numeric:
		return numericMod(a.Decimal(), b.Decimal())
	}
	return Null, errOperator("%", a, b)
}

// Neg returns -a.
func Neg(a Value) (Value, error) {
	switch a.kind {
	case Unknown:
		return Null, nil
	case Int2, Int4, Int8:
		if a.n == math.MinInt64 {
			return Null, errIntRange(Int8)
		}
		return intResult(a.kind, -a.n)
	case Float4, Float8:
		return Value{kind: a.kind, n: a.n ^ math.MinInt64}, nil
	case Interval:
		s, err := negSpan(a.Span())
		if err != nil {
			return Null, err
		}
		return NewInterval(s), nil
	case Numeric:
		if a.Decimal() == nil || isSpecial(a.Decimal()) && a.Decimal().Form != apd.Infinite || a.Decimal().Coeff.Sign() == 0 && a.Decimal().Form == apd.Finite {
			return a, nil
		}
		d := new(apd.Decimal)
		d.Neg(a.Decimal())
		r, _ := normNumeric(d)
		return NewNumeric(r), nil
	}
	return Null, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: - %s", a.kind)
}

// Abs returns |a|.
func Abs(a Value) (Value, error) {
	switch a.kind {
	case Unknown:
		return Null, nil
	case Int2, Int4, Int8:
		if a.n < 0 {
			return Neg(a)
		}
		return a, nil
	case Float4, Float8:
		return Value{kind: a.kind, n: a.n &^ math.MinInt64}, nil
	case Numeric:
		if a.Decimal() == nil || !a.Decimal().Negative {
			return a, nil
		}
		d := new(apd.Decimal)
		d.Abs(a.Decimal())
		r, _ := normNumeric(d)
		return NewNumeric(r), nil
	}
	return Null, pgerr.New(pgerr.UndefinedFunction, "function abs(%s) does not exist", a.kind)
}

// Round rounds a numeric half away from zero to digits places (negative
// digits round to tens, hundreds, …; the result's scale is max(digits, 0)).
// Floats round to an integer half to even, as PostgreSQL's round(float8)
// uses rint; digits must then be 0.
func Round(a Value, digits int64) (Value, error) {
	return roundTrunc(a, digits, false)
}

// Trunc truncates toward zero to digits places, like Round.
func Trunc(a Value, digits int64) (Value, error) {
	return roundTrunc(a, digits, true)
}

func roundTrunc(a Value, digits int64, trunc bool) (Value, error) {
	name := "round"
	if trunc {
		name = "trunc"
	}
	switch a.kind {
	case Unknown:
		return Null, nil
	case Float4, Float8:
		if digits != 0 {
			return Null, pgerr.New(pgerr.UndefinedFunction, "function %s(%s, integer) does not exist", name, a.kind)
		}
		f := a.Float()
		if trunc {
			f = math.Trunc(f)
		} else {
			f = math.RoundToEven(f)
		}
		return NewFloat(a.kind, f), nil
	case Numeric:
		if a.Decimal() == nil || isSpecial(a.Decimal()) {
			return a, nil
		}
		digits = max(min(digits, numericMaxResultScale), -numericMaxResultScale)
		r, err := normNumeric(rescale(a.Decimal(), digits, trunc))
		if err != nil {
			return Null, err
		}
		return NewNumeric(r), nil
	}
	return Null, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, a.kind)
}

// dateAddDays adds days to a date; infinite dates stay infinite.
func dateAddDays(date, days int64) (Value, error) {
	if !dateIsFinite(date) {
		return NewDate(date), nil
	}
	r := date + days
	if days > math.MaxInt32 || days < math.MinInt32 || !validDate(r) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "date out of range")
	}
	return NewDate(r), nil
}

// numericSpecial handles NaN operands: any NaN gives NaN.
func anyNaN(a, b *apd.Decimal) bool {
	return a == nil || b == nil || a.Form == apd.NaN || a.Form == apd.NaNSignaling ||
		b.Form == apd.NaN || b.Form == apd.NaNSignaling
}

func infSign(d *apd.Decimal) int {
	if d.Form != apd.Infinite {
		return 0
	}
	if d.Negative {
		return -1
	}
	return 1
}

func numResult(d *apd.Decimal, err error) (Value, error) {
	if err != nil {
		return Null, errNumericOverflow()
	}
	r, err := normNumeric(d)
	if err != nil {
		return Null, err
	}
	return NewNumeric(r), nil
}

func numericAdd(a, b *apd.Decimal, sub bool) (Value, error) {
	if anyNaN(a, b) {
		return NewNumeric(decNaN), nil
	}
	ia, ib := infSign(a), infSign(b)
	if sub {
		ib = -ib
	}
	if ia != 0 || ib != 0 {
		switch {
		case ia != 0 && ib != 0 && ia != ib:
			return NewNumeric(decNaN), nil
		case ia > 0 || ib > 0:
			return NewNumeric(decPosInf), nil
		}
		return NewNumeric(decNegInf), nil
	}
	d := new(apd.Decimal)
	var err error
	if sub {
		_, err = DecimalContext.Sub(d, a, b)
	} else {
		_, err = DecimalContext.Add(d, a, b)
	}
	return numResult(d, err)
}

func numericMul(a, b *apd.Decimal) (Value, error) {
	if anyNaN(a, b) {
		return NewNumeric(decNaN), nil
	}
	if ia, ib := infSign(a), infSign(b); ia != 0 || ib != 0 {
		sa, sb := a.Sign(), b.Sign()
		if sa == 0 || sb == 0 {
			return NewNumeric(decNaN), nil
		}
		if sa*sb > 0 {
			return NewNumeric(decPosInf), nil
		}
		return NewNumeric(decNegInf), nil
	}
	d := new(apd.Decimal)
	_, err := DecimalContext.Mul(d, a, b)
	return numResult(d, err)
}

// pgWeight returns PostgreSQL's base-10000 weight and leading base-10000
// digit of a nonzero finite numeric (0, 0 for zero), as select_div_scale
// sees them.
func pgWeight(d *apd.Decimal) (weight, first int64) {
	if d.Coeff.Sign() == 0 {
		return 0, 0
	}
	nd := d.NumDigits()
	e := nd - 1 + int64(d.Exponent) // decimal exponent of the leading digit
	weight = floorDiv(e, 4)
	lead := e - 4*weight + 1 // decimal digits in the leading group, 1…4
	// first = the leading `lead` digits of the coefficient.
	var tmp [24]byte
	var digits []byte
	if d.Coeff.IsUint64() {
		digits = d.Coeff.Append(tmp[:0], 10)
	} else {
		var q apd.BigInt
		var p apd.BigInt
		drop := nd - min(nd, 4)
		q.Quo(&d.Coeff, setPow10(&p, drop))
		digits = q.Append(tmp[:0], 10)
	}
	for i := int64(0); i < lead; i++ {
		first *= 10
		if i < int64(len(digits)) {
			first += int64(digits[i] - '0')
		}
	}
	return weight, first
}

// divScale is PostgreSQL's select_div_scale: at least 16 significant
// digits, and no less than either input's scale.
func divScale(a, b *apd.Decimal) int64 {
	w1, f1 := pgWeight(a)
	w2, f2 := pgWeight(b)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := numericMinSigDigits - qweight*4
	rscale = max(rscale, numScale(a), numScale(b), 0)
	return min(rscale, numericMaxDisplayScale)
}

func numericDiv(a, b *apd.Decimal) (Value, error) {
	if anyNaN(a, b) {
		return NewNumeric(decNaN), nil
	}
	if ia, ib := infSign(a), infSign(b); ia != 0 || ib != 0 {
		switch {
		case ia != 0 && ib != 0:
			return NewNumeric(decNaN), nil
		case ib != 0:
			return NewNumeric(decZero), nil
		}
		switch s := b.Sign(); {
		case s == 0:
			return Null, errDivByZero()
		case s*ia > 0:
			return NewNumeric(decPosInf), nil
		}
		return NewNumeric(decNegInf), nil
	}
	if b.Coeff.Sign() == 0 {
		return Null, errDivByZero()
	}
	rscale := divScale(a, b)
	// q = a / b * 10^rscale as an integer, rounded half away from zero:
	// coeffA * 10^k / coeffB with k = expA - expB + rscale.
	k := int64(a.Exponent) - int64(b.Exponent) + rscale
	var num, den, p, rem apd.BigInt
	num.Abs(&a.Coeff)
	den.Abs(&b.Coeff)
	if k >= 0 {
		num.Mul(&num, setPow10(&p, k))
	} else {
		den.Mul(&den, setPow10(&p, -k))
	}
	d := new(apd.Decimal)
	d.Coeff.QuoRem(&num, &den, &rem)
	rem.Add(&rem, &rem)
	if rem.Cmp(&den) >= 0 {
		d.Coeff.Add(&d.Coeff, apd.NewBigInt(1))
	}
	d.Exponent = int32(-rscale)
	d.Negative = a.Negative != b.Negative
	return numResult(d, nil)
}

func numericMod(a, b *apd.Decimal) (Value, error) {
	if anyNaN(a, b) {
		return NewNumeric(decNaN), nil
	}
	if infSign(a) != 0 {
		if b.Form == apd.Finite && b.Coeff.Sign() == 0 {
			return Null, errDivByZero()
		}
		return NewNumeric(decNaN), nil
	}
	if infSign(b) != 0 {
		return NewNumeric(a), nil
	}
	if b.Coeff.Sign() == 0 {
		return Null, errDivByZero()
	}
	// Align both coefficients to the smaller exponent; the remainder of
	// truncated division then has the dividend's sign and the larger scale.
	e := min(a.Exponent, b.Exponent)
	var x, y, p apd.BigInt
	x.Abs(&a.Coeff)
	y.Abs(&b.Coeff)
	if s := int64(a.Exponent) - int64(e); s > 0 {
		x.Mul(&x, setPow10(&p, s))
	}
	if s := int64(b.Exponent) - int64(e); s > 0 {
		y.Mul(&y, setPow10(&p, s))
	}
	d := new(apd.Decimal)
	d.Coeff.Rem(&x, &y)
	d.Exponent = e
	d.Negative = a.Negative
	return numResult(d, nil)
}
