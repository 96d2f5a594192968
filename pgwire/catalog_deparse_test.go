package pgwire_test

import "testing"

// TestPsqlDescribeDeparsed compares psql's \d of tables with defaults and
// checks, and \d+ of views (their "View definition:"), through deltaview
// and PostgreSQL: the expressions print as PostgreSQL's deparser prints
// them.
func TestPsqlDescribeDeparsed(t *testing.T) {
	script := `CREATE TABLE t (id serial PRIMARY KEY, a int DEFAULT -1 CHECK (a > 0), b varchar(10) DEFAULT 'x' CHECK (b IN ('x', 'y')),
  c text DEFAULT upper('x') CHECK (length(c) < 10 AND c <> ''), d numeric(10,2) DEFAULT 0 CHECK (d > 0 AND d < 1.5),
  e timestamptz DEFAULT CURRENT_TIMESTAMP, f jsonb DEFAULT '{}', g int DEFAULT CASE WHEN random() > 0.5 THEN 1 ELSE 2 END);
CREATE TABLE u (id int, t_id int, qty int);
CREATE VIEW v AS SELECT t.id, u.qty * 2 AS q2, upper(c) FROM t JOIN u ON t.id = u.t_id WHERE b IN ('a', 'b') ORDER BY 1;
CREATE VIEW w AS SELECT b, count(*) AS n, sum(d) FROM t GROUP BY b HAVING count(*) > 1;
`
	cmds := []string{`\d t`, `\d+ v`, `\d+ w`}
	comparePsql(t, script, cmds)
}
