package deltaview_test

import "testing"

// A name column (its values truncated to 63 bytes), a key of one, an
// array of name and a view filtered and grouped by name keep their values
// and types across close and reopen.
func TestNameReopen(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
	db := reopenedFileDB(t, "name.db", `
		CREATE TABLE idents (n name PRIMARY KEY, m name[], d name DEFAULT 'dflt');
		INSERT INTO idents (n, m) VALUES ('`+long+`', '{x,y}'), ('a', NULL);
		CREATE MATERIALIZED VIEW a_only AS SELECT n, n || '!' AS bang FROM idents WHERE n LIKE 'a%';
		CREATE MATERIALIZED VIEW by_d AS SELECT d, count(*) AS c FROM idents GROUP BY d;
	`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO idents (n, m, d) VALUES ('ab', '{p}', 'other'); UPDATE idents SET d = 'other' WHERE n = 'a'`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT n, m, d, octet_length(n) FROM idents ORDER BY n", `[[a NULL other 1] [ab {p} other 2] [abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk {x,y} dflt 63]]`},
		{"SELECT n, bang FROM a_only ORDER BY n", `[[a a!] [ab ab!] [abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk!]]`},
		{"SELECT d, c FROM by_d ORDER BY d", "[[dflt 1] [other 2]]"},
		{"SELECT pg_typeof(n), pg_typeof(m), pg_typeof(d) FROM idents LIMIT 1", `[[name name[] name]]`},
	})
}
