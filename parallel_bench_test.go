package deltaview_test

import (
	"cmp"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/engine"
)

// BenchmarkParallelViews runs one commit stream (grp and val of random
// ids, replaced by key, in transactions of 100 and 10,000 changes) over
// four views of t, 1M rows (100k under -short), with the views prepared
// by one goroutine and by two: an op is one change, so the two workers=
// figures of one batch size compare directly. Every run continues the
// one stream, so that each writes values the rows do not hold yet: a run
// that replayed another's changes would measure changes that cancel.
// ns/op is the wall clock,
// what two workers shorten; cpu-ns/op the process's CPU time per change,
// what they cost; gcs the collections that fell in the run (one comes
// every 1.2M changes or so, after the collection forced before the run:
// runs of fewer changes have none), gc-ns/op the collector's CPU time by
// the runtime's estimate; waits/commit the threads that went to sleep a
// commit, each a hand-off through the kernel (-bench.untraced: without
// the trace's locked threads); relayed/commit the tasks of parallel
// waves that found the relay's goroutine waiting, started/commit those
// that started it (each a wake-up of an idle core when one is idle).
//
// The commits' schedule is traced by each thread's CPU clock, which the
// machine's load moves far less than the wall clock: work-ns/op is all
// the stream's work (the changes' calls, the commits, every task of every
// wave, the indexes' commits left to run past their commits' ends),
// span-ns/op its critical path (the serial parts, each wave's busiest
// worker, and the waits for an index commit still running when the next
// commit starts), and speedup their ratio, what the schedule allows on
// idle cores. DELTAVIEW_TRACE_PARTS=1 logs the time of each part.
func BenchmarkParallelViews(b *testing.B) {
	benchParallel(b, `
		CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 100000;
		CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*), sum(val), min(val), max(val) FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW counted AS SELECT grp, count(*) FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW top AS SELECT id, grp, val FROM t WHERE grp < 500 ORDER BY val DESC, id LIMIT 50;`)
}

// BenchmarkParallelGroupBy is BenchmarkParallelViews's stream over its
// grouping alone: one view, whose big steps split among the workers.
func BenchmarkParallelGroupBy(b *testing.B) {
	benchParallel(b, `
		CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*), sum(val), min(val), max(val) FROM t GROUP BY grp;`)
}

func benchParallel(b *testing.B, views string) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	db := deltaview.Open()
	err := db.Exec(fmt.Sprintf(`
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL, pad text);
		INSERT INTO t SELECT g, g %% 1000, (g::bigint * 7919) %% 1000000, 'padding-padding-pad' FROM generate_series(1, %d) g;`, n) + views)
	if err != nil {
		b.Fatal(err)
	}
	pad := deltaview.Text("padding-padding-pad")
	// A bulk load leaves the shared index's leaves full, so that the first
	// 200,000 or so changes split most of them: that is the cold start's
	// cost, not the stream's, which starts after as many changes as the
	// table has rows.
	warm := rand.New(rand.NewPCG(3, 4))
	for range max(n/10_000, 20) {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for range 10_000 {
			if err := tx.Replace("t", deltaview.Int(int64(warm.IntN(n)+1)), deltaview.Int(warm.Int64N(1000)), deltaview.Int(warm.Int64N(1000000)), pad); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	// One stream for every run: a run that replayed another's changes
	// would find most rows already holding the values it writes, changes
	// that cancel at the table's batch and that no view sees.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{100, 10_000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("batch=%d/workers=%d", size, workers), func(b *testing.B) {
				db.SetWorkers(workers)
				commit := func(changes int) {
					tx, err := db.Begin()
					if err != nil {
						b.Fatal(err)
					}
					for range changes {
						id := rng.IntN(n) + 1
						err := tx.Replace("t", deltaview.Int(int64(id)), deltaview.Int(rng.Int64N(1000)), deltaview.Int(rng.Int64N(1000000)), pad)
						if err != nil {
							b.Fatal(err)
						}
					}
					if err := tx.Commit(); err != nil {
						b.Fatal(err)
					}
				}
				// The first commits after the cold start, or after the
				// other benchmark, touch state that the stream's own
				// commits keep warm.
				for range 3 {
					commit(size)
				}
				var tr *engine.ScheduleTrace
				if !*parallelUntraced {
					// The thread's clock is this goroutine's.
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					tr = &engine.ScheduleTrace{Clock: threadTime}
					deltaview.SetScheduleTrace(db, tr)
					defer deltaview.SetScheduleTrace(db, nil)
				}
				b.ReportAllocs()
				// The cold start's garbage is not the changes' work.
				runtime.GC()
				b.ResetTimer()
				rt0 := readRuntimeCounters()
				relayed0, started0 := deltaview.Relayed(db)
				cpu0, th0 := cpuTime(), threadTime()
				for i := 0; i < b.N; i += size {
					commit(min(size, b.N-i))
				}
				cpu, th := cpuTime()-cpu0, threadTime()-th0
				rt := readRuntimeCounters().sub(rt0)
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(rt.gcCycles), "gcs")
				b.ReportMetric(float64(rt.gcCPU)/float64(b.N), "gc-ns/op")
				b.ReportMetric(float64(rt.switches)*float64(size)/float64(b.N), "waits/commit")
				relayed, started := deltaview.Relayed(db)
				b.ReportMetric(float64(relayed-relayed0)*float64(size)/float64(b.N), "relayed/commit")
				b.ReportMetric(float64(started-started0)*float64(size)/float64(b.N), "started/commit")
				if tr == nil {
					return
				}
				// The committing thread did the serial work and its own
				// share of the waves.
				serial := th - tr.InWaves
				work, span := serial+tr.WaveWork+tr.Behind, serial+tr.WaveSpan+tr.Waited
				b.ReportMetric(float64(work)/float64(b.N), "work-ns/op")
				b.ReportMetric(float64(span)/float64(b.N), "span-ns/op")
				b.ReportMetric(float64(work)/float64(span), "speedup")
				if os.Getenv("DELTAVIEW_TRACE_PARTS") != "" && b.N >= 10*size {
					logParts(b, tr, th-tr.Commit, serial)
				}
			})
		}
	}
}

// parallelUntraced makes BenchmarkParallelViews and
// BenchmarkParallelGroupBy run without the schedule's trace: the trace
// locks the goroutines of a commit's work to their threads, so that every
// wait of one (a wave's end, the commit left behind) hands its thread's
// core over through the kernel, and reads a thread's clock by a system
// call at every task and phase. The wall clock at rest is measured
// untraced; the trace's figures say where the time goes.
var parallelUntraced = flag.Bool("bench.untraced", false, "BenchmarkParallelViews, BenchmarkParallelGroupBy: no schedule trace (the wall clock as the engine runs it)")

// runtimeCounters are the process's counters that a commit stream's
// figures leave out of the threads' clocks: the collections, the
// collector's CPU time by the runtime's estimate (the time its workers
// held a processor, so that a loaded machine inflates it as it does the
// wall clock), and the voluntary context switches, each a thread that
// went to sleep waiting (for a goroutine of a wave, the commit left
// behind, or work to run).
type runtimeCounters struct {
	gcCycles, gcCPU, switches int64
}

func readRuntimeCounters() runtimeCounters {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	var c runtimeCounters
	if s[0].Value.Kind() == metrics.KindUint64 {
		c.gcCycles = int64(s[0].Value.Uint64())
	}
	if s[1].Value.Kind() == metrics.KindFloat64 {
		c.gcCPU = int64(s[1].Value.Float64() * 1e9)
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		c.switches = ru.Nvcsw
	}
	return c
}

func (c runtimeCounters) sub(d runtimeCounters) runtimeCounters {
	return runtimeCounters{c.gcCycles - d.gcCycles, c.gcCPU - d.gcCPU, c.switches - d.switches}
}

// logParts logs the time per change of each part of a traced stream,
// calls the time of the changes' calls outside commits, and of what the
// critical path adds up: the committing thread's serial time, the waves'
// busiest workers, the waits for the commits left behind.
func logParts(b *testing.B, tr *engine.ScheduleTrace, calls, serial int64) {
	parts := maps.Clone(tr.Parts)
	parts["calls (table updates)"] = calls
	names := slices.Sorted(maps.Keys(parts))
	slices.SortStableFunc(names, func(x, y string) int { return cmp.Compare(parts[y], parts[x]) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %d commits, %d parallel waves; ns per change:", b.Name(), tr.Commits, tr.Waves)
	perChange := func(ns int64) float64 { return float64(ns) / float64(b.N) }
	fmt.Fprintf(&sb, "\n\tpath: serial %.0f + waves' busiest %.0f + waited %.0f; waves' work %.0f, behind %.0f",
		perChange(serial), perChange(tr.WaveSpan), perChange(tr.Waited), perChange(tr.WaveWork), perChange(tr.Behind))
	kinds := slices.Sorted(maps.Keys(tr.ByWave))
	for _, k := range kinds {
		fmt.Fprintf(&sb, "\n\twaves %-22s work %6.0f, busiest %6.0f", k, perChange(tr.ByWave[k].Work()), perChange(tr.ByWave[k].Span()))
	}
	for _, name := range names {
		fmt.Fprintf(&sb, "\n\t%-28s %8.0f", name, float64(parts[name])/float64(b.N))
	}
	// Printed, not logged: a benchmark's log is cut at a few lines.
	fmt.Println(sb.String())
}

// threadTime returns the calling thread's CPU time in nanoseconds.
func threadTime() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return ts.Nano()
}
