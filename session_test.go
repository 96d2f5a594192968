package deltaview_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

func sessionDB(t *testing.T) *deltaview.DB {
	t.Helper()
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, w int NOT NULL, grp int NOT NULL);
		CREATE MATERIALIZED VIEW agg AS SELECT grp, count(*) AS n, sum(w) AS total FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW even AS SELECT id, w FROM t WHERE w % 2 = 0`); err != nil {
		t.Fatal(err)
	}
	return db
}

// ids runs q, which reads ids, on a DB or a Session and returns them
// sorted.
func ids(t *testing.T, on interface {
	Query(string) (*deltaview.Rows, error)
}, q string) []int64 {
	t.Helper()
	rows, err := on.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, r := range rows.Rows {
		out = append(out, r[0].Int())
	}
	slices.Sort(out)
	return out
}

// TestSessionTwoGoroutines: two goroutines share a DB. A's BEGIN in
// DB.Exec cannot leave a transaction open for anyone else: it is rolled
// back and reported; B's acknowledged row survives whatever A does next.
func TestSessionTwoGoroutines(t *testing.T) {
	db := sessionDB(t)
	step := make(chan struct{})
	done := make(chan error)
	go func() { // B
		<-step
		done <- db.Exec("INSERT INTO t VALUES (2, 2, 0)")
	}()
	// A
	if err := db.Exec("BEGIN; INSERT INTO t VALUES (1, 1, 0)"); deltaview.Code(err) != "25000" || !strings.Contains(deltaview.FormatError(err), "DB.Session") {
		t.Fatalf("a script ending inside a block: %v", err)
	}
	step <- struct{}{}
	if err := <-done; err != nil {
		t.Fatalf("B: %v", err)
	}
	if err := db.Exec("INSERT INTO t VALUES (2, 2, 0)"); deltaview.Code(err) != "23505" {
		t.Fatalf("A's duplicate: %v", err)
	}
	if err := db.Exec("ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, db, "SELECT id FROM t"); !slices.Equal(got, []int64{2}) {
		t.Fatalf("rows %v, want B's row 2 alone", got)
	}

	// Prepared, BEGIN is refused on the DB: each run is a transaction of
	// its own.
	begin, err := db.Prepare("BEGIN")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := begin.Exec(); deltaview.Code(err) != "25001" {
		t.Fatalf("prepared BEGIN on the DB: %v", err)
	}
	if _, err := db.Query("BEGIN"); deltaview.Code(err) != "25000" {
		t.Fatalf("BEGIN through DB.Query: %v", err)
	}
	if err := db.Exec("BEGIN; INSERT INTO t VALUES (3, 3, 0); COMMIT"); err != nil {
		t.Fatalf("a whole block in one DB.Exec: %v", err)
	}

	// The same with a session: B's write waits for A's transaction to end,
	// then commits; A's rollback cannot take B's row with it.
	a := db.Session()
	defer a.Close()
	if err := a.Exec("BEGIN; INSERT INTO t VALUES (4, 4, 0)"); err != nil {
		t.Fatal(err)
	}
	go func() { done <- db.Exec("INSERT INTO t VALUES (5, 5, 0)") }()
	select {
	case err := <-done:
		t.Fatalf("B's write did not wait for A's transaction: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	if err := a.Exec("INSERT INTO t VALUES (5, 5, 0); ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("B after A's rollback: %v", err)
	}
	if got := ids(t, db, "SELECT id FROM t"); !slices.Equal(got, []int64{2, 3, 5}) {
		t.Fatalf("rows %v, want 2, 3, 5", got)
	}
}

// TestSessionReaderNotBlocked: while a session's transaction is open, a
// reader on another goroutine gets the committed state at once, from
// tables (SELECT) and views (View, SELECT from a view); after the commit
// it sees the transaction's rows.
func TestSessionReaderNotBlocked(t *testing.T) {
	db := sessionDB(t)
	if err := db.Exec("INSERT INTO t VALUES (1, 2, 0), (2, 4, 0), (3, 5, 1)"); err != nil {
		t.Fatal(err)
	}
	w := db.Session()
	defer w.Close()
	if err := w.Exec("BEGIN; INSERT INTO t VALUES (10, 10, 0); UPDATE t SET w = 6 WHERE id = 3; DELETE FROM t WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, w, "SELECT id FROM t"); !slices.Equal(got, []int64{2, 3, 10}) {
		t.Fatalf("the writer sees %v, want its own changes", got)
	}
	type read struct {
		table, view, sum string
		took             time.Duration
	}
	got := make(chan read, 1)
	go func() {
		start := time.Now()
		var r read
		rows, err := db.Query("SELECT id, w FROM t ORDER BY id")
		if err != nil {
			t.Error(err)
		}
		r.table = fmt.Sprint(rows.Rows)
		v, err := db.View("even")
		if err != nil {
			t.Error(err)
		}
		r.view = fmt.Sprint(v.Rows)
		s, err := db.Query("SELECT sum(total) FROM agg")
		if err != nil {
			t.Error(err)
		}
		r.sum = fmt.Sprint(s.Rows)
		r.took = time.Since(start)
		got <- r
	}()
	var r read
	select {
	case r = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("a reader waited for another session's open transaction")
	}
	t.Logf("reads during an open transaction took %v", r.took)
	if r.table != "[[1 2] [2 4] [3 5]]" || r.view != "[[1 2] [2 4]]" || r.sum != "[[11]]" {
		t.Fatalf("the reader saw table %s, view %s, sum %s: not the committed state", r.table, r.view, r.sum)
	}
	if err := w.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, db, "SELECT id FROM t"); !slices.Equal(got, []int64{2, 3, 10}) {
		t.Fatalf("after the commit: %v", got)
	}
}

// TestSessionLockTimeout: a second writer waits for the first one's
// transaction at most lock_timeout, then fails with 55P03, which fails its
// own block as any error does.
func TestSessionLockTimeout(t *testing.T) {
	db := sessionDB(t)
	a, b := db.Session(), db.Session()
	defer a.Close()
	defer b.Close()
	if err := a.Exec("BEGIN; INSERT INTO t VALUES (1, 1, 0)"); err != nil {
		t.Fatal(err)
	}
	if err := b.Exec("SET lock_timeout = '100ms'"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := b.Exec("INSERT INTO t VALUES (2, 2, 0)")
	took := time.Since(start)
	if deltaview.Code(err) != "55P03" || !strings.Contains(err.Error(), "lock timeout") {
		t.Fatalf("second writer: %v", err)
	}
	// The upper bound only tells a timeout from a wait for the other
	// transaction: a loaded machine may delay the waking goroutine.
	if took < 100*time.Millisecond || took > 10*time.Second {
		t.Fatalf("the timeout of 100ms took %v", took)
	}
	// Typed changes wait the same way.
	tx, err := b.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("t", deltaview.Int(3), deltaview.Int(3), deltaview.Int(0)); deltaview.Code(err) != "55P03" {
		t.Fatalf("typed change: %v", err)
	}
	tx.Rollback()
	if err := b.Exec("BEGIN; INSERT INTO t VALUES (4, 4, 0)"); deltaview.Code(err) != "55P03" {
		t.Fatalf("in a block: %v", err)
	}
	if err := b.Exec("SELECT 1"); deltaview.Code(err) != "25P02" {
		t.Fatalf("after a lock timeout in a block: %v", err)
	}
	if err := b.Exec("ROLLBACK; SET lock_timeout = 0"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"'soon'", "'2 weeks'", "-1"} {
		if err := b.Exec("SET lock_timeout = " + bad); deltaview.Code(err) != "22023" {
			t.Errorf("SET lock_timeout = %s: %v", bad, err)
		}
	}
	// Once a commits, b writes.
	if err := a.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := b.Exec("SET lock_timeout = '1s'; INSERT INTO t VALUES (2, 2, 0)"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, db, "SELECT id FROM t"); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("rows %v", got)
	}
}

// TestSessionLockTimeoutOption: a goroutine that holds a Tx open and
// writes through the DB would wait for itself; Options.LockTimeout makes
// that an error, and reads still go through.
func TestSessionLockTimeoutOption(t *testing.T) {
	db := deltaview.OpenWith(deltaview.Options{LockTimeout: 50 * time.Millisecond})
	if err := db.Exec("CREATE TABLE t (id int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("t", deltaview.Int(1)); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("INSERT INTO t VALUES (2)"); deltaview.Code(err) != "55P03" {
		t.Fatalf("a write through the DB while the same goroutine holds a Tx: %v", err)
	}
	ins, err := db.Prepare("INSERT INTO t VALUES ($1)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ins.Exec(deltaview.Int(3)); deltaview.Code(err) != "55P03" {
		t.Fatalf("a prepared write: %v", err)
	}
	if got := ids(t, db, "SELECT id FROM t"); len(got) != 0 {
		t.Fatalf("a reader sees %v before the commit", got)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := ins.Exec(deltaview.Int(3)); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, db, "SELECT id FROM t"); !slices.Equal(got, []int64{1, 3}) {
		t.Fatalf("rows %v", got)
	}
}

// TestSessionConcurrent runs sessions at once that write (autocommit and
// blocks, some rolled back on purpose, some failing on a duplicate key),
// read tables and views while others hold transactions open, and
// subscribe. Every id is inserted by one transaction at most, so a reader
// that ever sees an id whose transaction did not commit has read
// uncommitted data. At the end every acknowledged commit is present, every
// rolled-back one absent, the views equal their queries, and each
// subscriber's deltas sum to its view. Run it under the race detector with
//
//	go test -race -run 'Session|Concurrent' .
func TestSessionConcurrent(t *testing.T) {
	const workers, ops = 8, 60
	db := sessionDB(t)
	var subMu sync.Mutex
	sums := map[string]int64{} // "id,w" → diff summed
	cancel, err := db.Subscribe("even", func(d deltaview.Delta) {
		subMu.Lock()
		defer subMu.Unlock()
		for _, c := range d.Changes {
			sums[fmt.Sprint(c.Row)] += c.Diff
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()

	type model struct {
		rows     map[int64]int64 // id → w, committed
		aborted  []int64         // ids only ever inserted by transactions that did not commit
		observed []int64         // ids readers saw
	}
	models := make([]*model, workers)
	var wg sync.WaitGroup
	for wk := range workers {
		m := &model{rows: map[int64]int64{}}
		models[wk] = m
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(wk), 7))
			next := int64(wk) * 100_000
			newID := func() int64 { next++; return next }
			sess := db.Session()
			defer sess.Close()
			fail := func(format string, args ...any) {
				t.Errorf("worker %d: "+format, append([]any{wk}, args...)...)
			}
			own := func() (int64, bool) {
				for id := range m.rows {
					return id, true
				}
				return 0, false
			}
			for range ops {
				switch op := rng.IntN(6); op {
				case 0: // autocommit insert
					id, w := newID(), rng.Int64N(10)
					if err := db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d)", id, w, id%5)); err != nil {
						fail("insert: %v", err)
						return
					}
					m.rows[id] = w
				case 1, 2: // a block, committed or rolled back, held open a while
					a, b := newID(), newID()
					script := fmt.Sprintf("BEGIN; INSERT INTO t VALUES (%d, 1, 1), (%d, 2, 2)", a, b)
					upd, hasOwn := own()
					if hasOwn {
						script += fmt.Sprintf("; UPDATE t SET w = w + 1 WHERE id = %d", upd)
					}
					if err := sess.Exec(script); err != nil {
						fail("block: %v", err)
						return
					}
					time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
					if op == 1 {
						if err := sess.Exec("COMMIT"); err != nil {
							fail("commit: %v", err)
							return
						}
						m.rows[a], m.rows[b] = 1, 2
						if hasOwn {
							m.rows[upd]++
						}
					} else {
						if err := sess.Exec("ROLLBACK"); err != nil {
							fail("rollback: %v", err)
							return
						}
						m.aborted = append(m.aborted, a, b)
					}
				case 3: // a block that fails on a duplicate key
					dup, ok := own()
					if !ok {
						continue
					}
					a := newID()
					err := sess.Exec(fmt.Sprintf("BEGIN; INSERT INTO t VALUES (%d, 0, 0); INSERT INTO t VALUES (%d, 0, 0)", a, dup))
					if deltaview.Code(err) != "23505" {
						fail("duplicate: %v", err)
						return
					}
					if err := sess.Exec("COMMIT"); err != nil { // rolls back
						fail("commit of a failed block: %v", err)
						return
					}
					m.aborted = append(m.aborted, a)
				case 4: // autocommit delete
					if id, ok := own(); ok {
						if err := db.Exec(fmt.Sprintf("DELETE FROM t WHERE id = %d", id)); err != nil {
							fail("delete: %v", err)
							return
						}
						delete(m.rows, id)
					}
				case 5: // read the table and a view
					rows, err := db.Query("SELECT id FROM t")
					if err != nil {
						fail("select: %v", err)
						return
					}
					for _, r := range rows.Rows {
						m.observed = append(m.observed, r[0].Int())
					}
					v, err := db.View("even")
					if err != nil {
						fail("view: %v", err)
						return
					}
					for _, r := range v.Rows {
						m.observed = append(m.observed, r[0].Int())
					}
					// The engine's own figures are read under the same
					// lock, concurrently with other readers.
					for _, q := range []string{"SELECT * FROM deltaview_views", "SHOW TABLES", "EXPLAIN MATERIALIZED VIEW agg"} {
						if _, err := db.Query(q); err != nil {
							fail("%s: %v", q, err)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	want := map[int64]int64{}
	aborted := map[int64]bool{}
	for _, m := range models {
		for id, w := range m.rows {
			want[id] = w
		}
		for _, id := range m.aborted {
			aborted[id] = true
		}
	}
	for _, m := range models {
		for _, id := range m.observed {
			if aborted[id] {
				t.Fatalf("a reader saw row %d of a transaction that did not commit", id)
			}
		}
	}
	rows, err := db.Query("SELECT id, w FROM t")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]int64{}
	for _, r := range rows.Rows {
		got[r[0].Int()] = r[1].Int()
	}
	for id, w := range want {
		if g, ok := got[id]; !ok || g != w {
			t.Errorf("acknowledged row %d (w = %d): stored %d, present %v", id, w, g, ok)
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("row %d is stored, but no acknowledged transaction left it", id)
		}
	}
	if agg, q := viewText(t, db, "agg"), queryPrinted(t, db, "SELECT grp, count(*), sum(w) FROM t GROUP BY grp ORDER BY grp"); agg != q {
		t.Errorf("view agg holds %s, its query gives %s", agg, q)
	}
	even, err := db.View("even")
	if err != nil {
		t.Fatal(err)
	}
	wantSums := map[string]int64{}
	for _, r := range even.Rows {
		wantSums[fmt.Sprint(r)]++
	}
	// Deltas may be delivered after the commit returns: wait a little for
	// the last ones.
	deadline := time.Now().Add(5 * time.Second)
	for {
		subMu.Lock()
		var mismatch string
		for k, n := range sums {
			if n != wantSums[k] {
				mismatch = fmt.Sprintf("row %s: deltas sum to %d, the view holds %d", k, n, wantSums[k])
			}
		}
		for k, n := range wantSums {
			if sums[k] != n {
				mismatch = fmt.Sprintf("row %s: deltas sum to %d, the view holds %d", k, sums[k], n)
			}
		}
		subMu.Unlock()
		if mismatch == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(mismatch)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d workers × %d operations: %d rows committed, %d rolled back, %d reads checked", workers, ops, len(want), len(aborted), func() (n int) {
		for _, m := range models {
			n += len(m.observed)
		}
		return
	}())
}

func queryPrinted(t *testing.T, db *deltaview.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(rows.Rows)
}
