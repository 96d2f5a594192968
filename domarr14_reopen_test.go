package deltaview_test

import "testing"

// TestDomarr14DomainArrayReopen: columns, composite attributes and
// routine parameters of an array of a domain (d[]) come back from the
// file with it: _d in pg_type, each element checked against d.
func TestDomarr14DomainArrayReopen(t *testing.T) {
	db := reopenedFileDB(t, "domarr14.db", `CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TABLE t (id int, a pos[], b _pos);
INSERT INTO t VALUES (1, '{1,2}', ARRAY[3]);
CREATE TYPE comp AS (x int, y pos[]);
ALTER DOMAIN pos RENAME TO p2;
CREATE FUNCTION f(a p2[]) RETURNS p2[] LANGUAGE sql AS 'SELECT a'`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname, typelem::regtype::text, typarray::regtype::text FROM pg_type WHERE typname IN ('p2', '_p2') ORDER BY 1", "[[_p2 p2 -] [p2 - p2[]]]"},
		{"SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 0 ORDER BY attnum", "[[id integer] [a p2[]] [b p2[]]]"},
		{"SELECT pg_typeof(a)::text, pg_typeof(a[1])::text, a, b FROM t", "[[p2[] p2 {1,2} {3}]]"},
		{"SELECT pg_get_function_arguments('f'::regproc), f('{4}')", "[[a p2[] {4}]]"},
	})
	for _, bad := range []string{"INSERT INTO t VALUES (2, '{0}', NULL)", "INSERT INTO t VALUES (2, NULL, '{-1}')", "SELECT ROW(1, '{-1}')::comp", "SELECT f('{-1}')"} {
		if err := db.Exec(bad); err == nil {
			t.Fatalf("%s: an element outside the domain was accepted", bad)
		}
	}
}
