package exec

import (
	"math"
	"math/big"
	"slices"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// The oracle's aggregates: each group's rows are collected, in input
// order, and every aggregate is computed from them the way PostgreSQL
// computes it (but float sums, averages and variances: exactly, rounded
// once, see floatAggregate), written for clarity and sharing nothing with
// the incremental operators. DISTINCT feeds the distinct values in
// ascending order, as PostgreSQL's sort does.

// aggregate evaluates a grouping from scratch.
func aggregate(n *plan.Aggregate, src Source) ([]value.Row, error) {
	in, err := Run(n.Input, src)
	if err != nil {
		return nil, err
	}
	type group struct {
		key  value.Row
		rows []value.Row
	}
	var groups []*group
	if len(n.GroupBy) == 0 {
		// A global aggregate has its one group even over no rows.
		groups = append(groups, &group{})
	}
	byKey := map[string]*group{}
	order := newRecordOrder(exprTypes(n.GroupBy))
	b := budgetOf(src)
	for _, r := range in {
		if err := b.poll(); err != nil {
			return nil, err
		}
		if len(n.GroupBy) == 0 {
			groups[0].rows = append(groups[0].rows, r)
			continue
		}
		key := make(value.Row, len(n.GroupBy))
		if err := evalInto(key, n.GroupBy, r); err != nil {
			return nil, err
		}
		enc := string(value.AppendRowKey(nil, key))
		g := byKey[enc]
		switch {
		case g == nil:
			g = &group{key: key}
			byKey[enc] = g
			groups = append(groups, g)
		default:
			if err := order.pair(key, g.key); err != nil {
				return nil, err
			}
			if value.CompareRowsExact(key, g.key) < 0 {
				// A key equal but printed differently: the first
				// representation (value.CompareRepr) is the group's, as
				// the maintained view's.
				g.key = key
			}
		}
		g.rows = append(g.rows, r)
	}
	// In key order, so that a query without ORDER BY prints the same way
	// every time.
	slices.SortFunc(groups, func(a, b *group) int { return value.CompareRows(a.key, b.key) })
	for i := 1; i < len(groups); i++ {
		if err := order.pair(groups[i-1].key, groups[i].key); err != nil {
			return nil, err
		}
	}
	inOrder := !viewOrder(src) && inputOrdered(n.Input, src)
	out := make([]value.Row, 0, len(groups))
	for _, g := range groups {
		if err := b.poll(); err != nil {
			return nil, err
		}
		row := slices.Clone(g.key)
		for i := range n.Aggs {
			v, err := evalAggregate(&n.Aggs[i], g.rows, inOrder)
			if err != nil {
				return nil, err
			}
			row = append(row, v)
		}
		out = append(out, row)
	}
	return out, nil
}

// aggInput is one row as an aggregate sees it: its argument, separator and
// ORDER BY keys.
type aggInput struct {
	arg, sep value.Value
	x        value.Value // the two-argument aggregates' x
	keys     []value.Value
}

// evalAggregate computes one aggregate call over a group's rows; with
// inOrder the order-dependent aggregates without ORDER BY take the rows
// in their order rather than sorted (see inputOrdered).
func evalAggregate(a *plan.AggCall, rows []value.Row, inOrder bool) (value.Value, error) {
	ins, err := aggInputs(a, rows, inOrder)
	if err != nil {
		return value.Null, err
	}
	switch a.Func {
	case plan.AggUser:
		return userAggregate(a.User, ins)
	case plan.AggCountStar:
		return value.NewInt(value.Int8, int64(len(ins))), nil
	case plan.AggStringAgg:
		return stringAgg(ins, a.Type.Kind), nil
	case plan.AggArrayAgg:
		return arrayAgg(ins, a.Type.Kind, a.Arg.Type().Kind == a.Type.Kind)
	}
	switch {
	case a.Func.Has(plan.AggNotMaintained), a.Func.Has(plan.AggOrderedSet), a.Func == plan.AggBitAnd, a.Func == plan.AggBitOr, a.Func == plan.AggBitXor:
		return adHocAggregate(a, ins, rows)
	}
	// The rest ignore NULL arguments.
	var vals []value.Value
	for _, in := range ins {
		if !in.arg.IsNull() {
			vals = append(vals, in.arg)
		}
	}
	switch a.Func {
	case plan.AggCount:
		return value.NewInt(value.Int8, int64(len(vals))), nil
	}
	if len(vals) == 0 {
		return value.Null, nil
	}
	switch a.Func {
	case plan.AggBoolAnd, plan.AggBoolOr:
		r := a.Func == plan.AggBoolAnd
		for _, v := range vals {
			if v.Bool() != r {
				r = !r
				break
			}
		}
		return value.NewBool(r), nil
	case plan.AggMin, plan.AggMax:
		// Of equal values printed differently (1.0 and 1.00), the first
		// representation (value.CompareRepr), as the maintained view's;
		// PostgreSQL's smaller and larger functions keep the last.
		best := vals[0]
		for _, v := range vals[1:] {
			c := value.Compare(best, v)
			if a.Func == plan.AggMin && c > 0 || a.Func == plan.AggMax && c < 0 || c == 0 && value.CompareRepr(v, best) < 0 {
				best = v
			}
		}
		return best, nil
	}
	switch k := vals[0].Kind(); {
	case k.IsFloat():
		return floatAggregate(a.Func, vals)
	case k == value.Interval:
		return intervalAggregate(a.Func, vals)
	case k == value.Money:
		return moneySum(vals)
	}
	return exactAggregate(a.Func, vals)
}

// intervalAggregate is sum or avg of intervals as PostgreSQL computes them:
// the values added in turn (22008 when a field leaves its range), the
// average that sum divided by the count as interval / double precision.
func intervalAggregate(f plan.AggFunc, vals []value.Value) (value.Value, error) {
	sum := vals[0]
	for _, v := range vals[1:] {
		var err error
		if sum, err = value.Add(sum, v); err != nil {
			return value.Null, err
		}
	}
	if f == plan.AggAvg {
		return value.Div(sum, value.NewFloat(value.Float8, float64(len(vals))))
	}
	return sum, nil
}

// aggInputs evaluates the call's FILTER, argument, separator and ORDER BY
// keys over the rows, leaves out the rows the FILTER rejects and, for
// DISTINCT, the repeated inputs, and orders the rest: by the ORDER BY
// keys, and for string_agg and array_agg then by value and separator (the
// engine's order where PostgreSQL leaves it to the input's), unless
// inOrder keeps the input's.
func aggInputs(a *plan.AggCall, rows []value.Row, inOrder bool) ([]aggInput, error) {
	var ins []aggInput
	for _, r := range rows {
		if a.Filter != nil {
			ok, err := accepts(a.Filter, r)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		var in aggInput
		var err error
		if in.arg, err = evalOrNull(a.Arg, r); err != nil {
			return nil, err
		}
		if in.sep, err = evalOrNull(a.Sep, r); err != nil {
			return nil, err
		}
		if in.x, err = evalOrNull(a.X, r); err != nil {
			return nil, err
		}
		for _, k := range a.OrderBy {
			v, err := k.Expr.Eval(r)
			if err != nil {
				return nil, err
			}
			in.keys = append(in.keys, v)
		}
		ins = append(ins, in)
	}
	byArgs := func(x, y aggInput) int {
		if c := value.Compare(x.arg, y.arg); c != 0 {
			return c
		}
		if c := value.Compare(x.x, y.x); c != 0 {
			return c // the regression aggregates' pairs (y, x)
		}
		return value.Compare(x.sep, y.sep)
	}
	// Equal arguments printed differently (1.5 and 1.50), the first
	// representation (value.CompareRepr) first, as the maintained view
	// has them: DISTINCT keeps that one.
	byReprs := func(x, y aggInput) int {
		if c := byArgs(x, y); c != 0 {
			return c
		}
		if c := value.CompareRepr(x.arg, y.arg); c != 0 {
			return c
		}
		if c := value.CompareRepr(x.x, y.x); c != 0 {
			return c
		}
		return value.CompareRepr(x.sep, y.sep)
	}
	if a.Distinct && !a.Star {
		slices.SortStableFunc(ins, byReprs)
		ins = slices.CompactFunc(ins, func(x, y aggInput) bool { return byArgs(x, y) == 0 })
	}
	ordered := a.Func.Has(plan.AggOrdered) && !(inOrder && len(a.OrderBy) == 0 && !a.Distinct)
	if len(a.OrderBy) > 0 || ordered {
		slices.SortStableFunc(ins, func(x, y aggInput) int {
			for i, k := range a.OrderBy {
				if c := CompareKey(x.keys[i], y.keys[i], k.Desc, k.NullsFirst); c != 0 {
					return c
				}
			}
			if ordered {
				return byReprs(x, y)
			}
			return 0
		})
	}
	return ins, nil
}

func evalOrNull(e expr.Expr, r value.Row) (value.Value, error) {
	if e == nil {
		return value.Null, nil
	}
	return e.Eval(r)
}

// stringAgg joins the non-NULL values, each after the first preceded by
// its own row's separator (a NULL separator adds nothing); NULL when there
// are none.
func stringAgg(ins []aggInput, k value.Kind) value.Value {
	var b []byte
	first := true
	for _, in := range ins {
		if in.arg.IsNull() {
			continue
		}
		if !first && !in.sep.IsNull() {
			b = value.AppendConcat(b, in.sep)
		}
		b = value.AppendConcat(b, in.arg)
		first = false
	}
	if first {
		return value.Null
	}
	return value.Concatenated(k, b)
}

// arrayAgg is the array of the values, NULLs included, or of arrays
// stacked (value.ArrayAgg); NULL over no rows.
func arrayAgg(ins []aggInput, k value.Kind, ofArrays bool) (value.Value, error) {
	if len(ins) == 0 {
		return value.Null, nil
	}
	es := make([]value.Value, len(ins))
	for i, in := range ins {
		es[i] = in.arg
	}
	return value.ArrayAgg(k, es, ofArrays)
}

// exactAggregate is sum, avg, var_* or stddev_* of integers or numeric
// (vals non-empty, no NULLs), as PostgreSQL's numeric aggregates compute
// them: exact sums, a result scale that follows the inputs' scales.
func exactAggregate(f plan.AggFunc, vals []value.Value) (value.Value, error) {
	if f == plan.AggSum && (vals[0].Kind() == value.Int2 || vals[0].Kind() == value.Int4) {
		// A bigint sum: 22003 beyond bigint.
		sum := value.NewInt(value.Int8, 0)
		for _, v := range vals {
			var err error
			if sum, err = value.Add(sum, value.NewInt(value.Int8, v.Int())); err != nil {
				return value.Null, err
			}
		}
		return sum, nil
	}
	nums := make([]value.Value, len(vals))
	special := false
	for i, v := range vals {
		if v.Kind() != value.Numeric {
			var err error
			if v, err = value.Cast(v, value.NumericType, false); err != nil {
				return value.Null, err
			}
		}
		nums[i] = v
		special = special || v.Decimal().Form != apd.Finite
	}
	// The sum, as numeric addition has it: the largest scale of its
	// terms; NaN with a NaN or both infinities, else an infinity with one.
	sum := nums[0]
	for _, v := range nums[1:] {
		var err error
		if sum, err = value.Add(sum, v); err != nil {
			return value.Null, err
		}
	}
	count := numericOf(int64(len(nums)))
	switch f {
	case plan.AggSum:
		return sum, nil
	case plan.AggAvg:
		return value.Div(sum, count)
	}
	sample := f == plan.AggVarSamp || f == plan.AggStddevSamp
	if sample && len(nums) == 1 {
		return value.Null, nil
	}
	if special {
		return value.NewNumeric(&apd.Decimal{Form: apd.NaN}), nil
	}
	// PostgreSQL's numeric_stddev_internal: the numerator
	// n·Σx² − (Σx)², exact at twice the sum's scale; 0 when it is not
	// positive (scale 0); else divided by n·(n−1) or n·n at
	// select_div_scale, and for a standard deviation the square root of
	// that quotient rounded to the same scale.
	sumSq := numericOf(0)
	for _, v := range nums {
		sq, err := value.Mul(v, v)
		if err != nil {
			return value.Null, err
		}
		if sumSq, err = value.Add(sumSq, sq); err != nil {
			return value.Null, err
		}
	}
	nSumSq, err := value.Mul(count, sumSq)
	if err != nil {
		return value.Null, err
	}
	sumSum, err := value.Mul(sum, sum)
	if err != nil {
		return value.Null, err
	}
	num, err := value.Sub(nSumSq, sumSum)
	if err != nil {
		return value.Null, err
	}
	if num.Decimal().Sign() <= 0 {
		return numericOf(0), nil
	}
	n := int64(len(nums))
	den := new(big.Int).Mul(big.NewInt(n), big.NewInt(n))
	if sample {
		den.Mul(big.NewInt(n), big.NewInt(n-1))
	}
	denv, err := value.Parse(den.String(), value.NumericType)
	if err != nil {
		return value.Null, err
	}
	variance, err := value.Div(num, denv)
	if err != nil || f == plan.AggVarPop || f == plan.AggVarSamp {
		return variance, err
	}
	return sqrtRounded(variance.Decimal()), nil
}

// numericOf is n as a numeric of scale 0.
func numericOf(n int64) value.Value { return value.NewNumeric(apd.New(n, 0)) }

// sqrtRounded is the square root of x ≥ 0 rounded half up at x's scale r:
// floor(√(x·10^(2r+2))) has one digit more than wanted, and rounding it
// away rounds the root.
func sqrtRounded(x *apd.Decimal) value.Value {
	r := int64(0)
	if x.Exponent < 0 {
		r = -int64(x.Exponent)
	}
	// x·10^(2r+2) = coefficient·10^(exponent+2r+2).
	c, ok := new(big.Int).SetString(x.Coeff.String(), 10)
	if !ok {
		return value.Null
	}
	c.Mul(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Exponent)+2*r+2), nil))
	c.Sqrt(c)
	c.Add(c, big.NewInt(5))
	c.Quo(c, big.NewInt(10))
	d, _, err := apd.NewFromString(c.String())
	if err != nil {
		return value.Null
	}
	d.Exponent = -int32(r)
	return value.NewNumeric(d)
}

// floatAggregate is sum, avg, var_* or stddev_* of real or double
// precision (vals non-empty, no NULLs). The finite values are summed as
// exact rationals and the result rounded once to nearest (sum to the
// argument's type): sum = Σx, avg = Σx/n, var_pop = (n·Σx² − (Σx)²)/n²,
// var_samp over n·(n−1), stddev the square root, taken at 256 bits. As
// in PostgreSQL, a sum beyond double precision (for avg and the variances
// too), or an n·variance beyond it, fails with 22003. With a NaN or an
// infinity the values are taken in order as PostgreSQL takes them: sum
// adds in the argument's type (float4pl, float8pl), and avg and the
// variances accumulate n, Σx and Sxx by Youngs and Cramer's update, as
// float8_accum does, where NaN and the infinities propagate.
func floatAggregate(f plan.AggFunc, vals []value.Value) (value.Value, error) {
	special, negz := false, 0
	for _, v := range vals {
		x := v.Float()
		special = special || math.IsNaN(x) || math.IsInf(x, 0)
		if x == 0 && math.Signbit(x) {
			negz++
		}
	}
	if special {
		return floatAggregateInOrder(f, vals)
	}
	overflow := pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
	n := int64(len(vals))
	var sum, sq, t big.Rat
	for _, v := range vals {
		t.SetFloat64(v.Float())
		sum.Add(&sum, &t)
		t.Mul(&t, &t)
		sq.Add(&sq, &t)
	}
	if s, _ := sum.Float64(); math.IsInf(s, 0) {
		return value.Null, overflow
	}
	switch f {
	case plan.AggSum:
		if negz == len(vals) {
			return value.NewFloat(vals[0].Kind(), math.Copysign(0, -1)), nil
		}
		if vals[0].Kind() == value.Float4 {
			r, _ := sum.Float32()
			if math.IsInf(float64(r), 0) {
				return value.Null, overflow
			}
			return value.NewFloat(value.Float4, float64(r)), nil
		}
		r, _ := sum.Float64()
		return value.NewFloat(value.Float8, r), nil
	case plan.AggAvg:
		r, _ := t.Quo(&sum, new(big.Rat).SetInt64(n)).Float64()
		return value.NewFloat(value.Float8, r), nil
	}
	if n == 1 && (f == plan.AggVarSamp || f == plan.AggStddevSamp) {
		return value.Null, nil
	}
	// Sxx = Σx² − (Σx)²/n, exact.
	var sxx big.Rat
	t.Mul(&sum, &sum)
	t.Quo(&t, new(big.Rat).SetInt64(n))
	sxx.Sub(&sq, &t)
	if sxx.Sign() <= 0 {
		return value.NewFloat(value.Float8, 0), nil
	}
	if r, _ := sxx.Float64(); math.IsInf(r, 0) {
		return value.Null, overflow
	}
	den := n
	if f == plan.AggVarSamp || f == plan.AggStddevSamp {
		den = n - 1
	}
	sxx.Quo(&sxx, new(big.Rat).SetInt64(den))
	if f == plan.AggVarPop || f == plan.AggVarSamp {
		r, _ := sxx.Float64()
		return value.NewFloat(value.Float8, r), nil
	}
	root := new(big.Float).SetPrec(256).SetRat(&sxx)
	r, _ := root.Sqrt(root).Float64()
	return value.NewFloat(value.Float8, r), nil
}

// floatAggregateInOrder is floatAggregate over values with a NaN or an
// infinity, in PostgreSQL's order.
func floatAggregateInOrder(f plan.AggFunc, vals []value.Value) (value.Value, error) {
	if f == plan.AggSum {
		sum := vals[0]
		for _, v := range vals[1:] {
			var err error
			if sum, err = value.Add(sum, v); err != nil {
				return value.Null, err
			}
		}
		return sum, nil
	}
	var n, sx, sxx float64
	for _, v := range vals {
		x := v.Float()
		oldN, oldSx := n, sx
		n++
		sx += x
		if oldN > 0 {
			t := x*n - sx
			sxx += t * t / (n * oldN)
			if math.IsInf(sx, 0) || math.IsInf(sxx, 0) {
				if !math.IsInf(oldSx, 0) && !math.IsInf(x, 0) {
					return value.Null, pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
				}
				sxx = math.NaN()
			}
		} else if math.IsNaN(x) || math.IsInf(x, 0) {
			sxx = math.NaN()
		}
	}
	var r float64
	switch f {
	case plan.AggAvg:
		r = sx / n
	case plan.AggVarPop, plan.AggStddevPop:
		r = sxx / n
	default:
		if n <= 1 {
			return value.Null, nil
		}
		r = sxx / (n - 1)
	}
	if f == plan.AggStddevPop || f == plan.AggStddevSamp {
		r = math.Sqrt(r)
	}
	return value.NewFloat(value.Float8, r), nil
}

// moneySum is sum(money), the only such aggregate besides min and max
// (vals non-empty, no NULLs): added in order, as PostgreSQL's cash_pl
// does, so a running sum out of range is 22003.
func moneySum(vals []value.Value) (value.Value, error) {
	sum := vals[0]
	for _, v := range vals[1:] {
		var err error
		if sum, err = value.Add(sum, v); err != nil {
			return value.Null, err
		}
	}
	return sum, nil
}
