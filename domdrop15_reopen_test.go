package deltaview_test

import "testing"

// TestDomdrop15DropDomainCascadeReopen: DROP DOMAIN … CASCADE leaves the
// tables without the columns of the domain, of its array and of a domain
// over it, without the domain over it, and the views over the other
// columns maintained, in the file.
func TestDomdrop15DropDomainCascadeReopen(t *testing.T) {
	db := reopenedFileDB(t, "domdrop15.db", `CREATE DOMAIN d AS int CHECK (VALUE > 0);
CREATE DOMAIN d2 AS d;
CREATE DOMAIN k AS int;
CREATE DOMAIN k2 AS k;
CREATE TABLE t (id int PRIMARY KEY, a d, b d[], c d2, n int);
INSERT INTO t VALUES (1, 1, ARRAY[2]::d[], 3, 10);
CREATE MATERIALIZED VIEW m AS SELECT id, n FROM t;
CREATE MATERIALIZED VIEW ma AS SELECT id, a FROM t;
CREATE VIEW v AS SELECT 1::d2 AS x;
DROP DOMAIN d CASCADE;
DROP DOMAIN k, k2;
INSERT INTO t VALUES (2, 20)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 30)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY id", "[[1 10] [2 20] [3 30]]"},
		{"SELECT * FROM m ORDER BY id", "[[1 10] [2 20] [3 30]]"},
		{"SELECT count(*) FROM pg_class WHERE relname IN ('ma', 'v')", "[[0]]"},
		{"SELECT count(*) FROM pg_type WHERE typname IN ('d', 'd2', '_d', '_d2', 'k', 'k2')", "[[0]]"},
	})
	if err := db.Exec(`CREATE DOMAIN d2 AS text; CREATE DOMAIN k AS text`); err != nil {
		t.Fatal(err)
	}
}
