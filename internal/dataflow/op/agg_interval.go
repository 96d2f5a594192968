package op

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// intervalAcc is sum or avg of intervals; it keeps per group the count and
// the field sums of its non-NULL inputs (months, days, and microseconds in
// 128 bits), so a retraction subtracts exactly. As in PostgreSQL the sum
// adds field by field and fails with 22008 when a field leaves its range;
// avg divides that sum by the count as interval / double precision does.
type intervalAcc struct {
	f      plan.AggFunc
	cur, d intervalSums
}

type intervalSums struct {
	n, months, days int64
	hi              int64 // microseconds: hi·2⁶⁴ + lo
	lo              uint64
}

func newIntervalAcc(s *aggSpec) accum { return &intervalAcc{f: s.Func} }

// addMicros adds x·w to the 128-bit microseconds.
func (s *intervalSums) addMicros(x, w int64) {
	neg := (x < 0) != (w < 0)
	ux, uw := uint64(x), uint64(w)
	if x < 0 {
		ux = -ux
	}
	if w < 0 {
		uw = -uw
	}
	phi, plo := bits.Mul64(ux, uw)
	if neg {
		// Two's complement of the 128-bit product.
		plo = ^plo + 1
		phi = ^phi
		if plo == 0 {
			phi++
		}
	}
	var c uint64
	s.lo, c = bits.Add64(s.lo, plo, 0)
	s.hi = int64(uint64(s.hi) + phi + c)
}

func (s *intervalSums) merge(o *intervalSums) {
	s.n += o.n
	s.months += o.months
	s.days += o.days
	var c uint64
	s.lo, c = bits.Add64(s.lo, o.lo, 0)
	s.hi += o.hi + int64(c)
}

func (a *intervalAcc) stage(_ *stepCtx, ch []aggChange) (value.Value, error) {
	a.d = intervalSums{}
	for _, c := range ch {
		v := c.vals[0]
		if v.IsNull() {
			continue
		}
		sp := v.Span()
		a.d.n += c.w
		a.d.months += int64(sp.Months) * c.w
		a.d.days += int64(sp.Days) * c.w
		a.d.addMicros(sp.Micros, c.w)
	}
	t := a.cur
	t.merge(&a.d)
	if t.n < 0 {
		return value.Null, errNegativeCount()
	}
	if t.n == 0 {
		return value.Null, nil
	}
	// The microseconds fit 64 bits when hi is the sign extension of lo.
	if t.months != int64(int32(t.months)) || t.days != int64(int32(t.days)) ||
		t.hi != int64(t.lo)>>63 || int64(t.lo) == math.MinInt64 {
		return value.Null, pgerr.New(pgerr.DatetimeOverflow, "interval out of range")
	}
	sum := value.NewInterval(value.Span{Months: int32(t.months), Days: int32(t.days), Micros: int64(t.lo)})
	if a.f == plan.AggAvg {
		return value.Div(sum, value.NewFloat(value.Float8, float64(t.n)))
	}
	return sum, nil
}

func (a *intervalAcc) commit()      { a.cur.merge(&a.d); a.d = intervalSums{} }
func (a *intervalAcc) abort()       { a.d = intervalSums{} }
func (a *intervalAcc) bytes() int64 { return int64(unsafe.Sizeof(*a)) }
