package deltaview_test

import "testing"

// TestTyprename17DomainReopen: a domain renamed, moved and given a new
// owner by ALTER TYPE comes back from the file so, with the column and
// the function over it.
func TestTyprename17DomainReopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename17.db", `CREATE ROLE r;
CREATE DOMAIN d AS int CHECK (VALUE > 0);
CREATE TABLE t (a d);
INSERT INTO t VALUES (3);
CREATE FUNCTION f(x d) RETURNS int LANGUAGE sql AS 'SELECT x + 1';
ALTER TYPE d RENAME TO d2;
CREATE DOMAIN e AS text;
CREATE SCHEMA s;
ALTER TYPE e SET SCHEMA s;
ALTER TYPE s.e OWNER TO r`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname, typowner::regrole::text, typnamespace::regnamespace::text FROM pg_type WHERE typname IN ('d', 'd2', 'e') ORDER BY 1", "[[d2 deltaview public] [e r s]]"},
		{"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'a'", "[[d2]]"},
		{"SELECT f(a), 'f'::regproc::regprocedure::text FROM t", "[[4 f(d2)]]"},
	})
}

// TestTyprename17SetofReopen: a function returning the rows of a
// composite type renamed comes back from the file under the new name.
func TestTyprename17SetofReopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename17s.db", `CREATE TYPE c AS (a int, b text);
CREATE FUNCTION sf(n int) RETURNS SETOF c LANGUAGE sql AS $$SELECT i, 'x' || i FROM generate_series(1, n) i$$;
ALTER TYPE c RENAME TO c2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT pg_get_function_result('sf'::regproc)", "[[SETOF c2]]"},
		{"SELECT * FROM sf(2)", "[[1 x1] [2 x2]]"},
	})
}
