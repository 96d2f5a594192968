package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSharedJoinIndex checks that two views joining the same table on the
// same key share one index of it: the engine's total counts it once, each
// view is charged for it, and both views stay right as the table changes
// (the shared index absorbs each change once) and after one is dropped.
func TestSharedJoinIndex(t *testing.T) {
	e := engine.New()
	sess := e.NewSession()
	exec := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check := func() {
		t.Helper()
		for _, v := range e.Views() {
			_, got, err := e.ViewRows(v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := e.Recompute(v)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d rows maintained, %d recomputed", v, len(got), len(want))
			}
		}
	}
	exec(`CREATE TABLE a (id int PRIMARY KEY, k int, x text);
		CREATE TABLE b (k int PRIMARY KEY, y text);
		INSERT INTO a SELECT i, i % 50, 'x' || i FROM generate_series(1, 5000) i;
		INSERT INTO b SELECT i, 'y' || i FROM generate_series(0, 49) i;
		CREATE MATERIALIZED VIEW j1 AS SELECT a.id, b.y FROM a JOIN b ON a.k = b.k;`)
	alone := e.Memory().Total.Bytes
	exec(`CREATE MATERIALIZED VIEW j2 AS SELECT a.id, a.k, b.y FROM a JOIN b ON a.k = b.k WHERE b.k > 10`)
	m := e.Memory()
	// j2 shares j1's index of a (id, k on k): the total grows by less than
	// j2 is charged.
	if grew := m.Total.Bytes - alone; grew >= m.Views["j2"].Bytes {
		t.Fatalf("total grew by %d bytes, j2 is charged %d: its index of a is not shared", grew, m.Views["j2"].Bytes)
	}
	check()
	exec(`UPDATE a SET k = 7 WHERE id <= 500;
		DELETE FROM a WHERE id % 3 = 0;
		BEGIN; INSERT INTO a VALUES (9001, 20, 'n'); UPDATE b SET y = 'z' WHERE k = 20; COMMIT;`)
	check()
	exec(`DROP MATERIALIZED VIEW j1; INSERT INTO a VALUES (9002, 30, 'm')`)
	check()
	exec(`CREATE MATERIALIZED VIEW j3 AS SELECT a.id, b.y FROM a JOIN b ON a.k = b.k; DELETE FROM a WHERE id < 100`)
	check()
}
