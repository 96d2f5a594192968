package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestOidSurvivesReopen stores oids (one in the key, the largest among
// them) in a table and a view's min and max, and reads the same values
// after the file is opened again; the view stays maintained, and a
// relation's oid is the same after the reopen.
func TestOidSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "oid.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE o (k oid PRIMARY KEY, g int, v oid);
		INSERT INTO o VALUES (4294967295, 1, 7), (0, 1, NULL), ('12', 2, 4294967295);
		CREATE MATERIALIZED VIEW v AS SELECT g, min(v) AS lo, max(k) AS hi FROM o GROUP BY g`)
	q := `SELECT k, g, v, 'o'::regclass::oid FROM o ORDER BY k`
	qv := `SELECT * FROM v ORDER BY g`
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
	execSQL(t, db, `DELETE FROM o WHERE k = 4294967295`)
	want := query(t, db, `SELECT g, min(v), max(k) FROM o GROUP BY g ORDER BY g`)
	if got := query(t, db, qv); !slices.Equal(got, want) {
		t.Errorf("view after a delete: %q, want %q", got, want)
	}
}
