package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestNetworkTypesSurviveReopen stores inet (in the key), cidr, macaddr
// and macaddr8 values in a table and a view, and reads the same values
// after the file is opened again; the view stays maintained.
func TestNetworkTypesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "net.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE h (a inet PRIMARY KEY, n cidr, m macaddr, m8 macaddr8);
		INSERT INTO h VALUES ('192.168.1.5/24', '192.168.1.0/24', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05'),
			('2001:db8::1', '2001:db8::/32', NULL, '00:00:00:00:00:00:00:00'), ('10.0.0.1', '192.168.0.0/16', 'ff:ff:ff:ff:ff:ff', NULL);
		CREATE MATERIALIZED VIEW v AS SELECT n, count(*) AS c FROM h GROUP BY n`)
	q := `SELECT a, n, m, m8 FROM h ORDER BY a`
	qv := `SELECT * FROM v ORDER BY n`
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
	execSQL(t, db, `UPDATE h SET n = '192.168.1.0/24' WHERE a = '10.0.0.1'`)
	want := query(t, db, `SELECT n, count(*) FROM h GROUP BY n ORDER BY n`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
}
