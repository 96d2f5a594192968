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

// TestParallelIndexTakenBack: with two workers, the shared index a top-k
// refills from absorbs a commit's change as soon as the top-k has
// prepared, beside the other views; when another view then fails, the
// index gives the change back, so that a later refill reads only the
// table's rows.
func TestParallelIndexTakenBack(t *testing.T) {
	for _, workers := range []int{1, 2} {
		e := engine.New()
		e.SetWorkers(workers)
		engine.SetParallelMin(e, 0)
		sess := e.NewSession()
		run := func(script string) error {
			return sess.ExecScript(script, func(engine.Result) error { return nil })
		}
		if err := run(`CREATE TABLE t (a int PRIMARY KEY, b int);
			INSERT INTO t SELECT g, g FROM generate_series(1, 100) g;
			CREATE MATERIALIZED VIEW top AS SELECT a, b FROM t ORDER BY b DESC, a LIMIT 3;
			CREATE MATERIALIZED VIEW sums AS SELECT sum(b) FROM t;
			CREATE MATERIALIZED VIEW inv AS SELECT a, 10 / b AS q FROM t;`); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			err := run(`INSERT INTO t VALUES (1000, 1000), (1001, 0)`)
			if pgerr.Code(err) != "22012" || !strings.Contains(pgerr.Wrap(err).Detail, `"inv"`) {
				t.Fatalf("workers=%d: got %v, want 22012 naming inv", workers, err)
			}
		}
		// Past the top-k's reserve: it refills from the index.
		if err := run(`DELETE FROM t WHERE b > 80`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		_, rows, err := e.ViewRows("top")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.String())
		}
		if want := "(80, 80) (79, 79) (78, 78)"; strings.Join(got, " ") != want {
			t.Fatalf("workers=%d: top holds %s, want %s", workers, strings.Join(got, " "), want)
		}
		// And the index takes the next commit's change.
		if err := run(`INSERT INTO t VALUES (1000, 1000); DELETE FROM t WHERE a = 1000`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if err := run(`DELETE FROM t WHERE b > 60`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if _, rows, _ := e.ViewRows("top"); len(rows) != 3 || rows[0][1].String() != "60" {
			t.Fatalf("workers=%d: top holds %v, want 60 first", workers, rows)
		}
	}
}
