package engine_test

import (
	"sync/atomic"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// TestChunksStayOnOneCore: on two workers, a big batch of replacements
// committed in chunks runs every chunk's step on the committing goroutine
// (no parallel wave: a join's probes are not split), as a batch of 100
// does under the gate, leaving the other core to the collector; the same
// batch written by SQL, committed whole, still uses both cores. The view
// then equals its query run afresh.
func TestChunksStayOnOneCore(t *testing.T) {
	e := engine.New()
	e.SetWorkers(2)
	s := e.NewSession()
	run := func(script string) {
		t.Helper()
		if err := s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	run(`CREATE TABLE t (id int PRIMARY KEY, k int NOT NULL, val int NOT NULL);
		CREATE TABLE u (id int PRIMARY KEY, name text NOT NULL);
		INSERT INTO u SELECT g, 'n' || g FROM generate_series(0, 499) g;
		INSERT INTO t SELECT g, g % 500, g FROM generate_series(1, 6000) g;
		CREATE MATERIALIZED VIEW j AS SELECT t.id, t.val, u.name FROM t JOIN u ON t.k = u.id;`)
	var clock atomic.Int64
	tr := &engine.ScheduleTrace{Clock: func() int64 { return clock.Add(1) }}
	e.SetScheduleTrace(tr)
	defer e.SetScheduleTrace(nil)
	i4 := func(v int64) value.Value { return value.NewInt(value.Int4, v) }
	rows := make([][]value.Value, 0, 4000)
	for id := int64(1); id <= 4000; id++ {
		rows = append(rows, []value.Value{i4(id), i4((id * 7) % 500), i4(id + 1)})
	}
	if err := s.Begin(); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceRows("t", rows); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if tr.Commits != 1 || tr.Waves != 0 {
		t.Fatalf("a batch of 4,000 replacements in chunks made %d commits and %d parallel waves (%v), want 1 and none",
			tr.Commits, tr.Waves, tr.ByWave)
	}
	run(`UPDATE t SET k = (k + 3) % 500 WHERE id <= 4000`)
	if tr.Waves == 0 {
		t.Fatal("a whole commit of 4,000 updates made no parallel wave, want both cores used")
	}
	got := sortedResult(t, s, `SELECT * FROM j`)
	want := sortedResult(t, s, `SELECT t.id, t.val, u.name FROM t JOIN u ON t.k = u.id`)
	if got != want {
		t.Fatalf("the view differs from its query:\n%s\nwant\n%s", got, want)
	}
}
