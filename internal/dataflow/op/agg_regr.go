package op

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// regrSums are the sums of the (y, x) pairs of a group that the
// regression aggregates (corr, covar_pop, covar_samp, regr_*) read, kept
// exactly as floatSums keeps its sums: Σx, Σy, Σx², Σy² and Σxy as dyadic
// numbers, which a retraction takes back exactly, and the pairs whose x
// or y is NaN or infinite counted apart. A change costs O(1) per pair.
//
// The results are PostgreSQL's final functions (float8_regr_*, float8_corr,
// float8_covar_*) applied to N, Sx, Sy and the centred sums Sxx = Σx² −
// (Σx)²/N, Syy and Sxy = Σxy − ΣxΣy/N, each computed exactly and rounded
// once; PostgreSQL accumulates those by Youngs and Cramer's update,
// rounding at each row, so its results may differ in the last digits. A
// group with a NaN or an infinite x has NaN for Sxx and Sxy (y: Syy and
// Sxy), as PostgreSQL's accumulator has, and Sx the float sum's NaN or
// infinity.
type regrSums struct {
	n                  int64  // pairs, neither NULL
	sx, sy, qx, qy, xy dyadic // Σx, Σy, Σx², Σy² over the finite ones; Σxy over the pairs finite in both
	nx, ny             int64  // pairs whose x (y) is finite: the terms of Σx (Σy)
	xnan, xpinf, xninf int64
	ynan, ypinf, yninf int64
}

// splitFloat returns the finite nonzero x as mant·2^e, mant an odd
// integer of at most 53 bits.
func splitFloat(x float64) (int64, int) {
	frac, exp := math.Frexp(x)
	mant := int64(frac * (1 << 53))
	e := exp - 53
	tz := bits.TrailingZeros64(uint64(mant))
	return mant >> tz, e + tz
}

// add adds w copies of the pair (y, x).
func (s *regrSums) add(y, x float64, w int64, c *floatScratch) {
	s.n += w
	xf := countNonFinite(x, w, &s.xnan, &s.xpinf, &s.xninf)
	yf := countNonFinite(y, w, &s.ynan, &s.ypinf, &s.yninf)
	var mx, my int64
	var ex, ey int
	if xf {
		s.nx += w
		mx, ex = addTerms(&s.sx, &s.qx, x, w, c)
	}
	if yf {
		s.ny += w
		my, ey = addTerms(&s.sy, &s.qy, y, w, c)
	}
	if mx != 0 && my != 0 {
		t := c.t.SetInt64(mx)
		s.xy.add(t.Mul(t.Mul(t, c.w.SetInt64(my)), c.u.SetInt64(w)), ex+ey, &c.v)
	}
}

// countNonFinite counts w copies of v under nan, pinf or ninf when it is
// not finite, and reports whether it is.
func countNonFinite(v float64, w int64, nan, pinf, ninf *int64) bool {
	switch {
	case math.IsNaN(v):
		*nan += w
	case math.IsInf(v, 1):
		*pinf += w
	case math.IsInf(v, -1):
		*ninf += w
	default:
		return true
	}
	return false
}

// addTerms adds w copies of the finite v to sum and of v² to sq, and
// returns v as mant·2^exp (0 for 0, which adds nothing).
func addTerms(sum, sq *dyadic, v float64, w int64, c *floatScratch) (int64, int) {
	if v == 0 {
		return 0, 0
	}
	t, u := &c.t, &c.u
	u.SetInt64(w)
	m, e := splitFloat(v)
	sum.add(t.Mul(t.SetInt64(m), u), e, &c.v)
	t.SetInt64(m)
	sq.add(t.Mul(t.Mul(t, t), u), 2*e, &c.v)
	return m, e
}

// plus adds o to s, shifting o's integers.
func (s *regrSums) plus(o *regrSums) {
	s.n, s.nx, s.ny = s.n+o.n, s.nx+o.nx, s.ny+o.ny
	s.sx.absorb(&o.sx)
	s.sy.absorb(&o.sy)
	s.qx.absorb(&o.qx)
	s.qy.absorb(&o.qy)
	s.xy.absorb(&o.xy)
	s.xnan, s.xpinf, s.xninf = s.xnan+o.xnan, s.xpinf+o.xpinf, s.xninf+o.xninf
	s.ynan, s.ypinf, s.yninf = s.ynan+o.ynan, s.ypinf+o.ypinf, s.yninf+o.yninf
}

func (s *regrSums) reset() {
	s.n, s.nx, s.ny = 0, 0, 0
	s.xnan, s.xpinf, s.xninf, s.ynan, s.ypinf, s.yninf = 0, 0, 0, 0, 0, 0
	for _, d := range s.dyadics() {
		d.m.SetInt64(0)
		d.e = 0
	}
}

func (s *regrSums) dyadics() [5]*dyadic { return [5]*dyadic{&s.sx, &s.sy, &s.qx, &s.qy, &s.xy} }

func (s *regrSums) trim() {
	if s.n == 0 {
		s.reset()
		return
	}
	for _, d := range s.dyadics() {
		d.trim()
	}
}

func (s *regrSums) negative() bool {
	return s.n < 0 || s.nx < 0 || s.ny < 0 || s.xnan < 0 || s.xpinf < 0 || s.xninf < 0 || s.ynan < 0 || s.ypinf < 0 || s.yninf < 0
}

// regrAcc is one of the regression aggregates over double precision
// pairs: Arg is y, X is x.
type regrAcc struct {
	f      plan.AggFunc
	cur, d regrSums // committed; staged (the committed plus this step's changes)
	staged bool
}

func newRegrAcc(s *aggSpec) accum { return &regrAcc{f: s.Func} }

func (a *regrAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	fs := &c.fl
	d := &a.d
	d.reset()
	d.plus(&a.cur)
	for _, x := range ch {
		if yv, xv := x.vals[0], x.vals[1]; !yv.IsNull() && !xv.IsNull() {
			d.add(yv.Float(), xv.Float(), x.w, fs)
		}
	}
	a.staged = true
	if d.negative() {
		return value.Null, errNegativeCount()
	}
	return regrResult(a.f, d, fs)
}

// regrResult computes f from the sums of a group.
func regrResult(f plan.AggFunc, s *regrSums, fs *floatScratch) (value.Value, error) {
	if f == plan.AggRegrCount {
		return value.NewInt(value.Int8, s.n), nil
	}
	if s.n < 1 || f == plan.AggCovarSamp && s.n < 2 {
		return value.Null, nil
	}
	n := float64(s.n)
	xbad, ybad := s.xnan+s.xpinf+s.xninf > 0, s.ynan+s.ypinf+s.yninf > 0
	var sx, sy, sxx, syy, sxy float64
	var err error
	if sx, err = regrSum(&s.sx, s.xnan, s.xpinf, s.xninf, fs); err != nil {
		return value.Null, err
	}
	if sy, err = regrSum(&s.sy, s.ynan, s.ypinf, s.yninf, fs); err != nil {
		return value.Null, err
	}
	sxx, syy, sxy = math.NaN(), math.NaN(), math.NaN()
	if !xbad {
		if sxx, err = centred(&s.qx, &s.sx, &s.sx, s.n, fs); err != nil {
			return value.Null, err
		}
	}
	if !ybad {
		if syy, err = centred(&s.qy, &s.sy, &s.sy, s.n, fs); err != nil {
			return value.Null, err
		}
	}
	if !xbad && !ybad {
		if sxy, err = centred(&s.xy, &s.sx, &s.sy, s.n, fs); err != nil {
			return value.Null, err
		}
	}
	return plan.RegressionResult(f, n, sx, sy, sxx, syy, sxy)
}

// regrSum is Sx: the exact sum rounded, or the NaN or infinity the
// values not finite make it.
func regrSum(d *dyadic, nan, pinf, ninf int64, fs *floatScratch) (float64, error) {
	switch {
	case nan > 0 || pinf > 0 && ninf > 0:
		return math.NaN(), nil
	case pinf > 0:
		return math.Inf(1), nil
	case ninf > 0:
		return math.Inf(-1), nil
	}
	r := fs.round(&d.m, d.e, nil, value.Float8)
	if math.IsInf(r, 0) {
		return 0, errFloatOverflow()
	}
	return r, nil
}

// centred is (n·q − a·b)/n, exactly, rounded once: Sxx with q = Σx² and
// a = b = Σx, Sxy with q = Σxy, a = Σx and b = Σy.
func centred(q, a, b *dyadic, n int64, fs *floatScratch) (float64, error) {
	num, ab := &fs.q1, &fs.q2
	num.Mul(&q.m, fs.w.SetInt64(n))
	ab.Mul(&a.m, &b.m)
	e := q.e
	if q.m.Sign() == 0 {
		e = a.e + b.e
	}
	if se := a.e + b.e; ab.Sign() != 0 && se < e {
		num.Lsh(num, uint(e-se))
		e = se
	} else if ab.Sign() != 0 && se > e {
		ab.Lsh(ab, uint(se-e))
	}
	num.Sub(num, ab)
	if num.Sign() == 0 {
		return 0, nil
	}
	r := fs.round(num, e, fs.w.SetInt64(n), value.Float8)
	if math.IsInf(r, 0) {
		return 0, errFloatOverflow()
	}
	return r, nil
}

func (a *regrAcc) commit() {
	if !a.staged {
		return
	}
	a.staged = false
	// The staged sums are the committed plus the step's: they become
	// the committed, and the old ones the next step's scratch.
	a.cur, a.d = a.d, a.cur
	a.cur.trim()
}

func (a *regrAcc) abort() { a.staged = false }

func (a *regrAcc) bytes() int64 {
	n := int64(unsafe.Sizeof(*a))
	for _, s := range []*regrSums{&a.cur, &a.d} {
		for _, d := range s.dyadics() {
			n += d.bytes()
		}
	}
	return n
}
