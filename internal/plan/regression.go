package plan

import (
	"math"

	"github.com/deltaview/deltaview/internal/value"
)

// RegressionResult is PostgreSQL's final function of f over the
// accumulated N, Sx, Sy, Sxx, Syy and Sxy, which ad-hoc aggregates and
// maintained ones share.
func RegressionResult(f AggFunc, n, sx, sy, sxx, syy, sxy float64) (value.Value, error) {
	if f == AggRegrCount {
		return value.NewInt(value.Int8, int64(n)), nil
	}
	if n < 1 || f == AggCovarSamp && n < 2 {
		return value.Null, nil
	}
	var r float64
	switch f {
	case AggRegrSxx:
		r = sxx
	case AggRegrSyy:
		r = syy
	case AggRegrSxy:
		r = sxy
	case AggRegrAvgX:
		r = sx / n
	case AggRegrAvgY:
		r = sy / n
	case AggCovarPop:
		r = sxy / n
	case AggCovarSamp:
		r = sxy / (n - 1)
	case AggCorr:
		if sxx == 0 || syy == 0 {
			return value.Null, nil
		}
		r = sxy / math.Sqrt(sxx*syy)
	case AggRegrR2:
		if sxx == 0 {
			return value.Null, nil
		}
		if syy == 0 {
			r = 1
		} else {
			r = sxy * sxy / (sxx * syy)
		}
	case AggRegrSlope:
		if sxx == 0 {
			return value.Null, nil
		}
		r = sxy / sxx
	case AggRegrIntercept:
		if sxx == 0 {
			return value.Null, nil
		}
		r = (sy - sx*sxy/sxx) / n
	}
	return value.NewFloat(value.Float8, r), nil
}
