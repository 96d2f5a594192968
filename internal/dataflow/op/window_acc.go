package op

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// winAcc is an aggregate over a window frame, or over a node of a
// partition's tree, that rows enter and leave: counts, exact sums (a
// 128-bit integer for integers, a decimal for numeric with the scales
// counted so the result has the frame's largest, a dyadic number for
// floats, rounded once; NaNs and infinities counted apart), or the best
// value for MIN and MAX, which only take values in. Two sums add and
// subtract exactly, so the sum of a range is a prefix less a prefix.
type winAcc struct {
	f   plan.AggFunc
	typ value.Type

	n      int64 // rows (count(*)) or non-NULL values
	i      i128
	dec    apd.Decimal
	fl     dyadic
	nan    int64
	posInf int64
	negInf int64
	negZ   int64 // float -0 values: a sum of only those is -0
	scales []scaleCount
	best   value.Value
}

// winScratch is the scratch of the float sums.
type winScratch struct {
	fs   floatScratch
	t, u big.Int
}

// winCtx adds and subtracts exactly.
var winCtx = value.DecimalContext

func (a *winAcc) invertible() bool { return a.f != plan.AggMin && a.f != plan.AggMax }

func (a *winAcc) reset() {
	a.n, a.nan, a.posInf, a.negInf, a.negZ = 0, 0, 0, 0, 0
	a.i = i128{}
	a.dec.SetInt64(0)
	a.fl.m.SetInt64(0)
	a.fl.e = 0
	a.scales = a.scales[:0]
	a.best = value.Null
}

// zero reports whether the sums are those of no rows at all: a change
// whose rows' sums are zero leaves every frame that holds all of it as it
// was.
func (a *winAcc) zero() bool {
	return a.n == 0 && a.i == (i128{}) && a.dec.IsZero() && a.fl.m.Sign() == 0 && a.nan == 0 &&
		a.posInf == 0 && a.negInf == 0 && a.negZ == 0 && len(a.scales) == 0
}

// add takes v into the frame (w > 0) or out of it (w < 0).
func (a *winAcc) add(v value.Value, w int64, sc *winScratch) error {
	if a.f == plan.AggCountStar {
		a.n += w
		return nil
	}
	if v.IsNull() {
		return nil
	}
	a.n += w
	switch a.f {
	case plan.AggCount:
		return nil
	case plan.AggMin, plan.AggMax:
		a.better(v)
		return nil
	}
	k := v.Kind()
	switch {
	case k.IsFloat():
		x := v.Float()
		switch {
		case math.IsNaN(x):
			a.nan += w
		case math.IsInf(x, 1):
			a.posInf += w
		case math.IsInf(x, -1):
			a.negInf += w
		case x == 0:
			if math.Signbit(x) {
				a.negZ += w
			}
		default:
			// x = mant·2^e with mant an odd integer of at most 53 bits.
			frac, exp := math.Frexp(x)
			mant := int64(frac * (1 << 53))
			e := exp - 53
			tz := bits.TrailingZeros64(uint64(mant))
			sc.t.SetInt64(mant >> tz)
			if w != 1 {
				sc.u.SetInt64(w)
				sc.t.Mul(&sc.t, &sc.u)
			}
			a.fl.add(&sc.t, e+tz, &sc.u)
		}
		return nil
	case k.IsInteger():
		a.i = a.i.add(mul64(v.Int(), w))
		return nil
	case k == value.Numeric:
		var db apd.Decimal
		d := v.DecimalInto(&db)
		switch d.Form {
		case apd.NaN, apd.NaNSignaling:
			a.nan += w
			return nil
		case apd.Infinite:
			if d.Negative {
				a.negInf += w
			} else {
				a.posInf += w
			}
			return nil
		}
		a.scales = addScale(a.scales, max(0, -d.Exponent), w)
		var err error
		if w > 0 {
			_, err = winCtx.Add(&a.dec, &a.dec, d)
		} else {
			_, err = winCtx.Sub(&a.dec, &a.dec, d)
		}
		return err
	}
	return pgerr.New(pgerr.FeatureNotSupported, "%s(%s) is not supported as a window function", a.f, k)
}

// better takes v as the best value if it is: of equal values the last
// wins, as PostgreSQL's smaller and larger keep their state unless
// strictly better.
func (a *winAcc) better(v value.Value) {
	if a.best.IsNull() {
		a.best = v
	} else if c := value.Compare(v, a.best); a.f == plan.AggMin && c <= 0 || a.f == plan.AggMax && c >= 0 {
		a.best = v
	}
}

// fold takes in o, of the rows after a's (MIN and MAX).
func (a *winAcc) fold(o *winAcc) {
	a.n += o.n
	if !o.best.IsNull() {
		a.better(o.best)
	}
}

// plus adds o's sums to a (sign 1) or subtracts them (sign -1).
func (a *winAcc) plus(o *winAcc, sign int64, sc *winScratch) {
	a.n += sign * o.n
	a.nan += sign * o.nan
	a.posInf += sign * o.posInf
	a.negInf += sign * o.negInf
	a.negZ += sign * o.negZ
	if o.i != (i128{}) {
		if sign > 0 {
			a.i = a.i.add(o.i)
		} else {
			a.i = a.i.add(o.i.neg())
		}
	}
	if !o.dec.IsZero() {
		if sign > 0 {
			_, _ = winCtx.Add(&a.dec, &a.dec, &o.dec)
		} else {
			_, _ = winCtx.Sub(&a.dec, &a.dec, &o.dec)
		}
	}
	for _, s := range o.scales {
		a.scales = addScale(a.scales, s.scale, sign*s.n)
	}
	if o.fl.m.Sign() != 0 {
		m := &o.fl.m
		if sign < 0 {
			m = sc.t.Neg(m)
		}
		a.fl.add(m, o.fl.e, &sc.u)
	}
}

// result is the aggregate over the frame.
func (a *winAcc) result(sc *winScratch) (value.Value, error) {
	switch a.f {
	case plan.AggCountStar, plan.AggCount:
		return value.NewInt(value.Int8, a.n), nil
	}
	if a.n == 0 {
		return value.Null, nil
	}
	switch a.f {
	case plan.AggMin, plan.AggMax:
		return a.best, nil
	}
	if a.typ.Kind.IsFloat() {
		return a.floatResult(sc)
	}
	// Integers and numeric.
	if a.nan > 0 || a.posInf > 0 && a.negInf > 0 {
		return numNaN, nil
	}
	if a.posInf > 0 {
		return numPosInf, nil
	}
	if a.negInf > 0 {
		return numNegInf, nil
	}
	var sum apd.Decimal
	if len(a.scales) > 0 || !a.dec.IsZero() {
		sum.Set(&a.dec)
		quantize(&sum, maxScale(a.scales, nil))
	} else {
		if a.typ.Kind == value.Int8 { // sum of smallint or integer
			if !a.i.isInt64() {
				return value.Null, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
			}
			return value.NewInt(value.Int8, int64(a.i.lo)), nil
		}
		a.i.setDecimal(&sum)
	}
	if a.f == plan.AggAvg {
		return value.Div(newNumeric(&sum), numericInt(a.n))
	}
	return newNumeric(&sum), nil
}

// floatResult is sum or avg of floats: the exact sum rounded once.
func (a *winAcc) floatResult(sc *winScratch) (value.Value, error) {
	k := a.typ.Kind
	switch {
	case a.nan > 0 || a.posInf > 0 && a.negInf > 0:
		return value.NewFloat(k, math.NaN()), nil
	case a.posInf > 0:
		return value.NewFloat(k, math.Inf(1)), nil
	case a.negInf > 0:
		return value.NewFloat(k, math.Inf(-1)), nil
	}
	fs := &sc.fs
	if s := fs.round(&a.fl.m, a.fl.e, nil, value.Float8); math.IsInf(s, 0) {
		return value.Null, errFloatOverflow()
	}
	if a.f == plan.AggAvg {
		return value.NewFloat(value.Float8, fs.round(&a.fl.m, a.fl.e, fs.w.SetInt64(a.n), value.Float8)), nil
	}
	if a.negZ == a.n {
		return value.NewFloat(k, math.Copysign(0, -1)), nil
	}
	r := fs.round(&a.fl.m, a.fl.e, nil, k)
	if math.IsInf(r, 0) {
		return value.Null, errFloatOverflow()
	}
	return value.NewFloat(k, r), nil
}
