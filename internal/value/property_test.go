package value

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// genValue draws a value of kind k (NULL one time in ten), including the
// awkward ones: NaNs, -0, infinities, unnormalized numerics, NUL bytes and
// trailing spaces.
func genValue(k Kind) *rapid.Generator[Value] {
	return rapid.Custom(func(t *rapid.T) Value {
		if rapid.IntRange(0, 9).Draw(t, "null") == 0 {
			return Null
		}
		switch k {
		case Bool:
			return NewBool(rapid.Bool().Draw(t, "b"))
		case Int2, Int4, Int8:
			lo, hi := intRange(k)
			return NewInt(k, rapid.Int64Range(lo, hi).Draw(t, "n"))
		case Float4:
			f := math.Float32frombits(rapid.Uint32().Draw(t, "bits"))
			return NewFloat(Float4, float64(rapid.SampledFrom([]float32{f, 0, float32(math.Copysign(0, -1)), 1, 1.5}).Draw(t, "f")))
		case Float8:
			f := math.Float64frombits(rapid.Uint64().Draw(t, "bits"))
			return NewFloat(Float8, rapid.SampledFrom([]float64{f, 0, math.Copysign(0, -1), 1, 1.5, math.NaN(), math.Inf(-1)}).Draw(t, "f"))
		case Numeric:
			switch rapid.IntRange(0, 9).Draw(t, "form") {
			case 0:
				return NewNumeric(decNaN)
			case 1:
				return NewNumeric(decPosInf)
			case 2:
				return NewNumeric(decNegInf)
			}
			d := new(apd.Decimal)
			digits := rapid.StringMatching(`[0-9]{1,30}`).Draw(t, "digits")
			d.Coeff.SetString(digits, 10)
			d.Exponent = int32(rapid.IntRange(-25, 5).Draw(t, "exp"))
			d.Negative = rapid.Bool().Draw(t, "neg")
			return NewNumeric(d) // deliberately not normalized
		case Text, Varchar, Char:
			return NewText(k, rapid.StringOfN(rapid.SampledFrom([]rune{0, ' ', 'a', 'b', 0xff, 'é'}), 0, 6, -1).Draw(t, "s"))
		case Date:
			return NewDate(rapid.SampledFrom([]int64{rapid.Int64Range(minDate, endDate-1).Draw(t, "d"), DateNegInfinity, DatePosInfinity}).Draw(t, "date"))
		case Bytea, Bit, Varbit, UUID:
			return genBytesValue(t, k)
		case Interval:
			// Small fields make equal lengths with different fields common.
			small := rapid.Bool().Draw(t, "small")
			if small {
				return NewInterval(Span{Months: int32(rapid.IntRange(-2, 2).Draw(t, "m")), Days: int32(rapid.IntRange(-60, 60).Draw(t, "d")),
					Micros: int64(rapid.IntRange(-3, 3).Draw(t, "h")) * usecsPerDay})
			}
			return NewInterval(Span{Months: rapid.Int32().Draw(t, "m"), Days: rapid.Int32().Draw(t, "d"),
				Micros: rapid.Int64Range(math.MinInt64+1, math.MaxInt64).Draw(t, "us")})
		}
		return NewTimestamp(k, rapid.Int64().Draw(t, "us"))
	})
}

var allKinds = []Kind{Bool, Int2, Int4, Int8, Numeric, Float4, Float8, Text, Varchar, Char, Date, Timestamp, TimestampTZ, Interval, Bytea, Bit, Varbit, UUID}

// TestIntervalRoundTripProperty checks that an interval's text output reads
// back as the same three fields.
func TestIntervalRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := genValue(Interval).Draw(t, "v")
		if v.IsNull() {
			return
		}
		back, err := Parse(v.String(), IntervalType)
		if err != nil || back.Span() != v.Span() {
			t.Fatalf("%v (%+v) reads back as %v (%+v), %v", v, v.Span(), back, back.Span(), err)
		}
	})
}

// TestKeyOrderProperty checks that keys order exactly as Compare, for
// values and for rows, so equal keys mean Equal values and vice versa, and
// that Prefix64 is monotone in Compare.
func TestKeyOrderProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(allKinds).Draw(t, "kind")
		a := genValue(k).Draw(t, "a")
		b := genValue(k).Draw(t, "b")
		c := genValue(k).Draw(t, "c")
		ka, kb := AppendKey(nil, a), AppendKey(nil, b)
		if got, want := sign(bytes.Compare(ka, kb)), Compare(a, b); got != want {
			t.Fatalf("key order %d, Compare %d for %v, %v (%x, %x)", got, want, a, b, ka, kb)
		}
		if Compare(a, b) != -Compare(b, a) || Compare(a, a) != 0 {
			t.Fatalf("Compare not antisymmetric on %v, %v", a, b)
		}
		if Compare(a, b) <= 0 && Compare(b, c) <= 0 && Compare(a, c) > 0 {
			t.Fatalf("Compare not transitive on %v, %v, %v", a, b, c)
		}
		r1, r2 := Row{a, c}, Row{b, c}
		if got, want := sign(bytes.Compare(AppendRowKey(nil, r1), AppendRowKey(nil, r2))), CompareRows(r1, r2); got != want {
			t.Fatalf("row key order %d, CompareRows %d for %v, %v", got, want, r1, r2)
		}
		if Equal(a, b) != (HashRow(Row{a}) == HashRow(Row{b})) {
			t.Fatalf("HashRow disagrees with Equal on %v, %v", a, b)
		}
		if !a.IsNull() && !b.IsNull() {
			pa, pb := Prefix64(a), Prefix64(b)
			if c := Compare(a, b); c < 0 && pa > pb || c == 0 && pa != pb || c > 0 && pa < pb {
				t.Fatalf("Prefix64 %x, %x not monotone in Compare %d for %v, %v", pa, pb, c, a, b)
			}
		}
	})
}

// TestNumericArithProperty checks exact numeric arithmetic against
// integer arithmetic on small scaled values, and the scales PostgreSQL
// gives results.
func TestNumericArithProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Int64Range(-1e9, 1e9).Draw(t, "x")
		y := rapid.Int64Range(-1e9, 1e9).Draw(t, "y")
		sx := rapid.IntRange(0, 4).Draw(t, "sx")
		sy := rapid.IntRange(0, 4).Draw(t, "sy")
		a := NewNumeric(apd.New(x, int32(-sx)))
		b := NewNumeric(apd.New(y, int32(-sy)))
		sum, err := Add(a, b)
		if err != nil || numScale(sum.Decimal()) != int64(max(sx, sy)) {
			t.Fatalf("%v + %v = %v (%v)", a, b, sum, err)
		}
		back, _ := Sub(sum, b)
		if !Equal(back, a) {
			t.Fatalf("(%v + %v) - %v = %v", a, b, b, back)
		}
		prod, err := Mul(a, b)
		if err != nil || numScale(prod.Decimal()) != int64(sx+sy) {
			t.Fatalf("%v * %v = %v (%v)", a, b, prod, err)
		}
		if y != 0 {
			q, err := Div(prod, b)
			if err != nil {
				t.Fatal(err)
			}
			if !Equal(q, a) {
				t.Fatalf("(%v * %v) / %v = %v", a, b, b, q)
			}
			m, err := Mod(a, b)
			if err != nil || m.Decimal().Sign()*a.Decimal().Sign() < 0 {
				t.Fatalf("%v %% %v = %v (%v)", a, b, m, err)
			}
		}
	})
}

// TestTextRoundTripProperty checks that text output parses back to an
// equal value.
func TestTextRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom(allKinds).Draw(t, "kind")
		v := genValue(k).Draw(t, "v")
		if v.IsNull() || (k.IsDateTime() && k != Date && !validTimestamp(v.n) && tsIsFinite(v.n)) {
			return
		}
		if k == Numeric {
			d, err := normNumeric(new(apd.Decimal).Set(v.Decimal()))
			if err != nil {
				return
			}
			v = NewNumeric(d)
		}
		s := string(AppendText(nil, v))
		back, err := Parse(s, Type{k, -1})
		if err != nil {
			t.Fatalf("Parse(%q, %s): %v", s, k, err)
		}
		if !Equal(back, v) || (k == Numeric && back.String() != s) {
			t.Fatalf("%s %q read back as %v", k, s, back)
		}
	})
}

// FuzzParse checks that no input panics Parse, that every error carries a
// SQLSTATE, and that accepted values print and read back unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1", " -32768 ", "1.5e-3", "NaN", "-Infinity", "t", "of", "2024-01-02",
		"2024-01-02 03:04:05.123456+05:30", "0001-01-01 BC", "1e400", "abc", "", "\x00", "99999999999999999999"} {
		for k := range allKinds {
			f.Add(s, uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, s string, k uint8) {
		kind := allKinds[int(k)%len(allKinds)]
		v, err := Parse(s, Type{kind, -1})
		if err != nil {
			var pe *pgerr.Error
			if !errors.As(err, &pe) || len(pe.Code) != 5 || pe.Code == pgerr.Internal {
				t.Fatalf("Parse(%q, %s): error without SQLSTATE: %v", s, kind, err)
			}
			return
		}
		out := string(AppendText(nil, v))
		back, err := Parse(out, Type{kind, -1})
		if err != nil || !Equal(back, v) {
			t.Fatalf("Parse(%q, %s) = %q, which reads back as %v, %v", s, kind, out, back, err)
		}
		_ = AppendKey(nil, v)
		for _, to := range allKinds {
			_, _ = Cast(v, Type{to, -1}, true)
		}
	})
}

func TestFloatFormatMatchesStrconv(t *testing.T) {
	// Shortest round-trip digits: every printed float8 reads back exactly.
	rapid.Check(t, func(t *rapid.T) {
		f := math.Float64frombits(rapid.Uint64().Draw(t, "bits"))
		if math.IsNaN(f) {
			return
		}
		s := string(AppendText(nil, NewFloat(Float8, f)))
		g, err := strconv.ParseFloat(s, 64)
		if s == "Infinity" || s == "-Infinity" {
			return
		}
		if err != nil || g != f {
			t.Fatalf("%v printed as %q", f, s)
		}
	})
}
