package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// sciToChar is to_char(number, format) with EEEE, scientific notation, as
// PostgreSQL prints it: the sign or a blank, one digit, the format's
// fraction digits, e and a signed exponent of two digits or more. Integers
// and floats are printed by C's %+.*e (round half to even on the binary
// value), bigint and numeric by PostgreSQL's own routine, which fixes the
// exponent before rounding (9.99 with one fraction digit is 10.0e+00).
// NaN and infinities fill the format's width with #. Before EEEE, group
// separators, L, TH and text are dropped and sign patterns, FM, V and RN
// are 42601; nothing may follow it. ok is false when the format has no EEEE.
func sciToChar(v value.Value, f string) (s string, ok bool, err error) {
	up := strings.ToUpper(f)
	at := strings.Index(up, "EEEE")
	if at < 0 {
		return "", false, nil
	}
	syntax := func(msg string) error { return pgerr.New(pgerr.SyntaxError, "%s", msg) }
	pre, post, dec := 0, 0, false
	for i := 0; i < at; i++ {
		switch c, rest := up[i], up[i:at]; {
		case c == '9' || c == '0':
			if dec {
				post++
			} else {
				pre++
			}
		case c == '.' || c == 'D':
			if dec {
				return "", true, syntax("multiple decimal points")
			}
			dec = true
		case strings.HasPrefix(rest, "FM"), c == 'S', strings.HasPrefix(rest, "MI"), strings.HasPrefix(rest, "PL"),
			strings.HasPrefix(rest, "PR"), c == 'V', strings.HasPrefix(f[i:at], "RN"), strings.HasPrefix(f[i:at], "rn"):
			return "", true, pgerr.New(pgerr.SyntaxError, `"EEEE" is incompatible with other formats`).
				WithDetail(`"EEEE" may only be used together with digit and decimal point patterns.`)
		case strings.HasPrefix(f[i:at], "TH"), strings.HasPrefix(f[i:at], "th"):
			i++ // dropped, as L is
		case c == '"':
			// Quoted text, like group separators and other characters,
			// is dropped from scientific notation.
			if j := strings.IndexByte(up[i+1:at], '"'); j >= 0 {
				i += j + 1
			} else {
				i = at
			}
		}
	}
	switch rest := up[at+4:]; {
	case rest == "":
	case strings.HasPrefix(rest, "EEEE"):
		return "", true, syntax(`cannot use "EEEE" twice`)
	case strings.IndexAny(rest[:1], "90.D") == 0:
		return "", true, syntax(`"EEEE" must be the last pattern used`)
	case strings.ContainsAny(rest, "90.DSMPLVRTFGE,\""):
		return "", true, pgerr.New(pgerr.FeatureNotSupported, "to_char pattern %q after EEEE is not supported", f[at+4:])
	}
	special := func() string {
		b := []byte(strings.Repeat("#", pre+post+6))
		b[0], b[pre+1] = ' ', '.'
		return string(b)
	}
	switch v.Kind() {
	case value.Int8, value.Numeric:
		d := v.Decimal()
		if v.Kind() == value.Int8 {
			d = apd.New(v.Int(), 0)
		}
		if d.Form != apd.Finite {
			return special(), true, nil
		}
		return numericSci(d, post), true, nil
	}
	x := v.Float()
	if v.Kind() == value.Int4 || v.Kind() == value.Int2 {
		x = float64(v.Int())
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return special(), true, nil
	}
	s = strconv.FormatFloat(x, 'e', post, 64)
	if s[0] != '-' {
		s = " " + s
	}
	return s, true, nil
}

// numericSci is PostgreSQL's numeric_out_sci behind a blank for a
// non-negative number: the exponent of the leading digit, then the
// number over 10^exponent rounded half away from zero to scale digits.
func numericSci(d *apd.Decimal, scale int) string {
	exp := int64(0)
	if !d.IsZero() {
		exp = d.NumDigits() + int64(d.Exponent) - 1
	}
	var sig apd.Decimal
	sig.Set(d)
	sig.Exponent -= int32(exp)
	ctx := apd.BaseContext.WithPrecision(uint32(max(sig.NumDigits(), 1) + int64(scale) + 2))
	ctx.Rounding = apd.RoundHalfUp
	var r apd.Decimal
	_, _ = ctx.Quantize(&r, &sig, -int32(scale))
	s := r.Text('f')
	if r.Negative && r.IsZero() {
		s = strings.TrimPrefix(s, "-")
	}
	e := strconv.FormatInt(abs64(exp), 10)
	if len(e) < 2 {
		e = "0" + e
	}
	sign := "+"
	if exp < 0 {
		sign = "-"
	}
	s += "e" + sign + e
	if s[0] != '-' {
		s = " " + s
	}
	return s
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
