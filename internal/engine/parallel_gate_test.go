package engine_test

import (
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestParallelCommitGate: with two workers, the engine's default on two
// cores, a commit of fewer than 1,024 rows in its batches (512 updates)
// takes the one worker's path (no wave handed to another goroutine, no
// commit left behind), and a bigger one uses both.
func TestParallelCommitGate(t *testing.T) {
	var behind atomic.Int32
	defer engine.SetBehindHook(func() func() {
		behind.Add(1)
		return nil
	})()
	for _, workers := range []int{-1, 2} { // -1: the default
		if workers < 0 && runtime.GOMAXPROCS(0) < 2 {
			continue
		}
		e := engine.New()
		if workers > 0 {
			e.SetWorkers(workers)
		}
		sess, run := groupedAndFiltered(t, e)
		// A monotonic clock is enough to count the waves.
		var clock atomic.Int64
		tr := &engine.ScheduleTrace{Clock: func() int64 { return clock.Add(1) }}
		e.SetScheduleTrace(tr)
		behind.Store(0)
		for _, n := range []int{1, 100, 511} {
			run(`UPDATE t SET val = val + 1 WHERE id <= ` + strconv.Itoa(n))
			if tr.Waves != 0 || behind.Load() != 0 {
				t.Fatalf("workers=%d: a commit of %d changes made %d parallel waves and left %d commits behind, want none",
					workers, n, tr.Waves, behind.Load())
			}
		}
		run(`UPDATE t SET val = val + 1 WHERE id <= 2000`)
		if tr.Waves == 0 || behind.Load() != 1 {
			t.Fatalf("workers=%d: a commit of 2,000 changes made %d parallel waves and left %d commits behind, want both cores used",
				workers, tr.Waves, behind.Load())
		}
		e.SetScheduleTrace(nil)
		// What the views hold is what one worker makes of the same
		// statements (TestParallelDeterminism checks it at length).
		var got []string
		if err := sess.ExecScript(`SELECT sum(count), sum(sum) FROM grouped; SELECT count(*), sum(val) FROM filtered`, func(r engine.Result) error {
			for _, row := range r.Rows {
				got = append(got, fmt.Sprint(row))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// 3000 rows summing 4,501,500, plus 1 + 100 + 511 + 2000.
		want := []string{"(3000, 4504112)"}
		if len(got) != 2 || got[0] != want[0] {
			t.Fatalf("workers=%d: got %v, want %v first", workers, got, want)
		}
	}
}

// groupedAndFiltered loads 3,000 rows into t under two views of it,
// grouped and filtered, and returns the session and a runner of scripts on it.
func groupedAndFiltered(t *testing.T, e *engine.Engine) (*engine.Session, func(script string)) {
	t.Helper()
	sess := e.NewSession()
	run := func(script string) {
		t.Helper()
		if err := sess.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	run(`CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
		INSERT INTO t SELECT g, g % 10, g FROM generate_series(1, 3000) g;
		CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*), sum(val) FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW filtered AS SELECT id, val FROM t WHERE val % 2 = 0;`)
	return sess, run
}
