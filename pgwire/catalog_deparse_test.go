package pgwire_test

import "testing"

// TestPsqlDescribeDeparsed compares psql's \d of tables with defaults and
// checks, and \d+ of views (their "View definition:", with WITH, a set
// operation, subqueries and a window among them), through deltaview and
// PostgreSQL: the expressions print as PostgreSQL's deparser prints them.
func TestPsqlDescribeDeparsed(t *testing.T) {
	script := `CREATE TABLE t (id serial PRIMARY KEY, a int DEFAULT -1 CHECK (a > 0), b varchar(10) DEFAULT 'x' CHECK (b IN ('x', 'y')),
  c text DEFAULT upper('x') CHECK (length(c) < 10 AND c <> ''), d numeric(10,2) DEFAULT 0 CHECK (d > 0 AND d < 1.5),
  e timestamptz DEFAULT CURRENT_TIMESTAMP, f jsonb DEFAULT '{}', g int DEFAULT CASE WHEN random() > 0.5 THEN 1 ELSE 2 END);
CREATE TABLE u (id int, t_id int, qty int);
CREATE VIEW v AS SELECT t.id, u.qty * 2 AS q2, upper(c) FROM t JOIN u ON t.id = u.t_id WHERE b IN ('a', 'b') ORDER BY 1;
CREATE VIEW w AS SELECT b, count(*) AS n, sum(d) FROM t GROUP BY b HAVING count(*) > 1;
CREATE VIEW s AS WITH big AS (SELECT t_id, sum(qty) AS q FROM u GROUP BY t_id) SELECT t.id, (SELECT max(q) FROM big WHERE big.t_id = t.id) AS mq,
  rank() OVER (PARTITION BY b ORDER BY d DESC) AS r, EXTRACT(year FROM e) AS y FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id)
  UNION ALL SELECT u.id, qty, 0, 0 FROM u JOIN t USING (id) WHERE t_id NOT IN (SELECT id FROM t t2) ORDER BY 1 LIMIT 10;
`
	cmds := []string{`\d t`, `\d+ v`, `\d+ w`, `\d+ s`}
	comparePsql(t, script, cmds)
}
