package expr

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// to_char of dates and timestamps, to_date, to_timestamp and to_number:
// PostgreSQL's template patterns (value.FormatDateTime, value.ParseDateTime).
func init() {
	T := value.Text
	for _, k := range []value.Kind{value.Timestamp, value.TimestampTZ} {
		strict("to_char", kinds(k, T), value.TextType, func(a []value.Value) (value.Value, error) {
			return value.FormatDateTime(a[0], rawText(a[1]))
		})
	}
	strict("to_date", kinds(T, T), value.DateType, func(a []value.Value) (value.Value, error) {
		return value.ParseDateTime(textOf(a[0]), rawText(a[1]), value.Date)
	})
	strict("to_timestamp", kinds(T, T), value.Type{Kind: value.TimestampTZ, Mod: -1}, func(a []value.Value) (value.Value, error) {
		return value.ParseDateTime(textOf(a[0]), rawText(a[1]), value.TimestampTZ)
	})
	strict("to_timestamp", kinds(value.Float8), value.Type{Kind: value.TimestampTZ, Mod: -1}, func(a []value.Value) (value.Value, error) {
		f := a[0].Float()
		switch {
		case math.IsNaN(f):
			return value.Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp cannot be NaN")
		case math.IsInf(f, 1):
			return value.NewTimestamp(value.TimestampTZ, value.TimestampPosInfinity), nil
		case math.IsInf(f, -1):
			return value.NewTimestamp(value.TimestampTZ, value.TimestampNegInfinity), nil
		}
		// Seconds since 1970 to microseconds since 2000, rounded half to
		// even as PostgreSQL's rint rounds them.
		us := math.RoundToEven((f - 946684800) * 1e6)
		if us < -211813488000000000 || us >= 9223371331200000000 {
			return value.Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range: \"%g\"", f)
		}
		return value.NewTimestamp(value.TimestampTZ, int64(us)), nil
	})
	strict("to_number", kinds(T, T), value.NumericType, func(a []value.Value) (value.Value, error) {
		return toNumber(textOf(a[0]), rawText(a[1]))
	})
}

// toNumber reads s by the numeric template f, as PostgreSQL's to_number:
// each digit position takes a digit (or skips a blank), the decimal point
// takes a '.', a group separator a ',', a sign position or a digit
// position a '-' or '+', PR angle brackets; other characters of the
// template skip one character, L (the currency symbol) one and TH two that
// are not digits, signs, decimal points or commas; V reads nothing and
// multiplies the number by 10 to the power of minus the 9s after it. Reading stops where the template ends, so
// to_number('1.555', '9.99') is 1.55.
func toNumber(s, f string) (value.Value, error) {
	toks, _, err := parseNumFormat(f)
	if err != nil {
		return value.Null, err
	}
	for _, t := range toks {
		switch t.kind {
		case 'N':
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "\"RN\" not supported for input")
		}
	}
	multi := -1 // the 9s after V; -1 without V
	for _, t := range toks {
		switch {
		case t.kind == 'V' && multi < 0:
			multi = 0
		case t.kind == '9' && multi >= 0:
			multi++
		}
	}
	if multi >= 0 && hasDecimal(toks) {
		return value.Null, pgerr.New(pgerr.SyntaxError, "cannot use \"V\" and decimal point together")
	}
	var b strings.Builder
	neg, intDigits, fmtInt, dec := false, 0, 0, false
	i := 0
	sign := func() bool {
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			neg = neg || s[i] == '-'
			i++
			return true
		}
		return false
	}
	for _, t := range toks {
		if i >= len(s) {
			break
		}
		switch t.kind {
		case '9', '0':
			if !dec {
				fmtInt++
			}
			if s[i] == '<' {
				neg = true
				i++
			}
			sign()
			if i < len(s) && s[i] >= '0' && s[i] <= '9' {
				b.WriteByte(s[i])
				if !dec {
					intDigits++
				}
				i++
			} else if i < len(s) && s[i] == ' ' {
				i++
			}
		case '.':
			dec = true
			if s[i] == '.' {
				b.WriteByte('.')
				i++
			}
		case ',':
			if s[i] == ',' {
				i++
			}
		case 'S', 'M', 'P', 'G':
			sign()
		case 'R':
			if s[i] == '>' {
				i++
			}
		case 'C', 'T':
			// L skips one character, TH two, unless they are data.
			n := 1
			if t.kind == 'T' {
				n = 2
			}
			for ; n > 0 && i < len(s) && !strings.ContainsRune("0123456789+-.,", rune(s[i])); n-- {
				i++
			}
		default:
			i += len(t.lit)
		}
	}
	if i < len(s) && (s[i] == '-' || s[i] == '>') {
		neg = neg || s[i] == '-'
	}
	digits := strings.TrimRight(b.String(), ".")
	if strings.Trim(digits, ".") == "" {
		return value.Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type numeric: \" \"")
	}
	if trimmed := strings.TrimLeft(digits[:intDigits], "0"); len(trimmed) > fmtInt {
		return value.Null, pgerr.New(pgerr.NumericOutOfRange, "numeric field overflow")
	}
	if neg {
		digits = "-" + digits
	}
	n, err := value.Parse(digits, value.NumericType)
	if err != nil || multi < 0 {
		return n, err
	}
	// V multiplies by 10 to the power of minus its 9s, as PostgreSQL's
	// numeric power gives it: with 16 fraction digits (0 beyond them).
	var p apd.Decimal
	if multi <= 16 {
		p.Coeff.Exp(apd.NewBigInt(10), apd.NewBigInt(int64(16-multi)), nil)
	}
	p.Exponent = -16
	return value.Mul(n, value.NewNumeric(&p))
}

func hasDecimal(toks []numTok) bool {
	for _, t := range toks {
		if t.kind == '.' {
			return true
		}
	}
	return false
}
