package deltaview_test

import (
	"fmt"
	"testing"
)

// TestICUCollationReopen checks that views ordering and comparing under
// an ICU collation are rebuilt under it once the file is opened again,
// and stay maintained under it.
func TestICUCollationReopen(t *testing.T) {
	db := reopenedFileDB(t, "icu.db", `CREATE TABLE w (id int PRIMARY KEY, s text);
INSERT INTO w VALUES (1, 'b'), (2, 'A'), (3, 'a'), (4, 'Äb'), (5, 'Z');
CREATE MATERIALIZED VIEW first2 AS SELECT s FROM w ORDER BY s COLLATE "en-x-icu" LIMIT 2;
CREATE MATERIALIZED VIEW below AS SELECT s FROM w WHERE s COLLATE "sv-x-icu" < 'b'`)
	defer db.Close()
	if err := db.Exec("INSERT INTO w VALUES (6, 'aa'); DELETE FROM w WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ q, want string }{
		// Byte by byte these would be A, Z, a, b, Äb.
		{"SELECT s FROM first2 ORDER BY s COLLATE \"en-x-icu\"", "[[a] [aa]]"},
		{"SELECT s FROM below ORDER BY s COLLATE \"sv-x-icu\"", "[[a] [aa]]"},
		{"SELECT s FROM w ORDER BY s COLLATE \"en-x-icu\"", "[[a] [aa] [Äb] [b] [Z]]"},
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
