package pgwire_test

import "testing"

// TestPsqlDescribeColumnAttrs compares psql's \d+ of tables with column
// attributes, UNLOGGED and a replica identity, through deltaview and
// PostgreSQL: the Storage, Compression and Stats target columns, the
// "Unlogged table" title, the index marked REPLICA IDENTITY and the
// "Replica Identity:" footer.
func TestPsqlDescribeColumnAttrs(t *testing.T) {
	script := `CREATE TABLE ca (a int PRIMARY KEY, b text COMPRESSION lz4, c int NOT NULL, d numeric, e varchar(4));
CREATE UNIQUE INDEX ca_c ON ca (c);
ALTER TABLE ca ALTER COLUMN a SET STATISTICS 0, ALTER COLUMN b SET STATISTICS 200, ALTER COLUMN b SET STORAGE external,
  ALTER COLUMN d SET STORAGE main, ALTER COLUMN e SET COMPRESSION pglz, REPLICA IDENTITY USING INDEX ca_c;
CREATE UNLOGGED TABLE cu (a int, b text);
ALTER TABLE cu REPLICA IDENTITY FULL;
CREATE TABLE cn (a int);
ALTER TABLE cn REPLICA IDENTITY NOTHING;
`
	comparePsql(t, script, []string{`\d+ ca`, `\d+ cu`, `\d+ cn`, `\d cu`})
}

// TestPsqlDescribeExclusionInclude compares psql's \d of a table with an
// EXCLUDE … INCLUDE constraint: its line under "Indexes:".
func TestPsqlDescribeExclusionInclude(t *testing.T) {
	script := `CREATE TABLE xi (a int, b text, c int4range, d int, EXCLUDE USING gist (c WITH &&) INCLUDE (a, b) WHERE (d > 0));
`
	comparePsql(t, script, []string{`\d xi`})
}
