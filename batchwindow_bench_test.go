package deltaview_test

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"

	"github.com/deltaview/deltaview/bench"
)

// BenchmarkBatchWindows runs, on each of the harness's views, what the
// harness runs before its batches of 10,000 (bench.Run: a forced
// collection, the view's creation, a second of single changes, half a
// second of batches of 100), then b.N batches of 10,000, each drawn before
// it is timed: an op is one batch. It reports what the harness's window of
// batches would give depending on where it falls: the CPU of the thread
// that applies the batches (locked to it: the mutator's own time, about
// the wall clock at rest, the collector's marking running on the other
// core) over every run of consecutive batches that 500 ms and 2 s of that
// time hold, the lowest and highest throughput of each (Kchg/s), the
// median batch's (steady-ns/chg a change), and the batches a collection
// ended in; and the same over every run of 3·N changes, the least the
// harness's window holds when the rate allows (bench.windowDone). Run
// with -benchtime 300x or more at 1M rows (600x for the 3·N windows): a
// collection comes about every 100 batches there.
func BenchmarkBatchWindows(b *testing.B) {
	d, sys := harnessData(b)
	var buf []bench.Change
	apply := func(v bench.View, size int) {
		buf = d.BatchInto(buf, size)
		if err := sys.Apply(v, buf); err != nil {
			b.Fatal(err)
		}
	}
	for _, v := range bench.Views {
		b.Run(v.Name, func(b *testing.B) {
			runtime.GC()
			if err := sys.CreateView(v); err != nil {
				b.Fatal(err)
			}
			defer func() {
				if err := sys.DropView(v); err != nil {
					b.Fatal(err)
				}
			}()
			for t0 := time.Now(); time.Since(t0) < time.Second; {
				apply(v, 1)
			}
			for t0 := time.Now(); time.Since(t0) < 500*time.Millisecond; {
				apply(v, 100)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := make([]int64, 0, b.N) // thread CPU ns a batch
			collected := 0
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				buf = d.BatchInto(buf, 10_000)
				b.StartTimer()
				g0, c0 := gcCycles(), threadCPUTime()
				if err := sys.Apply(v, buf); err != nil {
					b.Fatal(err)
				}
				cpu = append(cpu, threadCPUTime()-c0)
				if gcCycles() != g0 {
					collected++
				}
			}
			b.StopTimer()
			sorted := slices.Sorted(slices.Values(cpu))
			median := max(sorted[len(sorted)/2], 1)
			b.ReportMetric(float64(median)/10_000, "steady-ns/chg")
			b.ReportMetric(float64(collected), "collected-batches")
			for _, w := range []struct {
				name    string
				span    time.Duration
				batches int // when not 0, the window's batches rather than its span
			}{{"500ms", 500 * time.Millisecond, 0}, {"2s", 2 * time.Second, 0}, {"3N", 0, 3 * d.N / 10_000}} {
				k := max(int(int64(w.span)/median), w.batches, 1)
				if k > len(cpu) {
					continue
				}
				lo, hi := windowRates(cpu, k)
				b.ReportMetric(lo/1e3, "win"+w.name+"-min-Kchg/s")
				b.ReportMetric(hi/1e3, "win"+w.name+"-max-Kchg/s")
			}
		})
	}
}

// windowRates returns the lowest and highest changes a second over every
// run of k consecutive batches of 10,000 changes, each taking cpu[i] ns.
func windowRates(cpu []int64, k int) (lo, hi float64) {
	var sum int64
	for i, c := range cpu {
		sum += c
		if i >= k {
			sum -= cpu[i-k]
		}
		if i < k-1 || sum == 0 {
			continue
		}
		r := float64(k) * 10_000 / (float64(sum) / 1e9)
		if lo == 0 || r < lo {
			lo = r
		}
		hi = max(hi, r)
	}
	return lo, hi
}

// gcCycles returns the collections the runtime has completed.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
