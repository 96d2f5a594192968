package pgwire_test

import "testing"

// TestPsqlDescribeConstraints compares psql's \d of tables with CHECK and
// FOREIGN KEY constraints, through deltaview and PostgreSQL: the "Check
// constraints:", "Foreign-key constraints:" and "Referenced by:" sections,
// which psql shows only when pg_class says the table has them.
func TestPsqlDescribeConstraints(t *testing.T) {
	script := `CREATE SCHEMA s;
CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p, v int CHECK (v > 0), CONSTRAINT v_small CHECK (v < 10));
CREATE TABLE s.c (a int, b int, FOREIGN KEY (a) REFERENCES p ON DELETE CASCADE, CHECK (a <> b));
`
	cmds := []string{`\d p`, `\d c`, `\d s.c`}
	comparePsql(t, script, cmds)
}
