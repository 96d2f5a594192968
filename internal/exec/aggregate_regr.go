package exec

import (
	"math"
	"math/big"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// exactRegression is corr, covar_* or regr_* as a view computes it: over
// the pairs of ins without a NULL, N, Sx and Sy and the centred sums
// Sxx = Σx² − (Σx)²/N, Syy and Sxy = Σxy − ΣxΣy/N are computed as exact
// rationals and rounded once, then PostgreSQL's final function applies.
// With a NaN or an infinity the pairs are taken in order as PostgreSQL
// takes them (regression), which gives NaN for the centred sums they
// reach whatever the order.
func exactRegression(f plan.AggFunc, ins []aggInput) (value.Value, error) {
	var n int64
	var sx, sy, qx, qy, xy, t big.Rat
	for _, in := range ins {
		if in.arg.IsNull() || in.x.IsNull() {
			continue
		}
		y, x := in.arg.Float(), in.x.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return regression(f, ins)
		}
		n++
		var rx, ry big.Rat
		rx.SetFloat64(x)
		ry.SetFloat64(y)
		sx.Add(&sx, &rx)
		sy.Add(&sy, &ry)
		qx.Add(&qx, t.Mul(&rx, &rx))
		qy.Add(&qy, t.Mul(&ry, &ry))
		xy.Add(&xy, t.Mul(&rx, &ry))
	}
	if f == plan.AggRegrCount {
		return value.NewInt(value.Int8, n), nil
	}
	if n < 1 {
		return value.Null, nil
	}
	overflow := pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
	N := new(big.Rat).SetInt64(n)
	centred := func(q, a, b *big.Rat) (float64, bool) {
		var c big.Rat
		c.Mul(a, b)
		c.Quo(&c, N)
		c.Sub(q, &c)
		r, _ := c.Float64()
		return r, !math.IsInf(r, 0)
	}
	fsx, _ := sx.Float64()
	fsy, _ := sy.Float64()
	sxx, ok1 := centred(&qx, &sx, &sx)
	syy, ok2 := centred(&qy, &sy, &sy)
	sxy, ok3 := centred(&xy, &sx, &sy)
	if math.IsInf(fsx, 0) || math.IsInf(fsy, 0) || !ok1 || !ok2 || !ok3 {
		return value.Null, overflow
	}
	return plan.RegressionResult(f, float64(n), fsx, fsy, sxx, syy, sxy)
}
