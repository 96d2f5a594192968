package deltaview_test

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// TestClockTimer checks that a row leaves a view with a temporal filter
// when its instant comes on the wall clock, with no commit to bring it
// about, as a delta of its own; and that Close stops the timer.
func TestClockTimer(t *testing.T) {
	before := runtime.NumGoroutine()
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE ev (id int PRIMARY KEY, at timestamptz);
CREATE MATERIALIZED VIEW recent AS SELECT id FROM ev WHERE at > now() - interval '300 milliseconds'`); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var deltas []deltaview.Delta
	left := make(chan struct{}, 1)
	cancel, err := db.Subscribe("recent", func(d deltaview.Delta) {
		mu.Lock()
		deltas = append(deltas, d)
		mu.Unlock()
		if len(d.Changes) > 0 && d.Changes[0].Diff < 0 {
			left <- struct{}{}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := db.Exec("INSERT INTO ev VALUES (1, '" + start.UTC().Format("2006-01-02 15:04:05.999999Z07") + "')"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-left:
	case <-time.After(subWait):
		t.Fatal("the row did not leave the view")
	}
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Fatalf("the row left after %v, before its instant", el)
	}
	rows, err := db.View("recent")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rows.Rows); n != 0 {
		t.Fatalf("the view holds %d rows", n)
	}
	mu.Lock()
	if len(deltas) != 2 || deltas[1].TS <= deltas[0].TS {
		t.Fatalf("deltas %+v: want the insert, then the row leaving at a later timestamp", deltas)
	}
	mu.Unlock()
	cancel()
	db.Close()
	deadline := time.Now().Add(subWait)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after Close, %d before Open", n, before)
	}
}

// TestSetClock drives a view with a pinned clock through the Go API.
func TestSetClock(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db := deltaview.OpenWith(deltaview.Options{Clock: func() time.Time { return base }})
	defer db.Close()
	if err := db.Exec(`CREATE TABLE ev (id int PRIMARY KEY, d date);
INSERT INTO ev VALUES (1, '2025-12-31'), (2, '2026-01-01'), (3, '2026-01-03');
CREATE MATERIALIZED VIEW this_week AS SELECT id FROM ev WHERE d > current_date - 2 AND d <= current_date`); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		rows, err := db.View("this_week")
		if err != nil {
			t.Fatal(err)
		}
		return len(rows.Rows)
	}
	if n := count(); n != 2 {
		t.Fatalf("at the source's time: %d rows, want 2", n)
	}
	if err := db.SetClock(base.Add(72 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Fatalf("three days later: %d rows, want 1", n)
	}
	if err := db.SetClock(base); deltaview.Code(err) != "22023" {
		t.Fatalf("setting the clock back: %v, want 22023", err)
	}
}
