package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestBytesTypesSurviveReopen stores bytea, bit strings and uuid in a
// table (one as its key) and a view, and reads the same values after the
// file is opened again.
func TestBytesTypesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bytes.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE k (u uuid PRIMARY KEY, b bytea, f bit(3), v varbit(5));
		INSERT INTO k VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\x00ff5c', B'101', B''), ('00000000-0000-0000-0000-000000000001', '', B'000', NULL);
		CREATE MATERIALIZED VIEW v AS SELECT f, count(*) AS n, max(length(b)) AS l FROM k GROUP BY f`)
	q := `SELECT u, b, f, v, pg_typeof(f)::text FROM k ORDER BY u`
	qv := `SELECT * FROM v ORDER BY f`
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
	execSQL(t, db, `UPDATE k SET f = ~f WHERE u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'`)
	want := query(t, db, `SELECT f, count(*), max(length(b)) FROM k GROUP BY f ORDER BY f`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
	if err := db.Exec(`INSERT INTO k VALUES ('00000000-0000-0000-0000-000000000002', NULL, B'1', NULL)`); err == nil {
		t.Error("bit(3) took one bit after reopening")
	}
}
