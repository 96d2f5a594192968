package deltaview_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/deltaview/deltaview"
)

// BenchmarkParallelViews runs one commit stream (grp and val of random
// ids, replaced by key, in transactions of 100 and 10,000 changes) over
// four views of t, 1M rows (100k under -short), with the views prepared
// by one goroutine and by two: an op is one change, so the two workers=
// figures of one batch size compare directly. ns/op is the wall clock,
// what two workers shorten; cpu-ns/op the process's CPU time per change,
// what they cost.
func BenchmarkParallelViews(b *testing.B) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	db := deltaview.Open()
	err := db.Exec(fmt.Sprintf(`
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL, pad text);
		INSERT INTO t SELECT g, g %% 1000, (g::bigint * 7919) %% 1000000, 'padding-padding-pad' FROM generate_series(1, %d) g;
		CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 100000;
		CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*), sum(val), min(val), max(val) FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW counted AS SELECT grp, count(*) FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW top AS SELECT id, grp, val FROM t WHERE grp < 500 ORDER BY val DESC, id LIMIT 50;`, n))
	if err != nil {
		b.Fatal(err)
	}
	pad := deltaview.Text("padding-padding-pad")
	for _, size := range []int{100, 10_000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("batch=%d/workers=%d", size, workers), func(b *testing.B) {
				db.SetWorkers(workers)
				rng := rand.New(rand.NewPCG(1, 2))
				b.ReportAllocs()
				// The cold start's garbage is not the changes' work.
				runtime.GC()
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; {
					tx, err := db.Begin()
					if err != nil {
						b.Fatal(err)
					}
					for j := 0; j < size && i < b.N; j, i = j+1, i+1 {
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
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
