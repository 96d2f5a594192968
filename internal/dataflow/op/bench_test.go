package op

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// BenchmarkFilterMapStep measures one single-row update (a retraction and an
// assertion) through Input → Filter → Map → Integrate, with the Integrate
// already holding n rows. The cost per op should not grow with n beyond the
// B-tree's log n.
func BenchmarkFilterMapStep(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n > 100_000 && testing.Short() {
				b.Skip("large N skipped under -short")
			}
			c := dataflow.NewCircuit()
			f := c.Add(NewFilter(gt{col: 1, c: 0}), c.Input("t"))
			m := c.Add(NewMap([]expr.Expr{col{i: 0}, col{i: 1}}), f)
			v := NewIntegrate()
			c.Add(v, m)

			row := func(k, x int64) value.Row {
				return value.Row{value.NewInt(value.Int8, k), value.NewInt(value.Int8, x)}
			}
			// Load in sorted batches, as a cold start would.
			const batch = 10_000
			buf := make(zset.ZSet, 0, batch)
			deltas := map[string]zset.ZSet{}
			for i := 0; i < n; i += batch {
				buf = buf[:0]
				for k := i; k < i+batch && k < n; k++ {
					buf = append(buf, zset.Entry{Row: row(int64(k), 1), W: 1})
				}
				deltas["t"] = buf
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
			}
			if v.Len() != int64(n) {
				b.Fatalf("loaded %d rows", v.Len())
			}
			cur := make([]int8, n) // current value of each key, minus 1
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := int64(i) * 7919 % int64(n)
				old := int64(cur[k]) + 1
				cur[k] ^= 1
				buf = append(buf[:0],
					zset.Entry{Row: row(k, old), W: -1},
					zset.Entry{Row: row(k, 3-old), W: 1})
				deltas["t"] = buf
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
