package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestArraysSurviveReopen stores arrays in a table and a view, and reads
// the same values after the file is opened again.
func TestArraysSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arrays.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE a (id int PRIMARY KEY, xs int[], ts text[]);
		INSERT INTO a VALUES (1, '{1,NULL,3}', '{"a b","",NULL,"q\""}'), (2, '{}', NULL);
		CREATE MATERIALIZED VIEW v AS SELECT id, x, o FROM a, unnest(xs) WITH ORDINALITY AS u(x, o)`)
	q := `SELECT id, xs, ts FROM a ORDER BY id`
	qv := `SELECT * FROM v ORDER BY id, o`
	before, beforeV := query(t, db, q), query(t, db, qv)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	if after := query(t, db, q); !slices.Equal(before, after) {
		t.Errorf("table before %q\nafter %q", before, after)
	}
	if after := query(t, db, qv); !slices.Equal(beforeV, after) {
		t.Errorf("view before %q\nafter %q", beforeV, after)
	}
	execSQL(t, db, `UPDATE a SET xs = xs || 4 WHERE id = 2`)
	if got := query(t, db, qv); len(got) != 4 {
		t.Errorf("view after an update: %q", got)
	}
}
