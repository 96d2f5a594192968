package exec

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// adHocAggregate computes over a group's inputs, as PostgreSQL computes
// them, the bitwise aggregates and those that views do not maintain
// (plan.AggNotMaintained): range_intersect_agg and range_agg; the
// regression family over the (y, x) pairs without a NULL, accumulated in
// input order by Youngs and Cramer's update as float8_regr_accum does;
// and the ordered-set
// aggregates over the non-NULL values, sorted by their WITHIN GROUP key
// (aggInputs sorted them).
func adHocAggregate(a *plan.AggCall, ins []aggInput, rows []value.Row) (value.Value, error) {
	switch {
	case a.Func.Has(plan.AggTwoArgs) && a.Exact:
		return exactRegression(a.Func, ins)
	case a.Func.Has(plan.AggTwoArgs):
		return regression(a.Func, ins)
	case a.Func.Has(plan.AggOrderedSet):
		return orderedSet(a, ins, rows)
	case a.Type.Kind == value.Bit:
		return bitStringAggregate(a.Func, ins)
	case a.Func == plan.AggRangeIntersect:
		return rangeIntersect(ins)
	case a.Func == plan.AggRangeAgg:
		return rangeAgg(a.Type.Kind, ins)
	}
	var acc int64
	seen := false
	for _, in := range ins {
		if in.arg.IsNull() {
			continue
		}
		v := in.arg.Int()
		switch {
		case !seen:
			acc = v
		case a.Func == plan.AggBitAnd:
			acc &= v
		case a.Func == plan.AggBitOr:
			acc |= v
		case a.Func == plan.AggBitXor:
			acc ^= v
		}
		seen = true
	}
	if !seen {
		return value.Null, nil
	}
	return value.NewInt(a.Type.Kind, acc), nil
}

// rangeIntersect is range_intersect_agg: the intersection of the
// non-NULL ranges or multiranges of ins, NULL when there are none.
func rangeIntersect(ins []aggInput) (value.Value, error) {
	acc := value.Null
	for _, in := range ins {
		switch {
		case in.arg.IsNull():
		case acc.IsNull():
			acc = in.arg
		case acc.Kind().IsMultirange():
			var err error
			if acc, err = value.MultirangeIntersect(acc, in.arg); err != nil {
				return value.Null, err
			}
		default:
			var err error
			if acc, err = value.RangeIntersect(acc, in.arg); err != nil {
				return value.Null, err
			}
		}
	}
	return acc, nil
}

// rangeAgg is range_agg: the multirange of kind k of the non-NULL ranges
// (or multiranges' ranges) of ins, NULL when there are none.
func rangeAgg(k value.Kind, ins []aggInput) (value.Value, error) {
	var rs []value.Value
	seen := false
	for _, in := range ins {
		if !in.arg.IsNull() {
			rs = append(rs, in.arg.Ranges()...)
			seen = true
		}
	}
	if !seen {
		return value.Null, nil
	}
	return value.MakeMultirange(k, rs)
}

// regression is corr, covar_* or regr_* over the pairs of ins (y in arg,
// x in x) where neither is NULL.
func regression(f plan.AggFunc, ins []aggInput) (value.Value, error) {
	var n, sx, sxx, sy, syy, sxy float64
	for _, in := range ins {
		if in.arg.IsNull() || in.x.IsNull() {
			continue
		}
		y, x := in.arg.Float(), in.x.Float()
		oldN, oldSx, oldSy := n, sx, sy
		n++
		sx += x
		sy += y
		if oldN > 0 {
			tx, ty := x*n-sx, y*n-sy
			scale := 1 / (n * oldN)
			sxx += tx * tx * scale
			syy += ty * ty * scale
			sxy += tx * ty * scale
			if math.IsInf(sx, 0) || math.IsInf(sxx, 0) || math.IsInf(sy, 0) || math.IsInf(syy, 0) || math.IsInf(sxy, 0) {
				if (math.IsInf(sx, 0) || math.IsInf(sxx, 0)) && !math.IsInf(oldSx, 0) && !math.IsInf(x, 0) ||
					(math.IsInf(sy, 0) || math.IsInf(syy, 0)) && !math.IsInf(oldSy, 0) && !math.IsInf(y, 0) ||
					math.IsInf(sxy, 0) && !math.IsInf(oldSx, 0) && !math.IsInf(x, 0) && !math.IsInf(oldSy, 0) && !math.IsInf(y, 0) {
					return value.Null, pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
				}
				if math.IsInf(sxx, 0) {
					sxx = math.NaN()
				}
				if math.IsInf(syy, 0) {
					syy = math.NaN()
				}
				if math.IsInf(sxy, 0) {
					sxy = math.NaN()
				}
			}
		} else {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				sxx, sxy = math.NaN(), math.NaN()
			}
			if math.IsNaN(y) || math.IsInf(y, 0) {
				syy, sxy = math.NaN(), math.NaN()
			}
		}
	}
	return plan.RegressionResult(f, n, sx, sy, sxx, syy, sxy)
}

// orderedSet is percentile_cont, percentile_disc or mode over the
// non-NULL values of ins, which are in WITHIN GROUP order. The fraction
// is evaluated over the group's first row (it is constant per group).
func orderedSet(a *plan.AggCall, ins []aggInput, rows []value.Row) (value.Value, error) {
	if a.Func.Has(plan.AggHypothetical) {
		return hypothetical(a, ins, rows)
	}
	var vals []value.Value
	for _, in := range ins {
		if !in.arg.IsNull() {
			vals = append(vals, in.arg)
		}
	}
	if a.Func == plan.AggMode {
		var best value.Value
		bestN := 0
		for i := 0; i < len(vals); {
			j := i + 1
			for j < len(vals) && value.Compare(vals[j], vals[i]) == 0 {
				j++
			}
			if j-i > bestN {
				best, bestN = vals[i], j-i
			}
			i = j
		}
		if bestN == 0 {
			return value.Null, nil
		}
		return best, nil
	}
	if len(rows) == 0 {
		return value.Null, nil
	}
	fv, err := a.Direct.Eval(rows[0])
	if err != nil {
		return value.Null, err
	}
	return plan.PercentileResult(a.Func, a.Type.Kind, fv, len(vals), func(i int) value.Value { return vals[i] })
}

// hypothetical is rank, dense_rank, percent_rank or cume_dist of the row
// a.Direct among ins (the group's rows that pass FILTER, NULLs included,
// sorted by a.OrderBy): as PostgreSQL computes them, the row placed
// before its peers for the ranks and after them for cume_dist.
func hypothetical(a *plan.AggCall, ins []aggInput, rows []value.Row) (value.Value, error) {
	var h []value.Value
	if len(rows) > 0 {
		v, err := a.Direct.Eval(rows[0])
		if err != nil {
			return value.Null, err
		}
		h = v.Fields()
	}
	var before, peers, distinct int64
	for i, in := range ins {
		c := 0
		for k, key := range a.OrderBy {
			if c = CompareKey(in.keys[k], h[k], key.Desc, key.NullsFirst); c != 0 {
				break
			}
		}
		switch {
		case c < 0:
			before++
			if i == 0 || !sameKeys(ins[i-1].keys, in.keys) {
				distinct++
			}
		case c == 0:
			peers++
		}
	}
	n := int64(len(ins))
	return plan.HypotheticalResult(a.Func, before, peers, distinct, n), nil
}

// sameKeys reports whether two rows' sort keys are equal (peers).
func sameKeys(a, b []value.Value) bool {
	for i := range a {
		if value.Compare(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}
