package plan

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// CheckPercentile returns PostgreSQL's 22003 error for a fraction of
// percentile_cont or percentile_disc outside [0, 1].
func CheckPercentile(p float64) error {
	if p < 0 || p > 1 || math.IsNaN(p) {
		return pgerr.New(pgerr.NumericOutOfRange, "percentile value %g is not between 0 and 1", p)
	}
	return nil
}

// Percentile is the fraction p of n sorted values (n > 0), read by their
// 0-based positions through at: the first value at or past it
// (percentile_disc), or the interpolation between the two values around
// it (percentile_cont), as PostgreSQL computes them. The from-scratch
// evaluation and the maintained aggregate share it.
func Percentile(f AggFunc, n int, p float64, at func(i int) value.Value) (value.Value, error) {
	if f == AggPercentileDisc {
		row := int(math.Ceil(p * float64(n)))
		return at(max(row, 1) - 1), nil
	}
	pos := p * float64(n-1)
	lo, hi := math.Floor(pos), math.Ceil(pos)
	l := at(int(lo))
	if lo == hi {
		return l, nil
	}
	h := at(int(hi))
	frac := pos - lo
	if l.Kind() == value.Interval {
		// interval_lerp: lo + (hi - lo) · fraction.
		d, err := value.Sub(h, l)
		if err != nil {
			return value.Null, err
		}
		if d, err = value.Mul(d, value.NewFloat(value.Float8, frac)); err != nil {
			return value.Null, err
		}
		return value.Add(l, d)
	}
	x, y := l.Float(), h.Float()
	return value.NewFloat(value.Float8, x+(y-x)*frac), nil
}

// PercentileResult is percentile_cont's or percentile_disc's result for
// the fraction fv (double precision, or an array of them: an array of the
// results, NULL where a fraction is NULL) over n sorted non-NULL values
// read through at. A NULL fraction, or no values, is NULL; a fraction
// outside [0, 1] is an error, checked first for a single fraction and
// only when there are values for an array, as in PostgreSQL. kind is the
// result's kind (an array kind for an array of fractions).
func PercentileResult(f AggFunc, kind value.Kind, fv value.Value, n int, at func(i int) value.Value) (value.Value, error) {
	if fv.IsNull() {
		return value.Null, nil
	}
	if fv.Kind().IsArray() {
		if n == 0 {
			return value.Null, nil
		}
		fs := fv.Elems()
		for _, x := range fs {
			if !x.IsNull() {
				if err := CheckPercentile(x.Float()); err != nil {
					return value.Null, err
				}
			}
		}
		out := make([]value.Value, len(fs))
		for i, x := range fs {
			if !x.IsNull() {
				var err error
				if out[i], err = Percentile(f, n, x.Float(), at); err != nil {
					return value.Null, err
				}
			}
		}
		return value.NewArrayDims(kind, out, fv.Dims()), nil
	}
	p := fv.Float()
	if err := CheckPercentile(p); err != nil {
		return value.Null, err
	}
	if n == 0 {
		return value.Null, nil
	}
	return Percentile(f, n, p, at)
}
