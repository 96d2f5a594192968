package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestJSONSurvivesReopen stores json (its text as written) and jsonb in a
// table and a view grouped by jsonb, and reads the same values after the
// file is opened again.
func TestJSONSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "json.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE d (id int PRIMARY KEY, j jsonb, k json, js jsonb[]);
		INSERT INTO d VALUES (1, '{"b": 1.50, "a": [null, "x\n"]}', '{"b" :  1, "b": 2}', ARRAY['1'::jsonb, '{"a": {}}']),
			(2, '"s"', '[ ]', NULL), (3, '{"a": [null, "x\n"], "b": 1.5}', NULL, '{}');
		CREATE MATERIALIZED VIEW v AS SELECT j, count(*) AS n, jsonb_agg(id ORDER BY id) AS ids FROM d GROUP BY j`)
	q := `SELECT id, j, k, js FROM d ORDER BY id`
	qv := `SELECT * FROM v ORDER BY j`
	before, beforeV := query(t, db, q), query(t, db, qv)
	if len(beforeV) != 2 {
		t.Fatalf("equal jsonb values in one group: %q", beforeV)
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
	execSQL(t, db, `DELETE FROM d WHERE id = 1`)
	if got := query(t, db, qv); len(got) != 2 {
		t.Errorf("view after a delete: %q", got)
	}
}
