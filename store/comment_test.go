package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// TestCommentsReopen: comments on tables, views, materialized views,
// indexes and columns survive a reopening, renamed with their table and
// gone with what they described; a file of format 6 gains their table.
func TestCommentsReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "comments.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE t (a int PRIMARY KEY, b text);
		COMMENT ON COLUMN t.b IS 'column b';
		ALTER TABLE t RENAME COLUMN b TO c;
		CREATE VIEW v AS SELECT a FROM t;
		CREATE MATERIALIZED VIEW m AS SELECT c FROM t;
		CREATE INDEX i ON t (c);
		CREATE TABLE gone (x int);
		COMMENT ON TABLE t IS 'table t';
		COMMENT ON VIEW v IS 'view v';
		COMMENT ON MATERIALIZED VIEW m IS 'matview m';
		COMMENT ON INDEX i IS 'index i';
		COMMENT ON TABLE gone IS 'gone';
		DROP TABLE gone`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	execSQL(t, db, "CREATE TABLE gone (x int)")
	const q = `SELECT obj_description('t'::regclass, 'pg_class'), col_description('t'::regclass, 2), obj_description('v'::regclass, 'pg_class'),
		obj_description('m'::regclass, 'pg_class'), obj_description('i'::regclass, 'pg_class'), obj_description('gone'::regclass, 'pg_class')`
	want := []string{"text:table t | text:column b | text:view v | text:matview m | text:index i | NULL"}
	if got := query(t, db, q); !slices.Equal(got, want) {
		t.Errorf("comments after reopening: %q, want %q", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Format 6: no table of comments.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"DROP TABLE deltaview_comments", "DROP TABLE deltaview_domains", "DROP TABLE deltaview_types", "DROP TABLE deltaview_schemas", "PRAGMA user_version = 6"} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db = open(t, path)
	defer db.Close()
	execSQL(t, db, "COMMENT ON TABLE gone IS 'back'")
	if got := query(t, db, "SELECT obj_description('gone'::regclass, 'pg_class')"); !slices.Equal(got, []string{"text:back"}) {
		t.Errorf("a comment in an upgraded file: %q", got)
	}
}
