package engine_test

import (
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// The transitive closure of a graph of cycles: components of 8 nodes in a
// ring with one chord (9 edges, 64 pairs in the closure each). Deleting a
// ring edge changes the closure of one component only; the benchmark
// times that deletion (and the insertion that restores it) in the view
// against evaluating the closure from scratch, in the same run.

const tcView = `CREATE MATERIALIZED VIEW tc AS WITH RECURSIVE t(a, b) AS (
  SELECT src, dst FROM edges UNION SELECT t.a, e.dst FROM t JOIN edges e ON t.b = e.src) SELECT a, b FROM t`

const ringSize = 8

func edge(id, src, dst int64) value.Row { return value.Row{i4(id), i4(src), i4(dst)} }

// ringEdges returns component c's edges: the ring, then the chord.
func ringEdges(c int64) []value.Row {
	base, id := c*ringSize, c*(ringSize+1)
	var out []value.Row
	for i := int64(0); i < ringSize; i++ {
		out = append(out, edge(id+i, base+i, base+(i+1)%ringSize))
	}
	return append(out, edge(id+ringSize, base, base+ringSize/2))
}

// loadRings loads the graph, then creates the view, and returns the CPU
// time building the view took.
func loadRings(tb testing.TB, edges int64) (*engine.Engine, *engine.Session, int64, time.Duration) {
	tb.Helper()
	e := engine.New()
	sess := e.NewSession()
	exec := func(sql string) {
		if err := sess.ExecScript(sql, func(engine.Result) error { return nil }); err != nil {
			tb.Fatal(err)
		}
	}
	exec("CREATE TABLE edges (id int PRIMARY KEY, src int, dst int)")
	comps := edges / (ringSize + 1)
	var b delta.Batch
	for c := int64(0); c < comps; c++ {
		for _, r := range ringEdges(c) {
			b = append(b, delta.Insert{Row: r})
		}
		if len(b) >= 1<<15 || c == comps-1 {
			if err := sess.ApplyChanges("edges", b); err != nil {
				tb.Fatal(err)
			}
			b = b[:0]
		}
	}
	start := cpuTime()
	exec(tcView)
	return e, sess, comps, cpuTime() - start
}

// BenchmarkTransitiveClosureDelete reports, per op, one ring edge deleted
// and inserted again in the maintained closure, and as metrics the time
// of evaluating the closure from scratch, by the ad-hoc evaluator and by
// building the view, and the ratios of those to one op. The ratios are of
// the process's CPU time (garbage collection included), which a busy
// machine does not inflate as it does wall time.
// RECURSION_BENCH_EDGES sets the graph's size (default 20,000 edges).
func BenchmarkTransitiveClosureDelete(b *testing.B) {
	edges := int64(20000)
	if n, err := strconv.ParseInt(os.Getenv("RECURSION_BENCH_EDGES"), 10, 64); err == nil && n > 0 {
		edges = n
	}
	e, sess, comps, build := loadRings(b, edges)
	_, rows, err := e.ViewRows("tc")
	if err != nil {
		b.Fatal(err)
	}
	if want := int(comps * ringSize * ringSize); len(rows) != want {
		b.Fatalf("closure has %d pairs, want %d", len(rows), want)
	}
	start := cpuTime()
	full, err := e.Recompute("tc")
	if err != nil {
		b.Fatal(err)
	}
	recompute := cpuTime() - start
	if len(full) != len(rows) {
		b.Fatalf("recomputed %d pairs, maintained %d", len(full), len(rows))
	}
	runtime.GC() // the build's garbage is not the changes' cost
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		c := int64(i) % comps
		r := ringEdges(c)[1]
		if err := sess.ApplyChanges("edges", delta.Batch{delta.Delete{Row: r}}); err != nil {
			b.Fatal(err)
		}
		if err := sess.ApplyChanges("edges", delta.Batch{delta.Insert{Row: r}}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	perOp := (cpuTime() - cpu) / time.Duration(b.N)
	b.ReportMetric(float64(recompute)/float64(perOp), "recompute/op")
	b.ReportMetric(float64(build)/float64(perOp), "build/op")
	b.ReportMetric(float64(perOp.Nanoseconds()), "cpu-ns/op")
	b.Logf("CPU time: %d edges, %d pairs: delete+insert of one edge %v; from scratch: ad hoc %v (ratio %.0f), building the view %v (ratio %.0f)",
		edges, len(rows), perOp, recompute, float64(recompute)/float64(perOp), build, float64(build)/float64(perOp))
}
