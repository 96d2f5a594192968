package pgwire_test

import "testing"

// TestPsqlDescribeMatViewIndexes compares psql's \d of a materialized
// view with indexes (unique, on an expression, partial, with INCLUDE)
// through deltaview and PostgreSQL: the "Indexes:" section.
func TestPsqlDescribeMatViewIndexes(t *testing.T) {
	script := `CREATE TABLE t (id int PRIMARY KEY, a int, b text);
INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'y');
CREATE MATERIALIZED VIEW mv AS SELECT id, a, b FROM t;
CREATE UNIQUE INDEX mv_id ON mv (id);
CREATE INDEX ON mv (a) INCLUDE (b);
CREATE INDEX mv_lower ON mv (lower(b)) WHERE a > 10;
`
	cmds := []string{`\d mv`}
	comparePsql(t, script, cmds)
}
