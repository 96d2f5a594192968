package deltaview_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/deltaview/deltaview"
	_ "github.com/deltaview/deltaview/store"
)

// With two workers a commit leaves its views' commits to a goroutine that
// runs past its end; whatever reads the views waits for it. These tests
// read through the Go API while a stream of transactions commits on two
// workers, and compare each read with what one worker reads after some
// transaction (under -race, a read that does not wait is reported too).

const behindDBSchema = `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
	INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 2000) g;
	CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 300;
	CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*) AS n, sum(val) AS s, max(val) AS hi FROM t GROUP BY grp;
	CREATE MATERIALIZED VIEW top AS SELECT id, val FROM t ORDER BY val DESC, id LIMIT 5;
	CREATE MATERIALIZED VIEW over AS SELECT grp, count(*) AS n FROM filtered GROUP BY grp`

var behindDBViews = []string{"filtered", "grouped", "top", "over"}

// behindDBTxn applies the stream's transaction k to db: 100 rows or more
// each, so that the commits of two workers are left behind; every third
// transaction is of typed changes.
func behindDBTxn(db *deltaview.DB, k int) error {
	if k%3 == 2 {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		for i := range 100 {
			id := 1 + (k*131+i*17)%2000
			// A deleted key's replacement fails alone, on one worker as
			// on two.
			tx.Replace("t", deltaview.Int(int64(id)), deltaview.Int(int64(i%10)), deltaview.Int(int64((k*7+i*13)%1000)))
		}
		return tx.Commit()
	}
	return db.Exec(fmt.Sprintf(`BEGIN; UPDATE t SET val = (val + %d) %% 1000 WHERE id %% 20 = %d;
		DELETE FROM t WHERE val > 990 AND id %% 7 = %d; COMMIT`, 150+k, k%20, k%7))
}

// behindDBRead is one read through the Go API, under one lock; bytes says
// its figures count indexes that reads build (not compared).
type behindDBRead struct {
	name  string
	read  func(db *deltaview.DB) (string, error)
	bytes bool
}

func behindDBReads() []behindDBRead {
	var reads []behindDBRead
	for _, v := range behindDBViews {
		reads = append(reads,
			behindDBRead{name: "View " + v, read: func(db *deltaview.DB) (string, error) {
				r, err := db.View(v)
				if err != nil {
					return "", err
				}
				return fmt.Sprint(r.Rows), nil
			}},
			behindDBRead{name: "Query " + v, read: func(db *deltaview.DB) (string, error) {
				r, err := db.Query("SELECT * FROM " + v + " ORDER BY 1, 2")
				if err != nil {
					return "", err
				}
				return fmt.Sprint(r.Rows), nil
			}},
			behindDBRead{name: "SubscribeWith a snapshot " + v, read: func(db *deltaview.DB) (string, error) {
				first := make(chan deltaview.Delta, 1)
				var once sync.Once
				cancel, err := db.SubscribeWith(v, deltaview.SubscribeOptions{Snapshot: true}, func(d deltaview.Delta) {
					once.Do(func() { first <- d })
				})
				if err != nil {
					return "", err
				}
				d := <-first
				cancel()
				lines := make([]string, len(d.Changes))
				for i, c := range d.Changes {
					lines[i] = fmt.Sprint(c.Row, c.Diff)
				}
				slices.Sort(lines)
				return fmt.Sprint(d.TS, lines), d.Err
			}},
			behindDBRead{name: "ExplainView " + v, read: func(db *deltaview.DB) (string, error) {
				lines, err := db.ExplainView(v)
				return strings.Join(lines, "\n"), err
			}},
		)
	}
	return append(reads,
		behindDBRead{name: "prepared statement", read: func(db *deltaview.DB) (string, error) {
			st, err := db.Prepare("SELECT * FROM filtered WHERE grp = $1 ORDER BY id")
			if err != nil {
				return "", err
			}
			r, err := st.Query(deltaview.Int(4))
			if err != nil {
				return "", err
			}
			return fmt.Sprint(r.Rows), nil
		}},
		behindDBRead{name: "catalog", read: func(db *deltaview.DB) (string, error) {
			r, err := db.Query("SELECT name, rows, steps, refills FROM deltaview_views ORDER BY name")
			if err != nil {
				return "", err
			}
			return fmt.Sprint(r.Rows), nil
		}},
		behindDBRead{name: "Memory", bytes: true, read: func(db *deltaview.DB) (string, error) {
			return fmt.Sprint(db.Memory()), nil
		}},
	)
}

// runBehindDB runs txns transactions on db (two workers) while readers
// read through every read, and checks each against what one worker reads.
func runBehindDB(t *testing.T, db *deltaview.DB, txns int) {
	reads := behindDBReads()
	serial := deltaview.Open()
	if err := serial.Exec(behindDBSchema); err != nil {
		t.Fatal(err)
	}
	seen := make([]map[string][]int, len(reads))
	record := func(k int) {
		for i, r := range reads {
			s, err := r.read(serial)
			if err != nil {
				t.Fatalf("one worker, %s: %v", r.name, err)
			}
			if seen[i] == nil {
				seen[i] = map[string][]int{}
			}
			seen[i][s] = append(seen[i][s], k)
		}
	}
	record(-1)
	for k := range txns {
		if err := behindDBTxn(serial, k); err != nil {
			t.Fatal(err)
		}
		record(k)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	const readers = 2
	errs := make(chan error, readers)
	for r := range readers {
		wg.Go(func() {
			last := make([]int, len(reads))
			for i := range last {
				last[i] = -1
			}
			for n := r; !stop.Load(); n++ {
				i := n % len(reads)
				s, err := reads[i].read(db)
				if err != nil {
					errs <- fmt.Errorf("%s: %v", reads[i].name, err)
					return
				}
				if reads[i].bytes {
					continue
				}
				ks := seen[i][s]
				j := slices.IndexFunc(ks, func(k int) bool { return k >= last[i] })
				if j < 0 {
					errs <- fmt.Errorf("%s read what one worker reads after no transaction from %d on:\n%s", reads[i].name, last[i], s)
					return
				}
				last[i] = ks[j]
			}
		})
	}
	for k := range txns {
		if err := behindDBTxn(db, k); err != nil {
			t.Errorf("transaction %d: %v", k, err)
			break
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, v := range behindDBViews {
		a, _ := serial.View(v)
		b, err := db.View(v)
		if err != nil || fmt.Sprint(a.Rows) != fmt.Sprint(b.Rows) {
			t.Fatalf("view %s on two workers: %v, other rows than on one", v, err)
		}
	}
}

// TestBehindReadsGoAPI reads through the Go API while commits run on two
// workers.
func TestBehindReadsGoAPI(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	db.SetWorkers(2)
	if err := db.Exec(behindDBSchema); err != nil {
		t.Fatal(err)
	}
	runBehindDB(t, db, 18)
}

// TestBehindCloseFile: a database kept in a file, read while commits run
// on two workers, closed right after its last commit, holds the same
// views when opened again.
func TestBehindCloseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "behind.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetWorkers(2)
	if err := db.Exec(behindDBSchema); err != nil {
		t.Fatal(err)
	}
	runBehindDB(t, db, 9)
	if err := behindDBTxn(db, 9); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	serial := deltaview.Open()
	if err := serial.Exec(behindDBSchema); err != nil {
		t.Fatal(err)
	}
	for k := range 10 {
		if err := behindDBTxn(serial, k); err != nil {
			t.Fatal(err)
		}
	}
	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, v := range behindDBViews {
		a, _ := serial.View(v)
		b, err := db.View(v)
		if err != nil || fmt.Sprint(a.Rows) != fmt.Sprint(b.Rows) {
			t.Fatalf("view %s opened again: %v, other rows than on one worker", v, err)
		}
	}
}
