package deltaview_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/bench"
	"github.com/deltaview/deltaview/internal/engine"
)

// loadFiltered creates t(id PK, grp, val, pad) with n rows and the view
// SELECT id, grp, val FROM t WHERE val < 100000.
func loadFiltered(tb testing.TB, n int) *deltaview.DB {
	tb.Helper()
	db := deltaview.Open()
	err := db.Exec(fmt.Sprintf(`
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL, pad text);
		INSERT INTO t SELECT g, g %% 1000, (g::bigint * 7919) %% 1000000, 'padding-padding-pad' FROM generate_series(1, %d) g;
		CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 100000;`, n))
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

// change updates one random row's grp and val through the typed API: one
// transaction, one retraction and one assertion into the view's circuit.
func change(tb testing.TB, db *deltaview.DB, rng *rand.Rand, n int, vals []int64) {
	id := rng.IntN(n) + 1
	old := vals[id]
	nv := rng.Int64N(1000000)
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	pad := deltaview.Text("padding-padding-pad")
	err = tx.Update("t",
		[]deltaview.Value{deltaview.Int(int64(id)), deltaview.Int(int64(id % 1000)), deltaview.Int(old), pad},
		[]deltaview.Value{deltaview.Int(int64(id)), deltaview.Int(int64(id % 1000)), deltaview.Int(nv), pad})
	if err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	vals[id] = nv
}

func initialVals(n int) []int64 {
	vals := make([]int64, n+1)
	for g := 1; g <= n; g++ {
		vals[g] = int64(g*7919) % 1000000
	}
	return vals
}

// BenchmarkFilteredProjection measures one single-row change to a filtered
// projection view over N rows. The cost must be flat in N.
func BenchmarkFilteredProjection(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if testing.Short() && n > 100_000 {
				b.Skip("N=1M skipped under -short")
			}
			db := loadFiltered(b, n)
			vals := initialVals(n)
			rng := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				change(b, db, rng, n, vals)
			}
		})
	}
}

// TestFilteredProjectionAllocsFlat checks, without timing anything, that the
// allocations of a single-row change do not grow with the table: they are
// the same at N = 1k and N = 50k.
func TestFilteredProjectionAllocsFlat(t *testing.T) {
	allocs := func(n int) float64 {
		db := loadFiltered(t, n)
		vals := initialVals(n)
		rng := rand.New(rand.NewPCG(1, 2))
		return testing.AllocsPerRun(200, func() { change(t, db, rng, n, vals) })
	}
	small, large := allocs(1_000), allocs(50_000)
	t.Logf("allocations per change: N=1k %.1f, N=50k %.1f", small, large)
	if large > small*1.2+2 {
		t.Fatalf("allocations per change grow with N: %.1f at 1k, %.1f at 50k", small, large)
	}
}

// benchView loads t(id PK 1..N, grp, k, val, pad) and u(id PK 1..N/10,
// name, region), creates one view, and measures one single-row change to t
// (grp and val of a random id, replaced by key) per op.
func benchView(b *testing.B, view string) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if testing.Short() && n > 100_000 {
				b.Skip("N=1M skipped under -short")
			}
			db := deltaview.Open()
			err := db.Exec(fmt.Sprintf(`
				CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, k int NOT NULL, val int NOT NULL, pad text);
				CREATE TABLE u (id int PRIMARY KEY, name text, region text);
				INSERT INTO t SELECT g, g %% 1000, 1 + g %% %d, (g::bigint * 7919) %% 1000000, 'padding-padding-pad' FROM generate_series(1, %d) g;
				INSERT INTO u SELECT g, 'name' || g, 'region' || (g %% 10) FROM generate_series(1, %d) g;
				CREATE MATERIALIZED VIEW v AS %s;`, n/10, n, n/10, view))
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			pad := deltaview.Text("padding-padding-pad")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				id := rng.IntN(n) + 1
				ng, nv := rng.Int64N(1000), rng.Int64N(1000000)
				k := deltaview.Int(int64(1 + id%(n/10)))
				tx, _ := db.Begin()
				err := tx.Replace("t", deltaview.Int(int64(id)), deltaview.Int(ng), k, deltaview.Int(nv), pad)
				if err != nil {
					b.Fatal(err)
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkJoinView(b *testing.B) {
	benchView(b, "SELECT t.id, t.val, u.name FROM t JOIN u ON t.k = u.id")
}

func BenchmarkGroupByView(b *testing.B) {
	benchView(b, "SELECT grp, count(*), sum(val), min(val), max(val) FROM t GROUP BY grp")
}

func BenchmarkTopKView(b *testing.B) {
	benchView(b, "SELECT id, grp, val FROM t WHERE grp < 500 ORDER BY val DESC, id LIMIT 50")
}

func BenchmarkGroupCountView(b *testing.B) {
	benchView(b, "SELECT grp, count(*) FROM t GROUP BY grp")
}

// cpuTime returns the CPU time the process has used (user and system, the
// garbage collector's included), in nanoseconds: on a shared machine it
// says more about the work done than the wall clock does.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// harnessData loads the harness's data (bench.NewData: t at 1M rows and u
// at 100k, 100k and 10k under -short) into a deltaview system.
// eachReplace makes harnessData's system replace a batch's rows one call
// each rather than in one ReplaceRows, to compare the two in one run.
var eachReplace = flag.Bool("bench.eachreplace", false, "harness benchmarks: replace a batch's rows one Tx.Replace each")

// benchWorkers sets the engine's workers for the harness's benchmarks
// after the load (0 leaves the engine's default, GOMAXPROCS), to compare
// one worker with two in one binary.
var benchWorkers = flag.Int("bench.workers", 0, "harness benchmarks: the engine's workers (DB.SetWorkers) after the load")

// benchTrace makes BenchmarkBatches trace its commits' schedule by the
// threads' CPU clocks (engine.ScheduleTrace, as BenchmarkParallelViews
// does): work-ns/op, span-ns/op and their ratio, speedup, which says
// whatever the load what the second core gave. A clock reading a phase
// adds to every commit: the other figures are not comparable with an
// untraced run's.
var benchTrace = flag.Bool("bench.trace", false, "BenchmarkBatches: trace the commits' schedule by the threads' CPU clocks")

func harnessData(b *testing.B) (*bench.Data, *bench.Deltaview) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	d := bench.NewData(n)
	sys := &bench.Deltaview{EachReplace: *eachReplace, Workers: *benchWorkers}
	if err := sys.Load(d); err != nil {
		b.Fatal(err)
	}
	return d, sys
}

// BenchmarkBatches measures the harness's workload (bench.NewData: t and
// u at 1M rows, 100k under -short; a change sets grp and val of a random
// id, replaced by key through the Go API) in transactions of 1, 100 and
// 10,000 changes, on each of the harness's views: an op is one change, so
// the figures of the three batch sizes compare directly, and a batch path
// that works shows falling ns/op as batches grow. cpu-ns/op is the
// process's CPU time per change, the collector's included and the draw of
// the changes (done off the clock) not; draw-ns/op is the draw's.
func BenchmarkBatches(b *testing.B) {
	d, sys := harnessData(b)
	for _, v := range bench.Views {
		b.Run(v.Name, func(b *testing.B) {
			if err := sys.CreateView(v); err != nil {
				b.Fatal(err)
			}
			defer func() {
				if err := sys.DropView(v); err != nil {
					b.Fatal(err)
				}
			}()
			for _, size := range []int{1, 100, 10_000} {
				b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
					changes := make([]bench.Change, 0, max(size, drawChunk))
					b.ReportAllocs()
					// The draw's CPU is taken from this thread's clock.
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					// The view's cold start leaves garbage whose
					// collection is not the changes' work.
					var tr *engine.ScheduleTrace
					if *benchTrace {
						tr = &engine.ScheduleTrace{Clock: threadTime}
						deltaview.SetScheduleTrace(sys.DB(), tr)
						defer deltaview.SetScheduleTrace(sys.DB(), nil)
					}
					runtime.GC()
					b.ResetTimer()
					cpu0, drawn, th0 := cpuTime(), int64(0), threadTime()
					// Labelled, so that a CPU profile splits by view and
					// size (go tool pprof -tagfocus view=topk).
					pprof.Do(context.Background(), pprof.Labels("view", v.Name, "batch", strconv.Itoa(size)), func(context.Context) {
						for i := 0; i < b.N; {
							// Drawn off the clock, as the harness draws a
							// batch before it times it: the draw (a random
							// write into the million-row oracle) is not the
							// engine's work.
							t0 := threadCPUTime()
							b.StopTimer()
							changes = changes[:0]
							for ; len(changes) < cap(changes) && i < b.N; i++ {
								changes = append(changes, d.Next())
							}
							b.StartTimer()
							drawn += threadCPUTime() - t0
							for batch := range slices.Chunk(changes, size) {
								if err := sys.Apply(v, batch); err != nil {
									b.Fatal(err)
								}
							}
						}
					})
					b.ReportMetric(float64(cpuTime()-cpu0-drawn)/float64(b.N), "cpu-ns/op")
					b.ReportMetric(float64(drawn)/float64(b.N), "draw-ns/op")
					if tr != nil {
						// As benchParallel's: the committing thread's
						// serial work, the draw's aside, plus the waves'
						// and the commits left behind.
						serial := threadTime() - th0 - drawn - tr.InWaves
						work, span := serial+tr.WaveWork+tr.Behind, serial+tr.WaveSpan+tr.Waited
						b.ReportMetric(float64(work)/float64(b.N), "work-ns/op")
						b.ReportMetric(float64(span)/float64(b.N), "span-ns/op")
						b.ReportMetric(float64(work)/float64(span), "speedup")
						if os.Getenv("DELTAVIEW_TRACE_PARTS") != "" {
							logParts(b, tr, serial-tr.Commit+tr.InWaves, serial)
						}
					}
				})
			}
		})
	}
}

// drawChunk is how many changes BenchmarkBatches draws at a time, off the
// clock, for the smaller batches.
const drawChunk = 10_000

// threadCPUTime returns the CPU time of the calling thread, in ns (0 where
// the system does not tell).
func threadCPUTime() int64 {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD, Linux
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestSingleChangeAllocs checks that a transaction of one change by key
// through the Go API allocates only the row the table stores: the Tx, its
// session, the transaction's log, the table's delta and the views' steps
// are reused from one commit to the next.
func TestSingleChangeAllocs(t *testing.T) {
	db := deltaview.Open()
	err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
		INSERT INTO t SELECT g, g % 100, g FROM generate_series(1, 10000) g;
		CREATE MATERIALIZED VIEW f AS SELECT id, val FROM t WHERE val < 0;`)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		i++
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		id := int64(1 + i%10000)
		if err := tx.Replace("t", deltaview.Int(id), deltaview.Int(int64(i%100)), deltaview.Int(id+int64(i))); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations per change: %.2f", allocs)
	if allocs > 1 {
		t.Fatalf("a change allocates %.2f times, want 1 (the stored row)", allocs)
	}
}

// TestPreparedUpdateAllocs bounds what a prepared UPDATE by primary key
// allocates in a transaction: the new row, and a few small objects to
// find the target (its access path and list) and return the result. A
// statement planned afresh, or a map per WHERE, would exceed it.
func TestPreparedUpdateAllocs(t *testing.T) {
	db := deltaview.Open()
	err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
		INSERT INTO t SELECT g, g % 100, g FROM generate_series(1, 10000) g;
		CREATE MATERIALIZED VIEW f AS SELECT id, val FROM t WHERE val < 0;`)
	if err != nil {
		t.Fatal(err)
	}
	up, err := db.Prepare("UPDATE t SET grp = $1, val = $2 WHERE id = $3")
	if err != nil {
		t.Fatal(err)
	}
	const perTx = 10
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		i++
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for j := range perTx {
			id := int64(1 + (i*perTx+j)%10000)
			if _, err := tx.Exec(up, deltaview.Int(int64(i%100)), deltaview.Int(id+int64(i)), deltaview.Int(id)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}) / perTx
	t.Logf("allocations per UPDATE: %.2f", allocs)
	if allocs > 6 {
		t.Fatalf("an UPDATE by key allocates %.2f times, want at most 6", allocs)
	}
}
