package deltaview_test

import (
	"testing"
)

// TestRenamedFunctionDefinersReopen checks that a file keeps the
// aggregates, operators and triggers that use a function renamed by
// ALTER FUNCTION … RENAME TO (and the views over them) naming it by its
// new name: after the file is opened again they run and the catalogs
// show the new name.
func TestRenamedFunctionDefinersReopen(t *testing.T) {
	db := reopenedFileDB(t, "fnrename7_definers.db", `CREATE SCHEMA s;
CREATE FUNCTION s.add(s int, x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT s + x';
CREATE FUNCTION fin(s int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT s * 10';
CREATE AGGREGATE total(int) (SFUNC = s.add, STYPE = int, INITCOND = '0', FINALFUNC = fin);
CREATE FUNCTION eq1(a int, b int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT a = b + 1';
CREATE OPERATOR === (LEFTARG = int, RIGHTARG = int, FUNCTION = eq1);
CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE TABLE log (msg text);
CREATE FUNCTION trg() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log VALUES ('ins ' || NEW.id); RETURN NEW; END $$;
CREATE TRIGGER t_ins AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION trg();
INSERT INTO t VALUES (1, 2), (2, 3);
CREATE MATERIALIZED VIEW mv AS SELECT total(v) AS s, count(*) FILTER (WHERE v === 1) AS c FROM t;
ALTER FUNCTION s.add(int, int) RENAME TO plus;
ALTER FUNCTION fin(int) RENAME TO times10;
ALTER FUNCTION eq1(int, int) RENAME TO succ;
ALTER FUNCTION trg() RENAME TO logged`)
	defer db.Close()
	if err := db.Exec("INSERT INTO t VALUES (3, 4)"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM mv", "[[90 1]]"},
		{"SELECT total(v), 2 === 1 FROM t", "[[90 t]]"},
		{"SELECT msg FROM log ORDER BY msg", "[[ins 1] [ins 2] [ins 3]]"},
		{"SELECT aggtransfn::text, aggfinalfn::text FROM pg_aggregate WHERE aggfnoid = 'total'::regproc", "[[s.plus times10]]"},
		{"SELECT oprcode::text FROM pg_operator WHERE oprname = '==='", "[[succ]]"},
		{"SELECT tgfoid::regproc::text FROM pg_trigger WHERE tgname = 't_ins'", "[[logged]]"},
	})
}
