package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestXMLSurvivesReopen stores xml values, one with an XML declaration,
// in a table and a view, and reads the same text after the file is
// opened again; the view stays maintained.
func TestXMLSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "xml.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE h (id int PRIMARY KEY, x xml);
		INSERT INTO h VALUES (1, '<?xml version="1.1"?><a/>'), (2, 'text &amp; <b>bold</b>'), (3, NULL);
		CREATE MATERIALIZED VIEW v AS SELECT id, xmlelement(name r, xmlattributes(id), x) AS e, x::text AS s FROM h`)
	q := `SELECT id, x, x::text FROM h ORDER BY id`
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
	execSQL(t, db, `UPDATE h SET x = '<c/>' WHERE id = 3`)
	want := query(t, db, `SELECT id, xmlelement(name r, xmlattributes(id), x), x::text FROM h ORDER BY id`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
}
