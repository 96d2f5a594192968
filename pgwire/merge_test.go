package pgwire_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
)

// MERGE over the wire: its tag MERGE n reaches pgx's RowsAffected, in the
// simple and the extended protocol, with parameters; a view over the table
// follows it; a failing MERGE changes nothing.
func TestMerge(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, v int CHECK (v >= 0))`)
	mustExec(t, c, `CREATE MATERIALIZED VIEW tv AS SELECT count(*) AS n, sum(v) AS s FROM t`)
	mustExec(t, c, `INSERT INTO t VALUES (1, 10), (2, 20)`)
	const upsert = `MERGE INTO t USING (VALUES ($1::int, $2::int), ($3::int, $4::int)) AS s(id, v) ON t.id = s.id
		WHEN MATCHED AND s.v = 0 THEN DELETE
		WHEN MATCHED THEN UPDATE SET v = t.v + s.v
		WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		tag, err := c.Exec(ctx(t), upsert, mode, 2, 1, 3, 30)
		if err != nil || tag.String() != "MERGE 2" || tag.RowsAffected() != 2 {
			t.Errorf("%v: tag %q (%d rows), %v; want MERGE 2", mode, tag, tag.RowsAffected(), err)
		}
		tag, err = c.Exec(ctx(t), upsert, mode, 3, 0, 4, -1)
		if pe, ok := err.(*pgconn.PgError); !ok || pe.Code != "23514" {
			t.Errorf("%v: a MERGE that breaks a CHECK: %q, %v; want 23514", mode, tag, err)
		}
		mustExec(t, c, `DELETE FROM t WHERE id > 2`)
	}
	var n, s int
	if err := c.QueryRow(ctx(t), `SELECT n, s FROM tv`).Scan(&n, &s); err != nil || n != 2 || s != 32 {
		t.Errorf("tv holds (%d, %d), %v; want (2, 32)", n, s, err)
	}
}
