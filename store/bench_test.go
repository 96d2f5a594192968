package store_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// BenchmarkDurableCommit measures durable commits of 1, 100 and 10,000
// rows on deltaview (a file opened by OpenFile, rows by the typed API)
// and on SQLite itself doing the same inserts through database/sql with
// a prepared statement, in the same mode (WAL, synchronous=FULL), on the
// same disk, in the same run. b.N counts commits; rows/s is reported.
func BenchmarkDurableCommit(b *testing.B) {
	for _, rows := range []int{1, 100, 10000} {
		b.Run(fmt.Sprintf("rows=%d/deltaview", rows), func(b *testing.B) { benchDeltaview(b, rows) })
		b.Run(fmt.Sprintf("rows=%d/sqlite", rows), func(b *testing.B) { benchSQLite(b, rows) })
	}
}

func benchDeltaview(b *testing.B, rows int) {
	db, err := deltaview.OpenFile(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec("CREATE TABLE t (id int8 PRIMARY KEY, v int8, s text)"); err != nil {
		b.Fatal(err)
	}
	id := int64(0)
	b.ResetTimer()
	for range b.N {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for range rows {
			id++
			if err := tx.Insert("t", deltaview.Int(id), deltaview.Int(id%97), deltaview.Text("row text")); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
}

func benchSQLite(b *testing.B, rows int) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "bench.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s TEXT)"); err != nil {
		b.Fatal(err)
	}
	ins, err := db.Prepare("INSERT INTO t VALUES (?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	id := int64(0)
	b.ResetTimer()
	for range b.N {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		st := tx.Stmt(ins)
		for range rows {
			id++
			if _, err := st.Exec(id, id%97, "row text"); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkReopen measures the opening of a file that holds a table of
// 1M rows and two views over it (tables load, then each view is built by
// its cold start), against the cold start of the same views over the same
// rows in memory. Run it with -benchtime 1x.
func BenchmarkReopen(b *testing.B) {
	const n = 1_000_000
	const views = `CREATE MATERIALIZED VIEW byg AS SELECT g, count(*) AS n, sum(v) AS total FROM t GROUP BY g;
		CREATE MATERIALIZED VIEW top AS SELECT id, v FROM t ORDER BY v DESC LIMIT 10`
	path := filepath.Join(b.TempDir(), "reopen.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	mem := deltaview.Open()
	for _, d := range []*deltaview.DB{db, mem} {
		if err := d.Exec("CREATE TABLE t (id int8 PRIMARY KEY, g int8, v int8)"); err != nil {
			b.Fatal(err)
		}
		for lo := int64(0); lo < n; lo += 10000 {
			tx, _ := d.Begin()
			for id := lo; id < lo+10000; id++ {
				if err := tx.Insert("t", deltaview.Int(id), deltaview.Int(id%1000), deltaview.Int(id*7919%100003)); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := db.Exec(views); err != nil {
		b.Fatal(err)
	}
	db.Close()
	b.ResetTimer()
	var open, cold time.Duration
	for range b.N {
		start := time.Now()
		db, err := deltaview.OpenFile(path)
		if err != nil {
			b.Fatal(err)
		}
		open += time.Since(start)
		db.Close()
		start = time.Now()
		if err := mem.Exec(views); err != nil {
			b.Fatal(err)
		}
		cold += time.Since(start)
		if err := mem.Exec("DROP MATERIALIZED VIEW byg, top"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(open.Seconds()/float64(b.N), "s/open")
	b.ReportMetric(cold.Seconds()/float64(b.N), "s/coldstart")
}
