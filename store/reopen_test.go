package store_test

import (
	"flag"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/bench"
)

var reopenRows = flag.Int("store.reopen.rows", 20_000, "rows of t in TestReopenBenchmarkViews (1000000 for the figures of docs/benchmarks.md)")

// loadBench fills db with the benchmark's tables t (n rows) and u (n/10),
// 10,000 rows a transaction.
func loadBench(t *testing.T, db *deltaview.DB, d *bench.Data) {
	t.Helper()
	execSQL(t, db, `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, k int NOT NULL, val int NOT NULL, pad text NOT NULL);
		CREATE TABLE u (id int PRIMARY KEY, name text NOT NULL, region text NOT NULL)`)
	insert := func(n int, row func(id int) []deltaview.Value, table string) {
		for lo := 1; lo <= n; lo += 10_000 {
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			for id := lo; id < lo+10_000 && id <= n; id++ {
				if err := tx.Insert(table, row(id)...); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	insert(d.N, func(id int) []deltaview.Value {
		r := d.T[id]
		return []deltaview.Value{deltaview.Int(int64(id)), deltaview.Int(r.Grp), deltaview.Int(d.K(id)), deltaview.Int(r.Val), deltaview.Text(bench.Pad(id))}
	}, "t")
	insert(d.U(), func(id int) []deltaview.Value {
		return []deltaview.Value{deltaview.Int(int64(id)), deltaview.Text(bench.Name(id)), deltaview.Text(bench.Region(id))}
	}, "u")
}

// TestReopenBenchmarkViews opens a file that holds the benchmark's tables
// and its five views (filter, groupby, groupcount, join, topk), and
// compares the time with the cold start of the same views over the same
// rows in memory. After the open every view equals its recomputation, and
// each view's rebuild was reported as progress. The suite runs it small;
// -store.reopen.rows=1000000 gives the figures of docs/benchmarks.md.
func TestReopenBenchmarkViews(t *testing.T) {
	d := bench.NewData(*reopenRows)
	path := filepath.Join(t.TempDir(), "reopen.db")
	db := open(t, path)
	loadBench(t, db, d)
	defs := map[string]string{}
	for _, v := range bench.Views {
		execSQL(t, db, "CREATE MATERIALIZED VIEW "+v.Rel()+" AS "+v.SQL)
		defs[v.Rel()] = v.SQL
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// The cold start first, in a database of its own, so that neither
	// measurement runs beside the other's heap.
	mem := deltaview.Open()
	loadBench(t, mem, d)
	start := time.Now()
	for _, v := range bench.Views {
		execSQL(t, mem, "CREATE MATERIALIZED VIEW "+v.Rel()+" AS "+v.SQL)
	}
	cold := time.Since(start)
	mem = nil
	runtime.GC()

	var finished []string
	var rebuild time.Duration
	start = time.Now()
	db, err := deltaview.OpenFileWith(path, deltaview.Options{Progress: func(p deltaview.Progress) {
		if p.Finished {
			finished = append(finished, p.Op)
			rebuild += p.Elapsed
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	reopen := time.Since(start)
	defer db.Close()
	slices.Sort(finished)
	var want []string
	for _, v := range bench.Views {
		want = append(want, "CREATE MATERIALIZED VIEW "+v.Rel())
	}
	slices.Sort(want)
	if !slices.Equal(finished, want) {
		t.Errorf("progress reported at open: %q, want %q", finished, want)
	}
	t.Logf("%d rows: open %.2f s (the views' rebuild %.2f s, the rest loading the tables), the five views' cold start in memory %.2f s: open / cold start %.2f",
		d.N, reopen.Seconds(), rebuild.Seconds(), cold.Seconds(), reopen.Seconds()/cold.Seconds())
	viewsEqualRecomputation(t, db, defs)
}
