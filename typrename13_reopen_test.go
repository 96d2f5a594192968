package deltaview_test

import (
	"fmt"
	"testing"
)

// typRenameScript renames a range type that a table (a default, a check,
// a multirange column), a domain, a view, a materialized view, a
// trigger's WHEN and a policy use, and an enum that a composite type and
// a range type are over; drops a composite type with its typed table.
const typRenameScript = `CREATE TYPE tr_r AS RANGE (subtype = int4);
CREATE TABLE tr_t (id int PRIMARY KEY, r tr_r DEFAULT '[1,3)'::tr_r CHECK (r <> 'empty'::tr_r), m tr_r_multirange);
CREATE DOMAIN tr_d AS tr_r CHECK (VALUE <> '[5,6)'::tr_r);
CREATE TABLE tr_u (d tr_d);
INSERT INTO tr_t VALUES (1, '[1,5)', '{[1,2)}');
CREATE VIEW tr_v AS SELECT id, r * '[2,10)'::tr_r AS x FROM tr_t;
CREATE MATERIALIZED VIEW tr_mv AS SELECT id, r && '[0,2)'::tr_r AS o FROM tr_t;
CREATE TABLE tr_log (id int);
CREATE FUNCTION tr_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO tr_log VALUES (NEW.id); RETURN NEW; END $$;
CREATE TRIGGER tr_g BEFORE INSERT ON tr_t FOR EACH ROW WHEN (NEW.r <> '[7,8)'::tr_r) EXECUTE FUNCTION tr_f();
CREATE POLICY tr_p ON tr_t USING (r IS DISTINCT FROM '[9,10)'::tr_r);
ALTER TYPE tr_r RENAME TO tr_r2;
CREATE TYPE tr_e AS ENUM ('lo', 'hi');
CREATE TYPE tr_c AS (e tr_e, n int);
CREATE TYPE tr_er AS RANGE (subtype = tr_e);
CREATE TABLE tr_et (c tr_c, r tr_er);
INSERT INTO tr_et VALUES (ROW('hi', 1), '[lo,hi]');
ALTER TYPE tr_e RENAME TO tr_level;
CREATE TYPE tr_ct AS (a int);
CREATE TABLE tr_typed OF tr_ct;
CREATE VIEW tr_typedv AS SELECT * FROM tr_typed;
INSERT INTO tr_typed VALUES (1);
DROP TYPE tr_ct CASCADE`

// TestTypRenameReopen checks that what uses a renamed range or enum type
// reads and behaves as it did once the file is opened again.
func TestTypRenameReopen(t *testing.T) {
	db := reopenedFileDB(t, "typrename.db", typRenameScript)
	defer db.Close()
	for _, stmt := range []string{
		"INSERT INTO tr_t (id) VALUES (2)",
		"INSERT INTO tr_t (id, r) VALUES (3, '[7,8)')",
		"INSERT INTO tr_et VALUES (ROW('lo', 2), '[lo,lo]')",
	} {
		if err := db.Exec(stmt); err != nil {
			t.Fatalf("%s after reopening: %v", stmt, err)
		}
	}
	for _, c := range []struct{ query, want string }{
		{"SELECT id, r::text, m::text FROM tr_t ORDER BY id", "[[1 [1,5) {[1,2)}] [2 [1,3) NULL] [3 [7,8) NULL]]"},
		{"SELECT * FROM tr_v ORDER BY id", "[[1 [2,5)] [2 [2,3)] [3 [7,8)]]"},
		{"SELECT * FROM tr_mv ORDER BY id", "[[1 t] [2 t] [3 f]]"},
		{"SELECT * FROM tr_log ORDER BY id", "[[2]]"},
		{"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'tr_t'::regclass AND attnum > 0 ORDER BY attnum", "[[integer] [tr_r2] [tr_r_multirange]]"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'tr_t'::regclass", "[['[1,3)'::tr_r2]]"},
		{"SELECT pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polname = 'tr_p'", "[[(r IS DISTINCT FROM '[9,10)'::tr_r2)]]"},
		{"SELECT pg_get_triggerdef(oid) LIKE '%::tr_r2)%' FROM pg_trigger WHERE tgname = 'tr_g'", "[[t]]"},
		{"SELECT typbasetype::regtype::text FROM pg_type WHERE typname = 'tr_d'", "[[tr_r2]]"},
		{"SELECT c::text, r::text, pg_typeof((c).e)::text FROM tr_et ORDER BY (c).n", "[[(hi,1) [lo,hi] tr_level] [(lo,2) [lo,lo] tr_level]]"},
		{"SELECT rngsubtype::regtype::text FROM pg_range WHERE rngtypid = 'tr_er'::regtype", "[[tr_level]]"},
		{"SELECT count(*) FROM pg_class WHERE relname LIKE 'tr_typed%'", "[[0]]"},
		{"SELECT count(*) FROM pg_type WHERE typname = 'tr_ct'", "[[0]]"},
	} {
		rs, err := db.Query(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.query, g, c.want)
		}
	}
	if err, want := fmt.Sprint(db.Exec("INSERT INTO tr_u VALUES ('[5,6)')")), `value for domain tr_d violates check constraint "tr_d_check"`; err != want {
		t.Errorf("domain check after reopening: got %s, want %s", err, want)
	}
}
