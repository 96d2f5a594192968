package expr

import (
	"math"
	"math/big"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Numeric functions PostgreSQL has beside those of funcs_math.go:
// log(b, x) and log(x) (base 10) of numeric, gcd and lcm of numeric,
// factorial, and atan2d.
func init() {
	N, F8, I8 := value.Numeric, value.Float8, value.Int8
	strict("log", kinds(N, N), value.NumericType, func(a []value.Value) (value.Value, error) {
		return numeric2(a, numericLog)
	})
	strict("log", kinds(N), value.NumericType, numericFn(func(d *apd.Decimal) (*apd.Decimal, error) {
		return numericLog(apd.New(10, 0), d)
	}), "log10")
	strict("gcd", kinds(N, N), value.NumericType, func(a []value.Value) (value.Value, error) {
		return numeric2(a, func(x, y *apd.Decimal) (*apd.Decimal, error) { return numericGcd(x, y, false) })
	})
	strict("lcm", kinds(N, N), value.NumericType, func(a []value.Value) (value.Value, error) {
		return numeric2(a, func(x, y *apd.Decimal) (*apd.Decimal, error) { return numericGcd(x, y, true) })
	})
	strict("factorial", kinds(I8), value.NumericType, func(a []value.Value) (value.Value, error) {
		n := a[0].Int()
		switch {
		case n < 0:
			return value.Null, pgerr.New(pgerr.NumericOutOfRange, "factorial of a negative number is undefined")
		case n <= 1:
			return value.NewNumeric(apd.New(1, 0)), nil
		}
		// log10(n!) = lgamma(n+1)/ln 10: refuse before computing a
		// result beyond numeric's digits.
		if lg, _ := math.Lgamma(float64(n) + 1); lg/math.Ln10 >= numericMaxWeight {
			return value.Null, errNumericOverflow()
		}
		f := new(big.Int).MulRange(1, n)
		return value.NewNumeric(apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(f), 0)), nil
	})
	// atan2d as PostgreSQL computes it: atan2(y, x) / atan(1) · 45, which
	// is exact at the multiples of 45 degrees.
	strict("atan2d", kinds(F8, F8), value.Float8Type, func(a []value.Value) (value.Value, error) {
		y, x := a[0].Float(), a[1].Float()
		if math.IsNaN(y) || math.IsNaN(x) {
			return float8(math.NaN()), nil
		}
		return float8(cAtan2(y, x) / cAtan(1) * 45), nil
	})
}

func numeric2(a []value.Value, f func(x, y *apd.Decimal) (*apd.Decimal, error)) (value.Value, error) {
	x, y := a[0].Decimal(), a[1].Decimal()
	if x == nil || y == nil {
		return value.Null, pgerr.New(pgerr.Internal, "numeric argument expected")
	}
	r, err := f(x, y)
	if err != nil {
		return value.Null, err
	}
	return value.NewNumeric(r), nil
}

// lnDweight is PostgreSQL's estimate_ln_dweight: the decimal weight of
// ln(d) for d > 0.
func lnDweight(d *apd.Decimal) int64 {
	if f, _ := d.Float64(); f >= 0.9 && f <= 1.1 {
		var x apd.Decimal
		if _, err := apd.BaseContext.Sub(&x, d, decOne); err == nil && !x.IsZero() {
			return weight10(&x)
		}
		return 0
	}
	ln := log10Abs(d) * math.Ln10
	if ln == 0 {
		return 0
	}
	return int64(math.Log10(math.Abs(ln)))
}

// numericLog is PostgreSQL's log_var: ln(x)/ln(b) with at least 16
// significant digits and at least the inputs' scales.
func numericLog(b, x *apd.Decimal) (*apd.Decimal, error) {
	isNaN := func(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }
	switch {
	case isNaN(b) || isNaN(x):
		return decNaN, nil
	case b.Negative && !b.IsZero() || x.Negative && !x.IsZero():
		return nil, pgerr.New(codeInvalidLog, "cannot take logarithm of a negative number")
	case b.IsZero() && b.Form == apd.Finite || x.IsZero() && x.Form == apd.Finite:
		return nil, pgerr.New(codeInvalidLog, "cannot take logarithm of zero")
	case b.Form == apd.Infinite && x.Form == apd.Infinite:
		return decNaN, nil
	case b.Form == apd.Infinite:
		return decZero, nil
	case x.Form == apd.Infinite:
		return decInf, nil
	}
	lnB, lnX := lnDweight(b), lnDweight(x)
	rdw := lnX - lnB
	rscale := max(numericMinSigDigits-rdw, dscale(b), dscale(x))
	rscale = clamp(rscale, 0, numericMaxScale)
	ctx := apd.BaseContext.WithPrecision(uint32(max(rdw, 0) + rscale + max(-lnB, -lnX, 0) + 20))
	var lb, lx, q apd.Decimal
	if _, err := ctx.Ln(&lb, b); err != nil {
		return nil, errNumericOverflow()
	}
	if lb.IsZero() {
		return nil, pgerr.New(pgerr.DivisionByZero, "division by zero")
	}
	if _, err := ctx.Ln(&lx, x); err != nil {
		return nil, errNumericOverflow()
	}
	if _, err := ctx.Quo(&q, &lx, &lb); err != nil {
		return nil, errNumericOverflow()
	}
	return finish(&q, rscale)
}

// numericGcd is gcd(x, y), or lcm(x, y) with lcm, of numerics at the
// larger of their scales; NaN with a NaN or an infinity.
func numericGcd(x, y *apd.Decimal, lcm bool) (*apd.Decimal, error) {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return decNaN, nil
	}
	scale := max(dscale(x), dscale(y))
	toInt := func(d *apd.Decimal) *big.Int {
		c := d.Coeff.MathBigInt()
		if e := int64(d.Exponent) + scale; e > 0 {
			c.Mul(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil))
		}
		return c // the sign does not matter: the result is not negative
	}
	a, b := toInt(x), toInt(y)
	var r big.Int
	switch {
	case !lcm:
		r.GCD(nil, nil, a, b)
	case a.Sign() == 0 || b.Sign() == 0:
	default:
		var g big.Int
		g.GCD(nil, nil, a, b)
		r.Quo(a, &g)
		r.Mul(&r, b)
	}
	out := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(&r), int32(-scale))
	if weight10(out) >= numericMaxWeight {
		return nil, errNumericOverflow()
	}
	return out, nil
}
