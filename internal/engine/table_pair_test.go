package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestPairKeyIndex checks a primary key of two integer columns kept packed
// in one integer: duplicates are refused, rows are found by key for
// UPDATE, DELETE and INSERT … ON CONFLICT, and a key that does not fit
// packing moves the index to encoded keys without losing a row, before or
// after a view over the table is built.
func TestPairKeyIndex(t *testing.T) {
	e := New()
	sess := e.NewSession()
	exec := func(sql string) ([]Result, error) {
		t.Helper()
		var out []Result
		err := sess.ExecScript(sql, func(r Result) error { out = append(out, r); return nil })
		return out, err
	}
	run := func(sql string) []Result {
		t.Helper()
		out, err := exec(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	dup := func(sql string) {
		t.Helper()
		_, err := exec(sql)
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != pgerr.UniqueViolation {
			t.Fatalf("%s: %v, want a unique violation", sql, err)
		}
	}
	check := func(want string) {
		t.Helper()
		out := run("SELECT count(*), sum(a), sum(b), sum(v) FROM t")
		if got := out[0].Rows[0].String(); got != want {
			t.Fatalf("table holds %s, want %s", got, want)
		}
		out = run("SELECT * FROM s")
		if got := out[0].Rows[0].String(); got != want {
			t.Fatalf("view holds %s, want %s", got, want)
		}
	}
	run(`CREATE TABLE t (a int8, b int8, v int, PRIMARY KEY (a, b));
		INSERT INTO t SELECT g / 4, g % 4 - 2, g FROM generate_series(0, 399) g;
		CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(a) AS a, sum(b) AS b, sum(v) AS v FROM t`)
	u := e.tables["t"].uniques[0]
	if !u.pair || u.ints.Len() != 400 {
		t.Fatalf("the key of two integers is not packed: pair %v", u.pair)
	}
	check("(400, 19800, -200, 79800)")
	dup("INSERT INTO t VALUES (3, -1, 0)")
	run("UPDATE t SET v = v + 1000 WHERE a = 3 AND b = -1")
	run("DELETE FROM t WHERE a = 99 AND b = 1")
	run("INSERT INTO t VALUES (7, 1, 5) ON CONFLICT (a, b) DO UPDATE SET v = 0")
	check("(399, 19701, -201, 80370)")
	// A key beyond 32 bits: the index is encoded from now on.
	run(fmt.Sprintf("INSERT INTO t VALUES (%d, 0, 1), (-1, %d, 2)", int64(1)<<40, int64(1)<<31))
	if u.pair || u.ints != nil || len(u.m) != 401 {
		t.Fatalf("the index was not moved to encoded keys: pair %v, %d keys", u.pair, len(u.m))
	}
	dup("INSERT INTO t VALUES (3, -1, 0)")
	dup(fmt.Sprintf("INSERT INTO t VALUES (%d, 0, 1)", int64(1)<<40))
	run(fmt.Sprintf("UPDATE t SET v = 7 WHERE a = %d AND b = 0", int64(1)<<40))
	run("DELETE FROM t WHERE a = 3 AND b = -1")
	check(fmt.Sprintf("(400, %d, %d, %d)", 19701+(int64(1)<<40)-1-3, -201+(int64(1)<<31)+1, 80370+1+2+6-1013))
}
