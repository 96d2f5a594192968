package deltaview_test

import "testing"

// int2vector and oidvector columns, a key of one, and views grouped by a
// vector and filtered by an element keep their values, their subscripts
// from 0 and their types across close and reopen.
func TestVectorReopen(t *testing.T) {
	db := reopenedFileDB(t, "vector.db", `
		CREATE TABLE vecs (id int PRIMARY KEY, a int2vector, b oidvector, c int2vector DEFAULT '3 4');
		INSERT INTO vecs (id, a, b) VALUES (1, '1 2', '23 25'), (2, '-3', ''), (3, NULL, '7');
		CREATE TABLE keyed (k oidvector PRIMARY KEY, n int);
		INSERT INTO keyed VALUES ('1 2', 1), ('3', 2);
		CREATE MATERIALIZED VIEW by_b AS SELECT b, count(*) AS n FROM vecs GROUP BY b;
		CREATE MATERIALIZED VIEW first1 AS SELECT id, a FROM vecs WHERE a[0] = 1;
	`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO vecs (id, a, b) VALUES (4, '1 9', '23 25'); UPDATE vecs SET a = '5' WHERE id = 1; INSERT INTO keyed VALUES ('4 5 6', 3)`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT id, a, b, c, a[0], b[1], array_dims(b) FROM vecs ORDER BY id", `[[1 5 23 25 3 4 5 25 [0:1]] [2 -3  3 4 -3 NULL [0:-1]] [3 NULL 7 3 4 NULL NULL [0:0]] [4 1 9 23 25 3 4 1 25 [0:1]]]`},
		{"SELECT b, n FROM by_b ORDER BY b", `[[ 1] [7 1] [23 25 2]]`},
		{"SELECT id, a FROM first1 ORDER BY id", "[[4 1 9]]"},
		{"SELECT k, n FROM keyed ORDER BY k", "[[3 2] [1 2 1] [4 5 6 3]]"},
		{"SELECT pg_typeof(a), pg_typeof(b) FROM vecs LIMIT 1", `[[int2vector oidvector]]`},
	})
}
