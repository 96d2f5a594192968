package pgwire_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
)

// Data-modifying WITH items over the wire: the command tag is the main
// statement's, in the simple and the extended protocol, with parameters;
// ROLLBACK undoes them.
func TestWithModifying(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, v int)`)
	mustExec(t, c, `CREATE TABLE old (id int PRIMARY KEY, v int)`)
	mustExec(t, c, `INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)`)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		mustExec(t, c, `DELETE FROM old`)
		for _, s := range []struct {
			sql  string
			args []any
			tag  string
		}{
			{`WITH d AS (DELETE FROM t WHERE id = $1 RETURNING *) INSERT INTO old SELECT * FROM d`, []any{1}, "INSERT 0 1"},
			{`WITH i AS (INSERT INTO t SELECT * FROM old RETURNING *) UPDATE old SET v = old.v + i.v FROM i WHERE old.id = i.id`, nil, "UPDATE 1"},
			{`WITH u AS (UPDATE t SET v = v + $1 RETURNING *) DELETE FROM old WHERE id = $2`, []any{1, 1}, "DELETE 1"},
			{`WITH u AS (UPDATE t SET v = v - $1 RETURNING *) SELECT * FROM u`, []any{1}, "SELECT 3"},
		} {
			args := append([]any{mode}, s.args...)
			tag, err := c.Exec(ctx(t), s.sql, args...)
			if err != nil || tag.String() != s.tag {
				t.Errorf("%v: %s: tag %q, %v; want %q", mode, s.sql, tag, err, s.tag)
			}
		}
	}
	mustExec(t, c, `BEGIN`)
	mustExec(t, c, `WITH d AS (DELETE FROM t RETURNING *) INSERT INTO old SELECT id + 10, v FROM d`)
	mustExec(t, c, `ROLLBACK`)
	// A cursor's query may not change data, as in PostgreSQL.
	mustExec(t, c, `BEGIN`)
	_, err := c.Exec(ctx(t), `DECLARE k CURSOR FOR WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d`)
	if pgerr, ok := err.(*pgconn.PgError); !ok || pgerr.Code != "0A000" {
		t.Errorf("DECLARE over a data-modifying WITH: %v", err)
	}
	mustExec(t, c, `ROLLBACK`)
	var got string
	if err := c.QueryRow(ctx(t), `WITH n AS (INSERT INTO old VALUES (99, 0) RETURNING id) SELECT (SELECT string_agg(id || ':' || v, ',' ORDER BY id) FROM t) || ' ' || (SELECT id FROM n)`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if want := "1:10,2:20,3:30 99"; got != want {
		t.Errorf("after the rollback: %s, want %s", got, want)
	}
	var n int
	if err := c.QueryRow(ctx(t), `SELECT count(*) FROM old`).Scan(&n); err != nil || n != 1 {
		t.Errorf("old holds %d rows (%v), want 1", n, err)
	}
}
