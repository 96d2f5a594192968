package deltaview_test

import (
	"context"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/deltaview/deltaview/bench"
)

// BenchmarkColdStart creates each of the harness's views over its data
// (bench.NewData: t at 1M rows and u at 100k, 100k and 10k under -short)
// and drops it again: an op is one view's creation. cpu-ms/op is the
// process's CPU time per creation, the collector's included, so that its
// ratio to the wall time says how much of both cores the build used; it
// is read before and after each creation, so that the collections forced
// between creations, and the drops, are not counted. sys-ms/op and
// faults/op are the part of it spent in the kernel and the minor page
// faults taken, read the same way: a build's fresh memory costs a fault
// per page. heap-MB is the Go heap in use after the view is built and the
// garbage collected.
func BenchmarkColdStart(b *testing.B) {
	_, sys := harnessData(b)
	coldStarts(b, sys)
}

// BenchmarkColdStartAged is BenchmarkColdStart over a table that has
// lived: before the first creation, t's rows are replaced by key through
// the Go API as the harness's runs of the views before the last replace
// them (3M changes at 1M rows, in transactions of 1, 100 and 10,000
// changes), and the garbage collected. A build over such a table should
// cost what it costs over a freshly loaded one.
func BenchmarkColdStartAged(b *testing.B) {
	d, sys := harnessData(b)
	for _, size := range []int{1, 100, 10_000} {
		for range d.N / size {
			if err := sys.Apply(bench.View{}, d.Batch(size)); err != nil {
				b.Fatal(err)
			}
		}
	}
	runtime.GC()
	coldStarts(b, sys)
}

// coldStarts creates and drops each of the harness's views, as an op.
func coldStarts(b *testing.B, s *bench.Deltaview) {
	for _, v := range bench.Views {
		b.Run(v.Name, func(b *testing.B) {
			var heap float64
			var wall time.Duration
			var cpu, sys, faults int64
			runtime.GC()
			b.ResetTimer()
			pprof.Do(context.Background(), pprof.Labels("view", v.Name), func(context.Context) {
				for i := 0; i < b.N; i++ {
					ru0 := selfUsage()
					cpu0, t0 := cpuTime(), time.Now()
					if err := s.CreateView(v); err != nil {
						b.Fatal(err)
					}
					wall += time.Since(t0)
					cpu += cpuTime() - cpu0
					ru1 := selfUsage()
					sys += ru1.Stime.Nano() - ru0.Stime.Nano()
					faults += ru1.Minflt - ru0.Minflt
					b.StopTimer()
					if i == 0 {
						var ms runtime.MemStats
						runtime.GC()
						runtime.ReadMemStats(&ms)
						heap = float64(ms.HeapAlloc) / 1e6
					}
					if err := s.DropView(v); err != nil {
						b.Fatal(err)
					}
					runtime.GC()
					b.StartTimer()
				}
			})
			b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(wall.Microseconds())/1e3/float64(b.N), "wall-ms/op")
			b.ReportMetric(float64(sys)/1e6/float64(b.N), "sys-ms/op")
			b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
			b.ReportMetric(heap, "heap-MB")
		})
	}
}

// BenchmarkColdStartMoved is BenchmarkColdStart over a table half of
// whose rows moved since its last layout: before each creation, off the
// clock, 500,000 rows of t (50,000 under -short) are replaced by key
// through the Go API in transactions of 10,000, as the harness's runs of
// the view before replace them, and the garbage collected. An op is one
// view's creation; thread-ms/op is the CPU time of the thread that runs
// it, the build's goroutine locked to it: on a machine with a core free
// for the helpers (a copy beside the feed, an index loaded beside it),
// about the build's wall time, whatever the load of the machine.
func BenchmarkColdStartMoved(b *testing.B) {
	d, s := harnessData(b)
	for _, v := range bench.Views {
		b.Run(v.Name, func(b *testing.B) {
			var wall time.Duration
			var cpu, thread, sys, faults int64
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			pprof.Do(context.Background(), pprof.Labels("view", v.Name), func(context.Context) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					for range d.N / 2 / 10_000 {
						if err := s.Apply(bench.View{}, d.Batch(10_000)); err != nil {
							b.Fatal(err)
						}
					}
					runtime.GC()
					b.StartTimer()
					ru0 := selfUsage()
					cpu0, thread0, t0 := cpuTime(), threadCPUTime(), time.Now()
					if err := s.CreateView(v); err != nil {
						b.Fatal(err)
					}
					wall += time.Since(t0)
					cpu += cpuTime() - cpu0
					thread += threadCPUTime() - thread0
					ru1 := selfUsage()
					sys += ru1.Stime.Nano() - ru0.Stime.Nano()
					faults += ru1.Minflt - ru0.Minflt
					b.StopTimer()
					if err := s.DropView(v); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			})
			b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(thread)/1e6/float64(b.N), "thread-ms/op")
			b.ReportMetric(float64(sys)/1e6/float64(b.N), "sys-ms/op")
			b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
			b.ReportMetric(float64(wall.Microseconds())/1e3/float64(b.N), "wall-ms/op")
		})
	}
}
