package engine

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/value"
)

// agedRows returns a row store of n rows of five values, as the harness's
// table t holds them, after k replaces by random id (each a new row, as
// a transaction's Replace makes) and a collection.
func agedRows(n, k int) *rowStore {
	s := newRowStore()
	s.grow(n)
	row := func(id int, r *rand.Rand) value.Row {
		i := func(n int) value.Value { return value.NewInt(value.Int4, int64(n)) }
		return value.Row{i(id), i(r.IntN(1000)), i(id % 1000), i(r.IntN(1_000_000)), value.NewText(value.Text, "padding-"+itoa(id))}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for id := 1; id <= n; id++ {
		s.Set(uint64(id), row(id, r))
	}
	for range k {
		id := 1 + r.IntN(n)
		s.Set(uint64(id), row(id, r))
	}
	runtime.GC()
	return s
}

func rusage() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// BenchmarkRowStoreLayout measures a layout of 1M aged rows (100k under
// -short), and a pass over them in id order before and after it, as a
// cold start's feed reads them: user-ms and sys-ms are the process's CPU
// time in each, per op. The rows have seen 3n replaces (all but 5 % of
// them moved: the layout copies them) or n/5 (18 % moved, about what the
// harness's runs of one view leave).
func BenchmarkRowStoreLayout(b *testing.B) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	for _, c := range []struct {
		name string
		k    int
	}{{"replaced=3n", 3 * n}, {"replaced=n/5", n / 5}} {
		b.Run(c.name, func(b *testing.B) { benchLayout(b, n, c.k) })
	}
}

func benchLayout(b *testing.B, n, k int) {
	var sum int64
	pass := func(s *rowStore) {
		s.Scan(func(_ uint64, r value.Row) bool {
			sum += r[3].Int()
			return true
		})
	}
	var layoutWall, passBefore, layout, passAfter, layoutSys time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := agedRows(n, k)
		b.StartTimer()
		t0 := time.Now()
		pass(s)
		t1 := time.Now()
		u0, s0 := rusage()
		// The layout's own work: the collection its allocation brings
		// forward is not counted.
		gc := debug.SetGCPercent(-1)
		tl := time.Now()
		s.layout()
		layoutWall += time.Since(tl)
		u1, s1 := rusage()
		debug.SetGCPercent(gc)
		t2 := time.Now()
		pass(s)
		t3 := time.Now()
		passBefore += t1.Sub(t0)
		layout += u1 - u0
		layoutSys += s1 - s0
		passAfter += t3.Sub(t2)
	}
	b.ReportMetric(float64(passBefore.Microseconds())/1e3/float64(b.N), "pass-before-ms")
	b.ReportMetric(float64(layout.Microseconds())/1e3/float64(b.N), "layout-user-ms")
	b.ReportMetric(float64(layoutSys.Microseconds())/1e3/float64(b.N), "layout-sys-ms")
	b.ReportMetric(float64(layoutWall.Microseconds())/1e3/float64(b.N), "layout-wall-ms")
	b.ReportMetric(float64(passAfter.Microseconds())/1e3/float64(b.N), "pass-after-ms")
	if sum == 42 {
		b.Log(sum)
	}
}
