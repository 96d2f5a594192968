package pgwire_test

import "testing"

// TestPsqlDescribeAlteredPartitions compares psql's \d and \d+ of a
// partitioned table and of its partitions after ALTER TABLE of the table
// changed its columns, defaults and NOT NULL.
func TestPsqlDescribeAlteredPartitions(t *testing.T) {
	script := `CREATE TABLE p (a int, b text, c int) PARTITION BY RANGE (a);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10);
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20) PARTITION BY LIST (b);
CREATE TABLE p2x PARTITION OF p2 FOR VALUES IN ('x');
ALTER TABLE p ADD COLUMN d numeric DEFAULT 1 NOT NULL;
ALTER TABLE p DROP COLUMN c;
ALTER TABLE p RENAME COLUMN b TO bb;
ALTER TABLE p ALTER COLUMN d TYPE bigint;
ALTER TABLE p ALTER COLUMN a SET DEFAULT 3;
ALTER TABLE p ALTER COLUMN bb SET NOT NULL;
ALTER TABLE p ALTER COLUMN d DROP NOT NULL;
`
	cmds := []string{`\d p`, `\d+ p`, `\d p1`, `\d p2`, `\d+ p2x`}
	comparePsql(t, script, cmds)
}
