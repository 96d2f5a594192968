package value

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// genRange draws a range of kind k from bounds of genValue (NULL being an
// infinite bound), with small integers often so that bounds meet.
func genRange(k Kind) *rapid.Generator[Value] {
	return rapid.Custom(func(t *rapid.T) Value {
		bound := func(name string) RangeBound {
			var v Value
			switch e := k.RangeElem(); {
			case k == Int4Range && rapid.Bool().Draw(t, name+"small"):
				v = NewInt(Int4, int64(rapid.IntRange(-3, 3).Draw(t, name)))
			case e == Timestamp || e == TimestampTZ:
				// Within the range of timestamps that read back.
				v = NewTimestamp(e, rapid.Int64Range(-2e17, 9e18).Draw(t, name))
			default:
				v = genValue(k.RangeElem()).Draw(t, name)
			}
			return RangeBound{Val: v, Inf: v.IsNull(), Inc: rapid.Bool().Draw(t, name+"inc")}
		}
		lo, hi := bound("lo"), bound("hi")
		if !lo.Inf && !hi.Inf && Compare(lo.Val, hi.Val) > 0 {
			lo.Val, hi.Val = hi.Val, lo.Val
		}
		r, err := MakeRange(k, lo, hi, rapid.IntRange(0, 9).Draw(t, "empty") == 0)
		if err != nil {
			return EmptyRange(k) // a bound at the end of a discrete range's element
		}
		return r
	})
}

// TestRangeProperty checks, for every range kind, that keys order as
// Compare, that the text output reads back as an equal range with the
// same text, and that Equal ranges hash alike.
func TestRangeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.SampledFrom([]Kind{Int4Range, Int8Range, NumRange, DateRange, TSRange, TSTZRange}).Draw(t, "kind")
		a, b := genRange(k).Draw(t, "a"), genRange(k).Draw(t, "b")
		if got, want := sign(bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))), Compare(a, b); got != want {
			t.Fatalf("key order %d, Compare %d for %v, %v", got, want, a, b)
		}
		if Compare(a, b) == 0 && HashValue(a) != HashValue(b) {
			t.Fatalf("equal %v and %v hash apart", a, b)
		}
		text := a.String()
		back, err := Parse(text, Type{k, -1})
		if err != nil || Compare(back, a) != 0 || back.String() != text {
			t.Fatalf("%s reads back as %v (%v)", text, back, err)
		}
	})
}

// TestRangeOperatorsProperty checks the operators over int4range against
// the sets of integers the ranges hold, within a window of integers that
// an infinite bound stands for.
func TestRangeOperatorsProperty(t *testing.T) {
	const lo, hi = -5, 5
	set := func(r Value) []bool {
		s := make([]bool, hi-lo+1)
		for i := range s {
			s[i] = RangeContainsElem(r, NewInt(Int4, int64(lo+i)))
		}
		return s
	}
	small := rapid.Custom(func(t *rapid.T) Value {
		bound := func(name string) RangeBound {
			if rapid.IntRange(0, 5).Draw(t, name+"inf") == 0 {
				return RangeBound{Inf: true}
			}
			return RangeBound{Val: NewInt(Int4, int64(rapid.IntRange(lo+1, hi-1).Draw(t, name))), Inc: rapid.Bool().Draw(t, name+"inc")}
		}
		l, u := bound("lo"), bound("hi")
		if !l.Inf && !u.Inf && Compare(l.Val, u.Val) > 0 {
			l.Val, u.Val = u.Val, l.Val
		}
		r, err := MakeRange(Int4Range, l, u, false)
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b := small.Draw(t, "a"), small.Draw(t, "b")
		sa, sb := set(a), set(b)
		var contains, overlaps, union, inter, minus = true, false, []bool{}, []bool{}, []bool{}
		for i := range sa {
			contains = contains && (sa[i] || !sb[i])
			overlaps = overlaps || sa[i] && sb[i]
			union, inter, minus = append(union, sa[i] || sb[i]), append(inter, sa[i] && sb[i]), append(minus, sa[i] && !sb[i])
		}
		if got := RangeContains(a, b); got != contains {
			t.Fatalf("%v @> %v: %v", a, b, got)
		}
		if got := RangeOverlaps(a, b); got != overlaps {
			t.Fatalf("%v && %v: %v", a, b, got)
		}
		runs := func(s []bool) int {
			n := 0
			for i := range s {
				if s[i] && (i == 0 || !s[i-1]) {
					n++
				}
			}
			return n
		}
		check := func(op string, got Value, err error, want []bool) {
			if err != nil {
				if runs(want) < 2 {
					t.Fatalf("%v %s %v: %v", a, op, b, err)
				}
				return
			}
			if g := set(got); !equalBools(g, want) {
				t.Fatalf("%v %s %v = %v", a, op, b, got)
			}
		}
		u, err := RangeUnion(a, b, true)
		check("+", u, err, union)
		if err == nil && !overlaps && !RangeAdjacent(a, b) && !a.IsEmptyRange() && !b.IsEmptyRange() {
			t.Fatalf("%v + %v joined ranges that neither overlap nor meet", a, b)
		}
		i, err := RangeIntersect(a, b)
		check("*", i, err, inter)
		m, err := RangeMinus(a, b)
		check("-", m, err, minus)
	})
}

func equalBools(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMultirangeProperty checks multiranges of int4range against the sets
// of integers they hold, in a window that infinite bounds stand for:
// canonical form (equal sets, equal values and keys), text read back,
// and the operators.
func TestMultirangeProperty(t *testing.T) {
	const lo, hi = -6, 6
	set := func(v Value) []bool {
		s := make([]bool, hi-lo+1)
		for i := range s {
			s[i] = MultirangeContainsElem(v, NewInt(Int4, int64(lo+i)))
		}
		return s
	}
	gen := rapid.Custom(func(t *rapid.T) Value {
		n := rapid.IntRange(0, 4).Draw(t, "n")
		rs := make([]Value, n)
		for i := range rs {
			bound := func(name string) RangeBound {
				if rapid.IntRange(0, 7).Draw(t, name+"inf") == 0 {
					return RangeBound{Inf: true}
				}
				return RangeBound{Val: NewInt(Int4, int64(rapid.IntRange(lo+1, hi-1).Draw(t, name))), Inc: rapid.Bool().Draw(t, name+"inc")}
			}
			l, u := bound("lo"), bound("hi")
			if !l.Inf && !u.Inf && Compare(l.Val, u.Val) > 0 {
				l.Val, u.Val = u.Val, l.Val
			}
			r, err := MakeRange(Int4Range, l, u, false)
			if err != nil {
				t.Fatal(err)
			}
			rs[i] = r
		}
		m, err := MakeMultirange(Int4Multirange, rs)
		if err != nil {
			t.Fatal(err)
		}
		return m
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		sa, sb := set(a), set(b)
		if equalBools(sa, sb) != (Compare(a, b) == 0) {
			t.Fatalf("%v and %v: same sets %v, Compare %d", a, b, equalBools(sa, sb), Compare(a, b))
		}
		if got, want := sign(bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))), Compare(a, b); got != want {
			t.Fatalf("key order %d, Compare %d for %v, %v", got, want, a, b)
		}
		if back, err := Parse(a.String(), Type{Int4Multirange, -1}); err != nil || Compare(back, a) != 0 {
			t.Fatalf("%v reads back as %v (%v)", a, back, err)
		}
		contains, overlaps := true, false
		var union, inter, minus []bool
		for i := range sa {
			contains = contains && (sa[i] || !sb[i])
			overlaps = overlaps || sa[i] && sb[i]
			union, inter, minus = append(union, sa[i] || sb[i]), append(inter, sa[i] && sb[i]), append(minus, sa[i] && !sb[i])
		}
		if MultirangeContains(a, b) != contains || MultirangeOverlaps(a, b) != overlaps {
			t.Fatalf("%v @> %v: %v, &&: %v", a, b, MultirangeContains(a, b), MultirangeOverlaps(a, b))
		}
		for _, c := range []struct {
			op   string
			f    func(a, b Value) (Value, error)
			want []bool
		}{{"+", MultirangeUnion, union}, {"*", MultirangeIntersect, inter}, {"-", MultirangeMinus, minus}} {
			got, err := c.f(a, b)
			if err != nil || !equalBools(set(got), c.want) {
				t.Fatalf("%v %s %v = %v (%v)", a, c.op, b, got, err)
			}
		}
	})
}
