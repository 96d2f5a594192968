package deltaview_test

import (
	"testing"
)

// TestGeneratedColumnReopen checks that a file keeps the expressions of
// stored generated columns, made by CREATE TABLE and by ALTER TABLE, and
// what DROP EXPRESSION and RENAME COLUMN did to them: the columns are
// computed again on writes after the file is opened again, and the views
// over them maintained.
func TestGeneratedColumnReopen(t *testing.T) {
	db := reopenedFileDB(t, "generated.db", `CREATE TABLE t (a int PRIMARY KEY, b text, g int GENERATED ALWAYS AS (a * 2) STORED);
INSERT INTO t VALUES (1, 'x'), (2, 'y');
CREATE MATERIALIZED VIEW mv AS SELECT g, b FROM t;
CREATE TABLE u (a int, b int, d int GENERATED ALWAYS AS (a - b) STORED);
INSERT INTO u VALUES (10, 1);
ALTER TABLE u ADD COLUMN s int GENERATED ALWAYS AS (a + b) STORED;
ALTER TABLE u ALTER COLUMN d DROP EXPRESSION;
ALTER TABLE u RENAME COLUMN a TO k;
CREATE TABLE p (a int, g text GENERATED ALWAYS AS (upper(c)) STORED, c text);
CREATE TABLE c () INHERITS (p)`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 'z');
UPDATE t SET a = 10 WHERE a = 1;
INSERT INTO u (k, b, d) VALUES (20, 2, 7);
INSERT INTO c (a, c) VALUES (1, 'ab')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO t VALUES (4, 'w', 8)`); err == nil {
		t.Fatal("a value for a generated column was taken after the file was opened again")
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY a", "[[2 y 4] [3 z 6] [10 x 20]]"},
		{"SELECT g, b FROM mv ORDER BY g", "[[4 y] [6 z] [20 x]]"},
		{"SELECT * FROM u ORDER BY k", "[[10 1 9 11] [20 2 7 22]]"},
		{"SELECT * FROM p", "[[1 AB ab]]"},
		{"SELECT column_name, generation_expression FROM information_schema.columns WHERE table_name = 'u' AND is_generated = 'ALWAYS'", "[[s (k + b)]]"},
	})
}
