package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestGeometricTypesSurviveReopen stores a value of each geometric type
// in a table and a view, and reads the same values after the file is
// opened again; the view stays maintained.
func TestGeometricTypesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "geo.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE g (id int PRIMARY KEY, p point, l lseg, pa path, b box, po polygon, li line, c circle);
		INSERT INTO g VALUES (1, '(1,2)', '[(0,0),(1,1)]', '[(0,0),(1,1),(2,0)]', '(2,2),(0,0)', '((0,0),(1,1),(2,0))', '{1,-1,0}', '<(1,1),2>'),
			(2, '(-1.5,1e-7)', NULL, '((0,0),(3,3))', '(1,1),(1,1)', NULL, NULL, '<(0,0),NaN>');
		CREATE MATERIALIZED VIEW v AS SELECT id, p, b, p <-> b AS d, c FROM g WHERE p <@ box '(10,10),(-10,-10)'`)
	q := `SELECT * FROM g ORDER BY id`
	qv := `SELECT * FROM v ORDER BY id`
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
	execSQL(t, db, `UPDATE g SET p = '(20,20)' WHERE id = 2`)
	want := query(t, db, `SELECT id, p, b, p <-> b AS d, c FROM g WHERE p <@ box '(10,10),(-10,-10)' ORDER BY id`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
}
