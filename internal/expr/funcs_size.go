package expr

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// sizeUnits are pg_size_pretty's and pg_size_bytes' units, as PostgreSQL
// 15 has them: a unit is used below its limit, rounded half away from
// zero when round is set.
var sizeUnits = []struct {
	name  string
	limit int64
	round bool
	bits  uint
}{
	{"bytes", 10 * 1024, false, 0},
	{"kB", 20*1024 - 1, true, 10},
	{"MB", 20*1024 - 1, true, 20},
	{"GB", 20*1024 - 1, true, 30},
	{"TB", 20*1024 - 1, true, 40},
	{"PB", 20*1024 - 1, true, 50},
}

// sizeShift is the bits a size is divided by between unit i and the
// next: one less when the next rounds half (which takes the last bit),
// one more when this one did.
func sizeShift(i int) uint {
	u, n := sizeUnits[i], sizeUnits[i+1]
	bits := n.bits - u.bits
	if n.round {
		bits--
	}
	if u.round {
		bits++
	}
	return bits
}

func init() {
	strict("pg_size_pretty", kinds(value.Int8), value.TextType, func(a []value.Value) (value.Value, error) {
		return text(sizePretty(a[0].Int())), nil
	})
	strict("pg_size_pretty", kinds(value.Numeric), value.TextType, func(a []value.Value) (value.Value, error) {
		s, err := sizePrettyNumeric(a[0].Decimal())
		return text(s), err
	})
	strict("pg_size_bytes", kinds(value.Text), value.Int8Type, func(a []value.Value) (value.Value, error) {
		n, err := sizeBytes(textOf(a[0]))
		return value.NewInt(value.Int8, n), err
	})
}

func sizePretty(size int64) string {
	for i, u := range sizeUnits {
		if i == len(sizeUnits)-1 || absInt64(size) < u.limit {
			if u.round {
				size = halfRounded(size)
			}
			return strconv.FormatInt(size, 10) + " " + u.name
		}
		size /= int64(1) << sizeShift(i) // truncated toward zero, as in C
	}
	return ""
}

func absInt64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func halfRounded(n int64) int64 {
	if n < 0 {
		return (n - 1) / 2
	}
	return (n + 1) / 2
}

// sizePrettyNumeric is sizePretty over numeric: a size under 10 kB is
// printed as it is, with its scale.
func sizePrettyNumeric(d *apd.Decimal) (string, error) {
	ctx := apd.BaseContext.WithPrecision(1000)
	size := new(apd.Decimal).Set(d)
	two := apd.New(2, 0)
	for i, u := range sizeUnits {
		var abs apd.Decimal
		abs.Abs(size)
		if i == len(sizeUnits)-1 || abs.Cmp(apd.New(u.limit, 0)) < 0 {
			if u.round {
				one := apd.New(1, 0)
				if size.Negative {
					one.Negative = true
				}
				if _, err := ctx.Add(size, size, one); err != nil {
					return "", err
				}
				if _, err := ctx.QuoInteger(size, size, two); err != nil {
					return "", err
				}
			}
			return size.Text('f') + " " + u.name, nil
		}
		if _, err := ctx.QuoInteger(size, size, apd.New(int64(1)<<sizeShift(i), 0)); err != nil {
			return "", err
		}
	}
	return "", nil
}

// sizeBytes reads a size with an optional unit, as pg_size_bytes.
func sizeBytes(s string) (int64, error) {
	invalid := func() *pgerr.Error { return pgerr.New(pgerr.InvalidParameter, "invalid size: %q", s) }
	str := strings.TrimLeft(s, " \t\n\r\v\f")
	end := 0
	if end < len(str) && (str[end] == '-' || str[end] == '+') {
		end++
	}
	digits := false
	for end < len(str) && str[end] >= '0' && str[end] <= '9' {
		end, digits = end+1, true
	}
	if end < len(str) && str[end] == '.' {
		end++
		for end < len(str) && str[end] >= '0' && str[end] <= '9' {
			end, digits = end+1, true
		}
	}
	if !digits {
		return 0, invalid()
	}
	if end < len(str) && (str[end] == 'e' || str[end] == 'E') {
		// An exponent only when digits follow: else the E starts a unit.
		p := end + 1
		if p < len(str) && (str[p] == '+' || str[p] == '-') {
			p++
		}
		q := p
		for q < len(str) && str[q] >= '0' && str[q] <= '9' {
			q++
		}
		if q > p {
			end = q
		}
	}
	num, _, err := apd.NewFromString(strings.TrimPrefix(str[:end], "+"))
	if err != nil {
		return 0, invalid()
	}
	unit := strings.TrimSpace(str[end:])
	if unit != "" {
		found := false
		for _, u := range sizeUnits {
			if strings.EqualFold(unit, u.name) {
				found = true
				if u.bits > 0 {
					if _, err := apd.BaseContext.WithPrecision(1000).Mul(num, num, apd.New(int64(1)<<u.bits, 0)); err != nil {
						return 0, err
					}
				}
				break
			}
		}
		if !found {
			return 0, invalid().WithDetail("Invalid size unit: %q.", unit).
				WithHint(`Valid units are "bytes", "kB", "MB", "GB", "TB", and "PB".`)
		}
	}
	// Rounded half away from zero to a bigint, as numeric's cast.
	var r apd.Decimal
	if _, err := apd.BaseContext.WithPrecision(1000).Quantize(&r, num, 0); err != nil {
		return 0, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
	}
	n, err := r.Int64()
	if err != nil {
		return 0, pgerr.New(pgerr.NumericOutOfRange, "bigint out of range")
	}
	return n, nil
}
