package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRecordViewSurvivesReopen keeps a table's rows as records in a view,
// and reads the same records after the file is opened again (the view is
// rebuilt from the table), then maintains it.
func TestRecordViewSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE r (id int PRIMARY KEY, s text);
		INSERT INTO r VALUES (1, 'a b'), (2, NULL);
		CREATE MATERIALIZED VIEW v AS SELECT id, r AS row FROM r WHERE r IS NOT NULL`)
	q := `SELECT * FROM v ORDER BY id`
	before := query(t, db, q)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	if after := query(t, db, q); !slices.Equal(before, after) || len(after) != 1 {
		t.Errorf("view before %q\nafter %q", before, after)
	}
	execSQL(t, db, `UPDATE r SET s = 'c' WHERE id = 2`)
	if got := query(t, db, q); len(got) != 2 {
		t.Errorf("view after an update: %q", got)
	}
}
