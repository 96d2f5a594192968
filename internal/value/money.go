package value

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// money is PostgreSQL's currency amount under lc_monetary 'C': an int64
// count of cents (two fractional digits), held inline and ordered as its
// integer, printed as $1,234.56 or -$1,234.56.

// MoneyType is money, which takes no modifier.
var MoneyType = Type{Money, -1}

// moneyScale is the number of cents in a unit: C's frac_digits, which is
// unset, taken as 2 as PostgreSQL's cash.c does.
const moneyScale = 100

// NewMoney returns the amount of cents given.
func NewMoney(cents int64) Value { return Value{kind: Money, n: cents} }

func errMoneyRange() error { return pgerr.New(pgerr.NumericOutOfRange, "money out of range") }

func errMoneyInputRange(s string) error {
	return pgerr.New(pgerr.NumericOutOfRange, "value \"%s\" is out of range for type money", s)
}

// parseMoney is PostgreSQL's cash_in in the C locale: blanks, a currency
// sign $ and a sign (+, - or an opening parenthesis) around the digits,
// commas ignored among them, digits past the cents rounding half away
// from zero, and after them only blanks, ')', signs and $. The amount is
// built negative so that the most negative one fits.
func parseMoney(str string) (Value, error) {
	s := skipMoneyPrefix(str, "$")
	neg := false
	switch {
	case strings.HasPrefix(s, "-"), strings.HasPrefix(s, "("):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	s = skipMoneyPrefix(s, "$")
	var v int64
	dec, dot := 0, false
	for ; s != ""; s = s[1:] {
		c := s[0]
		switch {
		case isDigit(c) && (!dot || dec < 2):
			if v < (math.MinInt64+int64(c-'0'))/10 {
				return Null, errMoneyInputRange(str)
			}
			v = v*10 - int64(c-'0')
			if dot {
				dec++
			}
			continue
		case c == '.' && !dot:
			dot = true
			continue
		case c == ',':
			continue
		}
		break
	}
	if s != "" && s[0] >= '5' && s[0] <= '9' {
		if v == math.MinInt64 {
			return Null, errMoneyInputRange(str)
		}
		v--
	}
	for ; dec < 2; dec++ {
		if v < math.MinInt64/10 {
			return Null, errMoneyInputRange(str)
		}
		v *= 10
	}
	s = strings.TrimLeft(s, "0123456789")
	for s != "" {
		switch s[0] {
		case ' ', '\t', '\n', '\r', '\v', '\f', ')', '+', '$':
		case '-':
			neg = true
		default:
			return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type money: \"%s\"", str)
		}
		s = s[1:]
	}
	if !neg {
		if v == math.MinInt64 {
			return Null, errMoneyInputRange(str)
		}
		v = -v
	}
	return NewMoney(v), nil
}

// skipMoneyPrefix skips blanks, the currency sign sym, and blanks again.
func skipMoneyPrefix(s, sym string) string {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	s = strings.TrimPrefix(s, sym)
	return strings.TrimLeft(s, " \t\n\r\v\f")
}

// appendMoney is PostgreSQL's cash_out in the C locale: the sign, $, the
// units with a comma every three digits, a point and the cents. The most
// negative amount prints as its unsigned magnitude.
func appendMoney(buf []byte, v Value) []byte {
	n := uint64(v.n)
	if v.n < 0 {
		buf = append(buf, '-')
		n = -n
	}
	buf = append(buf, '$')
	units := strconv.AppendUint(nil, n/moneyScale, 10)
	for i, d := range units {
		if i > 0 && (len(units)-i)%3 == 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, d)
	}
	cents := n % moneyScale
	return append(buf, '.', byte('0'+cents/10), byte('0'+cents%10))
}

// MoneyCast reports whether PostgreSQL has a cast from one kind to the
// other through money: numeric to and from it, int4 and int8 to it, all
// in assignment (never implicitly).
func MoneyCast(from, to Kind) bool {
	switch {
	case to == Money:
		return from == Numeric || from == Int4 || from == Int8
	case from == Money:
		return to == Numeric
	}
	return false
}

// convertMoney is a cast of MoneyCast: numeric_cash rounds to the cent
// half away from zero and fails beyond bigint as numeric_int8 does,
// int4_cash and int8_cash multiply as bigints, cash_numeric is exact at
// two digits.
func convertMoney(v Value, to Kind) (Value, error) {
	switch v.kind {
	case Money:
		return newSmallNumeric(v.n, 2), nil
	case Numeric:
		var buf, d apd.Decimal
		_, _ = DecimalContext.Mul(&d, v.DecimalInto(&buf), apd.New(moneyScale, 0))
		r, err := numericToInt(&d, Int8)
		if err != nil {
			return Null, err
		}
		return NewMoney(r.n), nil
	}
	c, ok := mulInt64(v.n, moneyScale)
	if !ok {
		return Null, errIntRange(Int8)
	}
	return NewMoney(c), nil
}

// mulInt64 returns a × b and whether it fits an int64.
func mulInt64(a, b int64) (int64, bool) {
	r := a * b
	if (a != 0 && (r/a != b || (a == -1 && b == math.MinInt64))) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return r, true
}

// moneyArith is the arithmetic of PostgreSQL 15's money operators, when an
// operand is money (ok is false otherwise): money ± money, money × or ÷ an
// integer or a float (a float or an integer × money too), money ÷ money
// (a double precision). Sums and products out of range are 22003, as are
// products and quotients by floats that round outside int64; dividing the
// most negative amount by -1 traps, as PostgreSQL's integer division does.
func moneyArith(op byte, a, b Value) (r Value, ok bool, err error) {
	if a.kind != Money && b.kind != Money {
		return Null, false, nil
	}
	if a.kind != Money {
		a, b = b, a // int × money, float × money
	}
	switch {
	case op == '+' && b.kind == Money:
		s := a.n + b.n
		if (a.n >= 0) == (b.n >= 0) && (s >= 0) != (a.n >= 0) {
			return Null, true, errMoneyRange()
		}
		return NewMoney(s), true, nil
	case op == '-' && b.kind == Money:
		s := a.n - b.n
		if (a.n >= 0) != (b.n >= 0) && (s >= 0) != (a.n >= 0) {
			return Null, true, errMoneyRange()
		}
		return NewMoney(s), true, nil
	case op == '/' && b.kind == Money:
		if b.n == 0 {
			return Null, true, errDivByZero()
		}
		return NewFloat(Float8, float64(a.n)/float64(b.n)), true, nil
	case op == '*' && b.kind.IsInteger():
		p, fits := mulInt64(a.n, b.n)
		if !fits {
			return Null, true, errMoneyRange()
		}
		return NewMoney(p), true, nil
	case op == '/' && b.kind.IsInteger():
		switch {
		case b.n == 0:
			return Null, true, errDivByZero()
		case b.n == -1 && a.n == math.MinInt64:
			return Null, true, errFloatingPointException()
		}
		return NewMoney(a.n / b.n), true, nil
	case (op == '*' || op == '/') && b.kind.IsFloat():
		r, err := moneyFloat(op, a.n, b.Float())
		return r, true, err
	}
	return Null, true, errOperator(string(op), a, b)
}

// moneyFloat is cash_mul_float8 and cash_div_float8: the product or
// quotient as double precision, with float8_mul's and float8_div's checks,
// rounded half to even, 22003 unless it fits an int64.
func moneyFloat(op byte, c int64, f float64) (Value, error) {
	x := float64(c)
	var r float64
	if op == '*' {
		r = x * f
		if math.IsInf(r, 0) && !math.IsInf(f, 0) {
			return Null, errFloatOverflow()
		}
		if r == 0 && x != 0 && f != 0 {
			return Null, errFloatUnderflow()
		}
	} else {
		if f == 0 {
			return Null, errDivByZero()
		}
		r = x / f
		if math.IsInf(r, 0) {
			return Null, errFloatOverflow()
		}
		if r == 0 && x != 0 && !math.IsInf(f, 0) {
			return Null, errFloatUnderflow()
		}
	}
	r = math.RoundToEven(r)
	if math.IsNaN(r) || r < math.MinInt64 || r >= -math.MinInt64 {
		return Null, errMoneyRange()
	}
	return NewMoney(int64(r)), nil
}

func errFloatingPointException() error {
	return &pgerr.Error{Code: "22P01", Message: "floating-point exception",
		Detail: "An invalid floating-point operation was signaled. This probably means an out-of-range result or an invalid operation, such as division by zero."}
}

// MoneyWords is PostgreSQL's cash_words: the amount in English words,
// "One hundred twenty three dollars and forty five cents", a negative one
// after "Minus".
func MoneyWords(v Value) string {
	var b strings.Builder
	n := uint64(v.n)
	if v.n < 0 {
		b.WriteString("minus ")
		n = -n
	}
	start := b.Len()
	for _, g := range []struct {
		div  uint64
		name string
	}{{100000000000000000, " quadrillion "}, {100000000000000, " trillion "}, {100000000000, " billion "},
		{100000000, " million "}, {100000, " thousand "}} {
		if m := n / g.div % 1000; m != 0 {
			b.WriteString(numWord(m))
			b.WriteString(g.name)
		}
	}
	if m := n / 100 % 1000; m != 0 {
		b.WriteString(numWord(m))
	}
	if b.Len() == start {
		b.WriteString("zero")
	}
	if n/100 == 1 {
		b.WriteString(" dollar and ")
	} else {
		b.WriteString(" dollars and ")
	}
	b.WriteString(numWord(n % 100))
	if n%100 == 1 {
		b.WriteString(" cent")
	} else {
		b.WriteString(" cents")
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

var smallWords = [...]string{
	"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
	"fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
	"thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
}

// numWord is cash.c's num_word, for 0 to 999, with its "hundred and" only
// before a number under twenty.
func numWord(v uint64) string {
	tens := smallWords[18:] // tens[2] is "twenty"
	tu := v % 100
	switch {
	case v <= 20:
		return smallWords[v]
	case tu == 0:
		return smallWords[v/100] + " hundred"
	}
	var low string
	switch {
	case v%10 == 0 && tu > 10:
		low = tens[tu/10]
	case tu < 20:
		low = smallWords[tu]
		if v > 99 {
			low = "and " + low
		}
	default:
		low = tens[tu/10] + " " + smallWords[tu%10]
	}
	if v > 99 {
		return smallWords[v/100] + " hundred " + low
	}
	return low
}
