package value

import (
	"bytes"
	"errors"
	"math"
	"sort"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

func mustParse(t testing.TB, s string, typ Type) Value {
	t.Helper()
	v, err := Parse(s, typ)
	if err != nil {
		t.Fatalf("Parse(%q, %s): %v", s, typ, err)
	}
	return v
}

func num(t testing.TB, s string) Value { return mustParse(t, s, NumericType) }

func TestTypeString(t *testing.T) {
	for _, c := range []struct {
		typ  Type
		want string
	}{
		{BoolType, "boolean"}, {Int2Type, "smallint"}, {Int4Type, "integer"}, {Int8Type, "bigint"},
		{NumericType, "numeric"}, {Type{Numeric, NumericMod(10, 2)}, "numeric(10,2)"},
		{Float4Type, "real"}, {Float8Type, "double precision"}, {TextType, "text"},
		{Type{Varchar, 5}, "character varying(5)"}, {Type{Varchar, -1}, "character varying"},
		{Type{Char, 3}, "character(3)"}, {DateType, "date"},
		{TimestampType, "timestamp without time zone"}, {TimestampTZType, "timestamp with time zone"},
		{Type{Timestamp, 3}, "timestamp(3) without time zone"}, {UnknownType, "unknown"},
	} {
		if got := c.typ.String(); got != c.want {
			t.Errorf("%#v: got %q, want %q", c.typ, got, c.want)
		}
	}
	if Char.String() != "character" || Numeric.String() != "numeric" {
		t.Errorf("kind names: %s %s", Char, Numeric)
	}
}

func TestTypeFromName(t *testing.T) {
	for _, c := range []struct {
		name string
		mods []int32
		want Type
		code string
	}{
		{"bool", nil, BoolType, ""}, {"boolean", nil, BoolType, ""},
		{"int2", nil, Int2Type, ""}, {"smallint", nil, Int2Type, ""},
		{"int", nil, Int4Type, ""}, {"int4", nil, Int4Type, ""}, {"integer", nil, Int4Type, ""},
		{"int8", nil, Int8Type, ""}, {"bigint", nil, Int8Type, ""},
		{"numeric", nil, NumericType, ""}, {"decimal", []int32{10, 2}, Type{Numeric, NumericMod(10, 2)}, ""},
		{"numeric", []int32{5}, Type{Numeric, NumericMod(5, 0)}, ""},
		{"numeric", []int32{5, -2}, Type{Numeric, NumericMod(5, -2)}, ""},
		{"numeric", []int32{0}, Type{}, pgerr.InvalidParameter},
		{"numeric", []int32{1001}, Type{}, pgerr.InvalidParameter},
		{"numeric", []int32{5, 1001}, Type{}, pgerr.InvalidParameter},
		{"numeric", []int32{5, 2, 1}, Type{}, pgerr.InvalidParameter},
		{"float4", nil, Float4Type, ""}, {"real", nil, Float4Type, ""},
		{"float8", nil, Float8Type, ""}, {"double precision", nil, Float8Type, ""},
		{"float", nil, Float8Type, ""}, {"float", []int32{24}, Float4Type, ""}, {"float", []int32{25}, Float8Type, ""},
		{"float", []int32{0}, Type{}, pgerr.InvalidParameter}, {"float", []int32{54}, Type{}, pgerr.InvalidParameter},
		{"text", nil, TextType, ""},
		{"varchar", []int32{5}, Type{Varchar, 5}, ""}, {"character varying", nil, Type{Varchar, -1}, ""},
		{"varchar", []int32{0}, Type{}, pgerr.InvalidParameter},
		{"bpchar", []int32{3}, Type{Char, 3}, ""}, {"char", nil, InternalCharType, ""}, {"character", []int32{2}, Type{Char, 2}, ""},
		{"date", nil, DateType, ""}, {"timestamp", nil, TimestampType, ""}, {"timestamptz", nil, TimestampTZType, ""},
		{"timestamp", []int32{3}, Type{Timestamp, 3}, ""},
		{"int4", []int32{5}, Type{}, pgerr.SyntaxError},
		{"foo", nil, Type{}, pgerr.UndefinedObject},
	} {
		got, err := TypeFromName(c.name, c.mods)
		if c.code != "" {
			if pgerr.Code(err) != c.code {
				t.Errorf("%s%v: got %v (%s), want code %s", c.name, c.mods, err, pgerr.Code(err), c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s%v: got %v, %v; want %v", c.name, c.mods, got, err, c.want)
		}
	}
}

func TestAppendText(t *testing.T) {
	f8 := func(f float64) Value { return NewFloat(Float8, f) }
	f4 := func(f float64) Value { return NewFloat(Float4, f) }
	sum, _ := Add(f8(0.1), f8(0.2))
	third, _ := Div(f4(1), f4(3))
	for _, c := range []struct {
		v    Value
		want string
	}{
		{NewBool(true), "t"}, {NewBool(false), "f"},
		{NewInt(Int8, math.MinInt64), "-9223372036854775808"},
		{f8(1e15), "1e+15"}, {f8(123456789012345), "123456789012345"}, {f8(1e-5), "1e-05"}, {f8(0.0001), "0.0001"},
		{sum, "0.30000000000000004"}, {f8(1.5e20), "1.5e+20"}, {f8(1e100), "1e+100"}, {f8(1e-310), "1e-310"},
		{f8(math.Copysign(0, -1)), "-0"}, {f8(math.Inf(1)), "Infinity"}, {f8(math.Inf(-1)), "-Infinity"},
		{f8(math.NaN()), "NaN"}, {f8(-2.5), "-2.5"}, {f8(100), "100"},
		{f4(1.1), "1.1"}, {third, "0.33333334"}, {f4(1e6), "1e+06"}, {f4(123456), "123456"}, {f4(1234567), "1.234567e+06"},
		{f4(1e-5), "1e-05"},
		// Shortest digits exactly halfway to a neighbour are not accepted.
		{f4(330344e4), "3.3034399e+09"}, {f4(4507729e1), "4.5077288e+07"},
		{f8(5196974789160754e1), "5.1969747891607536e+16"}, {f8(618550365629273e2), "6.1855036562927296e+16"},
		{num(t, "1.50"), "1.50"}, {num(t, "1e2"), "100"}, {num(t, "-0.00"), "0.00"}, {num(t, "0.001"), "0.001"},
		{num(t, "-12.5e-3"), "-0.0125"}, {num(t, "NaN"), "NaN"}, {num(t, "-inf"), "-Infinity"},
		{NewNumeric(apd.New(15, 1)), "150"}, {NewNumeric(apd.New(-15, -3)), "-0.015"},
		{NewText(Text, "héllo"), "héllo"}, {mustParse(t, "ab", Type{Char, 4}), "ab  "},
		{NewDate(0), "2000-01-01"}, {mustParse(t, "0001-01-01 BC", DateType), "0001-01-01 BC"},
		{mustParse(t, "10000-03-01", DateType), "10000-03-01"}, {NewDate(DatePosInfinity), "infinity"},
		{mustParse(t, "2024-01-02 03:04:05", TimestampType), "2024-01-02 03:04:05"},
		{mustParse(t, "2024-01-02 03:04:05.50", TimestampType), "2024-01-02 03:04:05.5"},
		{mustParse(t, "1969-12-31 23:59:59.000001", TimestampType), "1969-12-31 23:59:59.000001"},
		{mustParse(t, "2024-01-02 03:04:05+01", TimestampTZType), "2024-01-02 02:04:05+00"},
		{mustParse(t, "0001-01-01 00:00:00 BC", TimestampTZType), "0001-01-01 00:00:00+00 BC"},
		{NewTimestamp(Timestamp, TimestampNegInfinity), "-infinity"},
	} {
		if got := string(AppendText(nil, c.v)); got != c.want {
			t.Errorf("AppendText(%#v): got %q, want %q", c.v, got, c.want)
		}
	}
	if got := string(AppendText([]byte("x"), Null)); got != "x" {
		t.Errorf("NULL appended %q", got)
	}
	if Null.String() != "NULL" || (Row{NewInt(Int4, 1), Null}).String() != "(1, NULL)" {
		t.Errorf("String: %s %s", Null, Row{NewInt(Int4, 1), Null})
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		s    string
		typ  Type
		code string
	}{
		{"99999", Int2Type, pgerr.NumericOutOfRange}, {"1.5", Int4Type, pgerr.InvalidTextRep},
		{"", Int4Type, pgerr.InvalidTextRep}, {"9223372036854775808", Int8Type, pgerr.NumericOutOfRange},
		{"x", BoolType, pgerr.InvalidTextRep}, {"o", BoolType, pgerr.InvalidTextRep},
		{"1e", NumericType, pgerr.InvalidTextRep}, {".", NumericType, pgerr.InvalidTextRep},
		{"1e-17000", NumericType, pgerr.NumericOutOfRange}, {"1e200000", NumericType, pgerr.NumericOutOfRange},
		{"1e400", Float8Type, pgerr.NumericOutOfRange}, {"1e-400", Float8Type, pgerr.NumericOutOfRange},
		{"1e39", Float4Type, pgerr.NumericOutOfRange}, {"abc", Float8Type, pgerr.InvalidTextRep},
		{"x", DateType, pgerr.InvalidDatetimeFormat}, {"2024-02-30", DateType, pgerr.DatetimeOverflow},
		{"2024-13-01", DateType, pgerr.DatetimeOverflow}, {"0000-01-01", DateType, pgerr.DatetimeOverflow},
		{"4714-11-23 BC", DateType, pgerr.DatetimeOverflow},
		{"2024-01-01 25:00", TimestampType, pgerr.DatetimeOverflow}, {"294277-01-01", TimestampType, pgerr.DatetimeOverflow},
		{"2024-01-01 10:00 junk", TimestampTZType, pgerr.InvalidDatetimeFormat},
		{"abcd", Type{Varchar, 3}, pgerr.StringTooLong}, {"abcd", Type{Char, 3}, pgerr.StringTooLong},
		{"1234.5", Type{Numeric, NumericMod(5, 2)}, pgerr.NumericOutOfRange},
	} {
		_, err := Parse(c.s, c.typ)
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != c.code {
			t.Errorf("Parse(%q, %s): got %v (%s), want code %s", c.s, c.typ, err, pgerr.Code(err), c.code)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		s    string
		typ  Type
		want string
	}{
		{" +12 ", Int2Type, "12"}, {"-32768", Int2Type, "-32768"}, {"-9223372036854775808", Int8Type, "-9223372036854775808"},
		{" Tr ", BoolType, "t"}, {"of", BoolType, "f"}, {"YES", BoolType, "t"}, {"0", BoolType, "f"},
		{"1.50e-1", NumericType, "0.150"}, {"1.5e1", NumericType, "15"}, {" .5 ", NumericType, "0.5"}, {"inf", NumericType, "Infinity"},
		{"1.1", Float4Type, "1.1"}, {"-inf", Float8Type, "-Infinity"}, {"1e-310", Float8Type, "1e-310"},
		{"2024-1-2", DateType, "2024-01-02"}, {"20240102", DateType, "2024-01-02"}, {"2024-01-02 10:11", DateType, "2024-01-02"},
		{"epoch", TimestampType, "1970-01-01 00:00:00"}, {"2024-01-02T03:04:05.9999995", TimestampType, "2024-01-02 03:04:06"},
		{"2024-01-02 24:00", TimestampType, "2024-01-03 00:00:00"},
		{"2024-01-02 03:04:05-08", TimestampType, "2024-01-02 03:04:05"},
		{"2024-01-02 03:04:05.123456789+05:30", TimestampTZType, "2024-01-01 21:34:05.123457+00"},
		{"2024-01-02 03:04:05Z", TimestampTZType, "2024-01-02 03:04:05+00"},
		{"abc   ", Type{Varchar, 3}, "abc"}, {"ab", Type{Char, 3}, "ab "},
		{"1.005", Type{Numeric, NumericMod(5, 2)}, "1.01"}, {"-1.005", Type{Numeric, NumericMod(5, 2)}, "-1.01"},
		{"12345", Type{Numeric, NumericMod(5, -2)}, "12300"},
	} {
		v, err := Parse(c.s, c.typ)
		if err != nil || v.String() != c.want {
			t.Errorf("Parse(%q, %s): got %v, %v; want %q", c.s, c.typ, v, err, c.want)
		}
		// ParseBytes gives the same value, which outlives its bytes.
		b := []byte(c.s)
		v, err = ParseBytes(b, c.typ)
		clear(b)
		if err != nil || v.String() != c.want {
			t.Errorf("ParseBytes(%q, %s): got %v, %v; want %q", c.s, c.typ, v, err, c.want)
		}
	}
	if v, err := ParseBytes([]byte("text"), TextType); err != nil || v.Str() != "text" {
		t.Errorf("ParseBytes of text: %v, %v", v, err)
	}
	if _, err := ParseBytes(nil, Int4Type); pgerr.Code(err) != pgerr.InvalidTextRep {
		t.Errorf("ParseBytes of no bytes as int4: %v", err)
	}
}

func TestCoerce(t *testing.T) {
	vc3 := Type{Varchar, 3}
	if v, err := Coerce(NewText(Varchar, "abcd"), vc3, true); err != nil || v.Str() != "abc" {
		t.Errorf("explicit varchar truncation: %v %v", v, err)
	}
	if _, err := Coerce(NewText(Varchar, "abcd"), vc3, false); pgerr.Code(err) != pgerr.StringTooLong {
		t.Errorf("implicit varchar: %v", err)
	}
	if v, err := Coerce(NewText(Varchar, "héllo"), vc3, true); err != nil || v.Str() != "hél" {
		t.Errorf("runes: %v %v", v, err)
	}
	_, err := Coerce(num(t, "1000"), Type{Numeric, NumericMod(5, 2)}, false)
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.NumericOutOfRange ||
		pe.Detail != "A field with precision 5, scale 2 must round to an absolute value less than 10^3." {
		t.Errorf("numeric overflow: %#v", err)
	}
	if v, _ := Coerce(num(t, "1.5"), NumericType, false); v.String() != "1.5" {
		t.Errorf("no modifier changed %v", v)
	}
}

func TestCast(t *testing.T) {
	for _, c := range []struct {
		v        Value
		to       Type
		explicit bool
		want     string
		code     string
	}{
		{NewInt(Int4, 70000), Int2Type, true, "", pgerr.NumericOutOfRange},
		{NewInt(Int8, 5), Int4Type, true, "5", ""},
		{NewFloat(Float8, 2.5), Int4Type, true, "2", ""}, {NewFloat(Float8, 3.5), Int4Type, true, "4", ""},
		{NewFloat(Float8, math.NaN()), Int4Type, true, "", pgerr.NumericOutOfRange},
		{num(t, "2.5"), Int4Type, true, "3", ""}, {num(t, "-2.5"), Int4Type, true, "-3", ""},
		{num(t, "NaN"), Int4Type, true, "", pgerr.FeatureNotSupported},
		{NewFloat(Float8, 0.1), NumericType, true, "0.1", ""},
		{NewFloat(Float8, math.Inf(1)), NumericType, true, "Infinity", ""},
		{NewInt(Int4, 3), Float8Type, false, "3", ""},
		{num(t, "0.1"), Float8Type, false, "0.1", ""},
		{NewBool(true), Int4Type, true, "1", ""}, {NewBool(true), Int4Type, false, "", pgerr.CannotCoerce},
		{NewBool(true), TextType, true, "true", ""},
		{NewText(Char, "ab  "), TextType, false, "ab", ""},
		{NewText(Text, " 42 "), Int4Type, true, "42", ""},
		{NewText(Text, "x"), Int4Type, true, "", pgerr.InvalidTextRep},
		{NewText(Text, "abcd"), Type{Varchar, 2}, true, "ab", ""},
		{NewText(Text, "abcd"), Type{Varchar, 2}, false, "", pgerr.StringTooLong},
		{NewDate(1), TimestampTZType, false, "2000-01-02 00:00:00+00", ""},
		{mustParse(t, "1999-12-31 23:00", TimestampType), DateType, true, "1999-12-31", ""},
		{NewDate(1), BoolType, true, "", pgerr.CannotCoerce},
		{NewInt(Int4, 1), DateType, true, "", pgerr.CannotCoerce},
		{num(t, "123.456"), Type{Numeric, NumericMod(5, 2)}, false, "123.46", ""},
		{Null, Int4Type, false, "NULL", ""},
	} {
		v, err := Cast(c.v, c.to, c.explicit)
		if c.code != "" {
			if pgerr.Code(err) != c.code {
				t.Errorf("Cast(%v, %s): got %v, %v; want code %s", c.v, c.to, v, err, c.code)
			}
			continue
		}
		if err != nil || v.String() != c.want || (!v.IsNull() && v.Kind() != c.to.Kind) {
			t.Errorf("Cast(%v, %s): got %v (%s), %v; want %q", c.v, c.to, v, v.Kind(), err, c.want)
		}
	}
}

func TestCanCast(t *testing.T) {
	for _, c := range []struct {
		from, to Kind
		explicit bool
		want     bool
	}{
		{Int2, Int8, false, true}, {Int8, Int4, false, false}, {Int8, Int4, true, true},
		{Numeric, Float8, false, true}, {Float8, Numeric, false, false}, {Float8, Numeric, true, true},
		{Char, Text, false, true}, {Text, Varchar, false, true}, {Int4, Text, false, false}, {Int4, Text, true, true},
		{Date, TimestampTZ, false, true}, {TimestampTZ, Date, false, false}, {TimestampTZ, Date, true, true},
		{Bool, Int4, false, false}, {Bool, Int4, true, true}, {Bool, Int8, true, false},
		{Date, Int4, true, false}, {Unknown, Date, false, true},
	} {
		if got := CanCast(c.from, c.to, c.explicit); got != c.want {
			t.Errorf("CanCast(%s, %s, %v) = %v", c.from, c.to, c.explicit, got)
		}
	}
}

func TestArith(t *testing.T) {
	i2 := func(n int64) Value { return NewInt(Int2, n) }
	i4 := func(n int64) Value { return NewInt(Int4, n) }
	i8 := func(n int64) Value { return NewInt(Int8, n) }
	f8 := func(f float64) Value { return NewFloat(Float8, f) }
	type op func(a, b Value) (Value, error)
	for _, c := range []struct {
		name string
		f    op
		a, b Value
		want string
		code string
	}{
		{"+", Add, i2(32767), i2(1), "", pgerr.NumericOutOfRange},
		{"+", Add, i4(math.MaxInt32), i4(1), "", pgerr.NumericOutOfRange},
		{"+", Add, i8(math.MaxInt64), i8(1), "", pgerr.NumericOutOfRange},
		{"-", Sub, i8(math.MinInt64), i8(1), "", pgerr.NumericOutOfRange},
		{"*", Mul, i8(math.MinInt64), i8(-1), "", pgerr.NumericOutOfRange},
		{"*", Mul, i8(1 << 32), i8(1 << 31), "", pgerr.NumericOutOfRange},
		{"*", Mul, i4(65536), i4(32767), "2147418112", ""},
		{"/", Div, i4(-7), i4(2), "-3", ""}, {"/", Div, i4(7), i4(0), "", pgerr.DivisionByZero},
		{"/", Div, i8(math.MinInt64), i8(-1), "", pgerr.NumericOutOfRange},
		{"/", Div, i2(-32768), i2(-1), "", pgerr.NumericOutOfRange},
		{"%", Mod, i4(-7), i4(2), "-1", ""}, {"%", Mod, i8(math.MinInt64), i8(-1), "0", ""},
		{"%", Mod, i4(1), i4(0), "", pgerr.DivisionByZero},
		{"+", Add, f8(1e308), f8(1e308), "", pgerr.NumericOutOfRange},
		{"*", Mul, f8(1e-200), f8(1e-200), "", pgerr.NumericOutOfRange},
		{"/", Div, f8(1), f8(0), "", pgerr.DivisionByZero},
		{"+", Add, num(t, "1.50"), num(t, "1.00"), "2.50", ""},
		{"-", Sub, num(t, "1.5"), num(t, "1.50"), "0.00", ""},
		{"*", Mul, num(t, "1.5"), num(t, "2.25"), "3.375", ""},
		{"/", Div, num(t, "1"), num(t, "3"), "0.33333333333333333333", ""},
		{"/", Div, num(t, "10.0"), num(t, "4"), "2.5000000000000000", ""},
		{"/", Div, num(t, "2"), num(t, "3.0"), "0.66666666666666666667", ""},
		{"/", Div, num(t, "0.0001"), num(t, "7"), "0.000014285714285714285714", ""},
		{"/", Div, num(t, "1"), num(t, "0"), "", pgerr.DivisionByZero},
		{"%", Mod, num(t, "-7.5"), num(t, "2"), "-1.5", ""},
		{"%", Mod, num(t, "7"), num(t, "-2.25"), "0.25", ""},
		{"+", Add, num(t, "Infinity"), num(t, "-Infinity"), "NaN", ""},
		{"+", Add, NewDate(0), i4(31), "2000-02-01", ""}, {"+", Add, i4(1), NewDate(0), "2000-01-02", ""},
		{"-", Sub, NewDate(0), i4(1), "1999-12-31", ""}, {"-", Sub, NewDate(60), NewDate(0), "60", ""},
		{"+", Add, Null, i4(1), "NULL", ""},
	} {
		v, err := c.f(c.a, c.b)
		if c.code != "" {
			if pgerr.Code(err) != c.code {
				t.Errorf("%v %s %v: got %v, %v; want code %s", c.a, c.name, c.b, v, err, c.code)
			}
			continue
		}
		if err != nil || v.String() != c.want {
			t.Errorf("%v %s %v: got %v, %v; want %q", c.a, c.name, c.b, v, err, c.want)
		}
	}
}

func TestUnary(t *testing.T) {
	if _, err := Neg(NewInt(Int4, math.MinInt32)); pgerr.Code(err) != pgerr.NumericOutOfRange {
		t.Errorf("Neg(MinInt32): %v", err)
	}
	if _, err := Abs(NewInt(Int8, math.MinInt64)); pgerr.Code(err) != pgerr.NumericOutOfRange {
		t.Errorf("Abs(MinInt64): %v", err)
	}
	for _, c := range []struct {
		got  func() (Value, error)
		want string
	}{
		{func() (Value, error) { return Neg(num(t, "1.50")) }, "-1.50"},
		{func() (Value, error) { return Neg(num(t, "0")) }, "0"},
		{func() (Value, error) { return Abs(num(t, "-1.50")) }, "1.50"},
		{func() (Value, error) { return Round(num(t, "2.5"), 0) }, "3"},
		{func() (Value, error) { return Round(num(t, "-2.5"), 0) }, "-3"},
		{func() (Value, error) { return Round(num(t, "1234.5678"), 2) }, "1234.57"},
		{func() (Value, error) { return Round(num(t, "1234.5678"), -2) }, "1200"},
		{func() (Value, error) { return Round(num(t, "1.5"), 3) }, "1.500"},
		{func() (Value, error) { return Trunc(num(t, "-1234.5678"), 1) }, "-1234.5"},
		{func() (Value, error) { return Trunc(num(t, "1234.5678"), -2) }, "1200"},
		{func() (Value, error) { return Round(NewFloat(Float8, 2.5), 0) }, "2"},
		{func() (Value, error) { return Trunc(NewFloat(Float8, -2.7), 0) }, "-2"},
	} {
		v, err := c.got()
		if err != nil || v.String() != c.want {
			t.Errorf("got %v, %v; want %q", v, err, c.want)
		}
	}
}

// orderedValues lists values of each kind in increasing order; equal
// neighbours are grouped in one inner slice.
func orderedValues(t *testing.T) [][][]Value {
	f := func(k Kind, xs ...float64) [][]Value {
		var out [][]Value
		for _, x := range xs {
			out = append(out, []Value{NewFloat(k, x)})
		}
		return out
	}
	fl := f(Float8, math.Inf(-1), -1e300, -1, -1e-300, 0, 1e-300, 1, 1e300, math.Inf(1))
	fl[4] = append(fl[4], NewFloat(Float8, math.Copysign(0, -1)))
	fl = append(fl, []Value{NewFloat(Float8, math.NaN()), NewFloat(Float8, -math.NaN())})
	nums := func(groups ...[]string) [][]Value {
		var out [][]Value
		for _, g := range groups {
			var vs []Value
			for _, s := range g {
				vs = append(vs, num(t, s))
			}
			out = append(out, vs)
		}
		return out
	}
	return [][][]Value{
		{{NewBool(false)}, {NewBool(true)}},
		{{NewInt(Int4, math.MinInt32)}, {NewInt(Int4, -1)}, {NewInt(Int4, 0)}, {NewInt(Int4, 1)}, {NewInt(Int4, math.MaxInt32)}},
		{{NewInt(Int8, math.MinInt64)}, {NewInt(Int8, 0)}, {NewInt(Int8, math.MaxInt64)}},
		nums([]string{"-Infinity"}, []string{"-1e30"}, []string{"-100", "-100.000"}, []string{"-99.99"},
			[]string{"-1.5", "-1.50"}, []string{"-1.05"}, []string{"-0.001"}, []string{"0", "0.00", "-0"},
			[]string{"0.0000000000000000000001"}, []string{"0.001"}, []string{"1"}, []string{"1.05"},
			[]string{"1.5", "1.500"}, []string{"12345678901234567890123", "12345678901234567890123.000"},
			[]string{"12345678901234567890123.1"}, []string{"1e40"}, []string{"Infinity"}, []string{"NaN"}),
		fl,
		{{NewText(Text, "")}, {NewText(Text, "\x00")}, {NewText(Text, "\x00\x00")}, {NewText(Text, "\x00a")}, {NewText(Text, "a")},
			{NewText(Text, "a\x00")}, {NewText(Text, "ab")}, {NewText(Text, "b")}, {NewText(Text, "\xff")}},
		{{NewText(Char, ""), NewText(Char, "  ")}, {NewText(Char, "a"), NewText(Char, "a  ")}, {NewText(Char, "a b")}},
		{{NewDate(DateNegInfinity)}, {NewDate(-1)}, {NewDate(0)}, {NewDate(DatePosInfinity)}},
		{{NewTimestamp(TimestampTZ, math.MinInt64)}, {NewTimestamp(TimestampTZ, -1)}, {NewTimestamp(TimestampTZ, 5)}},
		{{Null, Null}},
	}
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// TestCompareAndKeys checks that Compare is the listed order, and that key
// bytes order exactly as Compare, across and within kinds.
func TestCompareAndKeys(t *testing.T) {
	type ranked struct {
		v          Value
		kind, rank int
	}
	var all []ranked
	for ki, groups := range orderedValues(t) {
		for ri, g := range groups {
			for _, v := range g {
				all = append(all, ranked{v, ki, ri})
			}
		}
	}
	for _, a := range all {
		for _, b := range all {
			want := 0
			if a.kind == b.kind {
				want = sign(a.rank - b.rank)
			} else {
				want = sign(a.kind - b.kind) // the list is in kind order, NULL last
			}
			if got := Compare(a.v, b.v); got != want {
				t.Errorf("Compare(%v %s, %v %s) = %d, want %d", a.v, a.v.Kind(), b.v, b.v.Kind(), got, want)
			}
			if got := sign(bytes.Compare(AppendKey(nil, a.v), AppendKey(nil, b.v))); got != want {
				t.Errorf("key order (%v, %v) = %d, want %d", a.v, b.v, got, want)
			}
			if Equal(a.v, b.v) != (want == 0) || (HashRow(Row{a.v}) == HashRow(Row{b.v})) != (want == 0) {
				t.Errorf("Equal/HashRow(%v, %v) disagree with %d", a.v, b.v, want)
			}
		}
	}
}

func TestCompareRows(t *testing.T) {
	rows := []Row{
		{NewInt(Int4, 1), NewText(Text, "b")},
		{NewInt(Int4, 1), Null},
		{NewInt(Int4, 1), NewText(Text, "a")},
		{NewInt(Int4, 0), NewText(Text, "z")},
		{Null, NewText(Text, "a")},
	}
	sort.Slice(rows, func(i, j int) bool { return CompareRows(rows[i], rows[j]) < 0 })
	want := "(0, z)(1, a)(1, b)(1, NULL)(NULL, a)"
	got := ""
	for i, r := range rows {
		got += r.String()
		if i > 0 {
			ki, kj := AppendRowKey(nil, rows[i-1]), AppendRowKey(nil, r)
			if bytes.Compare(ki, kj) >= 0 {
				t.Errorf("row keys out of order at %d", i)
			}
		}
	}
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestNoAllocs(t *testing.T) {
	a, b := num(t, "1.5"), num(t, "1.50")
	big1, big2 := num(t, "123456789.123456789"), num(t, "123456789.1234567891")
	row := Row{NewInt(Int8, 42), NewText(Text, "hello world"), a, NewFloat(Float8, 1.5), NewDate(3)}
	buf := make([]byte, 0, 256)
	i1, i2 := NewInt(Int4, 1), NewInt(Int4, 2)
	for name, f := range map[string]func(){
		"Compare numeric":  func() { _ = Compare(a, b) + Compare(big1, big2) },
		"Compare text":     func() { _ = Compare(row[1], row[1]) },
		"AppendKey":        func() { buf = AppendRowKey(buf[:0], row) },
		"HashRow":          func() { _ = HashRow(row) },
		"Add int":          func() { _, _ = Add(i1, i2) },
		"Mul int":          func() { _, _ = Mul(i1, i2) },
		"Div int":          func() { _, _ = Div(i1, i2) },
		"Add float":        func() { _, _ = Add(row[3], row[3]) },
		"AppendText float": func() { buf = AppendText(buf[:0], row[3]) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func BenchmarkHashRow(b *testing.B) {
	row := Row{NewInt(Int8, 42), NewText(Text, "hello world"), num(b, "12.50"), NewDate(3)}
	for b.Loop() {
		_ = HashRow(row)
	}
}

func BenchmarkCompareNumeric(b *testing.B) {
	x, y := num(b, "12.5"), num(b, "12.50")
	for b.Loop() {
		_ = Compare(x, y)
	}
}
