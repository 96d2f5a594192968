package pgwire_test

import "testing"

// TestPsqlDescribeDeferrableKeys compares psql's \d of a table with
// DEFERRABLE keys and an index on an expression with a predicate,
// through deltaview and PostgreSQL: the "Indexes:" section.
func TestPsqlDescribeDeferrableKeys(t *testing.T) {
	script := `CREATE TABLE t (id int PRIMARY KEY DEFERRABLE, pos int CONSTRAINT t_pos UNIQUE DEFERRABLE INITIALLY DEFERRED, x int, CONSTRAINT t_x UNIQUE (x) DEFERRABLE INITIALLY IMMEDIATE);
CREATE INDEX t_lx ON t ((x + 1)) WHERE x > 0;
CREATE TABLE u (id int, pos int);
ALTER TABLE u ADD PRIMARY KEY (id) DEFERRABLE INITIALLY DEFERRED;
`
	cmds := []string{`\d t`, `\d u`}
	comparePsql(t, script, cmds)
}
