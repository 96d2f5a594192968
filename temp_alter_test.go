package deltaview_test

import (
	"testing"
)

// TestTempAlter: ALTER TABLE of a temporary table changes the session's
// table alone — another session never sees its new columns, its new name
// nor the sequences it adds — the table goes with its session, and the
// database file holds no trace of it.
func TestTempAlter(t *testing.T) {
	db, path := openFileDB(t, "tempalter.db")
	a, b := db.Session(), db.Session()
	sessionExec(t, b, "CREATE TABLE tt (perm int); INSERT INTO tt VALUES (1)")
	sessionExec(t, a, `CREATE TEMP TABLE tt (x int); INSERT INTO tt VALUES (1), (2);
		ALTER TABLE tt ADD COLUMN y text DEFAULT 'new';
		ALTER TABLE tt ADD COLUMN id serial;
		ALTER TABLE tt ADD PRIMARY KEY (id);
		CREATE INDEX tt_y ON tt (y);
		ALTER TABLE tt ALTER COLUMN x TYPE bigint`)
	if v, err := firstValue(a, "SELECT string_agg(y || id, ',' ORDER BY id) FROM tt"); err != nil || v != "new1,new2" {
		t.Fatalf("the session's altered table: %q, %v", v, err)
	}
	if _, err := firstValue(b, "SELECT y FROM tt"); err == nil {
		t.Error("another session sees the temporary table's new column")
	}
	if v, err := firstValue(b, "SELECT perm FROM tt"); err != nil || v != "1" {
		t.Errorf("another session's tt: %q, %v", v, err)
	}
	sessionExec(t, a, "ALTER TABLE tt RENAME TO moved")
	if _, err := firstValue(b, "SELECT count(*) FROM moved"); err == nil {
		t.Error("another session sees the renamed temporary table")
	}
	if v, err := firstValue(a, "SELECT count(*) FROM moved"); err != nil || v != "2" {
		t.Errorf("the renamed table in its session: %q, %v", v, err)
	}
	a.Close()
	c := db.Session()
	if _, err := firstValue(c, "SELECT count(*) FROM moved"); err == nil {
		t.Error("the altered temporary table outlived its session")
	}
	sessionExec(t, c, "CREATE TABLE moved (z int); CREATE SEQUENCE tt_id_seq")
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s := db.Session()
	for _, q := range []string{`SELECT count(*) FROM "pg_temp_1.moved"`, `SELECT count(*) FROM "pg_temp_1.tt"`,
		`SELECT nextval('"pg_temp_1.tt_id_seq"')`, `SELECT y FROM moved`} {
		if _, err := firstValue(s, q); err == nil {
			t.Errorf("the database file kept a trace of the temporary table: %s", q)
		}
	}
	if v, err := firstValue(s, "SELECT perm FROM tt"); err != nil || v != "1" {
		t.Errorf("the permanent tt after reopening: %q, %v", v, err)
	}
	if v, err := firstValue(s, "SELECT count(*) FROM moved"); err != nil || v != "0" {
		t.Errorf("the permanent moved after reopening: %q, %v", v, err)
	}
}

// TestMatViewIndexMovedReopen: the indexes ALTER MATERIALIZED VIEW … SET
// SCHEMA moves with the view are kept in the database file under their
// new schema, on the view there.
func TestMatViewIndexMovedReopen(t *testing.T) {
	db := reopenedFileDB(t, "mvindexmove.db", `CREATE TABLE t (a int);
		INSERT INTO t VALUES (1), (2), (2);
		CREATE MATERIALIZED VIEW mv AS SELECT a, count(*) AS n FROM t GROUP BY a;
		CREATE UNIQUE INDEX mv_a ON mv (a);
		CREATE SCHEMA s;
		ALTER MATERIALIZED VIEW mv SET SCHEMA s;
		CREATE INDEX mv_a ON t (a)`)
	defer db.Close()
	s := db.Session()
	if v, err := firstValue(s, "SELECT string_agg(schemaname || '.' || indexname || ' on ' || tablename, ',' ORDER BY schemaname) FROM pg_indexes WHERE indexname = 'mv_a'"); err != nil || v != "public.mv_a on t,s.mv_a on mv" {
		t.Errorf("the indexes after reopening: %q, %v", v, err)
	}
	if v, err := firstValue(s, "SELECT n FROM s.mv WHERE a = 2"); err != nil || v != "2" {
		t.Errorf("the moved view after reopening: %q, %v", v, err)
	}
	sessionExec(t, s, "DROP INDEX s.mv_a; DROP INDEX mv_a")
}
