package pgbinary

import (
	"encoding/binary"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's binary numeric (numeric_send, numeric_recv): the number
// of base-10000 digits, the weight of the first (its power of 10000),
// the sign (or NaN, ±Infinity), the display scale, then the digits, all
// 16-bit big-endian; leading and trailing zero digits are left out, and
// zero has no digit.
const (
	numericPos    = 0x0000
	numericNeg    = 0x4000
	numericNaN    = 0xC000
	numericPInf   = 0xD000
	numericNInf   = 0xF000
	numericMaxDig = 10000
	infDscale     = 32
)

// appendNumeric appends d in the binary numeric format.
func appendNumeric(buf []byte, d *apd.Decimal) []byte {
	head := func(ndigits, weight int, sign, dscale uint16) []byte {
		buf = binary.BigEndian.AppendUint16(buf, uint16(ndigits))
		buf = binary.BigEndian.AppendUint16(buf, uint16(int16(weight)))
		buf = binary.BigEndian.AppendUint16(buf, sign)
		return binary.BigEndian.AppendUint16(buf, dscale)
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return head(0, 0, numericNaN, 0)
	case apd.Infinite:
		// PostgreSQL sends the display scale its header's bits read as,
		// 32 for either infinity.
		if d.Negative {
			return head(0, 0, numericNInf, infDscale)
		}
		return head(0, 0, numericPInf, infDscale)
	}
	dscale := max(0, -int(d.Exponent))
	digits, weight := value.NumericGroups(d)
	sign := uint16(numericPos)
	if d.Negative && len(digits) > 0 {
		sign = numericNeg
	}
	if len(digits) == 0 {
		weight = 0
	}
	buf = head(len(digits), weight, sign, uint16(dscale))
	for _, g := range digits {
		buf = binary.BigEndian.AppendUint16(buf, g)
	}
	return buf
}

// numericText reads the binary numeric format as numeric_recv does and
// returns the number's text, with its display scale's digits after the
// point, as numeric_out writes it; false when the bytes are no numeric.
func numericText(b []byte) (string, bool) {
	if len(b) < 8 {
		return "", false
	}
	ndigits := int(int16(binary.BigEndian.Uint16(b)))
	weight := int(int16(binary.BigEndian.Uint16(b[2:])))
	sign := binary.BigEndian.Uint16(b[4:])
	dscale := int(binary.BigEndian.Uint16(b[6:]))
	b = b[8:]
	if ndigits < 0 || len(b) != 2*ndigits || dscale > 0x3FFF {
		return "", false
	}
	switch sign {
	case numericNaN:
		return "NaN", true
	case numericPInf:
		return "Infinity", true
	case numericNInf:
		return "-Infinity", true
	case numericPos, numericNeg:
	default:
		return "", false
	}
	digit := func(i int) (int, bool) {
		if i < 0 || i >= ndigits {
			return 0, true
		}
		d := int(binary.BigEndian.Uint16(b[2*i:]))
		return d, d < numericMaxDig
	}
	var sb strings.Builder
	if sign == numericNeg {
		sb.WriteByte('-')
	}
	if weight < 0 {
		sb.WriteByte('0')
	}
	for i := 0; i <= weight; i++ {
		d, ok := digit(i)
		if !ok {
			return "", false
		}
		s := itoa4(d)
		if i == 0 {
			s = strings.TrimLeft(s, "0")
			if s == "" {
				s = "0"
			}
		}
		sb.WriteString(s)
	}
	if dscale > 0 {
		sb.WriteByte('.')
		var frac strings.Builder
		for i := weight + 1; frac.Len() < dscale; i++ {
			d, ok := digit(i)
			if !ok {
				return "", false
			}
			frac.WriteString(itoa4(d))
		}
		sb.WriteString(frac.String()[:dscale])
	}
	for i := range ndigits { // a digit past the display scale must still be valid
		if _, ok := digit(i); !ok {
			return "", false
		}
	}
	return sb.String(), true
}

// itoa4 writes n, below 10000, as four digits.
func itoa4(n int) string {
	return string([]byte{byte('0' + n/1000), byte('0' + n/100%10), byte('0' + n/10%10), byte('0' + n%10)})
}
