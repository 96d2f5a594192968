package op

import (
	"math"
	"math/big"
	"math/bits"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// floatSums are the sums of float values, kept exactly: every finite
// double is an integer times a power of two, so Σx and Σx² are kept as
// dyadic numbers (a big integer times 2^e) that a retraction subtracts
// from exactly what the assertion added. Inserting a value and deleting it
// again returns to the same state, whatever the magnitudes: there is no
// rounding residue to drift or to cancel catastrophically. The integers
// are as wide as the range of exponents present (two words for values
// of one magnitude), trimmed of trailing zero bits at each commit.
//
// The results are computed from the exact sums and rounded once, to
// nearest, ties to even: sum = Σx; avg = Σx/n; var_pop = (n·Σx² − (Σx)²)/n²
// and var_samp with n·(n−1); stddev the square root of the exact variance.
// PostgreSQL adds in arrival order in the argument's type and accumulates
// the variances by Youngs and Cramer's update, each step rounded, so its
// results may differ from these in the last digits (sums of real in more).
// As in PostgreSQL, a finite sum beyond double precision fails with 22003,
// for avg and the variances too, and so does a variance whose n·variance
// is. NaN and ±Infinity are counted apart: a sum or avg is NaN with any NaN
// or with both infinities, else ±Infinity with one; a variance with any of
// them is NaN.
type floatSums struct {
	n               int64  // finite values
	s, q            dyadic // Σx; Σx², for the variances only
	nan, pinf, ninf int64
	negz            int64 // of the n finite values, the negative zeros
}

// dyadic is m·2^e, exactly; zero has m = 0 and e = 0.
type dyadic struct {
	m big.Int
	e int
}

// add adds x·2^e to d; t is scratch, needed only when e > d.e.
func (d *dyadic) add(x *big.Int, e int, t *big.Int) {
	switch {
	case x.Sign() == 0:
		return
	case d.m.Sign() == 0:
		d.m.Set(x)
		d.e = e
		return
	case e < d.e:
		d.m.Lsh(&d.m, uint(d.e-e))
		d.e = e
		d.m.Add(&d.m, x)
	case e > d.e:
		d.m.Add(&d.m, t.Lsh(x, uint(e-d.e)))
	default:
		d.m.Add(&d.m, x)
	}
}

// absorb adds o to d, shifting o's integer rather than using scratch.
func (d *dyadic) absorb(o *dyadic) {
	if o.m.Sign() != 0 && d.m.Sign() != 0 && o.e > d.e {
		o.m.Lsh(&o.m, uint(o.e-d.e))
		o.e = d.e
	}
	d.add(&o.m, o.e, nil)
}

// set sets d to o.
func (d *dyadic) set(o *dyadic) { d.m.Set(&o.m); d.e = o.e }

// trim drops d's trailing zero bits, so that values that came and went
// leave no width behind.
func (d *dyadic) trim() {
	if d.m.Sign() == 0 {
		d.e = 0
		return
	}
	if tz := d.m.TrailingZeroBits(); tz > 0 {
		d.m.Rsh(&d.m, tz)
		d.e += int(tz)
	}
}

func (d *dyadic) bytes() int64 { return int64(cap(d.m.Bits())) * 8 }

// floatScratch is the scratch of float accumulators, per step.
type floatScratch struct {
	t, u, v, w big.Int
	r, root    big.Int
	q1, q2     big.Int
	s, q       dyadic
}

// add adds w copies of x, to the sum of squares too when squares is set.
func (s *floatSums) add(x float64, w int64, squares bool, c *floatScratch) {
	switch {
	case math.IsNaN(x):
		s.nan += w
		return
	case math.IsInf(x, 1):
		s.pinf += w
		return
	case math.IsInf(x, -1):
		s.ninf += w
		return
	}
	s.n += w
	if x == 0 {
		if math.Signbit(x) {
			s.negz += w
		}
		return
	}
	// x = mant·2^e with mant an odd integer of at most 53 bits.
	frac, exp := math.Frexp(x)
	mant := int64(frac * (1 << 53))
	e := exp - 53
	tz := bits.TrailingZeros64(uint64(mant))
	mant >>= tz
	e += tz
	t, u := &c.t, &c.u
	u.SetInt64(w)
	t.SetInt64(mant)
	t.Mul(t, u)
	s.s.add(t, e, &c.v)
	if !squares {
		return
	}
	t.SetInt64(mant)
	t.Mul(t, t)
	t.Mul(t, u)
	s.q.add(t, 2*e, &c.v)
}

// plus adds o to s, shifting o's integers.
func (s *floatSums) plus(o *floatSums) {
	s.n += o.n
	s.s.absorb(&o.s)
	s.q.absorb(&o.q)
	s.nan, s.pinf, s.ninf, s.negz = s.nan+o.nan, s.pinf+o.pinf, s.ninf+o.ninf, s.negz+o.negz
}

func (s *floatSums) reset() {
	s.n, s.nan, s.pinf, s.ninf, s.negz = 0, 0, 0, 0, 0
	s.s.m.SetInt64(0)
	s.s.e = 0
	s.q.m.SetInt64(0)
	s.q.e = 0
}

// floatAcc is sum, avg, var_* or stddev_* of real or double precision.
type floatAcc struct {
	f    plan.AggFunc
	kind value.Kind
	cur  floatSums
	d    *floatSums // staged delta, from the step's pool
}

func newFloatAcc(s *aggSpec) accum { return &floatAcc{f: s.Func, kind: s.in} }

func (a *floatAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	fs := &c.fl
	a.d = c.floatSums()
	squares := a.f != plan.AggSum && a.f != plan.AggAvg
	for _, x := range ch {
		if v := x.vals[0]; !v.IsNull() {
			a.d.add(v.Float(), x.w, squares, fs)
		}
	}
	cur, d := &a.cur, a.d
	finite := cur.n + d.n
	nan, pinf, ninf := cur.nan+d.nan, cur.pinf+d.pinf, cur.ninf+d.ninf
	n := finite + nan + pinf + ninf
	if finite < 0 || nan < 0 || pinf < 0 || ninf < 0 {
		return value.Null, errNegativeCount()
	}
	if n == 0 || (n == 1 && (a.f == plan.AggVarSamp || a.f == plan.AggStddevSamp)) {
		return value.Null, nil
	}
	out := value.Float8
	if a.f == plan.AggSum {
		out = a.kind
	}
	if nan > 0 || pinf > 0 || ninf > 0 {
		r := math.NaN()
		switch {
		case a.f != plan.AggSum && a.f != plan.AggAvg || nan > 0 || pinf > 0 && ninf > 0:
		case pinf > 0:
			r = math.Inf(1)
		default:
			r = math.Inf(-1)
		}
		return value.NewFloat(out, r), nil
	}
	S := &fs.s
	S.set(&cur.s)
	S.add(&d.s.m, d.s.e, &fs.v)
	sum := fs.round(&S.m, S.e, nil, out)
	if math.IsInf(sum, 0) {
		// PostgreSQL's running sum overflows, for avg and the variances
		// too.
		return value.Null, errFloatOverflow()
	}
	switch a.f {
	case plan.AggSum:
		if sum == 0 && cur.negz+d.negz == finite {
			// PostgreSQL's sum starts from the first value, so a sum of
			// negative zeros only is -0; any other value makes it +0.
			sum = math.Copysign(0, -1)
		}
		return value.NewFloat(out, sum), nil
	case plan.AggAvg:
		return value.NewFloat(out, fs.round(&S.m, S.e, fs.w.SetInt64(n), out)), nil
	}
	// n·Σx² − (Σx)², exactly, at exponent e.
	Q := &fs.q
	Q.set(&cur.q)
	Q.add(&d.q.m, d.q.e, &fs.v)
	num, sq := &fs.t, &fs.u
	num.Mul(&Q.m, fs.w.SetInt64(finite))
	sq.Mul(&S.m, &S.m)
	e := Q.e
	if se := 2 * S.e; se < e {
		num.Lsh(num, uint(e-se))
		e = se
	} else if se > e {
		sq.Lsh(sq, uint(se-e))
	}
	num.Sub(num, sq)
	if num.Sign() <= 0 {
		return value.NewFloat(out, 0), nil
	}
	// PostgreSQL's accumulator holds n·variance: beyond range, it fails.
	if math.IsInf(fs.round(num, e, fs.w.SetInt64(finite), out), 0) {
		return value.Null, errFloatOverflow()
	}
	den := &fs.w
	if a.f == plan.AggVarSamp || a.f == plan.AggStddevSamp {
		den.SetInt64(finite - 1)
	} else {
		den.SetInt64(finite)
	}
	den.Mul(den, fs.v.SetInt64(finite))
	if a.f == plan.AggVarPop || a.f == plan.AggVarSamp {
		return value.NewFloat(out, fs.round(num, e, den, out)), nil
	}
	return value.NewFloat(out, fs.sqrt(num, e, den)), nil
}

func errFloatOverflow() error {
	return pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
}

// round returns num·2^e / den (den nil: 1; den positive) rounded to
// nearest, ties to even, in k's precision: the quotient is computed to
// 55 to 57 significant bits and its last bit set when the rest is not
// zero (a sticky bit), so one rounding of that is the correct rounding of
// the exact quotient. num is left unchanged.
func (c *floatScratch) round(num *big.Int, e int, den *big.Int, k value.Kind) float64 {
	if den == nil {
		return c.toFloat(num, e, k)
	}
	m := &c.v
	e += c.quo(m, num, 56+den.BitLen()-num.BitLen(), den)
	return c.toFloat(m, e, k)
}

// quo sets m to num·2^shift / den truncated, shifted left one bit, with
// the last bit set when the quotient is not exact; it returns the exponent
// of m's unit: -shift-1. A negative shift drops low bits of num before the
// division (floor(floor(x/2^k)/d) = floor(x/(2^k·d))), so that a wide sum
// is not divided in full. The sign is num's.
func (c *floatScratch) quo(m, num *big.Int, shift int, den *big.Int) int {
	neg := num.Sign() < 0
	m.Abs(num)
	sticky := false
	if shift < 0 {
		sticky = m.TrailingZeroBits() < uint(-shift)
		m.Rsh(m, uint(-shift))
	} else {
		m.Lsh(m, uint(shift))
	}
	r := &c.r
	m.QuoRem(m, den, r)
	m.Lsh(m, 1)
	if sticky || r.Sign() != 0 {
		m.SetBit(m, 0, 1)
	}
	if neg {
		m.Neg(m)
	}
	return -shift - 1
}

// sqrt returns the square root of num·2^e / den (num positive), rounded
// to nearest, ties to even, the same way as round: an integer square root
// of 55 to 57 bits and a sticky bit.
func (c *floatScratch) sqrt(num *big.Int, e int, den *big.Int) float64 {
	m := &c.v
	// t = num·2^shift / den, at least 110 bits, at an even exponent.
	shift := 112 + den.BitLen() - num.BitLen()
	if (e-shift)%2 != 0 {
		shift++
	}
	e += c.quo(m, num, shift, den) + 1
	inexact := m.Bit(0) == 1
	m.Rsh(m, 1)
	root := &c.root
	c.isqrt(root, m)
	if r := &c.r; r.Mul(root, root).Cmp(m) != 0 {
		inexact = true
	}
	m.Lsh(root, 1)
	if inexact {
		m.SetBit(m, 0, 1)
	}
	return c.toFloat(m, e/2-1, value.Float8)
}

// isqrt sets z to floor(sqrt(t)), t positive and of at most a few hundred
// bits, by Newton's method from the float64 root of t's top bits, in the
// scratch (big.Int.Sqrt allocates).
func (c *floatScratch) isqrt(z, t *big.Int) {
	q, r := &c.q1, &c.q2
	bl := t.BitLen()
	sh := 0
	if bl > 64 {
		sh = (bl - 63) &^ 1
	}
	q.Rsh(t, uint(sh))
	z.SetUint64(uint64(math.Sqrt(float64(q.Uint64()))))
	z.Lsh(z, uint(sh/2))
	// The start is right to about 2^-52; each step doubles that.
	for range 3 {
		if z.Sign() == 0 {
			z.SetInt64(1)
		}
		q.QuoRem(t, z, r)
		z.Add(z, q)
		z.Rsh(z, 1)
	}
	for r.Mul(z, z).Cmp(t) > 0 {
		z.Sub(z, bigOne)
	}
	for {
		q.Add(z, bigOne)
		if r.Mul(q, q).Cmp(t) > 0 {
			break
		}
		z.Set(q)
	}
}

// toFloat rounds m·2^e to nearest, ties to even, in k's precision, with
// gradual underflow; without allocating (big.Float's conversions do).
func (c *floatScratch) toFloat(m *big.Int, e int, k value.Kind) float64 {
	if m.Sign() == 0 {
		return 0
	}
	neg := m.Sign() < 0
	// u·2^e with u in [2^63, 2^64): the top 64 bits of |m|, the bits below
	// folded into the last one (they only break ties).
	a := &c.r
	a.Abs(m)
	var u uint64
	if bl := a.BitLen(); bl > 64 {
		sh := uint(bl - 64)
		sticky := a.TrailingZeroBits() < sh
		a.Rsh(a, sh)
		u = a.Uint64()
		if sticky {
			u |= 1
		}
		e += int(sh)
	} else {
		u = a.Uint64() << uint(64-bl)
		e -= 64 - bl
	}
	p, emin := 53, -1022
	if k == value.Float4 {
		p, emin = 24, -126
	}
	if lead := e + 63; lead < emin {
		p -= emin - lead // a subnormal result keeps fewer bits
	}
	var r float64
	switch {
	case p < 0 || p == 0 && u == 1<<63:
		r = 0
	case p == 0:
		r = math.Ldexp(1, e+64)
	default:
		keep, rest := u>>uint(64-p), u<<uint(p)
		if rest > 1<<63 || rest == 1<<63 && keep&1 == 1 {
			keep++
		}
		r = math.Ldexp(float64(keep), e+64-p)
	}
	if k == value.Float4 {
		r = float64(float32(r))
	}
	if neg {
		r = -r
	}
	return r
}

var bigOne = big.NewInt(1)

func (a *floatAcc) commit() {
	if a.d == nil {
		return
	}
	a.cur.plus(a.d)
	a.d = nil
	c := &a.cur
	if c.n == 0 {
		// No finite values left: the sums are zero.
		c.s.m.SetInt64(0)
		c.q.m.SetInt64(0)
	}
	c.s.trim()
	c.q.trim()
}

func (a *floatAcc) abort() { a.d = nil }

func (a *floatAcc) bytes() int64 {
	return int64(unsafe.Sizeof(*a)) + a.cur.s.bytes() + a.cur.q.bytes()
}

// floatSums hands out a zeroed staged delta from the step's pool.
func (c *stepCtx) floatSums() *floatSums {
	if c.nFloat == len(c.floatPool) {
		c.floatPool = append(c.floatPool, new(floatSums))
	}
	s := c.floatPool[c.nFloat]
	c.nFloat++
	s.reset()
	return s
}
