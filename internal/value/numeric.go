package value

import (
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// DecimalContext is the apd context for exact numeric arithmetic: no
// rounding (precision 0) for Add, Sub and Mul, so results keep PostgreSQL's
// scales (the sum of two scale-2 values has scale 2). Operations that round
// (division, typmods) do so explicitly with PostgreSQL's rules.
var DecimalContext = apd.Context{
	Precision:   0,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Traps:       apd.DefaultTraps,
}

// PostgreSQL's numeric storage limits: digits before the decimal point and
// the display scale.
const (
	numericMaxWeightDigits = 131072
	numericMaxDscale       = 16383
	numericMaxResultScale  = 2000
	numericMaxDisplayScale = 1000
	numericMinSigDigits    = 16
)

var (
	decNaN    = &apd.Decimal{Form: apd.NaN}
	decPosInf = &apd.Decimal{Form: apd.Infinite}
	decNegInf = &apd.Decimal{Form: apd.Infinite, Negative: true}
	decZero   = &apd.Decimal{}
)

// errNumericOverflow is PostgreSQL's error for a numeric beyond its storage
// format.
func errNumericOverflow() error {
	return pgerr.New(pgerr.NumericOutOfRange, "value overflows numeric format")
}

// pow10Small holds 10^0 … 10^19, the powers that fit a uint64.
var pow10Small = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// setPow10 sets z to 10^n (n >= 0).
func setPow10(z *apd.BigInt, n int64) *apd.BigInt {
	if n < int64(len(pow10Small)) {
		return z.SetUint64(pow10Small[n])
	}
	var ten, e apd.BigInt
	ten.SetInt64(10)
	e.SetInt64(n)
	return z.Exp(&ten, &e, nil)
}

// numScale is a finite numeric's display scale: its digits after the point.
func numScale(d *apd.Decimal) int64 {
	if d.Exponent < 0 {
		return -int64(d.Exponent)
	}
	return 0
}

// isSpecial reports whether d is NaN or an infinity.
func isSpecial(d *apd.Decimal) bool { return d.Form != apd.Finite }

// normNumeric brings a numeric into PostgreSQL's form and checks its limits:
// no positive exponent (PostgreSQL keeps integers at scale 0), no negative
// zero, at most 131072 integer digits and a scale of at most 16383. d is
// modified in place; it must be freshly made by the caller.
func normNumeric(d *apd.Decimal) (*apd.Decimal, error) {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return decNaN, nil
	case apd.Infinite:
		if d.Negative {
			return decNegInf, nil
		}
		return decPosInf, nil
	}
	if d.Exponent < -numericMaxDscale {
		return nil, errNumericOverflow()
	}
	if d.Coeff.Sign() == 0 {
		d.Negative = false
		if d.Exponent > 0 {
			d.Exponent = 0
		}
		return d, nil
	}
	if d.Coeff.Sign() < 0 {
		d.Coeff.Neg(&d.Coeff)
		d.Negative = !d.Negative
	}
	if d.NumDigits()+int64(d.Exponent) > numericMaxWeightDigits {
		return nil, errNumericOverflow()
	}
	if d.Exponent > 0 {
		var p apd.BigInt
		d.Coeff.Mul(&d.Coeff, setPow10(&p, int64(d.Exponent)))
		d.Exponent = 0
	}
	return d, nil
}

// rescale returns finite x with exactly scale digits after the point,
// rounding half away from zero, or truncating toward zero when trunc is set.
// A negative scale rounds to tens, hundreds, …; the result is then brought
// back to scale 0 by normNumeric's caller.
func rescale(x *apd.Decimal, scale int64, trunc bool) *apd.Decimal {
	r := new(apd.Decimal)
	r.Negative = x.Negative
	shift := int64(x.Exponent) + scale // digits to add (>0) or drop (<0)
	var p apd.BigInt
	switch {
	case shift >= 0:
		r.Coeff.Mul(&x.Coeff, setPow10(&p, shift))
	case -shift > x.NumDigits():
		// Every digit is dropped and the first dropped one is zero.
		r.Coeff.SetInt64(0)
	default:
		var rem apd.BigInt
		setPow10(&p, -shift)
		r.Coeff.QuoRem(&x.Coeff, &p, &rem)
		if !trunc {
			rem.Add(&rem, &rem)
			if rem.Cmp(&p) >= 0 {
				r.Coeff.Add(&r.Coeff, apd.NewBigInt(1))
			}
		}
	}
	r.Exponent = int32(-scale)
	return r
}

// newNumericInt returns n as a numeric of scale 0.
func newNumericInt(n int64) Value {
	d := new(apd.Decimal)
	d.SetInt64(n)
	d, _ = normNumeric(d)
	return NewNumeric(d)
}

// NumericGroups are the base-10000 digits of the finite d's magnitude,
// as PostgreSQL's numeric stores them, without leading and trailing zero
// groups, and the weight of the first (the power of 10000 it stands for);
// none for zero.
func NumericGroups(d *apd.Decimal) (groups []uint16, weight int) {
	c := d.Coeff.String()
	exp := int(d.Exponent)
	// The digits before and after the point, each padded to whole
	// groups of four.
	var ip, fp string
	switch {
	case exp >= 0:
		ip = c + strings.Repeat("0", exp)
	case len(c) > -exp:
		ip, fp = c[:len(c)+exp], c[len(c)+exp:]
	default:
		fp = strings.Repeat("0", -exp-len(c)) + c
	}
	if r := len(ip) % 4; r != 0 {
		ip = strings.Repeat("0", 4-r) + ip
	}
	if r := len(fp) % 4; r != 0 {
		fp += strings.Repeat("0", 4-r)
	}
	all := ip + fp
	weight = len(ip)/4 - 1
	groups = make([]uint16, len(all)/4)
	for i := range groups {
		for _, ch := range all[4*i : 4*i+4] {
			groups[i] = groups[i]*10 + uint16(ch-'0')
		}
	}
	for len(groups) > 0 && groups[0] == 0 {
		groups, weight = groups[1:], weight-1
	}
	for len(groups) > 0 && groups[len(groups)-1] == 0 {
		groups = groups[:len(groups)-1]
	}
	return groups, weight
}
