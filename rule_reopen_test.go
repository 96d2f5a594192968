package deltaview_test

import (
	"fmt"
	"testing"
)

// TestRuleReopen checks that rules, their renames and their disabling
// are kept in a database file: statements on the relations still go
// through them when the file is opened again, and a table that a
// "_RETURN" rule made a view stays a view.
func TestRuleReopen(t *testing.T) {
	db := reopenedFileDB(t, "rules.db", `CREATE TABLE t (k int PRIMARY KEY, a int);
CREATE TABLE log (op text, k int, a int);
CREATE VIEW v AS SELECT k, a FROM t;
CREATE MATERIALIZED VIEW n AS SELECT op, count(*) AS n FROM log GROUP BY op;
CREATE RULE t_ins AS ON INSERT TO t WHERE new.a > 0 DO ALSO INSERT INTO log VALUES ('ins', new.k, new.a);
CREATE RULE t_del AS ON DELETE TO t DO INSTEAD (INSERT INTO log VALUES ('del', old.k, old.a); UPDATE log SET a = -a WHERE k = old.k);
CREATE RULE v_upd AS ON UPDATE TO v DO INSTEAD UPDATE t SET a = new.a WHERE k = old.k;
CREATE RULE gone AS ON UPDATE TO t DO INSTEAD NOTHING;
ALTER RULE v_upd ON v RENAME TO v_update;
ALTER TABLE t DISABLE RULE gone;
CREATE TABLE tv (k int, a int);
CREATE RULE "_RETURN" AS ON SELECT TO tv DO INSTEAD SELECT k, a FROM t;
INSERT INTO t VALUES (1, 5)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (2, 7), (3, -1);
UPDATE v SET a = a * 10 WHERE k = 2;
DELETE FROM t WHERE k = 1`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT k, a FROM t ORDER BY k", "[[1 5] [2 70] [3 -1]]"},
		{"SELECT * FROM log ORDER BY op, k", "[[del 1 -5] [ins 1 -5] [ins 2 7]]"},
		{"SELECT * FROM n ORDER BY op", "[[del 1] [ins 2]]"},
		{"SELECT k, a FROM tv ORDER BY k", "[[1 5] [2 70] [3 -1]]"},
		{"SELECT rulename, ev_type, ev_enabled, is_instead FROM pg_rewrite WHERE ev_class = 't'::regclass ORDER BY 1", "[[gone 2 D t] [t_del 4 O t] [t_ins 3 O f]]"},
		{"SELECT tablename, rulename FROM pg_rules ORDER BY 1, 2", "[[t gone] [t t_del] [t t_ins] [v v_update]]"},
	})
}

// TestRuleAlterTableReopen: columns added to and dropped from tables
// with rules (DROP COLUMN … CASCADE dropping a rule that names the
// column) are kept in a database file: the rules left still rewrite the
// statements once it is opened again, and the rule dropped is gone.
func TestRuleAlterTableReopen(t *testing.T) {
	db := reopenedFileDB(t, "rules_alter.db", `CREATE TABLE t (k int PRIMARY KEY, a int, b int);
CREATE TABLE log (op text, k int);
CREATE RULE t_ins AS ON INSERT TO t DO ALSO INSERT INTO log VALUES ('ins', new.k);
CREATE RULE t_upd AS ON UPDATE TO t WHERE new.b > 0 DO ALSO INSERT INTO log VALUES ('upd', new.k);
ALTER TABLE t ADD COLUMN c text;
ALTER TABLE log ADD COLUMN at int;
ALTER TABLE t DROP COLUMN b CASCADE;
INSERT INTO t VALUES (1, 5, 'x')`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (2, 6, 'y'); UPDATE t SET a = 7`); err != nil {
		t.Fatal(err)
	}
	r, err := db.Query(`SELECT op, k FROM log ORDER BY k, op`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Rows); got != "[[ins 1] [ins 2]]" {
		t.Fatalf("log after reopening: %s", got)
	}
	r, err = db.Query(`SELECT rulename FROM pg_rules ORDER BY rulename`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Rows); got != "[[t_ins]]" {
		t.Fatalf("rules after reopening: %s", got)
	}
}
