package value

import "math"

// The fuzzy comparisons of PostgreSQL's geometric types (geo_decls.h):
// coordinates closer than geoEpsilon are equal. The orderings add the
// epsilon to one side, as PostgreSQL does, rather than subtracting the
// operands: infinite lengths then compare as there (Infinity >= Infinity
// holds, where Infinity - Infinity is NaN).
const geoEpsilon = 1.0e-06

func fpZero(a float64) bool      { return math.Abs(a) <= geoEpsilon }
func fpEq(a, b float64) bool     { return a == b || math.Abs(a-b) <= geoEpsilon }
func fpLt(a, b float64) bool     { return a+geoEpsilon < b }
func fpLe(a, b float64) bool     { return a <= b+geoEpsilon }
func fpGt(a, b float64) bool     { return a > b+geoEpsilon }
func fpGe(a, b float64) bool     { return a+geoEpsilon >= b }
func float8Eq(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// float8Lt is float8_lt: NaN is greater than every other value.
func float8Lt(a, b float64) bool { return !math.IsNaN(a) && (math.IsNaN(b) || a < b) }

// geoCalc does float8 arithmetic as PostgreSQL's float8_pl, float8_mi,
// float8_mul and float8_div do, keeping the first overflow, underflow or
// division by zero in err so that a computation reads as a formula.
type geoCalc struct{ err error }

func (c *geoCalc) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

func (c *geoCalc) pl(a, b float64) float64 {
	r := a + b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		c.fail(errFloatOverflow())
	}
	return r
}

func (c *geoCalc) mi(a, b float64) float64 {
	r := a - b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		c.fail(errFloatOverflow())
	}
	return r
}

func (c *geoCalc) mul(a, b float64) float64 {
	r := a * b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		c.fail(errFloatOverflow())
	}
	if r == 0 && a != 0 && b != 0 {
		c.fail(errFloatUnderflow())
	}
	return r
}

func (c *geoCalc) div(a, b float64) float64 {
	if b == 0 && !math.IsNaN(a) {
		c.fail(errDivByZero())
		return 0
	}
	r := a / b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) {
		c.fail(errFloatOverflow())
	}
	if r == 0 && a != 0 && !math.IsInf(b, 0) {
		c.fail(errFloatUnderflow())
	}
	return r
}

// hypot is pg_hypot, whose rounding differs from math.Hypot's.
func (c *geoCalc) hypot(x, y float64) float64 {
	switch {
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		return math.Inf(1)
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	}
	x, y = math.Abs(x), math.Abs(y)
	if x < y {
		x, y = y, x
	}
	if y == 0 {
		return x
	}
	yx := y / x
	r := x * math.Sqrt(1.0+yx*yx)
	if math.IsInf(r, 0) {
		c.fail(errFloatOverflow())
	}
	if r == 0 {
		c.fail(errFloatUnderflow())
	}
	return r
}

// float8Min and float8Max are float8_min and float8_max.
func float8Min(a, b float64) float64 {
	if float8Lt(a, b) {
		return a
	}
	return b
}

func float8Max(a, b float64) float64 {
	if float8Gt(a, b) {
		return a
	}
	return b
}

// float8Gt is float8_gt: NaN is greater than every other value.
func float8Gt(a, b float64) bool { return !math.IsNaN(b) && (math.IsNaN(a) || a > b) }
