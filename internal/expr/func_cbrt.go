package expr

import "math"

// Cube roots as PostgreSQL computes them: cbrt() and ||/ call the C
// library's cbrt, whose results on glibc are not always the correctly
// rounded ones Go's math.Cbrt returns (cbrt(27) is 3.0000000000000004).
// To give the same answers, pgCbrt follows glibc's method step by step:
// split |x| into a mantissa m in [0.5, 1) and an exponent e, approximate
// m's cube root by a polynomial of degree 6, refine it by one step of
// Halley's iteration, scale by the cube root of 2^(e mod 3) and by
// 2^(e/3). Each operation is rounded as the C code rounds it: the
// conversions to float64 keep the compiler from fusing a multiply and an
// add, and the scale factors are divided at run time, as C divides its
// double constants.

var cbrtFactor = func() [5]float64 {
	c2, sq := float64(1.2599210498948731648), float64(1.5874010519681994748) // 2^(1/3), 2^(2/3)
	return [5]float64{1 / sq, 1 / c2, 1, c2, sq}
}()

func pgCbrt(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x + x
	}
	m, e := math.Frexp(math.Abs(x))
	u := float64(0.784932344976639262 - float64(0.145263899385486377*m))
	for _, c := range [...]float64{-1.83469277483613086, 2.44693122563534430, -2.11499494167371287, 1.50819193781584896, 0.354895765043919860} {
		u = float64(c + float64(u*m))
	}
	t2 := float64(float64(u*u) * u)
	y := float64(float64(u*float64(t2+float64(2*m)))/float64(float64(2*t2)+m)) * cbrtFactor[2+e%3]
	r := math.Ldexp(y, e/3)
	if x < 0 {
		return -r
	}
	return r
}
