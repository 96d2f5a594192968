package deltaview_test

import "testing"

// TestViewDefFromReopen checks that views with LATERAL subqueries,
// functions and VALUES in FROM print as PostgreSQL's pg_get_viewdef after
// the file is opened again, and that their rows are the same.
func TestViewDefFromReopen(t *testing.T) {
	db := reopenedFileDB(t, "viewdef19.db", `CREATE TABLE t (a int, b text);
INSERT INTO t VALUES (1, 'x'), (2, 'y');
CREATE VIEW v AS SELECT t.a, s.z FROM t, LATERAL (SELECT t.a + 1 AS z) s;
CREATE VIEW g AS SELECT * FROM t, generate_series(1, t.a) WITH ORDINALITY AS g(x, n);
CREATE VIEW w AS SELECT * FROM (VALUES (1, 'a'), (2, NULL)) v(k) WHERE v.column2 < 'b' COLLATE "C"`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT pg_get_viewdef('v'::regclass, true)", "[[ SELECT t.a,\n    s.z\n   FROM t,\n    LATERAL ( SELECT t.a + 1 AS z) s;]]"},
		{"SELECT pg_get_viewdef('g'::regclass)", "[[ SELECT t.a,\n    t.b,\n    g.x,\n    g.n\n   FROM t,\n    LATERAL generate_series(1, t.a) WITH ORDINALITY g(x, n);]]"},
		{"SELECT pg_get_viewdef('w'::regclass)", "[[ SELECT v.k,\n    v.column2\n   FROM ( VALUES (1,'a'::text), (2,NULL::text)) v(k, column2)\n  WHERE (v.column2 < ('b'::text COLLATE \"C\"));]]"},
		{"SELECT * FROM g ORDER BY a, x", "[[1 x 1 1] [2 y 1 1] [2 y 2 2]]"},
		{"SELECT * FROM w", "[[1 a]]"},
	})
}
