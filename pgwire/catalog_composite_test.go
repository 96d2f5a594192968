package pgwire_test

import "testing"

// TestPsqlCompositeTypes compares psql's descriptions of composite types
// (\dT lists them, not the tables' row types; \d and \d+ describe their
// attributes), of domains (\dD prints VALUE as PostgreSQL does, \dD+ the
// domain's comment) and the comments psql shows on a composite type and
// its columns, with PostgreSQL's.
func TestPsqlCompositeTypes(t *testing.T) {
	comparePsql(t, `CREATE TYPE pt AS (x int, y text, z numeric(10,2));
CREATE TABLE tt (a int PRIMARY KEY, p pt);
CREATE VIEW vv AS SELECT a FROM tt;
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE DOMAIN posint AS int CONSTRAINT posint_check CHECK (VALUE > 0);
COMMENT ON TYPE pt IS 'a point';
COMMENT ON COLUMN pt.y IS 'its label';
COMMENT ON DOMAIN posint IS 'positive'`, []string{`\dT`, `\dT pt`, `\d pt`, `\d+ pt`, `\dD`, `\dD+`, `\d tt`})
}
