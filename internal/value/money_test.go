package value

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestMoneyRoundTrip checks that every amount reads back from its output,
// the extremes included, and that order is the cents' order.
func TestMoneyRoundTrip(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, n int64) {
		v := NewMoney(n)
		s := string(AppendText(nil, v))
		back, err := Parse(s, MoneyType)
		if err != nil || back.Int() != n {
			t.Fatalf("%d prints %q, reads back %v, %v", n, s, back, err)
		}
	}
	for _, n := range []int64{0, 1, -1, 99, 100, -100, 123456, math.MaxInt64, math.MinInt64} {
		check(t, n)
	}
	rapid.Check(t, func(t *rapid.T) {
		a, b := rapid.Int64().Draw(t, "a"), rapid.Int64().Draw(t, "b")
		check(t, a)
		if c := Compare(NewMoney(a), NewMoney(b)); c != cmpInt(a, b) {
			t.Fatalf("Compare(%d, %d) = %d", a, b, c)
		}
	})
}

// TestMoneyInput reads cash_in's forms in the C locale.
func TestMoneyInput(t *testing.T) {
	for in, want := range map[string]int64{
		"$1,234.56": 123456, "-$1,234.56": -123456, "(1.235)": -124, "12-": -1200, " + $ 3 $ ": 300,
		"": 0, "$": 0, "0.005": 1, "-0.005": -1, "1.2,5": 125, "92233720368547758.07": math.MaxInt64,
		"-92233720368547758.08": math.MinInt64, "92233720368547758.074": math.MaxInt64,
	} {
		v, err := Parse(in, MoneyType)
		if err != nil || v.Int() != want {
			t.Errorf("%q: got %v, %v; want %d cents", in, v, err, want)
		}
	}
	for in, code := range map[string]string{
		"92233720368547758.08": "22003", "92233720368547758.075": "22003", "-92233720368547758.085": "22003",
		"1.2.3": "22P02", "abc": "22P02", "1e5": "22P02", "--1": "22P02", "1 2": "22P02",
	} {
		if _, err := Parse(in, MoneyType); errCode(err) != code {
			t.Errorf("%q: got %v, want %s", in, err, code)
		}
	}
}
