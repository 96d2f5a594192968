package value

import (
	"math"
	"testing"
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"pgregory.net/rapid"
)

// heapNumeric is v held as an apd.Decimal, as numerics too large to be
// inline are: the general path every inline fast path must agree with.
func heapNumeric(v Value) Value {
	return Value{kind: Numeric, p: unsafe.Pointer(v.Decimal())}
}

func genSmallNumeric() *rapid.Generator[Value] {
	return rapid.Custom(func(t *rapid.T) Value {
		var c int64
		switch rapid.IntRange(0, 3).Draw(t, "size") {
		case 0:
			c = rapid.Int64Range(-1000, 1000).Draw(t, "c")
		case 1:
			c = rapid.Int64Range(-1e12, 1e12).Draw(t, "c")
		case 2:
			c = rapid.Int64Range(math.MaxInt64-1000, math.MaxInt64).Draw(t, "c")
			if rapid.Bool().Draw(t, "neg") {
				c = -c
			}
		default:
			c = rapid.Int64Range(-math.MaxInt64, math.MaxInt64).Draw(t, "c")
		}
		sc := rapid.SampledFrom([]int32{0, 1, 2, 4, 18, 19, 30, 255}).Draw(t, "scale")
		return NewNumeric(new(apd.Decimal).SetFinite(c, -sc))
	})
}

// TestSmallNumeric checks that inline numerics give what the same values
// held as apd.Decimals give: sums, differences and products (value and
// scale, overflowing to the general path where they do not fit), order,
// keys and text.
func TestSmallNumeric(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := genSmallNumeric().Draw(t, "a"), genSmallNumeric().Draw(t, "b")
		if _, _, ok := a.SmallNumeric(); !ok {
			t.Fatalf("%v is not inline", a)
		}
		ha, hb := heapNumeric(a), heapNumeric(b)
		for _, op := range []struct {
			name string
			f    func(x, y Value) (Value, error)
		}{{"+", Add}, {"-", Sub}, {"*", Mul}} {
			r1, err1 := op.f(a, b)
			r2, err2 := op.f(ha, hb)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%v %s %v: errors %v and %v", a, op.name, b, err1, err2)
			}
			if err1 != nil {
				continue
			}
			if s1, s2 := string(AppendText(nil, r1)), string(AppendText(nil, r2)); s1 != s2 {
				t.Fatalf("%v %s %v = %s inline, %s held as a decimal", a, op.name, b, s1, s2)
			}
		}
		if c1, c2 := Compare(a, b), cmpNumeric(ha.Decimal(), hb.Decimal()); c1 != c2 {
			t.Fatalf("compare(%v, %v) = %d inline, %d held as decimals", a, b, c1, c2)
		}
		if k1, k2 := string(AppendKey(nil, a)), string(appendNumericKey([]byte{byte(Numeric)}, ha.Decimal())); k1 != k2 {
			t.Fatalf("key of %v differs inline", a)
		}
		if s1, s2 := string(AppendText(nil, a)), string(appendNumeric(nil, ha.Decimal())); s1 != s2 {
			t.Fatalf("%s inline, %s held as a decimal", s1, s2)
		}
	})
}

// TestNumericInline checks which numerics are held inline.
func TestNumericInline(t *testing.T) {
	for _, c := range []struct {
		in     string
		inline bool
	}{
		{"0", true}, {"-1.50", true}, {"9223372036854775807", true}, {"-9223372036854775807", true},
		{"9223372036854775808", false}, {"-9223372036854775808", false}, {"NaN", false}, {"Infinity", false},
		{"1e300", false}, {"0.000000000000000000000000000001", true},
	} {
		v, err := Parse(c.in, NumericType)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := v.SmallNumeric(); ok != c.inline {
			t.Errorf("%s: inline %v, want %v", c.in, ok, c.inline)
		}
		if got := string(AppendText(nil, v)); got != string(AppendText(nil, heapNumeric(v))) && v.p == nil {
			t.Errorf("%s: %s inline", c.in, got)
		}
	}
}
