package deltaview_test

import "testing"

// A "char" column, its default, an array of "char" and a view keyed and
// filtered by "char" keep their bytes across close and reopen.
func TestInternalCharReopen(t *testing.T) {
	db := reopenedFileDB(t, "char.db", `
		CREATE TABLE flags (id int PRIMARY KEY, f "char", g "char" DEFAULT 'xyz', h "char"[]);
		INSERT INTO flags VALUES (1, 'a', DEFAULT, '{a,b}'), (2, '\303', 'é', NULL), (3, 'b', '', '{"\\303"}');
		CREATE MATERIALIZED VIEW by_f AS SELECT f, count(*) AS n FROM flags GROUP BY f;
		CREATE MATERIALIZED VIEW only_a AS SELECT id, g FROM flags WHERE f = 'a';
	`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO flags (id, f) VALUES (4, 'a'); UPDATE flags SET f = 'b' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT id, f, g, h, f::int FROM flags ORDER BY id", `[[1 b x {a,b} 98] [2 \303 \303 NULL -61] [3 b  {"\\303"} 98] [4 a x NULL 97]]`},
		{"SELECT f, n FROM by_f ORDER BY f", `[[a 1] [b 2] [\303 1]]`},
		{"SELECT id, g FROM only_a ORDER BY id", "[[4 x]]"},
		{"SELECT pg_typeof(f), pg_typeof(h) FROM flags LIMIT 1", `[["char" "char"[]]]`},
	})
}
