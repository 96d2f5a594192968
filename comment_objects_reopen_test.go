package deltaview_test

import "testing"

// TestObjectCommentsReopen checks that a database file keeps the
// comments on types, domains and their constraints, schemas, routines,
// roles, the database, table constraints, triggers, rules, policies,
// extensions and the columns of composite types, and forgets those of
// the objects dropped; and that a composite type is in pg_type and
// pg_class after a reopen, with the oids it had.
func TestObjectCommentsReopen(t *testing.T) {
	db, path := openFileDB(t, "objcomments.db")
	if err := db.Exec(`CREATE TYPE cpt AS (x int, y text);
CREATE DOMAIN posint AS int CONSTRAINT posint_check CHECK (VALUE > 0);
CREATE SCHEMA s1;
CREATE FUNCTION f1(a int) RETURNS int LANGUAGE sql AS 'SELECT a + 1';
CREATE PROCEDURE p1(a int) LANGUAGE sql AS 'SELECT 1';
CREATE AGGREGATE ag1(int) (sfunc = int4pl, stype = int);
CREATE ROLE r1;
CREATE TABLE ct (a int PRIMARY KEY, b int CONSTRAINT b_pos CHECK (b > 0));
CREATE FUNCTION trf() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
CREATE TRIGGER tr1 BEFORE INSERT ON ct FOR EACH ROW EXECUTE FUNCTION trf();
CREATE RULE ru1 AS ON UPDATE TO ct DO INSTEAD NOTHING;
CREATE POLICY po1 ON ct USING (a > 0);
CREATE EXTENSION pg_trgm;
CREATE TYPE gone AS (a int);
COMMENT ON TYPE cpt IS 'a point';
COMMENT ON COLUMN cpt.x IS 'the x';
COMMENT ON DOMAIN posint IS 'positive';
COMMENT ON CONSTRAINT posint_check ON DOMAIN posint IS 'must be positive';
COMMENT ON SCHEMA s1 IS 'schema one';
COMMENT ON FUNCTION f1(int) IS 'adds one';
COMMENT ON PROCEDURE p1 IS 'proc one';
COMMENT ON AGGREGATE ag1(int) IS 'sums';
COMMENT ON ROLE r1 IS 'role one';
COMMENT ON DATABASE deltaview IS 'the database';
COMMENT ON CONSTRAINT b_pos ON ct IS 'b positive';
COMMENT ON TRIGGER tr1 ON ct IS 'trigger one';
COMMENT ON RULE ru1 ON ct IS 'rule one';
COMMENT ON POLICY po1 ON ct IS 'policy one';
COMMENT ON EXTENSION pg_trgm IS NULL;
COMMENT ON TYPE gone IS 'gone';
DROP TYPE gone;
CREATE TYPE gone AS (a int)`); err != nil {
		t.Fatal(err)
	}
	const descs = `SELECT string_agg(description, ', ' ORDER BY description) FROM pg_description
WHERE (classoid <> 'pg_class'::regclass OR objsubid > 0) AND objoid >= 16384`
	const shdescs = `SELECT string_agg(description, ', ' ORDER BY description) FROM pg_shdescription`
	const oids = `SELECT t.oid::text || ' ' || t.typarray::text || ' ' || t.typrelid::text FROM pg_type t WHERE typname = 'cpt'`
	s := db.Session()
	before := map[string]string{}
	for _, q := range []string{descs, shdescs, oids} {
		v, err := firstValue(s, q)
		if err != nil {
			t.Fatal(err)
		}
		before[q] = v
	}
	s.Close()
	const want = "a point, adds one, b positive, must be positive, policy one, positive, proc one, rule one, schema one, sums, the x, trigger one"
	if before[descs] != want {
		t.Fatalf("before: %s", before[descs])
	}
	if before[shdescs] != "role one, the database" {
		t.Fatalf("before: %s", before[shdescs])
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s = db.Session()
	defer s.Close()
	for _, q := range []string{descs, shdescs, oids} {
		v, err := firstValue(s, q)
		if err != nil {
			t.Fatal(err)
		}
		if v != before[q] {
			t.Errorf("%s: %s after reopen, %s before", q, v, before[q])
		}
	}
	if v, err := firstValue(s, `SELECT obj_description((SELECT oid FROM pg_extension WHERE extname = 'pg_trgm'), 'pg_extension') IS NULL`); err != nil || v != "t" {
		t.Errorf("pg_trgm's comment after reopen: %s %v", v, err)
	}
}
