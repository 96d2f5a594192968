package deltaview_test

import (
	"fmt"
	"testing"
)

// TestICUColumnCollationReopen checks that a column's ICU collation, its
// own or its domain's, given by CREATE TABLE or ALTER TABLE, is kept in
// the file: references of the column order under it once the file is
// opened again, and views over it stay maintained under it.
func TestICUColumnCollationReopen(t *testing.T) {
	db := reopenedFileDB(t, "icucol.db", `CREATE DOMAIN sv AS text COLLATE "sv-x-icu";
CREATE TABLE w (id int PRIMARY KEY, s text COLLATE "en-x-icu", d sv, p text);
INSERT INTO w VALUES (1, 'b', 'ä', 'b'), (2, 'A', 'z', 'A'), (3, 'a', 'a', 'a'), (4, 'Äb', 'Ö', 'Äb'), (5, 'Z', 'b', 'Z');
ALTER TABLE w ALTER COLUMN p TYPE text COLLATE "de-x-icu";
CREATE MATERIALIZED VIEW first2 AS SELECT s FROM w ORDER BY s LIMIT 2`)
	defer db.Close()
	if err := db.Exec("INSERT INTO w VALUES (6, 'aa', 'å', 'aa'); DELETE FROM w WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ q, want string }{
		// Byte by byte these would be A, Z, a, b, Äb.
		{"SELECT s FROM first2 ORDER BY s", "[[a] [aa]]"},
		{"SELECT s FROM w ORDER BY s", "[[a] [aa] [Äb] [b] [Z]]"},
		{"SELECT d FROM w ORDER BY d", "[[a] [b] [å] [ä] [Ö]]"},
		{"SELECT p FROM w ORDER BY p", "[[a] [aa] [Äb] [b] [Z]]"},
		{"SELECT attname, attcollation::regcollation::text FROM pg_attribute WHERE attrelid = 'w'::regclass AND attnum > 1 ORDER BY attnum",
			`[[s "en-x-icu"] [d "sv-x-icu"] [p "de-x-icu"]]`},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening: got %s, want %s", c.q, g, c.want)
		}
	}
}
