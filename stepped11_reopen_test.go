package deltaview_test

import (
	"testing"
)

// TestBlockStepReopen checks a block whose catalog changes came after
// row changes a materialized view reads (the views stepped with them at
// each change) in a database file: the rows are in the file once, those
// undone by ROLLBACK TO are not, and the views, built again at open,
// hold what they held before it and are maintained after.
func TestBlockStepReopen(t *testing.T) {
	db := reopenedFileDB(t, "blockstep.db", `CREATE TABLE src (k int PRIMARY KEY, g int, v int);
INSERT INTO src VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30);
CREATE MATERIALIZED VIEW per_g AS SELECT g, count(*) AS n, sum(v) AS s FROM src GROUP BY g;
BEGIN;
INSERT INTO src VALUES (4, 2, 40);
CREATE TABLE other (x int);
DELETE FROM src WHERE k = 1;
SAVEPOINT s;
UPDATE src SET v = v * 10;
ALTER TABLE other ADD COLUMN y int;
ROLLBACK TO s;
UPDATE src SET v = v + 1 WHERE g = 2;
ALTER TABLE src ADD COLUMN w int DEFAULT 7;
INSERT INTO src VALUES (5, 3, 5, 0);
COMMIT`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT * FROM src ORDER BY k", "[[2 1 20 7] [3 2 31 7] [4 2 41 7] [5 3 5 0]]"},
		{"SELECT * FROM per_g ORDER BY g", "[[1 1 20] [2 2 72] [3 1 5]]"},
		{"SELECT count(*) FROM information_schema.columns WHERE table_name = 'other'", "[[1]]"},
	})
	if err := db.Exec(`INSERT INTO src VALUES (6, 1, 1, 1)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{{"SELECT * FROM per_g ORDER BY g", "[[1 2 21] [2 2 72] [3 1 5]]"}})
}
