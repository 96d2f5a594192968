package deltaview_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestSchemasReopen checks that a database file keeps its schemas, with
// their owners and privileges, and the relations in them, made qualified
// or through the search path, with their rows, their sequences' values
// and the views over them, maintained after the file is opened again.
func TestSchemasReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schemas.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE SCHEMA s1;
CREATE SCHEMA s2 CREATE TABLE t (a int PRIMARY KEY, c int) CREATE VIEW v AS SELECT a FROM t WHERE c > 0;
CREATE ROLE reader LOGIN;
GRANT USAGE ON SCHEMA s1 TO reader;
CREATE TABLE s1.t (a int PRIMARY KEY, b text);
CREATE TABLE t (a int PRIMARY KEY, d text);
SET search_path = s1, public;
CREATE SEQUENCE sq;
CREATE TABLE u (id serial PRIMARY KEY, x int);
CREATE INDEX u_x ON u (x);
CREATE MATERIALIZED VIEW mv AS SELECT t.a, t.b, s2t.c FROM t JOIN s2.t s2t ON t.a = s2t.a;
RESET search_path;
CREATE MATERIALIZED VIEW pub AS SELECT count(*) AS n FROM s1.u;
INSERT INTO s1.t VALUES (1, 'one'), (2, 'two');
INSERT INTO s2.t VALUES (1, 10), (2, -1);
INSERT INTO t VALUES (1, 'public');
INSERT INTO s1.u (x) VALUES (5), (6);
SELECT nextval('s1.sq');
CREATE TABLE s1.w (id int PRIMARY KEY, p int REFERENCES s1.t (a));
INSERT INTO s1.w VALUES (1, 1);
ALTER TABLE s1.w ADD COLUMN z int DEFAULT 5;
COMMENT ON TABLE s1.w IS 'in s1'`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(`INSERT INTO s2.t VALUES (3, 30); INSERT INTO s1.t VALUES (3, 'three'); INSERT INTO s1.u (x) VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO s1.w VALUES (2, 9)`); err == nil {
		t.Error("a row of s1.w referencing no row of s1.t was accepted after reopening")
	}
	for _, c := range []struct{ q, want string }{
		{"SELECT * FROM s1.mv ORDER BY a", "[[1 one 10] [2 two -1] [3 three 30]]"},
		{"SELECT * FROM pub", "[[3]]"},
		{"SELECT * FROM s2.v ORDER BY a", "[[1] [3]]"},
		{"SELECT * FROM t", "[[1 public]]"},
		{"SELECT id, x FROM s1.u ORDER BY id", "[[1 5] [2 6] [3 7]]"},
		{"SELECT nextval('s1.sq')", "[[2]]"},
		{"SELECT *, obj_description('s1.w'::regclass) FROM s1.w", "[[1 1 5 in s1]]"},
		{"SELECT nspname, nspowner::regrole FROM pg_namespace WHERE nspname LIKE 's_' ORDER BY 1", "[[s1 deltaview] [s2 deltaview]]"},
		{"SELECT relname, relnamespace::regnamespace FROM pg_class WHERE relname IN ('t', 'u', 'mv', 'u_x', 'sq', 'v') ORDER BY relnamespace::regnamespace::text, 1", "[[t public] [mv s1] [sq s1] [t s1] [u s1] [u_x s1] [t s2] [v s2]]"},
		{"SELECT has_schema_privilege('reader', 's1', 'usage'), has_schema_privilege('reader', 's2', 'usage')", "[[t f]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening: got %s, want %s", c.q, g, c.want)
		}
	}
}
