package op

import (
	"math/bits"
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// The invertible aggregates keep per group a few numbers that a retraction
// updates as exactly as an assertion, in O(1):
//
//   - count(*), count(x): a count.
//   - bool_and, bool_or: the counts of true and of false values.
//   - sum, avg, var_*, stddev_* of integers and numeric: the count of
//     non-NULL values, their exact sum and exact sum of squares (128-bit
//     integers for smallint and integer, apd decimals for numeric and for
//     the squares of bigints), the counts of NaN and ±Infinity, and for
//     numeric the count of values per display scale, so that the result's
//     scale is the largest scale among the values present, as PostgreSQL's
//     is. The results are computed as PostgreSQL's numeric_avg and
//     numeric_stddev_internal compute them, with the same scales.
//   - sum, avg, var_*, stddev_* of floats: see floatSums (agg_float.go).
//
// Each keeps its committed state and a staged delta: stage sums the step's
// changes into the delta and computes the result from both; commit adds the
// delta in.

// countAcc is count(*) (every row) or count(x) (the non-NULL values).
type countAcc struct {
	star  bool
	n, dn int64
}

func newCountAcc(s *aggSpec) accum { return &countAcc{star: s.Func == plan.AggCountStar} }

func (a *countAcc) stage(_ *stepCtx, ch []aggChange) (value.Value, error) {
	a.dn = 0
	for _, c := range ch {
		if a.star || !c.vals[0].IsNull() {
			a.dn += c.w
		}
	}
	n := a.n + a.dn
	if n < 0 {
		return value.Null, errNegativeCount()
	}
	return value.NewInt(value.Int8, n), nil
}

func (a *countAcc) commit()      { a.n += a.dn; a.dn = 0 }
func (a *countAcc) abort()       { a.dn = 0 }
func (a *countAcc) bytes() int64 { return int64(unsafe.Sizeof(*a)) }

func errNegativeCount() error {
	return pgerr.New(pgerr.Internal, "aggregate: a group would hold a negative number of values")
}

// boolAcc is bool_and (every) or bool_or: counts of true and false values.
type boolAcc struct {
	and            bool
	nt, nf, dt, df int64
}

func newBoolAcc(s *aggSpec) accum { return &boolAcc{and: s.Func == plan.AggBoolAnd} }

func (a *boolAcc) stage(_ *stepCtx, ch []aggChange) (value.Value, error) {
	a.dt, a.df = 0, 0
	for _, c := range ch {
		switch v := c.vals[0]; {
		case v.IsNull():
		case v.Bool():
			a.dt += c.w
		default:
			a.df += c.w
		}
	}
	nt, nf := a.nt+a.dt, a.nf+a.df
	switch {
	case nt < 0 || nf < 0:
		return value.Null, errNegativeCount()
	case nt+nf == 0:
		return value.Null, nil
	case a.and:
		return value.NewBool(nf == 0), nil
	}
	return value.NewBool(nt > 0), nil
}

func (a *boolAcc) commit()      { a.nt += a.dt; a.nf += a.df; a.dt, a.df = 0, 0 }
func (a *boolAcc) abort()       { a.dt, a.df = 0, 0 }
func (a *boolAcc) bytes() int64 { return int64(unsafe.Sizeof(*a)) }

// i128 is a signed 128-bit integer, two's complement.
type i128 struct {
	hi int64
	lo uint64
}

func (a i128) add(b i128) i128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return i128{hi: a.hi + b.hi + int64(c), lo: lo}
}

func (a i128) neg() i128 {
	lo, b := bits.Sub64(0, a.lo, 0)
	return i128{hi: -a.hi - int64(b), lo: lo}
}

// mul64 returns x·y exactly.
func mul64(x, y int64) i128 {
	neg := (x < 0) != (y < 0)
	ux, uy := uint64(x), uint64(y)
	if x < 0 {
		ux = -ux
	}
	if y < 0 {
		uy = -uy
	}
	hi, lo := bits.Mul64(ux, uy)
	r := i128{hi: int64(hi), lo: lo}
	if neg {
		r = r.neg()
	}
	return r
}

func (a i128) isInt64() bool { return a.hi == int64(a.lo)>>63 }

// setDecimal sets d to a.
func (a i128) setDecimal(d *apd.Decimal) {
	if a.isInt64() {
		d.SetInt64(int64(a.lo))
		return
	}
	neg := a.hi < 0
	if neg {
		a = a.neg()
	}
	var lo apd.BigInt
	d.Coeff.SetUint64(uint64(a.hi))
	d.Coeff.Lsh(&d.Coeff, 64)
	d.Coeff.Add(&d.Coeff, lo.SetUint64(a.lo))
	d.Exponent, d.Form, d.Negative = 0, apd.Finite, neg
}

// scaleCount is how many numeric values of one display scale a group holds.
type scaleCount struct {
	scale int32
	n     int64
}

func addScale(list []scaleCount, scale int32, w int64) []scaleCount {
	for i := range list {
		if list[i].scale == scale {
			list[i].n += w
			if list[i].n == 0 {
				list = append(list[:i], list[i+1:]...)
			}
			return list
		}
	}
	return append(list, scaleCount{scale, w})
}

// exactSums are the sums of integer or numeric values.
type exactSums struct {
	n               int64 // non-NULL values
	s, q            i128  // integers: sum; sum of squares (smallint, integer)
	ds, dq          apd.Decimal
	scales          []scaleCount
	nan, pinf, ninf int64
}

func (s *exactSums) reset() {
	scales := s.scales[:0]
	*s = exactSums{scales: scales}
}

// add adds w copies of v (non-NULL).
func (s *exactSums) add(c *stepCtx, v value.Value, w int64, squares bool) {
	switch v.Kind() {
	case value.Int2, value.Int4:
		x := v.Int()
		s.s = s.s.add(mul64(x, w))
		if squares {
			s.q = s.q.add(mul64(x*x, w))
		}
	case value.Int8, value.Money:
		x := v.Int()
		s.s = s.s.add(mul64(x, w))
		if squares {
			t, u := &c.d[4], &c.d[5]
			t.SetInt64(x)
			_, _ = value.DecimalContext.Mul(t, t, t)
			u.SetInt64(w)
			_, _ = value.DecimalContext.Mul(t, t, u)
			_, _ = value.DecimalContext.Add(&s.dq, &s.dq, t)
		}
	case value.Numeric:
		var db apd.Decimal
		d := v.DecimalInto(&db)
		switch {
		case d.Form == apd.Infinite && d.Negative:
			s.ninf += w
			return
		case d.Form == apd.Infinite:
			s.pinf += w
			return
		case d.Form != apd.Finite:
			s.nan += w
			return
		}
		t, u := &c.d[4], &c.d[5]
		u.SetInt64(w)
		_, _ = value.DecimalContext.Mul(t, d, u)
		_, _ = value.DecimalContext.Add(&s.ds, &s.ds, t)
		if squares {
			_, _ = value.DecimalContext.Mul(t, t, d)
			_, _ = value.DecimalContext.Add(&s.dq, &s.dq, t)
		}
		sc := int32(0)
		if d.Exponent < 0 {
			sc = -d.Exponent
		}
		s.scales = addScale(s.scales, sc, w)
	}
	s.n += w
}

// plus adds o to s.
func (s *exactSums) plus(o *exactSums) {
	s.n += o.n
	s.s, s.q = s.s.add(o.s), s.q.add(o.q)
	// Sums of integers leave the decimals zero: adding them would cost
	// more than the rest.
	if !o.ds.IsZero() {
		_, _ = value.DecimalContext.Add(&s.ds, &s.ds, &o.ds)
	}
	if !o.dq.IsZero() {
		_, _ = value.DecimalContext.Add(&s.dq, &s.dq, &o.dq)
	}
	for _, sc := range o.scales {
		s.scales = addScale(s.scales, sc.scale, sc.n)
	}
	s.nan, s.pinf, s.ninf = s.nan+o.nan, s.pinf+o.pinf, s.ninf+o.ninf
}

// exactAcc is sum, avg, var_* or stddev_* of integers or numeric.
type exactAcc struct {
	f    plan.AggFunc
	kind value.Kind
	cur  exactSums
	d    *exactSums // staged delta, from the step's pool
}

func newExactAcc(s *aggSpec) accum { return &exactAcc{f: s.Func, kind: s.in} }

func (a *exactAcc) squares() bool { return a.f != plan.AggSum && a.f != plan.AggAvg }

func (a *exactAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	a.d = c.exactSums()
	sq := a.squares()
	for _, x := range ch {
		if !x.vals[0].IsNull() {
			a.d.add(c, x.vals[0], x.w, sq)
		}
	}
	return a.result(c)
}

// Numeric special values.
var (
	numNaN    = value.NewNumeric(&apd.Decimal{Form: apd.NaN})
	numPosInf = value.NewNumeric(&apd.Decimal{Form: apd.Infinite})
	numNegInf = value.NewNumeric(&apd.Decimal{Form: apd.Infinite, Negative: true})
	numZero   = value.NewNumeric(&apd.Decimal{})
)

// result computes the aggregate of cur + d.
func (a *exactAcc) result(c *stepCtx) (value.Value, error) {
	return exactResult(c, a.f, a.kind, &a.cur, a.d)
}

// exactResult computes aggregate f of values of the kind given whose
// sums are cur + d.
func exactResult(c *stepCtx, f plan.AggFunc, kind value.Kind, cur, d *exactSums) (value.Value, error) {
	n := cur.n + d.n
	nan, pinf, ninf := cur.nan+d.nan, cur.pinf+d.pinf, cur.ninf+d.ninf
	if n < 0 || nan < 0 || pinf < 0 || ninf < 0 {
		return value.Null, errNegativeCount()
	}
	// n counts the finite values; NaN and the infinities are values too:
	// the sum of NaN alone is NaN, the sample variance of one infinity
	// NULL, as PostgreSQL's N counts them.
	if all := n + nan + pinf + ninf; all == 0 || (all == 1 && (f == plan.AggVarSamp || f == plan.AggStddevSamp)) {
		return value.Null, nil
	}
	// The sum, exact, at the largest scale present.
	sum, sq := &c.d[0], &c.d[1]
	var dscale int32
	if kind == value.Numeric {
		_, _ = value.DecimalContext.Add(sum, &cur.ds, &d.ds)
		dscale = maxScale(cur.scales, d.scales)
		quantize(sum, dscale)
	} else {
		total := cur.s.add(d.s)
		if kind == value.Money {
			return moneySum(total)
		}
		if f == plan.AggSum && kind != value.Int8 {
			if !total.isInt64() {
				return value.Null, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
			}
			return value.NewInt(value.Int8, int64(total.lo)), nil
		}
		total.setDecimal(sum)
	}
	if nan > 0 || pinf > 0 || ninf > 0 {
		switch {
		case (f != plan.AggSum && f != plan.AggAvg) || nan > 0 || (pinf > 0 && ninf > 0):
			return numNaN, nil
		case pinf > 0:
			return numPosInf, nil
		}
		return numNegInf, nil
	}
	switch f {
	case plan.AggSum:
		return newNumeric(sum), nil
	case plan.AggAvg:
		return value.Div(newNumeric(sum), numericInt(n))
	}
	// Variance: (n·Σx² − (Σx)²) / (n·n) or / (n·(n−1)), the numerator at
	// twice the input's scale; 0 (scale 0) when it is not positive.
	if kind == value.Numeric || kind == value.Int8 {
		_, _ = value.DecimalContext.Add(sq, &cur.dq, &d.dq)
	} else {
		cur.q.add(d.q).setDecimal(sq)
	}
	num, t := &c.d[2], &c.d[3]
	t.SetInt64(n)
	_, _ = value.DecimalContext.Mul(num, sq, t)
	_, _ = value.DecimalContext.Mul(t, sum, sum)
	_, _ = value.DecimalContext.Sub(num, num, t)
	quantize(num, 2*dscale)
	if num.Sign() <= 0 {
		return numZero, nil
	}
	den := mul64(n, n)
	if f == plan.AggVarSamp || f == plan.AggStddevSamp {
		den = mul64(n, n-1)
	}
	den.setDecimal(t)
	v, err := value.Div(newNumeric(num), newNumeric(t))
	if err != nil || f == plan.AggVarPop || f == plan.AggVarSamp {
		return v, err
	}
	return numericSqrt(v.Decimal()), nil
}

// maxScale is the largest scale with values present in a + b.
func maxScale(a, b []scaleCount) int32 {
	best := int32(0)
	for _, x := range a {
		n := x.n
		for _, y := range b {
			if y.scale == x.scale {
				n += y.n
			}
		}
		if n > 0 && x.scale > best {
			best = x.scale
		}
	}
	for _, y := range b {
		if y.n > 0 && y.scale > best {
			best = y.scale
		}
	}
	return best
}

// quantize sets d's exponent to -scale; the digits it drops are zeros.
func quantize(d *apd.Decimal, scale int32) {
	shift := int64(-scale) - int64(d.Exponent)
	var p apd.BigInt
	switch {
	case shift > 0:
		d.Coeff.Quo(&d.Coeff, pow10(&p, shift))
	case shift < 0:
		d.Coeff.Mul(&d.Coeff, pow10(&p, -shift))
	}
	d.Exponent = -scale
	if d.Coeff.Sign() == 0 {
		d.Negative = false
	}
}

func pow10(z *apd.BigInt, n int64) *apd.BigInt {
	if n < 19 {
		p := uint64(1)
		for range n {
			p *= 10
		}
		return z.SetUint64(p)
	}
	var ten, e apd.BigInt
	return z.Exp(ten.SetInt64(10), e.SetInt64(n), nil)
}

// newNumeric copies d into a new numeric value.
func newNumeric(d *apd.Decimal) value.Value {
	r := new(apd.Decimal).Set(d)
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	return value.NewNumeric(r)
}

func numericInt(n int64) value.Value { return value.NewNumeric(apd.New(n, 0)) }

// numericSqrt is PostgreSQL's sqrt_var at the scale of x: the square root
// of x rounded half up to x's scale.
func numericSqrt(x *apd.Decimal) value.Value {
	rscale := int64(0)
	if x.Exponent < 0 {
		rscale = -int64(x.Exponent)
	}
	// x·10^(2·rscale+2) = coeff·10^(rscale+2), since x has exponent
	// -rscale; its integer square root is sqrt(x) with rscale+1 digits,
	// truncated, and rounding the last digit away rounds sqrt(x) half up.
	var n, p apd.BigInt
	n.Mul(&x.Coeff, pow10(&p, rscale+2))
	n.Sqrt(&n)
	n.Add(&n, apd.NewBigInt(5))
	n.Quo(&n, p.SetInt64(10))
	r := &apd.Decimal{Exponent: int32(-rscale)}
	r.Coeff.Set(&n)
	return value.NewNumeric(r)
}

func (a *exactAcc) commit() {
	if a.d != nil {
		a.cur.plus(a.d)
		a.d = nil
	}
}

func (a *exactAcc) abort() { a.d = nil }

func (a *exactAcc) bytes() int64 {
	b := int64(unsafe.Sizeof(*a)) + int64(cap(a.cur.scales))*int64(unsafe.Sizeof(scaleCount{}))
	for _, d := range []*apd.Decimal{&a.cur.ds, &a.cur.dq} {
		if bl := d.Coeff.BitLen(); bl > 128 {
			b += 32 + int64(bl+63)/64*8
		}
	}
	return b
}

// exactSums hands out a zeroed staged delta from the step's pool.
func (c *stepCtx) exactSums() *exactSums {
	if c.nExact == len(c.exactPool) {
		c.exactPool = append(c.exactPool, new(exactSums))
	}
	s := c.exactPool[c.nExact]
	c.nExact++
	s.reset()
	return s
}
