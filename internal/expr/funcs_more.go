package expr

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// More of PostgreSQL's functions on the supported types: trigonometry and
// logarithms of double precision, integer division helpers, a few string
// functions, and the operators ^, |/, ||/, @ and the bitwise ones on
// integers, registered under their symbols (the binder calls them for the
// operators).
func init() {
	F8, T, I4 := value.Float8, value.Text, value.Int4
	f1 := func(name string, f func(float64) float64) {
		strict(name, kinds(F8), value.Float8Type, floatFn(f))
	}
	domain := func(name string, lo, hi float64, f func(float64) float64) {
		strict(name, kinds(F8), value.Float8Type, floatErrFn(func(x float64) (float64, error) {
			if x < lo || x > hi {
				return 0, pgerr.New(pgerr.NumericOutOfRange, "input is out of range")
			}
			return f(x), nil
		}))
	}
	// As PostgreSQL: an infinite angle is out of range (NaN stays NaN).
	trig := func(name string, f func(float64) float64) {
		strict(name, kinds(F8), value.Float8Type, floatErrFn(func(x float64) (float64, error) {
			if math.IsInf(x, 0) {
				return 0, pgerr.New(pgerr.NumericOutOfRange, "input is out of range")
			}
			return f(x), nil
		}))
	}
	trig("sin", cSin)
	trig("cos", cCos)
	trig("tan", cTan)
	trig("cot", func(x float64) float64 { return 1 / cTan(x) })
	domain("asin", -1, 1, cAsin)
	domain("acos", -1, 1, cAcos)
	f1("atan", cAtan)
	strict("atan2", kinds(F8, F8), value.Float8Type, func(a []value.Value) (value.Value, error) {
		return float8(cAtan2(a[0].Float(), a[1].Float())), nil
	})
	// As PostgreSQL: divided and multiplied by RADIANS_PER_DEGREE.
	// float8_div's and float8_mul's checks: a finite angle whose result
	// overflows, or a non-zero one whose result underflows, is an error.
	strict("degrees", kinds(F8), value.Float8Type, floatErrFn(func(x float64) (float64, error) {
		r := x / radiansPerDegree
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return 0, pgerr.New(pgerr.NumericOutOfRange, "value out of range: overflow")
		}
		return r, nil
	}))
	strict("radians", kinds(F8), value.Float8Type, floatErrFn(func(x float64) (float64, error) {
		r := x * radiansPerDegree
		if r == 0 && x != 0 {
			return 0, pgerr.New(pgerr.NumericOutOfRange, "value out of range: underflow")
		}
		return r, nil
	}))
	f1("cbrt", pgCbrt)
	strict("||/", kinds(F8), value.Float8Type, floatFn(pgCbrt))
	register(&FuncDef{Name: "pi", Params: kinds(), Result: value.Float8Type, Eval: func([]value.Value) (value.Value, error) {
		return float8(math.Pi), nil
	}})
	logOf := func(x float64) (float64, error) {
		switch {
		case x == 0:
			return 0, pgerr.New(codeInvalidLog, "cannot take logarithm of zero")
		case x < 0:
			return 0, pgerr.New(codeInvalidLog, "cannot take logarithm of a negative number")
		}
		return cLog10(x), nil
	}
	strict("log", kinds(F8), value.Float8Type, floatErrFn(logOf), "log10")
	for _, k := range []value.Kind{value.Int2, value.Int4, value.Int8} {
		t := plain(k)
		bin := func(op string, f func(x, y int64) int64) {
			strict(op, kinds(k, k), t, func(a []value.Value) (value.Value, error) {
				return value.NewInt(k, f(a[0].Int(), a[1].Int())), nil
			})
		}
		bin("&", func(x, y int64) int64 { return x & y })
		bin("|", func(x, y int64) int64 { return x | y })
		bin("#", func(x, y int64) int64 { return x ^ y })
		// A smallint is shifted as C's int, 32 bits wide, then cut
		// to 16 bits: 2::int2 << 29 is 0.
		bits := map[value.Kind]uint{value.Int2: 32, value.Int4: 32, value.Int8: 64}[k]
		shift := func(op string, left bool) {
			strict(op, kinds(k, I4), t, func(a []value.Value) (value.Value, error) {
				// PostgreSQL shifts by the count modulo the width, as C on
				// its platforms does, and keeps the type's width.
				n, c := a[0].Int(), uint(a[1].Int())%bits
				var r int64
				if left {
					r = n << c
				} else {
					r = n >> c
				}
				switch k {
				case value.Int2:
					r = int64(int16(r))
				case value.Int4:
					r = int64(int32(r))
				}
				return value.NewInt(k, r), nil
			})
		}
		shift("<<", true)
		shift(">>", false)
		strict("~", kinds(k), t, func(a []value.Value) (value.Value, error) { return value.NewInt(k, ^a[0].Int()), nil })
		gcd := func(x, y int64) (int64, error) {
			for y != 0 {
				x, y = y, x%y
			}
			if x < 0 {
				if x == math.MinInt64 || k == value.Int4 && x == math.MinInt32 {
					return 0, pgerr.New(pgerr.NumericOutOfRange, "%s out of range", map[value.Kind]string{value.Int4: "integer", value.Int8: "bigint"}[k])
				}
				x = -x
			}
			return x, nil
		}
		if k != value.Int2 {
			strict("gcd", kinds(k, k), t, func(a []value.Value) (value.Value, error) {
				g, err := gcd(a[0].Int(), a[1].Int())
				return value.NewInt(k, g), err
			})
			strict("lcm", kinds(k, k), t, func(a []value.Value) (value.Value, error) {
				x, y := a[0].Int(), a[1].Int()
				if x == 0 || y == 0 {
					return value.NewInt(k, 0), nil
				}
				g, err := gcd(x, y)
				if err != nil {
					return value.Null, err
				}
				r := x / g * y
				if r/y != x/g || k == value.Int4 && r != int64(int32(r)) {
					return value.Null, pgerr.New(pgerr.NumericOutOfRange, "%s out of range", map[value.Kind]string{value.Int4: "integer", value.Int8: "bigint"}[k])
				}
				if r < 0 {
					r = -r
				}
				return value.NewInt(k, r), nil
			})
		}
	}
	strict("split_part", kinds(T, T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
		s, sep, n := rawText(a[0]), rawText(a[1]), a[2].Int()
		if n == 0 {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "field position must not be zero")
		}
		var parts []string
		if sep == "" {
			parts = []string{s}
		} else {
			parts = strings.Split(s, sep)
		}
		if n < 0 {
			n += int64(len(parts)) + 1
		}
		if n < 1 || n > int64(len(parts)) {
			return value.NewText(value.Text, ""), nil
		}
		return value.NewText(value.Text, parts[n-1]), nil
	})
	strict("translate", kinds(T, T, T), value.TextType, func(a []value.Value) (value.Value, error) {
		from, to := []rune(rawText(a[1])), []rune(rawText(a[2]))
		var sb strings.Builder
		for _, r := range rawText(a[0]) {
			i := -1
			for j, f := range from {
				if f == r {
					i = j
					break
				}
			}
			switch {
			case i < 0:
				sb.WriteRune(r)
			case i < len(to):
				sb.WriteRune(to[i])
			}
		}
		return value.NewText(value.Text, sb.String()), nil
	})
	strict("ascii", kinds(T), value.Int4Type, func(a []value.Value) (value.Value, error) {
		r, _ := utf8.DecodeRuneInString(rawText(a[0]))
		if rawText(a[0]) == "" {
			r = 0
		}
		return value.NewInt(value.Int4, int64(r)), nil
	})
	strict("chr", kinds(I4), value.TextType, func(a []value.Value) (value.Value, error) {
		n := a[0].Int()
		switch {
		case n < 0:
			return value.Null, pgerr.New(pgerr.InvalidParameter, "character number must be positive")
		case n == 0:
			return value.Null, pgerr.New(pgerr.ProgramLimitExceeded, "null character not permitted")
		case n > utf8.MaxRune:
			return value.Null, pgerr.New(pgerr.ProgramLimitExceeded, "requested character too large for encoding: %d", n)
		case n >= 0xD800 && n <= 0xDFFF:
			return value.Null, pgerr.New(pgerr.ProgramLimitExceeded, "requested character not valid for encoding: %d", n)
		}
		return value.NewText(value.Text, string(rune(n))), nil
	})
}

func init() {
	T, I4 := value.Text, value.Int4
	quoteLit := func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, quoteLiteral(value.AppendText(nil, a[0]))), nil
	}
	strict("quote_literal", kinds(T), value.TextType, quoteLit)
	strict("quote_literal", kinds(value.Unknown), value.TextType, quoteLit)
	quoteNullable := func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.NewText(value.Text, "NULL"), nil
		}
		return quoteLit(a)
	}
	register(&FuncDef{Name: "quote_nullable", Params: kinds(T), Result: value.TextType, Eval: quoteNullable})
	register(&FuncDef{Name: "quote_nullable", Params: kinds(value.Unknown), Result: value.TextType, Eval: quoteNullable})
	strict("quote_ident", kinds(T), value.TextType, func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, quoteIdent(textOf(a[0]))), nil
	})
	overlay := func(a []value.Value) (value.Value, error) {
		s, r := []rune(rawText(a[0])), rawText(a[1])
		from := a[2].Int()
		n := int64(utf8.RuneCountInString(r))
		if len(a) > 3 {
			n = a[3].Int()
		}
		// A negative n repeats a part, as PostgreSQL's text_overlay.
		head, tail, err := overlayBounds(int64(len(s)), from, n)
		if err != nil {
			return value.Null, err
		}
		return value.NewText(value.Text, string(s[:head])+r+string(s[tail:])), nil
	}
	strict("overlay", kinds(T, T, I4), value.TextType, overlay)
	strict("overlay", kinds(T, T, I4, I4), value.TextType, overlay)
}

// expandReplacement writes regexp_replace's replacement for the match m
// of src: \1 … \9 are the groups, \& the whole match, \\ a backslash.
func expandReplacement(sb *strings.Builder, src, repl string, m []int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 == len(repl) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch d := repl[i]; {
		case d >= '1' && d <= '9':
			g := int(d - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				sb.WriteString(src[m[2*g]:m[2*g+1]])
			}
		case d == '&':
			sb.WriteString(src[m[0]:m[1]])
		case d == '\\':
			sb.WriteByte('\\')
		default:
			sb.WriteByte('\\')
			sb.WriteByte(d)
		}
	}
}

func init() {
	N, F8, I4 := value.Numeric, value.Float8, value.Int4
	strict("scale", kinds(N), value.Int4Type, func(a []value.Value) (value.Value, error) {
		d := a[0].Decimal()
		if d.Form != apd.Finite {
			return value.Null, nil
		}
		return value.NewInt(value.Int4, int64(max(-d.Exponent, 0))), nil
	})
	strict("min_scale", kinds(N), value.Int4Type, func(a []value.Value) (value.Value, error) {
		d := a[0].Decimal()
		if d.Form != apd.Finite {
			return value.Null, nil
		}
		var r apd.Decimal
		r.Reduce(d)
		return value.NewInt(value.Int4, int64(max(-r.Exponent, 0))), nil
	})
	strict("trim_scale", kinds(N), value.NumericType, func(a []value.Value) (value.Value, error) {
		d := a[0].Decimal()
		if d.Form != apd.Finite {
			return a[0], nil
		}
		r := new(apd.Decimal)
		r.Reduce(d)
		if r.Exponent > 0 {
			// Whole numbers keep their digits: 100, not 1E+2.
			ctx := value.DecimalContext
			ctx.Precision = uint32(r.NumDigits()+int64(r.Exponent)) + 1
			if _, err := ctx.Quantize(r, r, 0); err != nil {
				return value.Null, err
			}
		}
		return value.NewNumeric(r), nil
	})
	strict("width_bucket", kinds(F8, F8, F8, I4), value.Int4Type, func(a []value.Value) (value.Value, error) {
		x, lo, hi, n := a[0].Float(), a[1].Float(), a[2].Float(), a[3].Int()
		switch {
		case n <= 0:
			return value.Null, pgerr.New("2201G", "count must be greater than zero")
		case lo == hi:
			return value.Null, pgerr.New("2201G", "lower bound cannot equal upper bound")
		case math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi):
			return value.Null, pgerr.New("2201G", "operand, lower bound, and upper bound cannot be NaN")
		case math.IsInf(lo, 0) || math.IsInf(hi, 0):
			return value.Null, pgerr.New("2201G", "lower and upper bounds must be finite")
		}
		var b int64
		switch {
		case lo < hi && x < lo, lo > hi && x > lo:
			b = 0
		case lo < hi && x >= hi, lo > hi && x <= hi:
			b = n + 1
		case lo < hi:
			b = min(int64(float64(n)*((x-lo)/(hi-lo)))+1, n) // n: rounding at the top edge
		default:
			b = min(int64(float64(n)*((lo-x)/(lo-hi)))+1, n)
		}
		if b > math.MaxInt32 {
			return value.Null, pgerr.New(pgerr.NumericOutOfRange, "integer out of range")
		}
		return value.NewInt(value.Int4, b), nil
	})
}
