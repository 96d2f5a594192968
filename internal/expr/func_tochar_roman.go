package expr

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// romanToChar is to_char(number, format) with RN or rn: the number rounded
// to an integer (a float half to even, as C's rint, other numbers half
// away from zero) in upper or lower case roman numerals, right-aligned in
// 15 characters (left without padding in fill mode); 15 #s when it is not
// between 1 and 3999. Digit positions and TH print nothing, L a blank,
// text is copied, sign patterns as PostgreSQL's sign-less RN prints them;
// a decimal point, a group separator or V with RN is refused (0A000).
func romanToChar(v value.Value, toks []numTok, fm bool) (string, error) {
	n, err := romanInt(v)
	if err != nil {
		return "", err
	}
	r := strings.Repeat("#", 15)
	if n >= 1 && n <= 3999 {
		r = roman(int(n))
	}
	if !fm {
		r = strings.Repeat(" ", 15-len(r)) + r
	}
	var sb strings.Builder
	for _, t := range toks {
		switch t.kind {
		case 'N':
			if t.lit == "rn" {
				sb.WriteString(strings.ToLower(r))
			} else {
				sb.WriteString(r)
			}
		case '9', '0', 'T':
		case 'C':
			sb.WriteByte(' ')
		case 'L':
			sb.WriteString(t.lit)
		case 'S', 'R':
			// PostgreSQL's RN leaves the number without a sign: S and
			// PR print nothing, MI and PL a blank (nothing in fill
			// mode), and SG writes the sign's NUL, which ends the text.
		case 'M', 'P':
			if !fm {
				sb.WriteByte(' ')
			}
		case 'G':
			return sb.String(), nil
		default:
			return "", pgerr.New(pgerr.FeatureNotSupported, "to_char with RN and decimal point, group separator or V patterns is not supported")
		}
	}
	return sb.String(), nil
}

// romanInt is the integer RN prints, with PostgreSQL's errors: a bigint or
// numeric outside the integer range is 22003, a numeric NaN 0A000. A float
// outside it prints #s.
func romanInt(v value.Value) (int64, error) {
	outOfRange := func() error { return pgerr.New(pgerr.NumericOutOfRange, "integer out of range") }
	switch k := v.Kind(); {
	case k.IsInteger():
		n := v.Int()
		if n < math.MinInt32 || n > math.MaxInt32 {
			return 0, outOfRange()
		}
		return n, nil
	case k.IsFloat():
		f := math.RoundToEven(v.Float())
		if math.IsNaN(f) || f < 1 || f > 3999 {
			return 0, nil
		}
		return int64(f), nil
	}
	d := v.Decimal()
	if d.Form == apd.NaN || d.Form == apd.NaNSignaling {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cannot convert NaN to integer")
	}
	if d.Form != apd.Finite {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to integer")
	}
	var r apd.Decimal
	ctx := value.DecimalContext
	ctx.Rounding = apd.RoundHalfUp
	if _, err := ctx.RoundToIntegralValue(&r, d); err != nil {
		return 0, outOfRange()
	}
	n, err := r.Int64()
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, outOfRange()
	}
	return n, nil
}

// roman writes 1 to 3999 in upper case roman numerals.
func roman(n int) string {
	var sb strings.Builder
	for _, p := range []struct {
		v int
		s string
	}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for n >= p.v {
			sb.WriteString(p.s)
			n -= p.v
		}
	}
	return sb.String()
}

// applyV removes V from a template and multiplies v by 10 to the power of
// the 9s after it, which become integer digits, as PostgreSQL does: an
// integer wraps as C's int does, a bigint out of range is 22003. V with a
// decimal point is 42601. A 0 after V is a digit position but does not
// count, as in PostgreSQL.
func applyV(toks []numTok, v value.Value) ([]numTok, value.Value, error) {
	at, multi, hasDec := -1, 0, false
	for i, t := range toks {
		switch t.kind {
		case 'V':
			if at < 0 {
				at = i
			}
		case '.':
			hasDec = true
		case '9':
			if at >= 0 {
				multi++
			}
		}
	}
	if at < 0 {
		return toks, v, nil
	}
	if hasDec {
		return nil, v, pgerr.New(pgerr.SyntaxError, "cannot use \"V\" and decimal point together")
	}
	out := make([]numTok, 0, len(toks))
	for _, t := range toks {
		if t.kind != 'V' {
			out = append(out, t)
		}
	}
	switch k := v.Kind(); {
	case k == value.Int4 || k == value.Int2:
		m := int32(1)
		for range multi {
			m *= 10
		}
		return out, value.NewInt(k, int64(int32(v.Int())*m)), nil
	case k.IsInteger():
		n := v.Int()
		for range multi {
			if n > math.MaxInt64/10 || n < math.MinInt64/10 {
				return nil, v, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
			}
			n *= 10
		}
		return out, value.NewInt(k, n), nil
	case k.IsFloat():
		return out, value.NewFloat(k, v.Float()*math.Pow(10, float64(multi))), nil
	}
	d := v.Decimal()
	if d.Form != apd.Finite {
		return out, v, nil
	}
	var r apd.Decimal
	r.Set(d)
	r.Exponent += int32(multi)
	return out, value.NewNumeric(&r), nil
}

// numOrdinal is the English ordinal suffix of a number's digits.
func numOrdinal(s string) string {
	n := len(s)
	switch {
	case n == 0:
		return ""
	case n > 1 && s[n-2] == '1':
		return "th"
	}
	switch s[n-1] {
	case '1':
		return "st"
	case '2':
		return "nd"
	case '3':
		return "rd"
	}
	return "th"
}
