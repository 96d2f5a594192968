package pgwire_test

import "testing"

// TestPsqlDescribeExclusion compares psql's \d of tables with EXCLUDE
// constraints, through deltaview and PostgreSQL: each is listed under
// "Indexes:" with its method, elements and predicate.
func TestPsqlDescribeExclusion(t *testing.T) {
	script := `CREATE EXTENSION btree_gist;
CREATE TABLE booking (id int PRIMARY KEY, room int, during tsrange, EXCLUDE USING gist (room WITH =, during WITH &&));
CREATE TABLE e (a int4range, b int, c text, EXCLUDE USING gist (a WITH &&) WHERE (NOT isempty(a)), EXCLUDE ((b + 1) WITH =, c WITH =));
CREATE TABLE f (a int);
ALTER TABLE f ADD CONSTRAINT f_ne EXCLUDE USING gist (a WITH <>);
`
	comparePsql(t, script, []string{`\d booking`, `\d e`, `\d f`})
}

// TestPsqlDescribeRelOptions compares psql's \d+ of a table with storage
// parameters: its "Options:" line.
func TestPsqlDescribeRelOptions(t *testing.T) {
	script := `CREATE TABLE ro (a int) WITH (fillfactor = 70, autovacuum_enabled = off);
ALTER TABLE ro SET (fillfactor = 80, parallel_workers = 2);
`
	comparePsql(t, script, []string{`\d+ ro`})
}
