package op

import (
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// sumAcc is sum or avg of integers or numerics (or sum of money, summed as
// its cents), the common aggregates of
// many groups, kept in 48 bytes where exactAcc takes about 200: while
// every value summed is an integer, or a numeric with an inline
// coefficient (value.SmallNumeric), all of one scale, the group holds the
// count and the sum's coefficient as a 128-bit integer at that scale.
// A numeric that breaks this (another scale, a coefficient beyond 64 bits,
// NaN, an infinity) moves the group's sums into an exactSums of their own
// for good, which computes the same results. (A sum of inline values
// exceeds 128 bits only if the count does not fit 64: it is checked all the
// same, and goes the general way.)
type sumAcc struct {
	avg  bool
	kind value.Kind
	sc   int32      // the scale of the numerics summed inline (any while n is 0)
	n    int64      // non-NULL values, while inline
	s    i128       // their sum's coefficient, at scale sc, while inline
	wide *exactSums // the sums once they do not fit inline; nil before
	d    *sumDelta  // staged delta, from the step's pool
}

var _ accum = (*sumAcc)(nil)

func newSumAcc(s *aggSpec) accum { return &sumAcc{avg: s.Func == plan.AggAvg, kind: s.in} }

// sumDelta is a step's changes to one sumAcc: inline like the
// accumulator's own sums while they can be, else in x.
type sumDelta struct {
	n    int64
	s    i128
	sc   int32
	wide bool
	x    exactSums
}

// sumDelta hands out a zeroed staged delta from the step's pool.
func (c *stepCtx) sumDelta() *sumDelta {
	if c.nSum == len(c.sumPool) {
		c.sumPool = append(c.sumPool, new(sumDelta))
	}
	d := c.sumPool[c.nSum]
	c.nSum++
	scales := d.x.scales[:0]
	*d = sumDelta{x: exactSums{scales: scales}}
	return d
}

// add128 returns a + b, and false when the sum does not fit 128 bits.
func add128(a, b i128) (i128, bool) {
	r := a.add(b)
	return r, (a.hi < 0) != (b.hi < 0) || (r.hi < 0) == (a.hi < 0)
}

// empty reports whether the inline sums hold no value, so that the next
// one may set their scale.
func (a *sumAcc) empty() bool { return a.n == 0 && a.s == (i128{}) }

// inline returns v's coefficient and scale when v can be summed inline.
func (a *sumAcc) inline(v value.Value) (int64, int32, bool) {
	if a.kind != value.Numeric {
		return v.Int(), 0, true
	}
	return v.SmallNumeric()
}

// widen moves the inline sums n, s at scale sc into x.
func (a *sumAcc) widen(x *exactSums, n int64, s i128, sc int32) {
	x.n += n
	if a.kind != value.Numeric {
		x.s = x.s.add(s)
		return
	}
	if n == 0 && s == (i128{}) {
		return
	}
	var d apd.Decimal
	s.setDecimal(&d)
	d.Exponent = -sc
	_, _ = value.DecimalContext.Add(&x.ds, &x.ds, &d)
	if n != 0 {
		x.scales = addScale(x.scales, sc, n)
	}
}

func (a *sumAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	d := c.sumDelta()
	a.d = d
	// The delta's scale is the accumulator's while it holds values.
	fixed := a.wide == nil && !a.empty()
	d.sc = a.sc
	for _, x := range ch {
		v := x.vals[0]
		if v.IsNull() {
			continue
		}
		if !d.wide {
			if co, sc, ok := a.inline(v); ok && (sc == d.sc || (!fixed && d.n == 0 && d.s == (i128{}))) {
				if s, ok := add128(d.s, mul64(co, x.w)); ok {
					d.s, d.sc, d.n, fixed = s, sc, d.n+x.w, true
					continue
				}
			}
			d.wide = true
			a.widen(&d.x, d.n, d.s, d.sc)
		}
		d.x.add(c, v, x.w, false)
	}
	return a.result(c)
}

// result computes the aggregate of the committed sums and the staged
// delta.
func (a *sumAcc) result(c *stepCtx) (value.Value, error) {
	d := a.d
	if a.wide == nil && !d.wide && (d.sc == a.sc || a.empty()) {
		if s, ok := add128(a.s, d.s); ok {
			return a.inlineResult(c, a.n+d.n, s, d.sc)
		}
	}
	// The general path: both sides as exactSums, the committed one in the
	// step's pool.
	cur := a.wide
	if cur == nil {
		cur = c.exactSums()
		a.widen(cur, a.n, a.s, a.sc)
	}
	dx := &d.x
	if !d.wide {
		dx = c.exactSums()
		a.widen(dx, d.n, d.s, d.sc)
	}
	f := plan.AggSum
	if a.avg {
		f = plan.AggAvg
	}
	return exactResult(c, f, a.kind, cur, dx)
}

// inlineResult is the sum or average of n values whose sum is s at scale
// sc, as exactResult computes it.
func (a *sumAcc) inlineResult(c *stepCtx, n int64, s i128, sc int32) (value.Value, error) {
	switch {
	case n < 0:
		return value.Null, errNegativeCount()
	case n == 0:
		return value.Null, nil
	case !a.avg && (a.kind == value.Int2 || a.kind == value.Int4):
		if !s.isInt64() {
			return value.Null, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
		}
		return value.NewInt(value.Int8, int64(s.lo)), nil
	case a.kind == value.Money:
		return moneySum(s)
	}
	sum := &c.d[0]
	s.setDecimal(sum)
	sum.Exponent = -sc
	if !a.avg {
		return newNumeric(sum), nil
	}
	return value.Div(newNumeric(sum), numericInt(n))
}

func (a *sumAcc) commit() {
	d := a.d
	if d == nil {
		return
	}
	a.d = nil
	if a.wide == nil && !d.wide && (d.sc == a.sc || a.empty()) {
		if s, ok := add128(a.s, d.s); ok {
			a.n, a.s, a.sc = a.n+d.n, s, d.sc
			return
		}
	}
	if a.wide == nil {
		a.wide = new(exactSums)
		a.widen(a.wide, a.n, a.s, a.sc)
		a.n, a.s = 0, i128{}
	}
	if d.wide {
		a.wide.plus(&d.x)
	} else {
		a.widen(a.wide, d.n, d.s, d.sc)
	}
}

func (a *sumAcc) abort() { a.d = nil }

func (a *sumAcc) bytes() int64 {
	b := int64(unsafe.Sizeof(*a))
	if w := a.wide; w != nil {
		b += int64(unsafe.Sizeof(*w)) + int64(cap(w.scales))*int64(unsafe.Sizeof(scaleCount{}))
		for _, d := range []*apd.Decimal{&w.ds, &w.dq} {
			if bl := d.Coeff.BitLen(); bl > 128 {
				b += 32 + int64(bl+63)/64*8
			}
		}
	}
	return b
}

// moneySum is sum(money) of amounts whose sum is s cents: 22003 when it
// does not fit an int64. It is the whole group's sum, whatever the order
// of its terms, where PostgreSQL's cash_pl also fails on a running sum out
// of range that later terms would bring back.
func moneySum(s i128) (value.Value, error) {
	if !s.isInt64() {
		return value.Null, pgerr.New(pgerr.NumericOutOfRange, "money out of range")
	}
	return value.NewMoney(int64(s.lo)), nil
}
