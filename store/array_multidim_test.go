package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestMultidimArraysSurviveReopen stores arrays of several dimensions and
// lower bounds other than 1 in a table and a view, and reads the same
// values, dimensions and bounds after the file is opened again.
func TestMultidimArraysSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mdarrays.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE a (id int PRIMARY KEY, xs int[][], ts text[]);
		INSERT INTO a VALUES (1, '{{1,NULL},{3,4}}', '[0:1]={"a b",NULL}'), (2, '[-1:0][2:2]={{5},{6}}', '{{{x}}}'), (3, '{}', NULL);
		CREATE MATERIALIZED VIEW v AS SELECT id, array_dims(xs) AS d, xs[1][2] AS x12, ARRAY[xs, xs] AS xx FROM a`)
	q := `SELECT id, xs, ts, array_dims(ts) FROM a ORDER BY id`
	qv := `SELECT * FROM v ORDER BY id`
	before, beforeV := query(t, db, q), query(t, db, qv)
	if want := `integer:1 | integer[]:{{1,NULL},{3,4}} | text[]:[0:1]={"a b",NULL} | text:[0:1]`; before[0] != want {
		t.Errorf("before reopening: %q, want %q", before[0], want)
	}
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
}
