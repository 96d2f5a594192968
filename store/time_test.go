package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestTimesSurviveReopen stores times and timetz, with and without a
// precision, in a table and in views keyed and ordered by them, and reads
// the same values after the file is opened again.
func TestTimesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "times.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE s (id int PRIMARY KEY, a time, b time(2), z timetz, y timetz(0));
		INSERT INTO s VALUES (1, '10:00:00.123456', '10:00:00.129', '10:00-03:30', '23:59:59.6+15:59:59'),
			(2, '24:00', '00:00', '10:00+02', '00:00-15:59:59'), (3, NULL, '10:00', '08:00+00', NULL);
		CREATE MATERIALIZED VIEW v AS SELECT z, count(*) AS n, max(a) AS a FROM s GROUP BY z;
		CREATE MATERIALIZED VIEW w AS SELECT id, b FROM s ORDER BY b DESC LIMIT 2`)
	q := `SELECT id, a, b, z, y FROM s ORDER BY id`
	qv := `SELECT * FROM v ORDER BY z`
	qw := `SELECT * FROM w ORDER BY id`
	before, beforeV, beforeW := query(t, db, q), query(t, db, qv), query(t, db, qw)
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
	if after := query(t, db, qw); !slices.Equal(beforeW, after) {
		t.Errorf("top-k view before %q\nafter %q", beforeW, after)
	}
	execSQL(t, db, `DELETE FROM s WHERE z = '10:00+02'`)
	if got := query(t, db, qv); len(got) != 2 {
		t.Errorf("view after a delete by timetz: %q", got)
	}
	if got := query(t, db, `SELECT b FROM s WHERE b = '10:00:00.13'`); len(got) != 1 {
		t.Errorf("time(2) after reopen: %q", got)
	}
}
