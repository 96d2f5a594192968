package engine_test

import (
	"fmt"
	"slices"
	"testing"
)

// TestKeyDeferrableRandom compares with PostgreSQL random transactions
// over a table whose primary key and unique key are DEFERRABLE (one
// INITIALLY DEFERRED), with SET CONSTRAINTS, shifts of the keys that
// collide within a statement (UPDATE … SET pos = pos + 1), inserts,
// deletes, reads by key and savepoints, committed or rolled back: each
// statement must succeed or fail (SQLSTATE) as PostgreSQL's does, and
// give its rows, and a materialized view over the table must equal a
// read of the table after every transaction.
func TestKeyDeferrableRandom(t *testing.T) {
	tw, r := randomTwin(t, 31)
	tw.tags = true
	tw.both(`CREATE TABLE t (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED, pos int CONSTRAINT t_pos UNIQUE DEFERRABLE, g int)`)
	for i := 1; i <= 12; i++ {
		tw.both(fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d)", i, i, i%3))
	}
	tw.run("CREATE MATERIALIZED VIEW tv AS SELECT g, count(*) AS n, sum(pos) AS s FROM t GROUP BY g")
	stmt := func() string {
		switch r.IntN(9) {
		case 0:
			return fmt.Sprintf("UPDATE t SET pos = pos + %d WHERE g = %d", 1+r.IntN(2), r.IntN(3))
		case 1:
			return fmt.Sprintf("UPDATE t SET pos = pos - %d", r.IntN(3))
		case 2:
			return fmt.Sprintf("UPDATE t SET id = id + 1 WHERE id >= %d", r.IntN(14))
		case 3:
			return fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d)", r.IntN(16), r.IntN(16), r.IntN(3))
		case 4:
			return fmt.Sprintf("DELETE FROM t WHERE pos = %d", r.IntN(16))
		case 5:
			return fmt.Sprintf("SELECT id, pos, g FROM t WHERE pos = %d ORDER BY id", r.IntN(16))
		case 6:
			return fmt.Sprintf("SELECT id, pos, g FROM t WHERE id = %d ORDER BY pos", r.IntN(16))
		case 7:
			return []string{"SET CONSTRAINTS ALL DEFERRED", "SET CONSTRAINTS ALL IMMEDIATE", "SET CONSTRAINTS t_pos DEFERRED",
				"SET CONSTRAINTS t_pos IMMEDIATE", "SET CONSTRAINTS t_pkey IMMEDIATE"}[r.IntN(5)]
		}
		return fmt.Sprintf("UPDATE t SET pos = %d WHERE id = %d", r.IntN(16), r.IntN(16))
	}
	failed, commits := 0, 0
	for range 250 {
		block := r.IntN(3) > 0
		if block {
			tw.both("BEGIN")
		}
		for range 1 + r.IntN(5) {
			if block && r.IntN(8) == 0 {
				tw.both("SAVEPOINT s")
				tw.both(stmt())
				tw.both("ROLLBACK TO s")
				continue
			}
			if tw.both(stmt()) != "" {
				failed++
			}
		}
		if block {
			end := "COMMIT"
			if r.IntN(5) == 0 {
				end = "ROLLBACK"
			}
			if tw.both(end) == "" && end == "COMMIT" {
				commits++
			}
		}
		got := tw.run("SELECT * FROM tv ORDER BY g").rows
		want := tw.run("SELECT g, count(*) AS n, sum(pos) AS s FROM t GROUP BY g ORDER BY g").rows
		if !slices.Equal(got, want) {
			t.Fatalf("the view %s, its query %s", show(got), show(want))
		}
	}
	tw.both("SELECT * FROM t ORDER BY id")
	t.Logf("%d statements failed, %d blocks committed", failed, commits)
	if failed < 20 || commits < 20 {
		t.Fatalf("only %d statements failed and %d blocks committed", failed, commits)
	}
}
