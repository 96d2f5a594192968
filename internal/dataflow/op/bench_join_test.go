package op

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/zset"
)

// joinBench builds l(id, k) ⋈ r(k, x) on k with nl left rows (k = id % nr)
// and nr right rows, loaded by one big step.
func joinBench(b *testing.B, nl, nr int) (*dataflow.Circuit, dataflow.NodeID) {
	c := dataflow.NewCircuit()
	j := c.Add(NewInnerJoin(JoinSpec{
		Left:  JoinSide{Name: "l", Arity: 2, Key: []expr.Expr{col{i: 1}}},
		Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{col{i: 0}}},
	}), c.Input("l"), c.Input("r"))
	l := make(zset.ZSet, nl)
	for i := range l {
		l[i] = zset.Entry{Row: ints(int64(i), int64(i%nr)), W: 1}
	}
	r := make(zset.ZSet, nr)
	for i := range r {
		r[i] = zset.Entry{Row: ints(int64(i), 0), W: 1}
	}
	if err := c.Step(map[string]zset.ZSet{"l": l, "r": r}); err != nil {
		b.Fatal(err)
	}
	return c, j
}

// BenchmarkInnerJoinStep measures a single-row update on either side of an
// inner join of N left rows to N/10 right rows (key = id % (N/10)): a left
// change meets one right row, a right change ten left rows. The cost per op
// should not grow with N beyond the B-trees' log N.
func BenchmarkInnerJoinStep(b *testing.B) {
	for _, side := range []string{"left", "right"} {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			b.Run(fmt.Sprintf("side=%s/N=%d", side, n), func(b *testing.B) {
				if n > 100_000 && testing.Short() {
					b.Skip("large N skipped under -short")
				}
				nr := n / 10
				c, j := joinBench(b, n, nr)
				cur := make([]int8, n) // left: k's offset; right: x
				buf := make(zset.ZSet, 2)
				deltas := map[string]zset.ZSet{}
				var outRows int64
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					delete(deltas, "l")
					delete(deltas, "r")
					if side == "left" {
						// Move left row id to the next key and back.
						id := int64(i) * 7919 % int64(n)
						k := (id + int64(cur[id])) % int64(nr)
						cur[id] ^= 1
						k2 := (id + int64(cur[id])) % int64(nr)
						buf[0] = zset.Entry{Row: ints(id, k), W: -1}
						buf[1] = zset.Entry{Row: ints(id, k2), W: 1}
						deltas["l"] = buf
					} else {
						// Update right row k's payload.
						k := int64(i) * 7919 % int64(nr)
						x := int64(cur[k])
						cur[k] ^= 1
						buf[0] = zset.Entry{Row: ints(k, x), W: -1}
						buf[1] = zset.Entry{Row: ints(k, 1-x), W: 1}
						deltas["r"] = buf
					}
					if err := c.Step(deltas); err != nil {
						b.Fatal(err)
					}
					outRows += int64(len(c.Output(j)))
				}
				b.ReportMetric(float64(outRows)/float64(b.N), "outrows/op")
			})
		}
	}
}

// BenchmarkJoinFanout measures a right-side update that meets 1,000 left
// rows: the cost is proportional to the output, reported per output row.
func BenchmarkJoinFanout(b *testing.B) {
	const fan = 1000
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n > 100_000 && testing.Short() {
				b.Skip("large N skipped under -short")
			}
			nr := n / fan
			c, j := joinBench(b, n, nr)
			cur := make([]int8, nr)
			buf := make(zset.ZSet, 2)
			deltas := map[string]zset.ZSet{"r": buf}
			var outRows int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := int64(i) * 7919 % int64(nr)
				x := int64(cur[k])
				cur[k] ^= 1
				buf[0] = zset.Entry{Row: ints(k, x), W: -1}
				buf[1] = zset.Entry{Row: ints(k, 1-x), W: 1}
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
				outRows += int64(len(c.Output(j)))
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(outRows), "ns/outrow")
			b.ReportMetric(float64(outRows)/float64(b.N), "outrows/op")
		})
	}
}
