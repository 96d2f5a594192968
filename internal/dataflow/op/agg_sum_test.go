package op

import (
	"math"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"pgregory.net/rapid"
)

// TestSumAccMatchesExact runs sum and avg of each integer kind and of
// numerics through random steps, aborted or committed, with values that
// keep the sums inline and values that move them out (other scales,
// coefficients beyond 64 bits, NaN, infinities), and
// checks every result against exactAcc's, the general accumulator.
func TestSumAccMatchesExact(t *testing.T) {
	kinds := []value.Kind{value.Int2, value.Int4, value.Int8, value.Numeric}
	rapid.Check(t, func(rt *rapid.T) {
		f := rapid.SampledFrom([]plan.AggFunc{plan.AggSum, plan.AggAvg}).Draw(rt, "f")
		kind := rapid.SampledFrom(kinds).Draw(rt, "kind")
		spec := &aggSpec{Aggregate: Aggregate{Func: f}, in: kind}
		got, want := newSumAcc(spec), newExactAcc(spec)
		var c stepCtx
		type held struct {
			v value.Value
			w int64
		}
		var present []held
		draw := func() value.Value {
			if kind != value.Numeric {
				lim := map[value.Kind]int64{value.Int2: math.MaxInt16, value.Int4: math.MaxInt32, value.Int8: math.MaxInt64}[kind]
				switch rapid.IntRange(0, 3).Draw(rt, "ikind") {
				case 0:
					return value.NewInt(kind, rapid.SampledFrom([]int64{lim, -lim - 1, 0}).Draw(rt, "iedge"))
				case 1:
					return value.Null
				}
				return value.NewInt(kind, rapid.Int64Range(-1000, 1000).Draw(rt, "i"))
			}
			var d apd.Decimal
			switch rapid.IntRange(0, 9).Draw(rt, "nkind") {
			case 0:
				return value.NewNumeric(&apd.Decimal{Form: apd.NaN})
			case 1:
				return value.NewNumeric(&apd.Decimal{Form: apd.Infinite, Negative: rapid.Bool().Draw(rt, "neg")})
			case 2:
				// A coefficient beyond 64 bits: held on the heap.
				d.SetString(rapid.SampledFrom([]string{"123456789012345678901234.5", "-99999999999999999999.99", "1e30"}).Draw(rt, "big"))
				return value.NewNumeric(new(apd.Decimal).Set(&d))
			case 3:
				return value.Null
			case 4:
				return value.NewNumeric(apd.New(rapid.SampledFrom([]int64{math.MaxInt64, math.MinInt64 + 1}).Draw(rt, "nedge"), -2))
			}
			sc := int32(2)
			if rapid.IntRange(0, 4).Draw(rt, "otherscale") == 0 {
				sc = int32(rapid.IntRange(0, 4).Draw(rt, "sc"))
			}
			return value.NewNumeric(apd.New(rapid.Int64Range(-100000, 100000).Draw(rt, "c"), -sc))
		}
		for step := range rapid.IntRange(1, 15).Draw(rt, "steps") {
			c.nExact, c.nFloat, c.nSum = 0, 0, 0
			var ch []aggChange
			next := append([]held(nil), present...)
			for range rapid.IntRange(1, 4).Draw(rt, "changes") {
				if len(next) > 0 && rapid.Bool().Draw(rt, "delete") {
					i := rapid.IntRange(0, len(next)-1).Draw(rt, "i")
					ch = append(ch, aggChange{vals: []value.Value{next[i].v}, w: -next[i].w})
					next = append(next[:i], next[i+1:]...)
					continue
				}
				w := int64(rapid.IntRange(1, 3).Draw(rt, "w"))
				if kind == value.Numeric && rapid.IntRange(0, 5).Draw(rt, "heavy") == 0 {
					w = math.MaxInt64 / 3 // large sums, through the general path when the values are wide
				}
				x := held{draw(), w}
				ch = append(ch, aggChange{vals: []value.Value{x.v}, w: x.w})
				next = append(next, x)
			}
			g, gerr := got.stage(&c, ch)
			w, werr := want.stage(&c, ch)
			if (gerr == nil) != (werr == nil) || gerr == nil && !identical(g, w) {
				rt.Fatalf("step %d: %s of %v: got %v (%v), want %v (%v)", step, f, next, g, gerr, w, werr)
			}
			if gerr != nil || rapid.IntRange(0, 4).Draw(rt, "abort") == 0 {
				got.abort()
				want.abort()
				continue
			}
			got.commit()
			want.commit()
			present = next
		}
	})
}

// TestSumAccInline checks that sums of one scale stay inline, in the
// accumulator's 48 bytes, and that a second scale moves them out.
func TestSumAccInline(t *testing.T) {
	a := newSumAcc(&aggSpec{Aggregate: Aggregate{Func: plan.AggSum}, in: value.Numeric}).(*sumAcc)
	var c stepCtx
	step := func(v value.Value, w int64) value.Value {
		c.nExact, c.nFloat, c.nSum = 0, 0, 0
		r, err := a.stage(&c, []aggChange{{vals: []value.Value{v}, w: w}})
		if err != nil {
			t.Fatal(err)
		}
		a.commit()
		return r
	}
	for i := range 1000 {
		step(value.NewNumeric(apd.New(int64(i)*1000+25, -2)), 1)
	}
	if r := step(value.NewNumeric(apd.New(math.MaxInt64, -2)), 3); a.wide != nil || a.bytes() != 48 || r.String() != "276701161110638524.21" {
		t.Fatalf("sum %s, %d bytes, wide %v", r, a.bytes(), a.wide != nil)
	}
	if r := step(value.NewNumeric(apd.New(5, -3)), 1); a.wide == nil || r.String() != "276701161110638524.215" {
		t.Fatalf("sum %s after a second scale, wide %v", r, a.wide != nil)
	}
}
