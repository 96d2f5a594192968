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
// same disk, in the same run. The two alternate commit by commit, so that
// the load of a shared machine weighs on both alike; b.N counts the
// commits of each. It reports the rows per second of each and deltaview's
// as a percentage of SQLite's.
func BenchmarkDurableCommit(b *testing.B) {
	for _, rows := range []int{1, 100, 10000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			dir := b.TempDir()
			dv := newDeltaviewBench(b, filepath.Join(dir, "deltaview.db"))
			defer dv.close()
			lite := newSQLiteBench(b, filepath.Join(dir, "sqlite.db"))
			defer lite.close()
			var dvTime, liteTime time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				dv.commit(b, rows)
				mid := time.Now()
				lite.commit(b, rows)
				dvTime, liteTime = dvTime+mid.Sub(start), liteTime+time.Since(mid)
			}
			n := float64(b.N * rows)
			b.ReportMetric(n/dvTime.Seconds(), "deltaview-rows/s")
			b.ReportMetric(n/liteTime.Seconds(), "sqlite-rows/s")
			b.ReportMetric(100*liteTime.Seconds()/dvTime.Seconds(), "%-of-sqlite")
		})
	}
}

type deltaviewBench struct {
	db *deltaview.DB
	id int64
}

func newDeltaviewBench(b *testing.B, path string) *deltaviewBench {
	db, err := deltaview.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Exec("CREATE TABLE t (id int8 PRIMARY KEY, v int8, s text)"); err != nil {
		b.Fatal(err)
	}
	return &deltaviewBench{db: db}
}

func (d *deltaviewBench) close() { d.db.Close() }

func (d *deltaviewBench) commit(b *testing.B, rows int) {
	tx, err := d.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for range rows {
		d.id++
		if err := tx.Insert("t", deltaview.Int(d.id), deltaview.Int(d.id%97), deltaview.Text("row text")); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

type sqliteBench struct {
	db  *sql.DB
	ins *sql.Stmt
	id  int64
}

func newSQLiteBench(b *testing.B, path string) *sqliteBench {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s TEXT)"); err != nil {
		b.Fatal(err)
	}
	ins, err := db.Prepare("INSERT INTO t VALUES (?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	return &sqliteBench{db: db, ins: ins}
}

func (s *sqliteBench) close() { s.db.Close() }

func (s *sqliteBench) commit(b *testing.B, rows int) {
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	st := tx.Stmt(s.ins)
	for range rows {
		s.id++
		if _, err := st.Exec(s.id, s.id%97, "row text"); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
