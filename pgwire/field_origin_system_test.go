package pgwire_test

import (
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestFieldOriginsSystemColumns checks that RowDescription names the
// table of a system column read from one, with the column's negative
// attnum, as PostgreSQL's does.
func TestFieldOriginsSystemColumns(t *testing.T) {
	setup := []string{
		"CREATE TABLE fos_t (a int PRIMARY KEY, b text)",
		"CREATE TABLE fos_p (a int, b text) PARTITION BY LIST (a)",
		"CREATE TABLE fos_p1 PARTITION OF fos_p FOR VALUES IN (1)",
		"INSERT INTO fos_t VALUES (1, 'x')",
		"INSERT INTO fos_p VALUES (1, 'y')",
	}
	queries := []string{
		"SELECT ctid, xmin, cmin, xmax, cmax, tableoid, a FROM fos_t",
		"SELECT t.tableoid, t.ctid FROM fos_t t",
		"SELECT s.ctid FROM (SELECT ctid FROM fos_t) s",
		"SELECT ctid::text, tableoid::int8 FROM fos_t",
		"SELECT tableoid, ctid, b FROM fos_p",
		"SELECT tableoid, b FROM fos_p1",
		"SELECT x.ctid, y.ctid FROM fos_t x JOIN fos_t y USING (a)",
		"WITH w AS (SELECT xmin FROM fos_t) SELECT * FROM w",
		"UPDATE fos_t SET b = 'z' RETURNING ctid, tableoid, b",
		"INSERT INTO fos_t VALUES (2, 'w') ON CONFLICT (a) DO UPDATE SET b = 'v' RETURNING tableoid, a",
		"DELETE FROM fos_t WHERE a = 2 RETURNING xmin, a",
		"SELECT c.tableoid, relname FROM pg_class c WHERE relname = 'fos_t'",
		"UPDATE fos_t SET b = 'u' WHERE a IN (SELECT a FROM fos_t) RETURNING ctid, b",
	}
	pg := pgtest.Start(t).Conn(t)
	dv := connect(t, startServer(t, deltaview.Open()))
	for _, s := range setup {
		mustExec(t, pg, s)
		mustExec(t, dv, s)
	}
	want, got := fieldOrigins(t, pg, queries), fieldOrigins(t, dv, queries)
	if got != want {
		t.Errorf("deltaview's fields\n%s\nPostgreSQL's\n%s", got, want)
	}
}
