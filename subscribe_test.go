package deltaview_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// subWait is how long a test waits for a delivery that must come.
const subWait = 20 * time.Second

// subDB returns a database with a table t and a view v of t's ids modulo
// 7: a view whose rows repeat, so deltas and snapshots carry counts.
func subDB(t *testing.T) *deltaview.DB {
	t.Helper()
	db := deltaview.Open()
	subExec(t, db, `
		CREATE TABLE t (id int PRIMARY KEY, v int);
		CREATE MATERIALIZED VIEW v AS SELECT id % 7 AS m FROM t;`)
	return db
}

func subExec(t *testing.T, db *deltaview.DB, script string) {
	t.Helper()
	if err := db.Exec(script); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// subRows is a view's rows as counts by row text.
func subRows(t *testing.T, db *deltaview.DB, view string) map[string]int64 {
	t.Helper()
	rows, err := db.View(view)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows.Rows {
		out[fmt.Sprint(r)]++
	}
	return out
}

// subFold adds a delta to rows by row text.
func subFold(rows map[string]int64, d deltaview.Delta) {
	for _, c := range d.Changes {
		k := fmt.Sprint(c.Row)
		rows[k] += c.Diff
		if rows[k] == 0 {
			delete(rows, k)
		}
	}
}

func subSize(rows map[string]int64) int64 {
	var n int64
	for _, c := range rows {
		n += c
	}
	return n
}

// subRecorder keeps what a subscription delivered.
type subRecorder struct {
	mu     sync.Mutex
	deltas []deltaview.Delta
	rows   map[string]int64
	err    error
	ended  chan struct{} // closed by the call that carries an error
}

func newSubRecorder() *subRecorder {
	return &subRecorder{rows: map[string]int64{}, ended: make(chan struct{})}
}

func (r *subRecorder) fn(d deltaview.Delta) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		panic("a call after the subscription's error")
	}
	if d.Err != nil {
		r.err = d.Err
		close(r.ended)
		return
	}
	r.deltas = append(r.deltas, d)
	subFold(r.rows, d)
}

func (r *subRecorder) snapshot() (map[string]int64, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.rows), len(r.deltas), r.err
}

// checkOrder fails unless the deltas' TS increase.
func (r *subRecorder) checkOrder(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 1; i < len(r.deltas); i++ {
		if r.deltas[i].TS <= r.deltas[i-1].TS {
			t.Fatalf("delta %d has TS %d after TS %d", i, r.deltas[i].TS, r.deltas[i-1].TS)
		}
	}
}

// subEventually waits until ok holds, failing the test after subWait.
func subEventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(subWait)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// subWaitRows waits until r's folded rows equal the view's.
func subWaitRows(t *testing.T, db *deltaview.DB, r *subRecorder, view string) {
	t.Helper()
	want := subRows(t, db, view)
	subEventually(t, "the deltas sum to the view", func() bool {
		got, _, _ := r.snapshot()
		return maps.Equal(got, want)
	})
}

// deliveryGoroutines counts the goroutines that deliver deltas, started or
// not yet.
func deliveryGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("created by github.com/deltaview/deltaview.(*DB).SubscribeWith"))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// waitDeliveryGoroutines waits until n delivery goroutines are left.
func waitDeliveryGoroutines(t *testing.T, n int) {
	t.Helper()
	subEventually(t, fmt.Sprintf("%d delivery goroutines are left", n), func() bool { return deliveryGoroutines() == n })
}

// A subscriber reads and writes the database from its callback and sees
// the state its delta's commit left.
func TestSubscribeReentrant(t *testing.T) {
	db := subDB(t)
	subExec(t, db, `CREATE TABLE seen (ts int PRIMARY KEY, n int)`)
	folded := map[string]int64{}
	ack := make(chan error)
	cancel, err := db.Subscribe("v", func(d deltaview.Delta) {
		ack <- func() error {
			subFold(folded, d)
			res, err := db.Query("SELECT count(*) FROM t")
			if err != nil {
				return err
			}
			view, err := db.View("v")
			if err != nil {
				return err
			}
			if n := fmt.Sprint(res.Rows[0][0]); n != fmt.Sprint(subSize(folded)) || len(view.Rows) != int(subSize(folded)) {
				return fmt.Errorf("at TS %d: t has %s rows, v %d, the deltas sum to %d", d.TS, n, len(view.Rows), subSize(folded))
			}
			return db.Exec(fmt.Sprintf("INSERT INTO seen VALUES (%d, %d)", d.TS, len(view.Rows)))
		}()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	const commits = 20
	for i := range commits {
		subExec(t, db, fmt.Sprintf("INSERT INTO t VALUES (%d, 0)", i))
		select {
		case err := <-ack:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(subWait):
			t.Fatal("the subscriber did not return: it cannot read the database")
		}
	}
	res, err := db.Query("SELECT count(*), max(n) FROM seen")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows[0]); got != fmt.Sprintf("[%d %d]", commits, commits) {
		t.Fatalf("the subscriber's writes: count, max = %s", got)
	}
}

// A subscriber that panics is told, as a *PanicError; the others get every
// delta.
func TestSubscribePanic(t *testing.T) {
	db := subDB(t)
	before, after := newSubRecorder(), newSubRecorder()
	var calls []deltaview.Delta
	var mu sync.Mutex
	ended := make(chan struct{})
	for i, fn := range []func(deltaview.Delta){before.fn, func(d deltaview.Delta) {
		mu.Lock()
		calls = append(calls, d)
		mu.Unlock()
		if d.Err != nil {
			close(ended)
			return
		}
		if len(calls) == 2 {
			panic(fmt.Sprintf("boom at TS %d", d.TS))
		}
	}, after.fn} {
		cancel, err := db.Subscribe("v", fn)
		if err != nil {
			t.Fatal(i, err)
		}
		defer cancel()
	}
	const commits = 50
	for i := range commits {
		subExec(t, db, fmt.Sprintf("INSERT INTO t VALUES (%d, 0)", i))
	}
	for _, r := range []*subRecorder{before, after} {
		subWaitRows(t, db, r, "v")
		if _, n, err := r.snapshot(); n != commits || err != nil {
			t.Fatalf("a subscriber next to the panicking one got %d deltas of %d, error %v", n, commits, err)
		}
		r.checkOrder(t)
	}
	select {
	case <-ended:
	case <-time.After(subWait):
		t.Fatal("the panicking subscriber was not told")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 3 {
		t.Fatalf("the panicking subscriber got %d calls, want 2 deltas and the error", len(calls))
	}
	var pe *deltaview.PanicError
	if !errors.As(calls[2].Err, &pe) || pe.Value != fmt.Sprintf("boom at TS %d", calls[1].TS) || len(pe.Stack) == 0 {
		t.Fatalf("the last call's error is %#v", calls[2].Err)
	}
	waitDeliveryGoroutines(t, 2)
}

// subLatencies times each of n commits.
func subLatencies(t *testing.T, db *deltaview.DB, from, n int) []time.Duration {
	t.Helper()
	out := make([]time.Duration, n)
	for i := range n {
		start := time.Now()
		subExec(t, db, fmt.Sprintf("INSERT INTO t VALUES (%d, 0)", from+i))
		out[i] = time.Since(start)
	}
	slices.Sort(out)
	return out
}

// A subscriber that sleeps for 2 seconds delays no commit.
func TestSubscribeSlow(t *testing.T) {
	db := subDB(t)
	const commits = 200
	base := subLatencies(t, db, 0, commits)

	asleep, woke := make(chan struct{}), make(chan struct{})
	slow := newSubRecorder()
	first := true
	cancelSlow, err := db.SubscribeWith("v", deltaview.SubscribeOptions{Snapshot: true}, func(d deltaview.Delta) {
		if first {
			first = false
			close(asleep)
			time.Sleep(2 * time.Second)
			close(woke)
		}
		slow.fn(d)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cancelSlow()
	fast := newSubRecorder()
	cancelFast, err := db.SubscribeWith("v", deltaview.SubscribeOptions{Snapshot: true}, fast.fn)
	if err != nil {
		t.Fatal(err)
	}
	defer cancelFast()

	<-asleep // on the snapshot
	during := subLatencies(t, db, commits, commits)
	select {
	case <-woke:
		t.Fatal("the commits took as long as the subscriber's sleep")
	default:
	}
	subWaitRows(t, db, fast, "v") // the other subscriber is served meanwhile
	select {
	case <-woke:
		t.Fatal("the other subscriber waited for the sleeping one")
	default:
	}
	t.Logf("commit latency over %d commits: without subscribers median %v, max %v; while a subscriber sleeps 2s median %v, max %v",
		commits, base[commits/2], base[commits-1], during[commits/2], during[commits-1])
	if max := during[commits-1]; max > 200*time.Millisecond {
		t.Fatalf("a commit took %v while a subscriber slept", max)
	}
	subWaitRows(t, db, slow, "v")
	slow.checkOrder(t)
	fast.checkOrder(t)
}

// A subscriber whose queue fills is told it lagged; the commits never wait
// for it; a snapshot starts it over.
func TestSubscribeLag(t *testing.T) {
	db := subDB(t)
	blocked, release := make(chan struct{}), make(chan struct{})
	r := newSubRecorder()
	first := true
	_, err := db.SubscribeWith("v", deltaview.SubscribeOptions{Queue: 2}, func(d deltaview.Delta) {
		if first {
			first = false
			close(blocked)
			<-release
		}
		r.fn(d)
	})
	if err != nil {
		t.Fatal(err)
	}
	subExec(t, db, "INSERT INTO t VALUES (-1, 0)")
	<-blocked
	const commits = 10
	lat := subLatencies(t, db, 0, commits)
	if lat[commits-1] > 200*time.Millisecond {
		t.Fatalf("a commit took %v while a subscriber was blocked", lat[commits-1])
	}
	close(release)
	select {
	case <-r.ended:
	case <-time.After(subWait):
		t.Fatal("the blocked subscriber was not told it lagged")
	}
	_, n, err := r.snapshot()
	if n != 1 || !errors.Is(err, deltaview.ErrLagged) {
		t.Fatalf("the lagging subscriber got %d deltas and then %v; want the one it blocked on, then ErrLagged", n, err)
	}
	waitDeliveryGoroutines(t, 0) // ended without cancel

	again := newSubRecorder()
	cancel, err := db.SubscribeWith("v", deltaview.SubscribeOptions{Snapshot: true, Queue: 2}, again.fn)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	subExec(t, db, "INSERT INTO t VALUES (100, 0)")
	subWaitRows(t, db, again, "v")
}

// A snapshot followed by the stream equals the view at every commit, for
// subscriptions started while commits run.
func TestSubscribeSnapshot(t *testing.T) {
	db := subDB(t)
	subExec(t, db, "INSERT INTO t VALUES (0, 0), (1, 0), (2, 0)")
	// Each commit inserts two rows and deletes one, so the view grows by
	// one row per commit and its size tells which commit it follows.
	const commits = 300
	states := []map[string]int64{subRows(t, db, "v")}
	progress := make(chan struct{}, commits)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range commits {
			a, b := 3+2*i, 4+2*i
			if err := db.Exec(fmt.Sprintf("BEGIN; INSERT INTO t VALUES (%d, 0), (%d, 0); DELETE FROM t WHERE id = %d; COMMIT", a, b, i)); err != nil {
				t.Error(err)
				return
			}
			rows, err := db.View("v")
			if err != nil {
				t.Error(err)
				return
			}
			state := map[string]int64{}
			for _, r := range rows.Rows {
				state[fmt.Sprint(r)]++
			}
			states = append(states, state)
			progress <- struct{}{}
		}
	}()
	var subs []*subRecorder
	for i := range commits {
		select {
		case <-progress:
		case <-done: // finished, or failed
			select {
			case <-progress:
			default:
				t.FailNow()
			}
		}
		if i%50 == 0 {
			r := newSubRecorder()
			cancel, err := db.SubscribeWith("v", deltaview.SubscribeOptions{Snapshot: true, Queue: commits + 1}, r.fn)
			if err != nil {
				t.Fatal(err)
			}
			defer cancel()
			subs = append(subs, r)
		}
	}
	<-done
	base := subSize(states[0])
	for i, r := range subs {
		subWaitRows(t, db, r, "v")
		r.mu.Lock()
		rows := map[string]int64{}
		var prev int64
		for j, d := range r.deltas {
			subFold(rows, d)
			k := subSize(rows) - base
			if k < 0 || k > commits || !maps.Equal(rows, states[k]) {
				t.Fatalf("subscription %d, delta %d (TS %d): the rows %v are no state the commits left", i, j, d.TS, rows)
			}
			if j > 0 && (k != prev+1 || d.TS <= r.deltas[j-1].TS) {
				t.Fatalf("subscription %d, delta %d: TS %d after %d, the state of commit %d after that of %d", i, j, d.TS, r.deltas[j-1].TS, k, prev)
			}
			prev = k
		}
		if prev != commits {
			t.Fatalf("subscription %d ends at the state of commit %d of %d", i, prev, commits)
		}
		r.mu.Unlock()
	}
}

// A snapshot of a view maintained by partial propagation.
func TestSubscribeSnapshotPartialView(t *testing.T) {
	db := deltaview.Open()
	subExec(t, db, `
		CREATE TABLE addresses (aid int PRIMARY KEY, city text) WITH (change_stream = true);
		CREATE TABLE customers (cid int PRIMARY KEY, name text, aid int NOT NULL) WITH (change_stream = true);
		CREATE MATERIALIZED VIEW dim AS SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid;
COPY addresses FROM STDIN WITH (FORMAT upsert);
{"key": 1, "value": {"city": "Essen"}}
{"key": 2, "value": {"city": "Köln"}}
\.
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op": "c", "after": {"cid": 7, "name": "Adam", "aid": 1}}
{"op": "c", "after": {"cid": 8, "name": "Eva", "aid": 2}}
\.
`)
	r := newSubRecorder()
	cancel, err := db.SubscribeWith("dim", deltaview.SubscribeOptions{Snapshot: true}, r.fn)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	subWaitRows(t, db, r, "dim")
	subExec(t, db, `
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op": "u", "before": null, "after": {"aid": 1, "city": "Bonn"}}
\.
`)
	subWaitRows(t, db, r, "dim")
	rows, _, _ := r.snapshot()
	if got := slices.Sorted(maps.Keys(rows)); fmt.Sprint(got) != "[[7 Adam Bonn] [8 Eva Köln]]" {
		t.Fatalf("rows %v", got)
	}
}

// Deltas from concurrent writers arrive in commit order, and each
// subscriber's deltas sum to the view.
func TestSubscribeOrderAndSum(t *testing.T) {
	db := subDB(t)
	var recs []*subRecorder
	for range 3 {
		r := newSubRecorder()
		cancel, err := db.Subscribe("v", r.fn)
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		recs = append(recs, r)
	}
	const writers, each = 4, 100
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id := w*each + i
				if err := db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d, 0)", id)); err != nil {
					t.Error(err)
					return
				}
				if i%3 == 2 {
					if err := db.Exec(fmt.Sprintf("DELETE FROM t WHERE id = %d", id-1)); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for _, r := range recs {
		subWaitRows(t, db, r, "v")
		r.checkOrder(t)
	}
	// Every subscriber saw the same commits.
	for _, r := range recs {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	for _, r := range recs[1:] {
		if len(r.deltas) != len(recs[0].deltas) {
			t.Fatalf("subscribers got %d and %d deltas", len(recs[0].deltas), len(r.deltas))
		}
		for i, d := range r.deltas {
			if d.TS != recs[0].deltas[i].TS {
				t.Fatalf("delta %d: TS %d and %d", i, recs[0].deltas[i].TS, d.TS)
			}
		}
	}
}

// Once cancel returns, no call runs or follows, and the goroutine is gone;
// cancel from inside the callback returns at once.
func TestSubscribeCancel(t *testing.T) {
	db := subDB(t)
	t.Run("waits for the running call", func(t *testing.T) {
		entered, release := make(chan struct{}), make(chan struct{})
		var mu sync.Mutex
		calls, running := 0, false
		cancel, err := db.Subscribe("v", func(d deltaview.Delta) {
			mu.Lock()
			calls++
			running = true
			mu.Unlock()
			if calls == 1 {
				close(entered)
				<-release
			}
			mu.Lock()
			running = false
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		subExec(t, db, "INSERT INTO t VALUES (1, 0); INSERT INTO t VALUES (2, 0)")
		<-entered
		returned := make(chan struct{})
		go func() { cancel(); close(returned) }()
		select {
		case <-returned:
			t.Fatal("cancel returned while the callback ran")
		case <-time.After(50 * time.Millisecond):
		}
		close(release)
		<-returned
		mu.Lock()
		if running || calls != 1 {
			t.Fatalf("after cancel: running %v, %d calls (the queued delta must be dropped)", running, calls)
		}
		mu.Unlock()
		subExec(t, db, "INSERT INTO t VALUES (3, 0)")
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		if calls != 1 {
			t.Fatalf("%d calls after cancel", calls)
		}
		cancel() // twice is fine
	})
	t.Run("from inside the callback", func(t *testing.T) {
		var cancel func()
		ready := make(chan struct{})
		var mu sync.Mutex
		calls := 0
		returned := make(chan struct{})
		c, err := db.Subscribe("v", func(d deltaview.Delta) {
			<-ready
			mu.Lock()
			calls++
			mu.Unlock()
			cancel()
			close(returned)
		})
		if err != nil {
			t.Fatal(err)
		}
		cancel = c
		close(ready)
		subExec(t, db, "INSERT INTO t VALUES (10, 0); INSERT INTO t VALUES (11, 0)")
		select {
		case <-returned:
		case <-time.After(subWait):
			t.Fatal("cancel from inside the callback did not return")
		}
		waitDeliveryGoroutines(t, 0)
		mu.Lock()
		defer mu.Unlock()
		if calls != 1 {
			t.Fatalf("%d calls, want 1", calls)
		}
	})
	t.Run("no goroutine is left", func(t *testing.T) {
		var cancels []func()
		for range 20 {
			cancel, err := db.SubscribeWith("v", deltaview.SubscribeOptions{Snapshot: true}, func(deltaview.Delta) {})
			if err != nil {
				t.Fatal(err)
			}
			cancels = append(cancels, cancel)
		}
		subExec(t, db, "INSERT INTO t VALUES (20, 0)")
		if n := deliveryGoroutines(); n != 20 {
			t.Fatalf("%d delivery goroutines for 20 subscriptions", n)
		}
		for _, c := range cancels {
			c()
		}
		waitDeliveryGoroutines(t, 0)
	})
}

// Dropping a view ends its subscriptions with an error (42P01).
func TestSubscribeDropView(t *testing.T) {
	db := subDB(t)
	subExec(t, db, "CREATE MATERIALIZED VIEW w AS SELECT id FROM t")
	onV, onW := newSubRecorder(), newSubRecorder()
	for view, r := range map[string]*subRecorder{"v": onV, "w": onW} {
		cancel, err := db.Subscribe(view, r.fn)
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
	}
	subExec(t, db, "INSERT INTO t VALUES (1, 0); DROP MATERIALIZED VIEW w; INSERT INTO t VALUES (2, 0)")
	select {
	case <-onW.ended:
	case <-time.After(subWait):
		t.Fatal("the subscriber of a dropped view was not told")
	}
	if _, _, err := onW.snapshot(); deltaview.Code(err) != "42P01" {
		t.Fatalf("error %v, want 42P01", err)
	}
	subWaitRows(t, db, onV, "v")
	if _, n, err := onV.snapshot(); n != 2 || err != nil {
		t.Fatalf("the other view's subscriber: %d deltas, error %v", n, err)
	}
	waitDeliveryGoroutines(t, 1)
}

func TestSubscribeErrors(t *testing.T) {
	db := subDB(t)
	for _, c := range []struct {
		view string
		opts deltaview.SubscribeOptions
		code string
	}{
		{"nope", deltaview.SubscribeOptions{}, "42P01"},
		{"nope", deltaview.SubscribeOptions{Snapshot: true}, "42P01"},
		{"v", deltaview.SubscribeOptions{Queue: -1}, "22023"},
	} {
		cancel, err := db.SubscribeWith(c.view, c.opts, func(deltaview.Delta) {})
		if deltaview.Code(err) != c.code || cancel != nil {
			t.Errorf("SubscribeWith(%q, %+v): %v, want %s", c.view, c.opts, err, c.code)
		}
	}
	if cancel, err := db.Subscribe("v", nil); deltaview.Code(err) != "22023" || cancel != nil {
		t.Errorf("Subscribe without a function: %v, want 22023", err)
	}
	waitDeliveryGoroutines(t, 0)
}

// TestSubscribeDropViewDeliversQueued: the deltas of the commits before a
// view's drop reach its subscriber before the error, even when they are
// still queued at the drop.
func TestSubscribeDropViewDeliversQueued(t *testing.T) {
	db := subDB(t)
	subExec(t, db, "CREATE MATERIALIZED VIEW w AS SELECT id FROM t")
	release := make(chan struct{})
	got := make(chan deltaview.Delta, 8)
	cancel, err := db.Subscribe("w", func(d deltaview.Delta) {
		<-release // the deltas stay queued until the view is dropped
		got <- d
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	subExec(t, db, "INSERT INTO t VALUES (1, 0)")
	subExec(t, db, "INSERT INTO t VALUES (2, 0)")
	subExec(t, db, "DROP MATERIALIZED VIEW w")
	close(release)
	for i, want := range []string{"1", "2", "42P01"} {
		select {
		case d := <-got:
			switch {
			case d.Err != nil:
				if deltaview.Code(d.Err) != want {
					t.Fatalf("call %d: error %v, want %s", i+1, d.Err, want)
				}
			case len(d.Changes) != 1 || fmt.Sprint(d.Changes[0].Row[0]) != want:
				t.Fatalf("call %d: %+v, want the row %s", i+1, d.Changes, want)
			}
		case <-time.After(subWait):
			t.Fatalf("call %d never came", i+1)
		}
	}
}
