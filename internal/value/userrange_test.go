package value

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestUserRangeProperty checks, for user range types over float8, text
// and interval, that keys order as Compare (negative floats and strings
// of several lengths included), that the text output reads back through
// the type as an equal range with the same text, and that Equal ranges
// hash alike.
func TestUserRangeProperty(t *testing.T) {
	types := map[Kind]Type{}
	for _, k := range []Kind{Float8, Text, Interval} {
		types[k] = NewRangeType(RangeDesc{Name: "r_" + k.String(), MultiName: "m_" + k.String(), Subtype: Type{k, -1}})
	}
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom([]Kind{Float8, Text, Interval}).Draw(t, "subtype")
		rt := types[k]
		gen := rapid.Custom(func(t *rapid.T) Value {
			bound := func(name string) RangeBound {
				v := genValue(k).Draw(t, name)
				return RangeBound{Val: v, Inf: v.IsNull(), Inc: rapid.Bool().Draw(t, name+"inc")}
			}
			lo, hi := bound("lo"), bound("hi")
			if !lo.Inf && !hi.Inf && Compare(lo.Val, hi.Val) > 0 {
				lo.Val, hi.Val = hi.Val, lo.Val
			}
			r, err := MakeRange(UserRange, lo, hi, rapid.IntRange(0, 9).Draw(t, "empty") == 0)
			if err != nil {
				t.Fatal(err)
			}
			return r
		})
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		if got, want := sign(bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))), Compare(a, b); got != want {
			t.Fatalf("key order %d, Compare %d for %v, %v", got, want, a, b)
		}
		if Compare(a, b) == 0 && HashValue(a) != HashValue(b) {
			t.Fatalf("equal %v and %v hash apart", a, b)
		}
		text := a.String()
		back, err := Parse(text, rt)
		if err != nil || Compare(back, a) != 0 || back.String() != text {
			t.Fatalf("%s reads back as %v (%v)", text, back, err)
		}
		m, err := MakeMultirange(UserMultirange, []Value{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if back, err := Parse(m.String(), rt.MultirangeType()); err != nil || Compare(back, m) != 0 {
			t.Fatalf("%v reads back as %v (%v)", m, back, err)
		}
	})
}
