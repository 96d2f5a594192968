package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestTextSearchTypesSurviveReopen stores tsvector and tsquery values in a
// table (a tsvector as its key) and a view, and reads the same values
// after the file is opened again; the view stays maintained.
func TestTextSearchTypesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tsearch.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE d (v tsvector PRIMARY KEY, q tsquery);
		INSERT INTO d VALUES ('a:1A fat:2B,4C ''it''''s'':5', 'fat:AB* <2> !(a | ''b c'')'), (to_tsvector('english', 'The cats'), NULL), ('', '');
		CREATE MATERIALIZED VIEW m AS SELECT strip(v) AS s, v @@ q AS hit, count(*) AS n FROM d GROUP BY strip(v), v @@ q`)
	q := `SELECT v, q, pg_typeof(v)::text, pg_typeof(q)::text FROM d ORDER BY v`
	qv := `SELECT * FROM m ORDER BY s, hit`
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
	execSQL(t, db, `UPDATE d SET q = 'cat' WHERE v = to_tsvector('english', 'The cats')`)
	want := query(t, db, `SELECT strip(v), v @@ q, count(*) FROM d GROUP BY 1, 2 ORDER BY 1, 2`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
}
