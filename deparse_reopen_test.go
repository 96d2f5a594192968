package deltaview_test

import "testing"

// TestDeparseReopen checks that defaults, checks and view definitions
// print as PostgreSQL's deparser prints them after the file is opened
// again: the texts are made from what the file keeps.
func TestDeparseReopen(t *testing.T) {
	db := reopenedFileDB(t, "deparse.db", `CREATE TABLE t (id int PRIMARY KEY, b varchar(10) DEFAULT 'x' CHECK (b IN ('x', 'y')), d numeric DEFAULT -1 CHECK (d > 0));
ALTER TABLE t ALTER COLUMN id SET DEFAULT 1 + 2;
CREATE VIEW v AS SELECT id, d FROM t WHERE d > 1;
CREATE MATERIALIZED VIEW m AS SELECT b, count(*) AS n FROM t GROUP BY b;
CREATE VIEW w AS WITH a AS (SELECT id FROM t) SELECT id FROM a WHERE id IN (SELECT id FROM t) UNION SELECT 1`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 't'::regclass ORDER BY adnum", "[[(1 + 2)] ['x'::character varying] ['-1'::integer]]"},
		{"SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 't'::regclass AND contype = 'c' ORDER BY conname",
			"[[CHECK (((b)::text = ANY ((ARRAY['x'::character varying, 'y'::character varying])::text[])))] [CHECK ((d > (0)::numeric))]]"},
		{"SELECT pg_get_viewdef('v'::regclass, true)", "[[ SELECT t.id,\n    t.d\n   FROM t\n  WHERE t.d > 1::numeric;]]"},
		{"SELECT pg_get_viewdef('m'::regclass)", "[[ SELECT t.b,\n    count(*) AS n\n   FROM t\n  GROUP BY t.b;]]"},
		{"SELECT pg_get_viewdef('w'::regclass)", "[[ WITH a AS (\n         SELECT t.id\n           FROM t\n        )\n SELECT a.id\n   FROM a\n  WHERE (a.id IN ( SELECT t.id\n           FROM t))\nUNION\n SELECT 1 AS id;]]"},
	})
}
