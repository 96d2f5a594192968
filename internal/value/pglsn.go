package value

import (
	"strconv"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// pg_lsn, a position in a write-ahead log: an unsigned 64-bit number,
// written as two hexadecimal halves "16/B374D848". It is held in n with
// its top bit flipped, so that comparing the signed integers (Compare,
// the ordered keys) orders positions as unsigned numbers.

// PgLSNType is pg_lsn's type.
var PgLSNType = Type{PgLSN, -1}

// NewPgLSN returns the position p.
func NewPgLSN(p uint64) Value { return Value{kind: PgLSN, n: int64(p ^ 1<<63)} }

// LSN returns a pg_lsn's position.
func (v Value) LSN() uint64 { return uint64(v.n) ^ 1<<63 }

// parsePgLSN is PostgreSQL 15's pg_lsn_in: one to eight hexadecimal
// digits, a slash, one to eight more, nothing else.
func parsePgLSN(s string) (Value, error) {
	hi, n1 := hexPrefix(s)
	if n1 == 0 || n1 > 8 || n1 >= len(s) || s[n1] != '/' {
		return Null, errSyntax(PgLSN, s)
	}
	lo, n2 := hexPrefix(s[n1+1:])
	if n2 == 0 || n2 > 8 || n1+1+n2 != len(s) {
		return Null, errSyntax(PgLSN, s)
	}
	return NewPgLSN(hi<<32 | lo), nil
}

// hexPrefix reads the hexadecimal digits s starts with (at most nine
// counted): their value and their number.
func hexPrefix(s string) (uint64, int) {
	var v uint64
	i := 0
	for ; i < len(s) && i < 9; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return v, i
		}
		v = v<<4 | uint64(c)
	}
	return v, i
}

func appendPgLSN(buf []byte, v Value) []byte {
	p := v.LSN()
	buf = appendUpperHex(buf, p>>32)
	buf = append(buf, '/')
	return appendUpperHex(buf, p&0xffffffff)
}

func appendUpperHex(buf []byte, n uint64) []byte {
	start := len(buf)
	buf = strconv.AppendUint(buf, n, 16)
	for i := start; i < len(buf); i++ {
		if c := buf[i]; c >= 'a' {
			buf[i] = c - 'a' + 'A'
		}
	}
	return buf
}

var errLSNRange = pgerr.New(pgerr.InvalidParameter, "pg_lsn out of range") // 22023, as PostgreSQL

// PgLSNDiff is a - b, pg_lsn's - operator (pg_wal_lsn_diff): a numeric,
// negative when b is past a.
func PgLSNDiff(a, b Value) Value {
	var x, y, d apd.Decimal
	x.Coeff.SetUint64(a.LSN())
	y.Coeff.SetUint64(b.LSN())
	apd.BaseContext.Sub(&d, &x, &y)
	return NewNumeric(&d)
}

// PgLSNAdd is a + n (or, sub, a - n) for a numeric n, pg_lsn's operators
// with numeric: n rounds to a whole number; NaN and a result outside
// pg_lsn's range are errors, as in PostgreSQL.
func PgLSNAdd(a, n Value, sub bool) (Value, error) {
	var buf, x apd.Decimal
	d := n.DecimalInto(&buf)
	if d.Form == apd.Infinite {
		return Null, errLSNRange
	}
	if d.Form != apd.Finite {
		what := "add NaN to"
		if sub {
			what = "subtract NaN from"
		}
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot %s pg_lsn", what)
	}
	x.Coeff.SetUint64(a.LSN())
	var r apd.Decimal
	ctx := apd.BaseContext.WithPrecision(60)
	if sub {
		ctx.Sub(&r, &x, d)
	} else {
		ctx.Add(&r, &x, d)
	}
	var w apd.Decimal
	ctx.Rounding = apd.RoundHalfUp
	if _, err := ctx.RoundToIntegralValue(&w, &r); err != nil || w.Form != apd.Finite || w.Negative && !w.IsZero() {
		return Null, errLSNRange
	}
	if w.Exponent > 0 {
		if _, err := ctx.Quantize(&w, &w, 0); err != nil {
			return Null, errLSNRange
		}
	}
	if !w.Coeff.IsUint64() {
		return Null, errLSNRange
	}
	return NewPgLSN(w.Coeff.Uint64()), nil
}

// lsnArith is pg_lsn's arithmetic: pg_lsn - pg_lsn (numeric), pg_lsn ±
// numeric and numeric + pg_lsn (pg_lsn); ok is false when neither operand
// is a pg_lsn.
func lsnArith(op byte, a, b Value) (r Value, ok bool, err error) {
	switch {
	case a.kind != PgLSN && b.kind != PgLSN:
		return Null, false, nil
	case a.kind == PgLSN && b.kind == PgLSN && op == '-':
		return PgLSNDiff(a, b), true, nil
	case a.kind == PgLSN && b.kind == Numeric:
		r, err := PgLSNAdd(a, b, op == '-')
		return r, true, err
	case b.kind == PgLSN && a.kind == Numeric && op == '+':
		r, err := PgLSNAdd(b, a, false)
		return r, true, err
	}
	return Null, true, errOperator(string(op), a, b)
}
