package pgwire_test

import "testing"

// TestPgCursors compares pg_cursors through deltaview and PostgreSQL: the
// cursors DECLARE opened in the transaction block, with their options,
// none outside it.
func TestPgCursors(t *testing.T) {
	comparePsql(t, "CREATE TABLE t (id int);", []string{
		"BEGIN; DECLARE c CURSOR FOR SELECT 1; DECLARE d BINARY SCROLL CURSOR FOR SELECT 2; DECLARE e NO SCROLL CURSOR FOR SELECT id FROM t; " +
			"SELECT name, is_holdable, is_binary, is_scrollable, creation_time <= clock_timestamp() AS created FROM pg_cursors ORDER BY name; COMMIT",
		"SELECT count(*) FROM pg_cursors",
		"BEGIN; DECLARE c CURSOR FOR SELECT 1; CLOSE c; SELECT count(*) FROM pg_cursors; COMMIT",
	})
}
