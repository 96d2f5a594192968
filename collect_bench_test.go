package deltaview_test

import (
	"runtime"
	"testing"

	"github.com/deltaview/deltaview/bench"
)

// BenchmarkCollect measures what one garbage collection costs with the
// harness's data loaded (bench.NewData: t at 1M rows, 100k under -short)
// and one of its views, after a million changes in batches of 10,000
// (half the table's rows replaced, out of the load's slabs): an op is one
// collection, forced, and cpu-ms/op the process's CPU for it. Every
// change's allocation brings the next collection nearer, so that a
// change's share of the collector is cpu-ms/op × its bytes ÷ the bytes a
// cycle allows (the live heap, heap-MB, at GOGC=100).
func BenchmarkCollect(b *testing.B) {
	d, sys := harnessData(b)
	for _, v := range bench.Views {
		if v.Name != "filter" && v.Name != "topk" && v.Name != "groupby" && v.Name != "join" {
			continue
		}
		b.Run(v.Name, func(b *testing.B) {
			if err := sys.CreateView(v); err != nil {
				b.Fatal(err)
			}
			defer func() {
				if err := sys.DropView(v); err != nil {
					b.Fatal(err)
				}
			}()
			batch := make([]bench.Change, 10_000)
			for range 100 {
				for i := range batch {
					batch[i] = d.Next()
				}
				if err := sys.Apply(v, batch); err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			b.ResetTimer()
			cpu0 := cpuTime()
			for range b.N {
				runtime.GC()
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
		})
	}
}
