package deltaview_test

import "testing"

// TestCollationNondeterministicMatviewReopen checks that a materialized
// view grouping by a column of a nondeterministic collation is rebuilt
// when the file is opened again, its group showing the first spelling,
// by bytes, that a row of it still holds, and maintained after.
func TestCollationNondeterministicMatviewReopen(t *testing.T) {
	db, path := openFileDB(t, "collmv.db")
	if err := db.Exec(`CREATE COLLATION cm_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE cm_t (id int PRIMARY KEY, s text COLLATE cm_ci);
CREATE MATERIALIZED VIEW cm_g AS SELECT s, count(*) FROM cm_t GROUP BY s;
INSERT INTO cm_t VALUES (1, 'abc'), (2, 'ABC'), (3, 'b')`); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT s, count FROM cm_g ORDER BY s"
	wantRows(t, db, []queryRows{{q, "[[ABC 2] [b 1]]"}})
	db = reopenFileDB(t, db, path)
	defer db.Close()
	wantRows(t, db, []queryRows{{q, "[[ABC 2] [b 1]]"}})
	if err := db.Exec("DELETE FROM cm_t WHERE id = 2; INSERT INTO cm_t VALUES (4, 'B')"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{{q, "[[abc 1] [B 2]]"}})
}
