package pgwire_test

import "testing"

// TestPsqlDescribeGenerated compares psql's \d of tables with stored
// generated columns, through deltaview and PostgreSQL: the Default column
// says "generated always as (…) stored".
func TestPsqlDescribeGenerated(t *testing.T) {
	script := `CREATE TABLE g (a int PRIMARY KEY, b text, d int GENERATED ALWAYS AS (a * 2) STORED, u text GENERATED ALWAYS AS (upper(b)) STORED);
CREATE TABLE gp (a int, g int GENERATED ALWAYS AS (a + 1) STORED) PARTITION BY RANGE (a);
CREATE TABLE gp1 PARTITION OF gp FOR VALUES FROM (0) TO (10);
`
	cmds := []string{`\d g`, `\d gp1`}
	comparePsql(t, script, cmds)
}
