package value

import (
	"math"
	"math/bits"
)

// Arithmetic and comparison of inline numerics (an int64 coefficient and a
// scale) without apd: the common case of money and quantities. Each
// reports ok=false when an operand is not inline or the exact result does
// not fit an int64, and the caller then takes the general path, which
// gives the same result.

// scaleUp returns c × 10^d, or ok=false on overflow.
func scaleUp(c int64, d int32) (int64, bool) {
	if d == 0 {
		return c, true
	}
	if d >= int32(len(pow10Small)) {
		return 0, c == 0
	}
	p := pow10Small[d]
	if p > math.MaxInt64 {
		return 0, c == 0
	}
	return mul64(c, int64(p))
}

// mul64 returns a × b, or ok=false when it overflows (or is MinInt64).
func mul64(a, b int64) (int64, bool) {
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

// alignSmall brings two inline numerics to the larger scale.
func alignSmall(a, b Value) (x, y int64, scale int32, ok bool) {
	x, sa, ok1 := a.SmallNumeric()
	y, sb, ok2 := b.SmallNumeric()
	if !ok1 || !ok2 {
		return 0, 0, 0, false
	}
	switch {
	case sa < sb:
		x, ok = scaleUp(x, sb-sa)
		return x, y, sb, ok
	case sb < sa:
		y, ok = scaleUp(y, sa-sb)
		return x, y, sa, ok
	}
	return x, y, sa, true
}

// cmpSmallNumeric compares two inline numerics.
func cmpSmallNumeric(a, b Value) (int, bool) {
	x, y, _, ok := alignSmall(a, b)
	if !ok {
		return 0, false
	}
	return cmpInt(x, y), true
}

// addSmallNumeric returns a + b (a - b when sub) at the larger scale, as
// PostgreSQL does.
func addSmallNumeric(a, b Value, sub bool) (Value, bool) {
	x, y, sc, ok := alignSmall(a, b)
	if !ok {
		return Null, false
	}
	if sub {
		if y == math.MinInt64 {
			return Null, false
		}
		y = -y
	}
	r := x + y
	if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) || r == math.MinInt64 {
		return Null, false
	}
	return newSmallNumeric(r, uint8(sc)), true
}

// mulSmallNumeric returns a × b at the sum of the scales, as PostgreSQL
// does.
func mulSmallNumeric(a, b Value) (Value, bool) {
	x, sa, ok1 := a.SmallNumeric()
	y, sb, ok2 := b.SmallNumeric()
	if !ok1 || !ok2 || sa+sb > math.MaxUint8 || sa+sb > numericMaxDisplayScale {
		return Null, false
	}
	r, ok := mul64(x, y)
	if !ok {
		return Null, false
	}
	return newSmallNumeric(r, uint8(sa+sb)), true
}
