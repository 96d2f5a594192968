package pgwire_test

import "testing"

// TestPsqlDescribeCollationLike compares psql's \d and \d+ of tables with
// a column of a collation other than its type's, made directly and by
// CREATE TABLE … LIKE (which copies it, and with INCLUDING IDENTITY the
// identity), through deltaview and PostgreSQL: the Collation column.
func TestPsqlDescribeCollationLike(t *testing.T) {
	script := `CREATE TABLE co (id int GENERATED ALWAYS AS IDENTITY, b text COLLATE "C" NOT NULL, c varchar(5) COLLATE "POSIX", d text);
ALTER TABLE co ALTER COLUMN b SET STORAGE main, ALTER COLUMN b SET COMPRESSION pglz;
CREATE TABLE cl (LIKE co INCLUDING IDENTITY INCLUDING STORAGE);
`
	comparePsql(t, script, []string{`\d co`, `\d+ co`, `\d cl`, `\d+ cl`})
}
