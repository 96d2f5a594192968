package deltaview_test

import (
	"fmt"
	"testing"
)

// typRename16Script renames a composite type that table columns (of it
// and of an array of it), another composite's attribute, a domain, a
// typed table, a view naming it and a materialized view use, and moves
// another such type to a schema.
const typRename16Script = `CREATE TYPE tr16_c AS (a int, b text);
CREATE TYPE tr16_o AS (x tr16_c, n int);
CREATE DOMAIN tr16_d AS tr16_c CHECK ((VALUE).a > 0);
CREATE TABLE tr16_t (id int PRIMARY KEY, c tr16_c, ca tr16_c[], o tr16_o, d tr16_d);
CREATE TABLE tr16_typed OF tr16_c;
INSERT INTO tr16_t VALUES (1, ROW(1,'x'), ARRAY[ROW(2,'y')::tr16_c], ROW(ROW(3,'z'), 4), ROW(5,'w'));
INSERT INTO tr16_typed VALUES (7, 'q');
CREATE VIEW tr16_v AS SELECT id, ROW(id, 'n')::tr16_c AS r FROM tr16_t;
CREATE MATERIALIZED VIEW tr16_m AS SELECT id, c, (o).x FROM tr16_t;
ALTER TYPE tr16_c RENAME TO tr16_c2;
CREATE SCHEMA tr16_s;
CREATE TYPE tr16_p AS (p int);
CREATE TABLE tr16_pt (p tr16_p);
INSERT INTO tr16_pt VALUES (ROW(9));
ALTER TYPE tr16_p SET SCHEMA tr16_s`

// TestTypRename16Reopen checks that what uses a renamed or moved composite
// type reads and behaves as it did once the file is opened again.
func TestTypRename16Reopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename16.db", typRename16Script)
	defer db.Close()
	for _, stmt := range []string{
		"INSERT INTO tr16_t VALUES (2, ROW(8,'v')::tr16_c2, ARRAY[ROW(9,'u')]::tr16_c2[], NULL, ROW(6,'t'))",
		"INSERT INTO tr16_typed VALUES (8, 'r')",
		"INSERT INTO tr16_pt VALUES (ROW(10)::tr16_s.tr16_p)",
	} {
		if err := db.Exec(stmt); err != nil {
			t.Fatalf("%s after reopening: %v", stmt, err)
		}
	}
	for _, c := range []struct{ query, want string }{
		{"SELECT id, c::text, ca::text, o::text, d::text FROM tr16_t ORDER BY id", `[[1 (1,x) {"(2,y)"} ("(3,z)",4) (5,w)] [2 (8,v) {"(9,u)"} NULL (6,t)]]`},
		{"SELECT pg_typeof(c)::text, pg_typeof(ca)::text, pg_typeof((o).x)::text FROM tr16_t WHERE id = 1", "[[tr16_c2 tr16_c2[] tr16_c2]]"},
		{"SELECT id, r::text, pg_typeof(r)::text FROM tr16_v ORDER BY id", "[[1 (1,n) tr16_c2] [2 (2,n) tr16_c2]]"},
		{"SELECT id, c::text, x::text FROM tr16_m ORDER BY id", "[[1 (1,x) (3,z)] [2 (8,v) NULL]]"},
		{"SELECT * FROM tr16_typed ORDER BY a", "[[7 q] [8 r]]"},
		{"SELECT reloftype::regtype::text FROM pg_class WHERE relname = 'tr16_typed'", "[[tr16_c2]]"},
		{"SELECT typbasetype::regtype::text FROM pg_type WHERE typname = 'tr16_d'", "[[tr16_c2]]"},
		{"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'tr16_o'::regclass AND attnum > 0 ORDER BY attnum", "[[tr16_c2] [integer]]"},
		{"SELECT count(*) FROM pg_type WHERE typname = 'tr16_c'", "[[0]]"},
		{"SELECT p::text, pg_typeof(p)::text FROM tr16_pt ORDER BY (p).p", "[[(9) tr16_s.tr16_p] [(10) tr16_s.tr16_p]]"},
	} {
		rs, err := db.Query(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.query, g, c.want)
		}
	}
	if err, want := fmt.Sprint(db.Exec("INSERT INTO tr16_t (id, d) VALUES (3, ROW(-1, 'n'))")), `value for domain tr16_d violates check constraint "tr16_d_check"`; err != want {
		t.Errorf("domain check after reopening: got %s, want %s", err, want)
	}
}

// typRename16RoutineScript renames an enum, a domain and a composite type
// that routines' signatures name, with a GRANT and a comment on one.
const typRename16RoutineScript = `CREATE TYPE tr16_e AS ENUM ('a', 'b');
CREATE FUNCTION tr16_ef(x tr16_e) RETURNS text LANGUAGE sql AS 'SELECT x::text';
CREATE ROLE tr16_bob;
REVOKE EXECUTE ON FUNCTION tr16_ef(tr16_e) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tr16_ef(tr16_e) TO tr16_bob;
COMMENT ON FUNCTION tr16_ef(tr16_e) IS 'enum fn';
CREATE PROCEDURE tr16_pr(x tr16_e) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'got %', x; END $$;
ALTER TYPE tr16_e RENAME TO tr16_e2;
CREATE DOMAIN tr16_d AS int CHECK (VALUE > 0);
CREATE FUNCTION tr16_df(x tr16_d) RETURNS tr16_d LANGUAGE sql AS 'SELECT x + 1';
ALTER DOMAIN tr16_d RENAME TO tr16_d2;
CREATE TYPE tr16_c AS (a int);
CREATE FUNCTION tr16_cf(c tr16_c) RETURNS int LANGUAGE sql AS 'SELECT (c).a * 2';
ALTER TYPE tr16_c RENAME TO tr16_c2`

// TestTypRename16RoutineReopen checks that routines whose signatures
// name a renamed type are kept under their new signatures.
func TestTypRename16RoutineReopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename16_routine.db", typRename16RoutineScript)
	defer db.Close()
	for _, c := range []struct{ query, want string }{
		{"SELECT tr16_ef('a'), tr16_df(1), tr16_cf(ROW(4))", "[[a 2 8]]"},
		{"SELECT 'tr16_ef(tr16_e2)'::regprocedure::text, 'tr16_df(tr16_d2)'::regprocedure::text, 'tr16_cf(tr16_c2)'::regprocedure::text", "[[tr16_ef(tr16_e2) tr16_df(tr16_d2) tr16_cf(tr16_c2)]]"},
		{"SELECT obj_description('tr16_ef(tr16_e2)'::regprocedure, 'pg_proc')", "[[enum fn]]"},
		{"SELECT has_function_privilege('tr16_bob', 'tr16_ef(tr16_e2)', 'EXECUTE')", "[[t]]"},
	} {
		rs, err := db.Query(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.query, g, c.want)
		}
	}
	if err := db.Exec("CALL tr16_pr('a')"); err != nil {
		t.Errorf("CALL after reopening: %v", err)
	}
	if err := db.Exec("DROP FUNCTION tr16_ef(tr16_e2)"); err != nil {
		t.Errorf("DROP FUNCTION after reopening: %v", err)
	}
}
