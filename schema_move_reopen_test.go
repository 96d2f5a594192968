package deltaview_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// TestSchemaMovesReopen checks that a database file keeps what ALTER …
// SET SCHEMA moved: a table with the sequence its serial column owns, a
// sequence, a view and a materialized view, with their rows, states and
// privileges, maintained after the file is opened again.
func TestSchemaMovesReopen(t *testing.T) {
	db := reopenedFileDB(t, "moves.db", `CREATE SCHEMA m1;
CREATE SCHEMA m2;
CREATE ROLE reader LOGIN;
CREATE TABLE m1.t (id serial PRIMARY KEY, v int);
INSERT INTO m1.t (v) VALUES (10), (20);
CREATE SEQUENCE m1.q START 100;
SELECT nextval('m1.q');
SET search_path = m1, public;
CREATE VIEW v AS SELECT id, v * 2 AS w FROM t;
CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n, sum(v) AS s FROM t;
RESET search_path;
GRANT SELECT ON m1.v TO reader;
COMMENT ON MATERIALIZED VIEW m1.mv IS 'counts';
ALTER TABLE m1.t SET SCHEMA m2;
ALTER SEQUENCE m1.q SET SCHEMA m2;
ALTER VIEW m1.v SET SCHEMA m2;
ALTER MATERIALIZED VIEW m1.mv SET SCHEMA m2;
INSERT INTO m2.t (v) VALUES (30)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO m2.t (v) VALUES (40)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM m2.t ORDER BY id", "[[1 10] [2 20] [3 30] [4 40]]"},
		{"SELECT * FROM m2.v ORDER BY id", "[[1 20] [2 40] [3 60] [4 80]]"},
		{"SELECT * FROM m2.mv", "[[4 100]]"},
		{"SELECT nextval('m2.q')", "[[101]]"},
		{"SELECT schemaname, sequencename FROM pg_sequences ORDER BY 1, 2", "[[m2 q] [m2 t_id_seq]]"},
		{"SELECT has_table_privilege('reader', 'm2.v', 'select')", "[[t]]"},
		{"SELECT obj_description('m2.mv'::regclass)", "[[counts]]"},
		{"SELECT relname, relnamespace::regnamespace FROM pg_class WHERE relname IN ('t', 'v', 'mv', 'q', 't_id_seq') ORDER BY 1", "[[mv m2] [q m2] [t m2] [t_id_seq m2] [v m2]]"},
	})
}

// TestSchemaRenameReopen checks that a database file keeps a schema
// ALTER SCHEMA … RENAME TO renamed with the relations in it, and the
// views of other schemas over them, maintained after the file is opened
// again.
func TestSchemaRenameReopen(t *testing.T) {
	db := reopenedFileDB(t, "rename.db", `CREATE ROLE reader LOGIN;
CREATE SCHEMA r1;
GRANT USAGE ON SCHEMA r1 TO reader;
CREATE TABLE r1.t (id serial PRIMARY KEY, v int);
CREATE SEQUENCE r1.q START 100;
CREATE TABLE r1.t2 (a int DEFAULT nextval('r1.q'), b text);
SET search_path = r1, public;
CREATE VIEW v AS SELECT id, v * 2 AS w FROM t;
CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM t;
RESET search_path;
CREATE VIEW pv AS SELECT sum(w) AS s FROM r1.v;
CREATE MATERIALIZED VIEW pmv AS SELECT sum(v) AS s FROM r1.t;
CREATE TYPE r1.mood AS ENUM ('ok');
CREATE FUNCTION r1.f(x int) RETURNS int LANGUAGE sql AS 'select x + 1';
ALTER FUNCTION r1.f(int) IMMUTABLE;
CREATE PROCEDURE r1.p() LANGUAGE sql AS 'select 1';
CREATE DOMAIN r1.pos AS int CHECK (VALUE > 0);
CREATE AGGREGATE r1.total(int) (SFUNC = int4pl, STYPE = int);
INSERT INTO r1.t (v) VALUES (1), (2);
INSERT INTO r1.t2 (b) VALUES ('x');
ALTER SCHEMA r1 RENAME TO r2;
INSERT INTO r2.t (v) VALUES (3)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO r2.t (v) VALUES (4); INSERT INTO r2.t2 (b) VALUES ('y')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM r2.t ORDER BY id", "[[1 1] [2 2] [3 3] [4 4]]"},
		{"SELECT * FROM r2.t2 ORDER BY a", "[[100 x] [101 y]]"},
		{"SELECT * FROM r2.mv", "[[4]]"},
		{"SELECT * FROM pv", "[[20]]"},
		{"SELECT * FROM pmv", "[[10]]"},
		{"SELECT nspname FROM pg_namespace WHERE nspname LIKE 'r_' ORDER BY 1", "[[r2]]"},
		{"SELECT has_schema_privilege('reader', 'r2', 'usage')", "[[t]]"},
		{"SELECT schemaname, sequencename FROM pg_sequences ORDER BY 1, 2", "[[r2 q] [r2 t_id_seq]]"},
		{"SELECT r2.f(1), 'ok'::r2.mood, 3::r2.pos", "[[2 ok 3]]"},
		{"SELECT r2.total(v) FROM r2.t", "[[10]]"},
		{"SELECT proname, provolatile FROM pg_proc WHERE pronamespace = 'r2'::regnamespace AND proname IN ('f', 'p') ORDER BY 1", "[[f i] [p v]]"},
	})
}

// TestMovedViewSubscription checks that a subscription to a materialized
// view goes on receiving its deltas after ALTER MATERIALIZED VIEW … SET
// SCHEMA moves it, as PostgreSQL's objects keep their identity.
func TestMovedViewSubscription(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE SCHEMA m1; CREATE SCHEMA m2;
CREATE TABLE m1.t (a int PRIMARY KEY);
CREATE MATERIALIZED VIEW m1.mv AS SELECT a * 10 AS b FROM m1.t`); err != nil {
		t.Fatal(err)
	}
	got := make(chan movedDelta, 4)
	cancel, err := db.Subscribe("m1.mv", func(d deltaview.Delta) { got <- movedDelta{fmt.Sprint(d.Changes), d.Err} })
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	if err := db.Exec(`ALTER MATERIALIZED VIEW m1.mv SET SCHEMA m2; INSERT INTO m1.t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-got:
		if d.err != nil || d.changes == "[]" {
			t.Fatalf("after the move: %v %s", d.err, d.changes)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no delta after the view moved")
	}
}

// movedDelta is a delivered delta as text.
type movedDelta struct {
	changes string
	err     error
}
