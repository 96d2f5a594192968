package op

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// batchBench holds n rows (id, k = id % 100,000, val, name) of which steps of size changes
// replace the val of rows drawn at random (each row at most once a step),
// the retraction carrying the row held, as a table's change does.
type batchBench struct {
	cur  []value.Row
	seed uint64
	seen []int32 // the step in which a row last changed
	step int32
}

func newBatchBench(n int) *batchBench {
	bb := &batchBench{cur: make([]value.Row, n), seed: 1, seen: make([]int32, n)}
	for i := range bb.cur {
		bb.cur[i] = bb.row(int64(i), int64(i))
	}
	return bb
}

func (bb *batchBench) row(id, val int64) value.Row {
	return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int8, id%100_000),
		value.NewInt(value.Int8, val), value.NewText(value.Text, fmt.Sprintf("name-%d", id))}
}

// load returns the rows as one batch.
func (bb *batchBench) load() zset.ZSet {
	z := make(zset.ZSet, len(bb.cur))
	for i, r := range bb.cur {
		z[i] = zset.Entry{Row: r, W: 1}
	}
	return z
}

// changes appends size changes (2·size entries) to buf.
func (bb *batchBench) changes(buf zset.ZSet, size int) zset.ZSet {
	bb.step++
	for range size {
		var id int
		for {
			bb.seed ^= bb.seed << 13
			bb.seed ^= bb.seed >> 7
			bb.seed ^= bb.seed << 17
			if id = int(bb.seed % uint64(len(bb.cur))); bb.seen[id] != bb.step {
				break
			}
		}
		bb.seen[id] = bb.step
		old := bb.cur[id]
		bb.cur[id] = bb.row(int64(id), old[2].Int()+1)
		buf = append(buf, zset.Entry{Row: old, W: -1}, zset.Entry{Row: bb.cur[id], W: 1})
	}
	return buf
}

// cpuNanos returns the CPU time the process has used, the collector's
// included: on a loaded machine it says more than the wall clock.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkBatchIntegrate measures changes through Input → Filter →
// Integrate holding 1M rows, stepped one change at a time and in batches.
// An op is one change; cpu-ns/op is the process's CPU time per change. A
// change in a big batch should cost less than one alone: the batch's rows
// are found a group at a time (counts.findAll).
func BenchmarkBatchIntegrate(b *testing.B) {
	if testing.Short() {
		b.Skip("1M rows skipped under -short")
	}
	const n = 1_000_000
	bb := newBatchBench(n)
	c := dataflow.NewCircuit()
	f := c.Add(NewFilter(gt{col: 2, c: -1}), c.Input("t"))
	v := NewIntegrate()
	c.Add(v, f)
	if err := c.Step(map[string]zset.ZSet{"t": bb.load()}); err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1, 100, 10_000} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			buf := make(zset.ZSet, 0, 2*size)
			deltas := map[string]zset.ZSet{}
			b.ReportAllocs()
			runtime.GC()
			b.ResetTimer()
			cpu0 := cpuNanos()
			for i := 0; i < b.N; i += size {
				deltas["t"] = bb.changes(buf[:0], size)
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
	if v.Len() != n {
		b.Fatalf("holds %d rows", v.Len())
	}
}

// BenchmarkBatchJoin measures changes to the left input of a join of 1M
// rows on k to 100,000 right rows, stepped one change at a time and in
// batches. An op is one change; cpu-ns/op is the process's CPU time per
// change. A big batch's lookups are made a group at a time
// (Arrangement.Touch).
func BenchmarkBatchJoin(b *testing.B) {
	if testing.Short() {
		b.Skip("1M rows skipped under -short")
	}
	const n = 1_000_000
	bb := newBatchBench(n)
	c := dataflow.NewCircuit()
	j := c.Add(NewInnerJoin(JoinSpec{
		Left:  JoinSide{Name: "l", Arity: 4, Key: []expr.Expr{col{i: 1}}},
		Right: JoinSide{Name: "r", Arity: 2, Key: []expr.Expr{col{i: 0}}},
	}), c.Input("l"), c.Input("r"))
	c.Add(NewIntegrate(), j)
	r := make(zset.ZSet, 100_000)
	for i := range r {
		r[i] = zset.Entry{Row: ints(int64(i), int64(i)), W: 1}
	}
	if err := c.Step(map[string]zset.ZSet{"l": bb.load(), "r": r}); err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1, 100, 10_000} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			buf := make(zset.ZSet, 0, 2*size)
			deltas := map[string]zset.ZSet{}
			b.ReportAllocs()
			runtime.GC()
			b.ResetTimer()
			cpu0 := cpuNanos()
			for i := 0; i < b.N; i += size {
				deltas["l"] = bb.changes(buf[:0], size)
				if err := c.Step(deltas); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
