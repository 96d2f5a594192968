package deltaview_test

import "testing"

// TestVector18VectorArrayReopen: columns of int2vector[] and oidvector[]
// come back from the file with their types and values, and a materialized
// view grouping by one is maintained after reopening.
func TestVector18VectorArrayReopen(t *testing.T) {
	db := reopenedFileDB(t, "vector18.db", `CREATE TABLE tv (id int PRIMARY KEY, a int2vector[], b oidvector[]);
INSERT INTO tv VALUES (1, '{"1 2",NULL,""}', '{"4 5"}'), (2, '{"3"}', NULL);
CREATE MATERIALIZED VIEW mv AS SELECT a, count(*) AS n FROM tv GROUP BY a`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = 'tv'::regclass AND attnum > 1 ORDER BY attnum", "[[a int2vector[]] [b oidvector[]]]"},
		{"SELECT id, a::text, b::text, a[1]::text, pg_typeof(b[1])::text FROM tv ORDER BY id", `[[1 {"1 2",NULL,""} {"4 5"} 1 2 oidvector] [2 {3} NULL 3 oidvector]]`},
	})
	if err := db.Exec(`INSERT INTO tv VALUES (3, '{"1  2",NULL,""}', '{}')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT a::text, n FROM mv ORDER BY a", `[[{"1 2",NULL,""} 2] [{3} 1]]`},
	})
}
