package deltaview_test

import "testing"

// TestComptype14DropTypeColumnsReopen: DROP TYPE … CASCADE of a type that
// plain columns use leaves the tables without the columns, and the views
// over the others maintained, in the file.
func TestComptype14DropTypeColumnsReopen(t *testing.T) {
	db := reopenedFileDB(t, "comptype14.db", `CREATE TYPE c AS (a int, b text);
CREATE TYPE e AS ENUM ('x', 'y');
CREATE TABLE t (id int PRIMARY KEY, c c, cs c[], e e, n int);
INSERT INTO t VALUES (1, ROW(1, 'p'), NULL, 'y', 10);
CREATE MATERIALIZED VIEW m AS SELECT id, n FROM t;
CREATE MATERIALIZED VIEW mc AS SELECT id, c FROM t;
DROP TYPE c CASCADE;
DROP TYPE e CASCADE;
INSERT INTO t VALUES (2, 20)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 30)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY id", "[[1 10] [2 20] [3 30]]"},
		{"SELECT * FROM m ORDER BY id", "[[1 10] [2 20] [3 30]]"},
		{"SELECT count(*) FROM pg_class WHERE relname = 'mc'", "[[0]]"},
		{"SELECT count(*) FROM pg_type WHERE typname IN ('c', 'e')", "[[0]]"},
	})
}

// TestComptype14TypedCascadeReopen: ALTER TYPE … ATTRIBUTE … CASCADE
// leaves the type and its typed tables as they are, linked, in the file.
func TestComptype14TypedCascadeReopen(t *testing.T) {
	db := reopenedFileDB(t, "comptype14b.db", `CREATE TYPE c AS (a int, b text);
CREATE TABLE t OF c (PRIMARY KEY (a));
INSERT INTO t VALUES (1, 'x');
CREATE MATERIALIZED VIEW m AS SELECT a FROM t;
ALTER TYPE c ADD ATTRIBUTE d int CASCADE;
ALTER TYPE c DROP ATTRIBUTE b CASCADE;
ALTER TYPE c ALTER ATTRIBUTE d TYPE bigint CASCADE;
ALTER TYPE c RENAME ATTRIBUTE d TO dd CASCADE;
INSERT INTO t VALUES (2, 20)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 30)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY a", "[[1 NULL] [2 20] [3 30]]"},
		{"SELECT * FROM m ORDER BY a", "[[1] [2] [3]]"},
		{"SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = 'c'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum", "[[a integer] [dd bigint]]"},
		{"SELECT reloftype::regtype::text FROM pg_class WHERE relname = 't'", "[[c]]"},
	})
	if err := db.Exec(`ALTER TYPE c ADD ATTRIBUTE e int`); err == nil {
		t.Fatal("ALTER TYPE of a typed table's type without CASCADE succeeded")
	}
}

// TestComptype14LabelInRecordsReopen: RENAME VALUE of a label that
// records and ranges in a table's rows hold is in the file's rows.
func TestComptype14LabelInRecordsReopen(t *testing.T) {
	db := reopenedFileDB(t, "comptype14c.db", `CREATE TYPE e AS ENUM ('lo', 'hi');
CREATE TYPE c AS (e e, n int);
CREATE TYPE r AS RANGE (subtype = e);
CREATE TABLE t (id int PRIMARY KEY, c c, cs c[], r r);
INSERT INTO t VALUES (1, ROW('lo', 1), ARRAY[ROW('lo', 2)::c], '[lo,hi]');
ALTER TYPE e RENAME VALUE 'lo' TO 'low'`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT c::text, cs::text, r::text FROM t", `[[(low,1) {"(low,2)"} [low,hi]]]`},
		{"SELECT (c).e < 'hi' FROM t", "[[t]]"},
	})
}

// TestComptype14IndexTypeRenameReopen: an index naming a renamed type is
// kept in the file under the new name, and works after the reopen.
func TestComptype14IndexTypeRenameReopen(t *testing.T) {
	db := reopenedFileDB(t, "comptype14d.db", `CREATE TYPE e AS ENUM ('lo', 'hi');
CREATE TYPE r AS RANGE (subtype = int4);
CREATE TABLE t (id int PRIMARY KEY, s e, r r);
CREATE INDEX tx ON t ((s <> 'lo'::e));
CREATE UNIQUE INDEX ty ON t (id) WHERE r <> 'empty'::r;
INSERT INTO t VALUES (1, 'hi', '[1,2)');
ALTER TYPE e RENAME TO e2;
ALTER TYPE r RENAME TO r2`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (2, 'lo', 'empty')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT indexdef FROM pg_indexes WHERE tablename = 't' AND indexname <> 't_pkey' ORDER BY indexname", "[[CREATE INDEX tx ON public.t USING btree (((s <> 'lo'::e2)))] [CREATE UNIQUE INDEX ty ON public.t USING btree (id) WHERE (r <> 'empty'::r2)]]"},
		{"SELECT id FROM t WHERE s <> 'lo'::e2", "[[1]]"},
	})
}

// TestComptype14TriggerLabelReopen: a trigger's WHEN holding a renamed
// label is kept in the file with the new label.
func TestComptype14TriggerLabelReopen(t *testing.T) {
	db := reopenedFileDB(t, "comptype14e.db", `CREATE TYPE e AS ENUM ('lo', 'hi');
CREATE TABLE t (id int, e e);
CREATE TABLE log (id int);
CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log VALUES (NEW.id); RETURN NEW; END $$;
CREATE TRIGGER g AFTER INSERT ON t FOR EACH ROW WHEN (NEW.e = 'hi'::e) EXECUTE FUNCTION f();
ALTER TYPE e RENAME VALUE 'hi' TO 'high'`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (1, 'high'), (2, 'lo')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT id FROM log", "[[1]]"},
		{"SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname = 'g'", "[[CREATE TRIGGER g AFTER INSERT ON public.t FOR EACH ROW WHEN (NEW.e = 'high'::e) EXECUTE FUNCTION f()]]"},
	})
}
