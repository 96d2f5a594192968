package pgwire_test

import "testing"

// TestPsqlDescribeRules compares psql's \d of tables and views
// with rules, through deltaview and PostgreSQL: the "Rules:" and
// "Disabled rules:" sections.
func TestPsqlDescribeRules(t *testing.T) {
	script := `CREATE TABLE t (k int PRIMARY KEY, a int);
CREATE TABLE log (k int, a int);
CREATE VIEW v AS SELECT k, a FROM t;
CREATE RULE r1 AS ON INSERT TO t DO ALSO INSERT INTO log VALUES (new.k, new.a);
CREATE RULE r2 AS ON UPDATE TO t WHERE new.a > 10 DO INSTEAD (INSERT INTO log VALUES (old.k, new.a); UPDATE log SET a = 0 WHERE k = old.k AND a > 5);
CREATE RULE r3 AS ON DELETE TO t DO INSTEAD NOTHING;
CREATE RULE v_del AS ON DELETE TO v DO INSTEAD DELETE FROM t WHERE k = old.k;
ALTER TABLE t DISABLE RULE r3;
`
	cmds := []string{`\d t`, `\d log`, `\d v`}
	comparePsql(t, script, cmds)
}
