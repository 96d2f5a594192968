package op

import (
	"math"
	"math/big"
	"testing"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"pgregory.net/rapid"
)

// exactFloatAgg is the float aggregate of vals (no NULLs) from exact
// rationals, rounded once: what floatAcc must give after any history of
// insertions and deletions. ok is false where it must fail with 22003.
func exactFloatAgg(f plan.AggFunc, vals []float64) (r float64, null, ok bool) {
	n := len(vals)
	if n == 0 || n == 1 && (f == plan.AggVarSamp || f == plan.AggStddevSamp) {
		return 0, true, true
	}
	var nan, pinf, ninf, negz int
	var sum, sq, t big.Rat
	for _, x := range vals {
		switch {
		case math.IsNaN(x):
			nan++
		case math.IsInf(x, 1):
			pinf++
		case math.IsInf(x, -1):
			ninf++
		default:
			if x == 0 && math.Signbit(x) {
				negz++
			}
			t.SetFloat64(x)
			sum.Add(&sum, &t)
			sq.Add(&sq, t.Mul(&t, &t))
		}
	}
	if nan+pinf+ninf > 0 {
		switch {
		case f != plan.AggSum && f != plan.AggAvg || nan > 0 || pinf > 0 && ninf > 0:
			return math.NaN(), false, true
		case pinf > 0:
			return math.Inf(1), false, true
		}
		return math.Inf(-1), false, true
	}
	if s, _ := sum.Float64(); math.IsInf(s, 0) {
		return 0, false, false
	}
	nr := new(big.Rat).SetInt64(int64(n))
	switch f {
	case plan.AggSum:
		if negz == n {
			return math.Copysign(0, -1), false, true
		}
		s, _ := sum.Float64()
		return s, false, true
	case plan.AggAvg:
		s, _ := t.Quo(&sum, nr).Float64()
		return s, false, true
	}
	var sxx big.Rat
	sxx.Sub(&sq, t.Quo(t.Mul(&sum, &sum), nr))
	if sxx.Sign() <= 0 {
		return 0, false, true
	}
	if s, _ := sxx.Float64(); math.IsInf(s, 0) {
		return 0, false, false
	}
	if f == plan.AggVarSamp || f == plan.AggStddevSamp {
		nr.SetInt64(int64(n - 1))
	}
	sxx.Quo(&sxx, nr)
	if f == plan.AggVarPop || f == plan.AggVarSamp {
		s, _ := sxx.Float64()
		return s, false, true
	}
	root := new(big.Float).SetPrec(300).SetRat(&sxx)
	s, _ := root.Sqrt(root).Float64()
	return s, false, true
}

// TestFloatAggExact inserts and deletes values from 1e-300 to 1e300, NaN
// and infinities, and checks each float aggregate after every step, and
// after aborted ones, against the exact result.
func TestFloatAggExact(t *testing.T) {
	funcs := []plan.AggFunc{plan.AggSum, plan.AggAvg, plan.AggVarPop, plan.AggVarSamp, plan.AggStddevPop, plan.AggStddevSamp}
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1e15, 1000000000.001, 1000000000.002, 0.1, -0.3}
	rapid.Check(t, func(rt *rapid.T) {
		f := rapid.SampledFrom(funcs).Draw(rt, "f")
		acc := newFloatAcc(&aggSpec{Aggregate: Aggregate{Func: f}, in: value.Float8})
		var c stepCtx
		var present []float64
		draw := func(label string) float64 {
			if rapid.IntRange(0, 3).Draw(rt, label+".kind") == 0 {
				return rapid.SampledFrom(special).Draw(rt, label)
			}
			m := rapid.Float64Range(-10, 10).Draw(rt, label+".m")
			e := rapid.IntRange(-300, 300).Draw(rt, label+".e")
			return m * math.Pow(10, float64(e))
		}
		for step := range rapid.IntRange(1, 12).Draw(rt, "steps") {
			c.nExact, c.nFloat = 0, 0
			var ch []aggChange
			next := append([]float64(nil), present...)
			for range rapid.IntRange(1, 4).Draw(rt, "changes") {
				if len(next) > 0 && rapid.Bool().Draw(rt, "delete") {
					i := rapid.IntRange(0, len(next)-1).Draw(rt, "i")
					ch = append(ch, aggChange{vals: []value.Value{floatV(next[i])}, w: -1})
					next = append(next[:i], next[i+1:]...)
					continue
				}
				x := draw("x")
				ch = append(ch, aggChange{vals: []value.Value{floatV(x)}, w: 1})
				next = append(next, x)
			}
			got, err := acc.stage(&c, ch)
			want, null, ok := exactFloatAgg(f, next)
			switch {
			case !ok:
				if err == nil {
					rt.Fatalf("step %d: %s of %v: %v, want 22003", step, f, next, got)
				}
			case err != nil:
				rt.Fatalf("step %d: %s of %v: %v", step, f, next, err)
			case null:
				if !got.IsNull() {
					rt.Fatalf("step %d: %s of %v: %v, want NULL", step, f, next, got)
				}
			case got.IsNull() || math.Float64bits(got.Float()) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(got.Float())):
				rt.Fatalf("step %d: %s of %v: %v, want %v", step, f, next, got, want)
			}
			if err != nil || rapid.IntRange(0, 4).Draw(rt, "abort") == 0 {
				acc.abort()
				continue
			}
			acc.commit()
			present = next
		}
	})
}

func floatV(x float64) value.Value { return value.NewFloat(value.Float8, x) }

// TestFloatAggNoAlloc: once warm, a change costs no allocation.
func TestFloatAggNoAlloc(t *testing.T) {
	for _, f := range []plan.AggFunc{plan.AggSum, plan.AggAvg, plan.AggVarSamp, plan.AggStddevPop} {
		acc := newFloatAcc(&aggSpec{Aggregate: Aggregate{Func: f}, in: value.Float8})
		var c stepCtx
		xs := []float64{1000000000.001, 1e15, -2.5e-3, 1e150, 0.1}
		ch := make([]aggChange, 1)
		ch[0].vals = make([]value.Value, 1)
		i := 0
		run := func() {
			c.nExact, c.nFloat = 0, 0
			ch[0].vals[0], ch[0].w = floatV(xs[i/2%len(xs)]), int64(1-2*(i%2))
			i++
			if _, err := acc.stage(&c, ch); err != nil {
				t.Fatal(err)
			}
			acc.commit()
		}
		for range 20 {
			run()
		}
		if n := testing.AllocsPerRun(100, run); n != 0 {
			t.Errorf("%s: %v allocations per change", f, n)
		}
	}
}

// TestFloatRounding checks toFloat against big.Float's conversions,
// subnormal and out of range results included.
func TestFloatRounding(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var m big.Int
		m.SetUint64(rapid.Uint64().Draw(rt, "hi"))
		m.Lsh(&m, uint(rapid.IntRange(0, 100).Draw(rt, "shift")))
		m.Add(&m, new(big.Int).SetUint64(rapid.Uint64().Draw(rt, "lo")))
		if rapid.Bool().Draw(rt, "neg") {
			m.Neg(&m)
		}
		e := rapid.IntRange(-1300, 1100).Draw(rt, "e")
		f := new(big.Float).SetInt(&m)
		f.SetMantExp(f, e)
		var c floatScratch
		want, _ := f.Float64()
		if got := c.toFloat(&m, e, value.Float8); math.Float64bits(got) != math.Float64bits(want) && !(m.Sign() == 0 && got == 0) {
			rt.Fatalf("%v·2^%d: %v, want %v", &m, e, got, want)
		}
		want32, _ := f.Float32()
		if got := c.toFloat(&m, e, value.Float4); math.Float64bits(got) != math.Float64bits(float64(want32)) && !(m.Sign() == 0 && got == 0) {
			rt.Fatalf("%v·2^%d as real: %v, want %v", &m, e, got, want32)
		}
	})
}

// BenchmarkFloatAcc is one change (an insert or a delete) to a float
// aggregate of a group, staged and committed: values of one magnitude, and
// values from 1e-300 to 1e150, whose exact sums are about 1,500 bits wide
// (3,000 for the squares).
func BenchmarkFloatAcc(b *testing.B) {
	sets := map[string][]float64{
		"narrow": {1000000000.001, 1000000000.25, 999999999.5, 1000000001.75, 1000000000.1, 1000000003, 999999998.25, 1000000000.5},
		"wide":   {1000000000.001, 1e15, -2.5e-3, 1e150, 0.1, 3, 7.25, 1e-300},
	}
	for _, name := range []string{"narrow", "wide"} {
		xs := sets[name]
		for _, f := range []plan.AggFunc{plan.AggSum, plan.AggAvg, plan.AggStddevSamp} {
			b.Run(name+"/"+f.String(), func(b *testing.B) {
				acc := newFloatAcc(&aggSpec{Aggregate: Aggregate{Func: f}, in: value.Float8})
				var c stepCtx
				ch := make([]aggChange, 1)
				ch[0].vals = make([]value.Value, 1)
				for i := range 64 {
					ch[0].vals[0], ch[0].w = floatV(xs[i%len(xs)]), 1
					c.nFloat = 0
					if _, err := acc.stage(&c, ch); err != nil {
						b.Fatal(err)
					}
					acc.commit()
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c.nFloat = 0
					ch[0].vals[0], ch[0].w = floatV(xs[i/2%len(xs)]), int64(1-2*(i%2))
					if _, err := acc.stage(&c, ch); err != nil {
						b.Fatal(err)
					}
					acc.commit()
				}
			})
		}
	}
}
