package engine_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestParallelFailure: when a view of a wave prepared in parallel fails,
// the error names the first failing view in creation order, every view
// keeps its rows and the transaction is rolled back, as when the views
// prepare one after the other.
func TestParallelFailure(t *testing.T) {
	for _, workers := range []int{1, 2} {
		e := engine.New()
		e.SetWorkers(workers)
		engine.SetParallelMin(e, 0)
		sess := e.NewSession()
		run := func(script string) error {
			return sess.ExecScript(script, func(engine.Result) error { return nil })
		}
		if err := run(`CREATE TABLE t (a int PRIMARY KEY, b int);
			INSERT INTO t VALUES (1, 1), (2, 2);
			CREATE MATERIALIZED VIEW sums AS SELECT sum(b) FROM t;
			CREATE MATERIALIZED VIEW inv1 AS SELECT a, 10 / b AS q FROM t;
			CREATE MATERIALIZED VIEW inv2 AS SELECT a, 20 / b AS q FROM t;
			CREATE MATERIALIZED VIEW big AS SELECT a FROM t WHERE b > 1;`); err != nil {
			t.Fatal(err)
		}
		err := run(`INSERT INTO t VALUES (3, 0)`)
		if pgerr.Code(err) != "22012" || !strings.Contains(pgerr.Wrap(err).Detail, `"inv1"`) {
			t.Fatalf("workers=%d: got %v, want 22012 naming inv1", workers, err)
		}
		for view, want := range map[string]int{"sums": 1, "inv1": 2, "inv2": 2, "big": 1} {
			_, rows, err := e.ViewRows(view)
			if err != nil || len(rows) != want {
				t.Fatalf("workers=%d: %s holds %d rows (%v), want %d", workers, view, len(rows), err, want)
			}
		}
		if err := run(`INSERT INTO t VALUES (3, 3)`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if _, rows, _ := e.ViewRows("big"); len(rows) != 2 {
			t.Fatalf("workers=%d: big holds %d rows after the next commit, want 2", workers, len(rows))
		}
	}
}

// TestSetWorkers: SET deltaview.workers takes a count of goroutines.
func TestSetWorkers(t *testing.T) {
	sess := engine.New().NewSession()
	run := func(script string) error {
		return sess.ExecScript(script, func(engine.Result) error { return nil })
	}
	if err := run(`SET deltaview.workers = 4; SET deltaview.workers = 0; RESET deltaview.workers`); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`'many'`, `-1`} {
		if err := run(`SET deltaview.workers = ` + bad); pgerr.Code(err) != "22023" {
			t.Fatalf("SET deltaview.workers = %s: got %v, want 22023", bad, err)
		}
	}
}
