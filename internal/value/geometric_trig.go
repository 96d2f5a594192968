package value

import "math/big"

// sinCos returns sin x and cos x correctly rounded, which is what the C
// library PostgreSQL calls gives (Go's math.Sin and math.Cos may be an
// ulp away, which shows in polygon(n, circle)'s output). x is small: the
// Taylor series at 128 bits converges fast enough.
func sinCos(x float64) (sin, cos float64) {
	const prec = 128
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	x2 := new(big.Float).SetPrec(prec).Mul(bx, bx)
	s := new(big.Float).SetPrec(prec).Set(bx)
	c := new(big.Float).SetPrec(prec).SetInt64(1)
	st := new(big.Float).SetPrec(prec).Set(bx)
	ct := new(big.Float).SetPrec(prec).SetInt64(1)
	d := new(big.Float).SetPrec(prec)
	for k := int64(1); k < 200; k++ {
		// ct: (-1)^k x^(2k)/(2k)!, st: (-1)^k x^(2k+1)/(2k+1)!
		ct.Mul(ct, x2)
		ct.Quo(ct, d.SetInt64(-(2*k-1)*2*k))
		st.Mul(st, x2)
		st.Quo(st, d.SetInt64(-2*k*(2*k+1)))
		c.Add(c, ct)
		s.Add(s, st)
		if ct.Sign() == 0 || ct.MantExp(nil)-c.MantExp(nil) < -prec && st.MantExp(nil)-s.MantExp(nil) < -prec {
			break
		}
	}
	sin, _ = s.Float64()
	cos, _ = c.Float64()
	return sin, cos
}
